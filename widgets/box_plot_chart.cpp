#include "widgets/box_plot_chart.h"

#include <QBarCategoryAxis>
#include <QBoxPlotSeries>
#include <QBoxSet>
#include <QChart>
#include <QLogValueAxis>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

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
  m_logAxis = new QLogValueAxis(this);
  m_logAxis->setBase(10.0);
  m_logAxis->setLabelFormat(QStringLiteral("%.6g"));  // localized labels need a precision
  m_logAxis->setMinorTickCount(8);
  m_logAxis->setVisible(false);
  chart()->addAxis(m_categoryAxis, Qt::AlignBottom);
  chart()->addAxis(m_valueAxis, Qt::AlignLeft);
  chart()->addAxis(m_logAxis, Qt::AlignLeft);
  useRoundTicks(m_valueAxis);
  setLegendVisible(false);  // each box is named under it
  connect(chart(), &QChart::plotAreaChanged, this, &BoxPlotChart::wrapCategoryLabels);
}

BoxPlotChart::~BoxPlotChart() = default;

void BoxPlotChart::setFigure(const QString& figure) {
  m_figure = figure;
  m_valueTitle.clear();
  rebuild();
}

void BoxPlotChart::setValueTitle(const QString& title) {
  m_figure.clear();
  m_valueTitle = title;
  rebuild();
}

void BoxPlotChart::setLogScale(bool logarithmic) {
  if (m_log == logarithmic) return;
  m_log = logarithmic;
  rebuild();
}

void BoxPlotChart::restyle() {
  if (!m_distributions.isEmpty()) rebuild();
}

void BoxPlotChart::relabel() {
  rebuild();
}

void BoxPlotChart::setDistributions(const QList<Distribution>& distributions) {
  m_distributions = distributions;
  rebuild();
}

void BoxPlotChart::rebuild() {
  chart()->removeAllSeries();
  m_categoryAxis->clear();
  m_names.clear();
  std::vector<BoxFigures> figures;
  double top = 0, lowestPositive = 0;
  for (const Distribution& d : std::as_const(m_distributions)) {
    figures.push_back(BoxFigures::of(d.values));
    top = std::max(top, figures.back().high);
    for (double v : {figures.back().low, figures.back().lowerQuartile}) {
      if (v > 0) lowestPositive = lowestPositive > 0 ? std::min(lowestPositive, v) : v;
    }
    m_names.append(d.name);
  }
  m_unitMs = !m_figure.isEmpty() && top >= 1000.0 ? 1000.0 : 1.0;
  const double unit = m_unitMs;
  const QString title = m_figure.isEmpty() ? m_valueTitle
                        : unit > 1.0       ? DistributionChart::tr("%1 (s)").arg(m_figure)
                                           : DistributionChart::tr("%1 (ms)").arg(m_figure);
  m_valueAxis->setTitleText(title);
  m_logAxis->setTitleText(title);
  const bool logarithmic = m_log && lowestPositive > 0;
  m_valueAxis->setVisible(!logarithmic);
  m_logAxis->setVisible(logarithmic);
  QAbstractAxis* valueAxis = logarithmic ? static_cast<QAbstractAxis*>(m_logAxis) : m_valueAxis;
  // Just below a power of ten: Qt Charts labels a power only inside the range.
  const double axisFloor =
      logarithmic ? std::pow(10.0, std::floor(std::log10(lowestPositive / unit))) * 0.9999 : 0.0;

  auto* series = new QBoxPlotSeries(this);
  QStringList categories;
  for (std::size_t i = 0; i < figures.size(); ++i) {
    const BoxFigures& f = figures[i];
    // On a logarithmic axis a figure at or below zero sits on the axis' floor.
    auto shown = [&](double v) { return std::max(v / unit, axisFloor); };
    // Two runs may share a label; the category axis needs distinct names.
    QString category = m_names[static_cast<qsizetype>(i)].toHtmlEscaped();
    while (categories.contains(category))
      category += QLatin1Char(' ');
    categories.append(category);
    auto* set = new QBoxSet(shown(f.low), shown(f.lowerQuartile), shown(f.median), shown(f.upperQuartile),
                            shown(f.high), category);
    QColor fill = seriesColor(static_cast<int>(i));
    fill.setAlpha(150);
    set->setBrush(fill);
    set->setPen(QPen(isDark() ? QColor(230, 230, 230) : QColor(40, 40, 40), 1.2));
    series->append(set);
  }
  chart()->addSeries(series);
  m_categoryAxis->append(categories);
  series->attachAxis(m_categoryAxis);
  series->attachAxis(valueAxis);
  if (logarithmic) {
    m_logAxis->setRange(axisFloor, std::pow(10.0, std::ceil(std::log10(top / unit))));
  } else {
    setRoundRange(m_valueAxis, 0, top > 0 ? top * 1.08 / unit : 1.0);
  }
  connectLegendMarkers();
  wrapCategoryLabels();
}

void BoxPlotChart::wrapCategoryLabels() {
  const QStringList current = m_categoryAxis->categories();
  if (current.isEmpty() || current.size() != m_names.size()) return;
  const QRectF plot = chart()->plotArea();
  const double plotWidth = plot.width() > 10 ? plot.width() : std::max(100, width() - 100);
  // Qt Charts gives a category's label the axis' width over two more than the categories, less its
  // padding on both sides.
  const int room = static_cast<int>(plotWidth / static_cast<double>(current.size() + 2)) - 12;
  const QFontMetrics metrics(m_categoryAxis->labelsFont());
  QStringList wrapped;
  for (const QString& name : std::as_const(m_names)) {
    // Words onto lines no wider than a box's room; a word longer than that stays whole.
    QStringList lines;
    for (const QString& word : name.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
      if (!lines.isEmpty() && metrics.horizontalAdvance(lines.back() + QLatin1Char(' ') + word) <= room)
        lines.back() += QLatin1Char(' ') + word;
      else
        lines.append(word);
    }
    for (QString& line : lines)
      line = line.toHtmlEscaped();
    QString label = lines.join(QStringLiteral("<br>"));
    while (wrapped.contains(label))
      label += QLatin1Char(' ');
    wrapped.append(label);
  }
  if (wrapped != current) m_categoryAxis->setCategories(wrapped);
}

QList<BoxFigures> BoxPlotChart::boxes() const {
  QList<BoxFigures> out;
  for (auto* s : chart()->series()) {
    auto* series = qobject_cast<QBoxPlotSeries*>(s);
    if (!series) continue;
    for (QBoxSet* set : series->boxSets()) {
      out.append({set->at(QBoxSet::LowerExtreme) * m_unitMs, set->at(QBoxSet::LowerQuartile) * m_unitMs,
                  set->at(QBoxSet::Median) * m_unitMs, set->at(QBoxSet::UpperQuartile) * m_unitMs,
                  set->at(QBoxSet::UpperExtreme) * m_unitMs});
    }
  }
  return out;
}

QStringList BoxPlotChart::categories() const {
  return m_names;
}

QString BoxPlotChart::valueAxisTitle() const {
  return m_valueAxis->titleText();
}

QList<qreal> BoxPlotChart::valueRange() const {
  if (m_logAxis->isVisible()) return {m_logAxis->min() * m_unitMs, m_logAxis->max() * m_unitMs};
  return {m_valueAxis->min() * m_unitMs, m_valueAxis->max() * m_unitMs};
}

bool BoxPlotChart::categoryLabelsTruncated() const {
  return m_categoryAxis->labelsTruncated();
}

}  // namespace ayar
