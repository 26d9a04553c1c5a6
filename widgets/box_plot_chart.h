#pragma once

#include <QList>
#include <QString>
#include <array>

#include "widgets/chart_widget.h"
#include "widgets/distribution_chart.h"

class QBarCategoryAxis;
class QValueAxis;

namespace ayar {

// The five figures of a box: whisker ends, quartiles and median. Whiskers reach the furthest value
// within 1.5 interquartile ranges of the box (Tukey), so that one outlier does not squash the box.
struct BoxFigures {
  double low = 0, lowerQuartile = 0, median = 0, upperQuartile = 0, high = 0;
  static BoxFigures of(std::vector<double> values);
  bool operator==(const BoxFigures&) const = default;
};

// Box plots side by side, one per run, of one latency figure.
class BoxPlotChart : public ChartWidget {
  Q_OBJECT

 public:
  explicit BoxPlotChart(QWidget* parent = nullptr);
  ~BoxPlotChart() override;

  void setDistributions(const QList<Distribution>& distributions);
  void setValueTitle(const QString& title);

  // What the chart draws, for checks: each box's figures and its category label.
  QList<BoxFigures> boxes() const;
  QStringList categories() const;

 protected:
  void restyle() override;

 private:
  QList<Distribution> m_distributions;
  QBarCategoryAxis* m_categoryAxis = nullptr;
  QValueAxis* m_valueAxis = nullptr;
};

}  // namespace ayar
