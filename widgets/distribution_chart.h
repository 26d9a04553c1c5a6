#pragma once

#include <QList>
#include <QPointF>
#include <QString>
#include <vector>

#include "widgets/chart_widget.h"

class QValueAxis;

namespace ayar {

// One named set of values (milliseconds of one latency figure of one run).
struct Distribution {
  QString name;
  std::vector<double> values;
  bool sorted = false;  // values already ascending: the chart skips sorting them
};

// A distribution of a latency figure. One distribution: its histogram (counts, left axis), its CDF
// (percent, right axis) and a vertical marker at each requested percentile, named "p99 = 12.3".
// Several distributions: their CDFs overlaid, for comparing runs.
class DistributionChart : public ChartWidget {
  Q_OBJECT

 public:
  // At most this many points per CDF line: above it the CDF is drawn at evenly spaced ranks.
  static constexpr int kMaxCdfPoints = 1000;

  explicit DistributionChart(QWidget* parent = nullptr);
  ~DistributionChart() override;

  void setDistributions(const QList<Distribution>& distributions,
                        const std::vector<double>& percentiles = {});
  // "TTFT (ms)", the count and the percent axis titles.
  void setAxisTitles(const QString& valueTitle, const QString& countTitle, const QString& cdfTitle);
  void clear();

  // What the chart draws, for checks.
  QList<int> histogramCounts() const;   // per bin, from the drawn bars
  QList<qreal> histogramEdges() const;  // bins + 1 edges
  int cdfCount() const;
  QList<QPointF> cdfPoints(int index) const;  // (value, percent)
  QList<QPointF> markers() const;             // (value, percentile) per marker
  QStringList seriesNames() const;

  // The bin count for n values: sqrt(n), between 5 and 60.
  static int binCount(std::size_t n);

 protected:
  void restyle() override;

 private:
  QList<Distribution> m_distributions;
  std::vector<double> m_percentiles;
  QValueAxis* m_xAxis = nullptr;
  QValueAxis* m_countAxis = nullptr;
  QValueAxis* m_cdfAxis = nullptr;
  QList<qreal> m_edges;
};

}  // namespace ayar
