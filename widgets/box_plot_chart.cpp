#include "widgets/box_plot_chart.h"

#include <QBarCategoryAxis>
#include <QBoxPlotSeries>
#include <QBoxSet>
#include <QChart>
#include <QValueAxis>
#include <algorithm>

#include "core/metrics/statistics.h"

namespace ayar {

BoxFigures BoxFigures::of(std::vector<double> values) {
  if (values.empty()) return {};
  std::sort(values.begin(), values.end());
  BoxFigures box;
  box.lowerQuartile = percentileLinear(values, 25);
  box.median = percentileLinear(values, 50);
  box.upperQuartile = percentileLinear(values, 75);
  const double reach = 1.5 * (box.upperQuartile - box.lowerQuartile);
  box.low = *std::lower_bound(values.begin(), values.end(), box.lowerQuartile - reach);
  box.high = *(std::upper_bound(values.begin(), values.end(), box.upperQuartile + reach) - 1);
  return box;
}

BoxPlotChart::BoxPlotChart(QWidget* parent) : ChartWidget(parent) {
  m_categoryAxis = new QBarCategoryAxis(this);
  m_valueAxis = new QValueAxis(this);
  m_valueAxis->setLabelFormat(QStringLiteral("%g"));
  chart()->addAxis(m_categoryAxis, Qt::AlignBottom);
  chart()->addAxis(m_valueAxis, Qt::AlignLeft);
  chart()->legend()->setVisible(false);
}

BoxPlotChart::~BoxPlotChart() = default;

void BoxPlotChart::setValueTitle(const QString& title) {
  m_valueAxis->setTitleText(title);
}

void BoxPlotChart::restyle() {
  if (!m_distributions.isEmpty()) setDistributions(QList<Distribution>(m_distributions));
}

void BoxPlotChart::setDistributions(const QList<Distribution>& distributions) {
  m_distributions = distributions;
  chart()->removeAllSeries();
  m_categoryAxis->clear();
  auto* series = new QBoxPlotSeries(this);
  double top = 0;
  QStringList names;
  for (int i = 0; i < distributions.size(); ++i) {
    const BoxFigures f = BoxFigures::of(distributions[i].values);
    // Two runs may share a label; the category axis needs distinct names.
    QString name = distributions[i].name;
    while (names.contains(name))
      name += QLatin1Char(' ');
    names.append(name);
    auto* set = new QBoxSet(f.low, f.lowerQuartile, f.median, f.upperQuartile, f.high, name);
    QColor fill = seriesColor(i);
    fill.setAlpha(150);
    set->setBrush(fill);
    set->setPen(QPen(isDark() ? QColor(230, 230, 230) : QColor(40, 40, 40), 1.2));
    series->append(set);
    top = std::max(top, f.high);
  }
  chart()->addSeries(series);
  m_categoryAxis->append(names);
  series->attachAxis(m_categoryAxis);
  series->attachAxis(m_valueAxis);
  m_valueAxis->setRange(0, top > 0 ? top * 1.08 : 1.0);
  m_valueAxis->applyNiceNumbers();
}

QList<BoxFigures> BoxPlotChart::boxes() const {
  QList<BoxFigures> out;
  for (auto* s : chart()->series()) {
    auto* series = qobject_cast<QBoxPlotSeries*>(s);
    if (!series) continue;
    for (QBoxSet* set : series->boxSets()) {
      out.append({set->at(QBoxSet::LowerExtreme), set->at(QBoxSet::LowerQuartile), set->at(QBoxSet::Median),
                  set->at(QBoxSet::UpperQuartile), set->at(QBoxSet::UpperExtreme)});
    }
  }
  return out;
}

QStringList BoxPlotChart::categories() const {
  return m_categoryAxis->categories();
}

}  // namespace ayar
