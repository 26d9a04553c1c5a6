#pragma once

#include <QList>
#include <QPointF>
#include <QString>
#include <vector>

#include "widgets/chart_widget.h"

class QLogValueAxis;
class QValueAxis;

namespace ayar {

// One named set of values (milliseconds of one latency figure of one run).
struct Distribution {
  QString name;
  std::vector<double> values;
  bool sorted = false;  // values already ascending: the chart skips sorting them
};

// A distribution of a latency figure. One distribution: its histogram (counts, left axis), its CDF
// (percent, right axis) and a vertical marker at each requested percentile, named "p99 12,3 ms". The
// histogram's axis spans where the values are: far outliers (beyond three interquartile ranges of
// the box, and beyond every marker) are left off it and counted in the histogram's legend entry.
// Several distributions: their CDFs overlaid, for comparing runs, on a linear or logarithmic axis.
// The value axis is in milliseconds, or in seconds once the values reach a second.
class DistributionChart : public ChartWidget {
  Q_OBJECT

 public:
  // At most this many points per CDF line: above it the CDF is drawn at evenly spaced ranks.
  static constexpr int kMaxCdfPoints = 1000;

  explicit DistributionChart(QWidget* parent = nullptr);
  ~DistributionChart() override;

  void setDistributions(const QList<Distribution>& distributions,
                        const std::vector<double>& percentiles = {});
  // The figure's name ("TTFT"), what the histogram counts ("requests") and the CDF axis' title: the
  // value axis reads "TTFT (ms)" or "TTFT (s)", as the values need.
  void setFigure(const QString& figure, const QString& countTitle, const QString& cdfTitle);
  // Titles as given, the values always in milliseconds ("TTFT (ms)").
  void setAxisTitles(const QString& valueTitle, const QString& countTitle, const QString& cdfTitle);
  // A logarithmic value axis (powers of ten) for several distributions far apart; values at or
  // below zero are left off it.
  void setLogScale(bool logarithmic);
  bool logScale() const { return m_log; }
  void clear();

  // What the chart draws, for checks; values in milliseconds whatever unit the axis shows.
  QList<int> histogramCounts() const;   // per bin, from the drawn bars
  QList<qreal> histogramEdges() const;  // bins + 1 edges
  int histogramOutside() const;         // values left off the histogram's axis
  int cdfCount() const;
  QList<QPointF> cdfPoints(int index) const;  // (value, percent)
  QList<QPointF> markers() const;             // (value, percentile) per marker
  QStringList seriesNames() const;
  QString valueAxisTitle() const;
  QString countAxisTitle() const;
  QList<qreal> valueRange() const;  // the value axis' min and max
  double valueUnitMs() const { return m_unitMs; }

  // The bin count for n values: sqrt(n), between 5 and 60.
  static int binCount(std::size_t n);

 protected:
  void restyle() override;
  void relabel() override;

 private:
  void rebuild();
  QString histogramName() const;

  std::vector<std::vector<double>> m_sorted;
  QStringList m_names;
  std::vector<double> m_percentiles;
  QString m_figure, m_valueTitle, m_countTitle, m_cdfTitle;
  bool m_log = false;
  double m_unitMs = 1.0;
  int m_outside = 0;
  QValueAxis* m_xAxis = nullptr;
  QLogValueAxis* m_xLogAxis = nullptr;
  QValueAxis* m_countAxis = nullptr;
  QValueAxis* m_cdfAxis = nullptr;
  QList<qreal> m_edges;
};

}  // namespace ayar
