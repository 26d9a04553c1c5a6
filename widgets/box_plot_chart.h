#pragma once

#include <QList>
#include <QString>
#include <array>

#include "widgets/chart_widget.h"
#include "widgets/distribution_chart.h"

class QBarCategoryAxis;
class QLogValueAxis;
class QValueAxis;

namespace ayar {

// The five figures of a box: whisker ends, quartiles and median. Whiskers reach the furthest value
// within 1.5 interquartile ranges of the box (Tukey), so that one outlier does not squash the box.
struct BoxFigures {
  double low = 0, lowerQuartile = 0, median = 0, upperQuartile = 0, high = 0;
  static BoxFigures of(std::vector<double> values);
  bool operator==(const BoxFigures&) const = default;
};

// Box plots side by side, one per run, of one latency figure, in the colours the overlaid CDFs give
// the same runs. A run's name under its box wraps onto more lines rather than being cut. The value
// axis is linear from zero, or logarithmic for runs far apart; in milliseconds, or in seconds once
// the boxes reach a second.
class BoxPlotChart : public ChartWidget {
  Q_OBJECT

 public:
  explicit BoxPlotChart(QWidget* parent = nullptr);
  ~BoxPlotChart() override;

  void setDistributions(const QList<Distribution>& distributions);
  // The figure's name ("TTFT"): the value axis reads "TTFT (ms)" or "TTFT (s)", as the values need.
  void setFigure(const QString& figure);
  // A title as given, the values always in milliseconds ("TTFT (ms)").
  void setValueTitle(const QString& title);
  // A logarithmic value axis (powers of ten), for runs far apart.
  void setLogScale(bool logarithmic);
  bool logScale() const { return m_log; }

  // What the chart draws, for checks: each box's figures (milliseconds) and its run's name.
  QList<BoxFigures> boxes() const;
  QStringList categories() const;
  QString valueAxisTitle() const;
  QList<qreal> valueRange() const;  // milliseconds
  // Some run's name under its box is cut short (after the chart was laid out).
  bool categoryLabelsTruncated() const;

 protected:
  void restyle() override;
  void relabel() override;

 private:
  void rebuild();
  void wrapCategoryLabels();

  QList<Distribution> m_distributions;
  QStringList m_names;
  QString m_figure, m_valueTitle;
  bool m_log = false;
  double m_unitMs = 1.0;
  QBarCategoryAxis* m_categoryAxis = nullptr;
  QValueAxis* m_valueAxis = nullptr;
  QLogValueAxis* m_logAxis = nullptr;
};

}  // namespace ayar
