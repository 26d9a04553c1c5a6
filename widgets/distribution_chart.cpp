#include "widgets/distribution_chart.h"

#include <QAreaSeries>
#include <QChart>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "core/metrics/run_summary.h"
#include "core/metrics/statistics.h"

namespace ayar {

namespace {

// Which part of the chart a line is, kept on the series itself.
constexpr char kRole[] = "ayarRole";
constexpr char kPercentile[] = "ayarPercentile";
constexpr char kValueMs[] = "ayarValueMs";
constexpr double kBelowPower = 0.9999;

bool hasRole(const QAbstractSeries* series, const char* role) {
  return series->property(kRole).toString() == QLatin1String(role);
}

// Where one distribution's histogram is drawn: from its lowest to its highest value, less far
// outliers (beyond Tukey's outer fences, three interquartile ranges from the box), so that a few
// stray values do not squeeze the rest into one bar at the edge. Only a few: at most the lowest and
// the highest percent of the values are left off, and every percentile marker stays inside.
std::pair<double, double> histogramSpan(const std::vector<double>& sorted, const std::vector<double>& marks) {
  const double q1 = percentileLinear(sorted, 25), q3 = percentileLinear(sorted, 75);
  const double reach = 3.0 * (q3 - q1);
  double lo = std::min(std::max(sorted.front(), q1 - reach), percentileLinear(sorted, 1));
  double hi = std::max(std::min(sorted.back(), q3 + reach), percentileLinear(sorted, 99));
  for (double p : marks) {
    const double v = percentileLinear(sorted, p);
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  if (hi - lo <= 1e-9 * std::max(1.0, std::abs(hi))) {
    // One value (or nearly): a span around it, so that its bar stands in the middle.
    const double half = lo == 0.0 ? 0.5 : std::abs(lo) * 0.05;
    lo -= half;
    hi += half;
  }
  return {lo, hi};
}

}  // namespace

DistributionChart::DistributionChart(QWidget* parent) : ChartWidget(parent) {
  m_xAxis = new QValueAxis(this);
  m_xLogAxis = new QLogValueAxis(this);
  m_countAxis = new QValueAxis(this);
  m_cdfAxis = new QValueAxis(this);
  m_xLogAxis->setBase(10.0);
  m_xLogAxis->setLabelFormat(QStringLiteral("%.6g"));  // localized labels need a precision
  m_xLogAxis->setMinorTickCount(8);
  m_xLogAxis->setVisible(false);
  setAxisRange(m_cdfAxis, 0, 100);
  chart()->addAxis(m_xAxis, Qt::AlignBottom);
  chart()->addAxis(m_xLogAxis, Qt::AlignBottom);
  chart()->addAxis(m_countAxis, Qt::AlignLeft);
  chart()->addAxis(m_cdfAxis, Qt::AlignRight);
  // One grid, the percent axis': it is the one read at p50, p90, p99.
  m_countAxis->setGridLineVisible(false);
  useRoundTicks(m_xAxis);
  useRoundTicks(m_countAxis, true);
  useRoundTicks(m_cdfAxis);
}

DistributionChart::~DistributionChart() = default;

void DistributionChart::setFigure(const QString& figure, const QString& countTitle, const QString& cdfTitle) {
  m_figure = figure;
  m_valueTitle.clear();
  m_countTitle = countTitle;
  m_cdfTitle = cdfTitle;
  rebuild();
}

void DistributionChart::setAxisTitles(const QString& valueTitle, const QString& countTitle,
                                      const QString& cdfTitle) {
  m_figure.clear();
  m_valueTitle = valueTitle;
  m_countTitle = countTitle;
  m_cdfTitle = cdfTitle;
  rebuild();
}

void DistributionChart::setLogScale(bool logarithmic) {
  if (m_log == logarithmic) return;
  m_log = logarithmic;
  rebuild();
}

int DistributionChart::binCount(std::size_t n) {
  return std::clamp(static_cast<int>(std::ceil(std::sqrt(static_cast<double>(n)))), 5, 60);
}

void DistributionChart::clear() {
  chart()->removeAllSeries();
  m_edges.clear();
  m_sorted.clear();
  m_names.clear();
  m_outside = 0;
  connectLegendMarkers();
}

void DistributionChart::setDistributions(const QList<Distribution>& distributions,
                                         const std::vector<double>& percentiles) {
  m_sorted.clear();
  m_names.clear();
  for (const auto& d : distributions) {
    m_sorted.push_back(d.values);
    if (!d.sorted) std::sort(m_sorted.back().begin(), m_sorted.back().end());
    m_names.append(d.name);
  }
  m_percentiles = percentiles;
  rebuild();
}

QString DistributionChart::histogramName() const {
  const QString name = m_countTitle.isEmpty() && !m_names.isEmpty() ? m_names.front() : m_countTitle;
  return m_outside > 0 ? tr("%1 (%n outside the axis)", nullptr, m_outside).arg(name) : name;
}

void DistributionChart::rebuild() {
  chart()->removeAllSeries();
  m_edges.clear();
  m_outside = 0;
  m_countAxis->setTitleText(m_countTitle);
  m_cdfAxis->setTitleText(m_cdfTitle);
  const bool single = m_sorted.size() == 1;
  double lo = 0, hi = 0;
  bool any = false;
  for (const auto& values : m_sorted) {
    if (values.empty()) continue;
    lo = any ? std::min(lo, values.front()) : values.front();
    hi = any ? std::max(hi, values.back()) : values.back();
    any = true;
  }
  if (single && any) std::tie(lo, hi) = histogramSpan(m_sorted.front(), m_percentiles);
  if (hi <= lo) hi = lo + 1.0;

  // The unit: seconds once the axis reaches a second, when the chart chooses it.
  m_unitMs = !m_figure.isEmpty() && any && hi >= 1000.0 ? 1000.0 : 1.0;
  QString valueTitle = m_valueTitle;
  if (!m_figure.isEmpty())
    valueTitle = m_unitMs > 1.0 ? tr("%1 (s)").arg(m_figure) : tr("%1 (ms)").arg(m_figure);
  m_xAxis->setTitleText(valueTitle);
  m_xLogAxis->setTitleText(valueTitle);

  // A logarithmic axis shows positive values only, from a power of ten to a power of ten.
  double positiveLo = 0;
  for (const auto& values : m_sorted) {
    const auto first = std::upper_bound(values.begin(), values.end(), 0.0);
    if (first != values.end()) positiveLo = positiveLo > 0 ? std::min(positiveLo, *first) : *first;
  }
  const bool logarithmic = m_log && !single && positiveLo > 0;
  m_xAxis->setVisible(!logarithmic);
  m_xLogAxis->setVisible(logarithmic);
  QAbstractAxis* xAxis = logarithmic ? static_cast<QAbstractAxis*>(m_xLogAxis) : m_xAxis;
  if (!any) {
    setRoundRange(m_xAxis, 0, 1);
    setRoundRange(m_countAxis, 0, 1);
    m_countAxis->setVisible(single);
    connectLegendMarkers();
    return;
  }
  const double unit = m_unitMs;
  if (logarithmic) {
    // Just below the lower power of ten: Qt Charts labels a power only inside the range.
    m_xLogAxis->setRange(std::pow(10.0, std::floor(std::log10(positiveLo / unit))) * kBelowPower,
                         std::pow(10.0, std::ceil(std::log10(hi / unit))));
  } else {
    // A margin on both sides, so that no bar or line runs along the frame.
    const double pad = (hi - lo) * 0.04;
    setRoundRange(m_xAxis, lo >= 0 ? std::max(0.0, lo - pad) / unit : (lo - pad) / unit, (hi + pad) / unit);
  }
  m_countAxis->setVisible(single);

  if (single) {
    // Histogram as a step outline filled below: one series on the value axis, unlike bar charts.
    const auto& values = m_sorted.front();
    const auto first = std::lower_bound(values.begin(), values.end(), lo);
    const auto last = std::upper_bound(values.begin(), values.end(), hi);
    m_outside = static_cast<int>(values.size() - static_cast<std::size_t>(last - first));
    const int bins = binCount(static_cast<std::size_t>(last - first));
    const double width = (hi - lo) / bins;
    std::vector<int> counts(static_cast<std::size_t>(bins), 0);
    for (auto it = first; it != last; ++it)
      ++counts[static_cast<std::size_t>(std::clamp(static_cast<int>((*it - lo) / width), 0, bins - 1))];
    auto* upper = new QLineSeries(this);
    QList<QPointF> outline;
    int maxCount = 1;
    for (int b = 0; b < bins; ++b) {
      const double a = lo + b * width, z = lo + (b + 1) * width;
      const int c = counts[static_cast<std::size_t>(b)];
      outline.append({a / unit, 0.0});
      outline.append({a / unit, static_cast<double>(c)});
      outline.append({z / unit, static_cast<double>(c)});
      outline.append({z / unit, 0.0});
      maxCount = std::max(maxCount, c);
      m_edges.append(a);
    }
    m_edges.append(hi);
    upper->replace(outline);
    auto* area = new QAreaSeries(upper);
    QColor fill = seriesColor(0);
    fill.setAlpha(110);
    area->setBrush(fill);
    area->setPen(QPen(seriesColor(0), 1.0));
    area->setProperty(kRole, QStringLiteral("histogram"));
    chart()->addSeries(area);
    area->attachAxis(xAxis);
    area->attachAxis(m_countAxis);
    setRoundRange(m_countAxis, 0, maxCount * 1.08);
    area->setName(histogramName());
  }

  for (std::size_t i = 0; i < m_sorted.size(); ++i) {
    const auto& values = m_sorted[i];
    auto* cdf = new QLineSeries(this);
    cdf->setName(single ? QStringLiteral("CDF") : m_names[static_cast<int>(i)]);
    QList<QPointF> points;
    const std::size_t n = values.size();
    auto add = [&](double value, std::size_t rank) {
      if (logarithmic && value <= 0) return;
      points.append(QPointF(value / unit, 100.0 * static_cast<double>(rank) / static_cast<double>(n)));
    };
    if (n <= static_cast<std::size_t>(kMaxCdfPoints)) {
      for (std::size_t k = 0; k < n; ++k)
        add(values[k], k + 1);
    } else {
      for (int k = 1; k <= kMaxCdfPoints; ++k) {
        const std::size_t rank = (n * static_cast<std::size_t>(k)) / kMaxCdfPoints;
        add(values[rank - 1], rank);
      }
    }
    cdf->replace(points);
    cdf->setProperty(kRole, QStringLiteral("cdf"));
    cdf->setPen(QPen(single ? seriesColor(1) : seriesColor(static_cast<int>(i)), 2.0));
    chart()->addSeries(cdf);
    cdf->attachAxis(xAxis);
    cdf->attachAxis(m_cdfAxis);
  }

  if (single && !m_sorted.front().empty()) {
    for (std::size_t k = 0; k < m_percentiles.size(); ++k) {
      const double p = m_percentiles[k];
      const double v = percentileLinear(m_sorted.front(), p);
      if (logarithmic && v <= 0) continue;
      auto* marker = new QLineSeries(this);
      marker->setName(
          QStringLiteral("p%1 %2").arg(QString::fromStdString(percentileWord(p)), formatDuration(v, unit)));
      marker->replace({{v / unit, 0.0}, {v / unit, 100.0}});
      marker->setProperty(kRole, QStringLiteral("marker"));
      marker->setProperty(kPercentile, p);
      marker->setProperty(kValueMs, v);
      marker->setPen(QPen(seriesColor(static_cast<int>(k) + 2), 1.4, Qt::DashLine));
      chart()->addSeries(marker);
      marker->attachAxis(xAxis);
      marker->attachAxis(m_cdfAxis);
    }
  }
  connectLegendMarkers();
}

void DistributionChart::restyle() {
  if (!m_sorted.empty()) rebuild();
}

void DistributionChart::relabel() {
  rebuild();
}

QList<int> DistributionChart::histogramCounts() const {
  QList<int> counts;
  for (auto* series : chart()->series()) {
    auto* area = qobject_cast<QAreaSeries*>(series);
    if (!area) continue;
    const auto points = area->upperSeries()->points();
    for (int i = 1; i + 2 < points.size(); i += 4)
      counts.append(static_cast<int>(points[i].y()));
  }
  return counts;
}

QList<qreal> DistributionChart::histogramEdges() const {
  return m_edges;
}

int DistributionChart::histogramOutside() const {
  return m_outside;
}

int DistributionChart::cdfCount() const {
  int n = 0;
  for (auto* series : chart()->series()) {
    if (hasRole(series, "cdf")) ++n;
  }
  return n;
}

QList<QPointF> DistributionChart::cdfPoints(int index) const {
  int n = 0;
  for (auto* series : chart()->series()) {
    if (!hasRole(series, "cdf")) continue;
    if (n++ != index) continue;
    QList<QPointF> points = static_cast<QLineSeries*>(series)->points();
    for (QPointF& p : points)
      p.setX(p.x() * m_unitMs);
    return points;
  }
  return {};
}

QList<QPointF> DistributionChart::markers() const {
  QList<QPointF> out;
  for (auto* series : chart()->series()) {
    if (!hasRole(series, "marker")) continue;
    out.append(QPointF(series->property(kValueMs).toDouble(), series->property(kPercentile).toDouble()));
  }
  return out;
}

QStringList DistributionChart::seriesNames() const {
  QStringList names;
  for (auto* series : chart()->series())
    names.append(series->name());
  return names;
}

QString DistributionChart::valueAxisTitle() const {
  return m_xAxis->titleText();
}

QString DistributionChart::countAxisTitle() const {
  return m_countAxis->titleText();
}

QList<qreal> DistributionChart::valueRange() const {
  if (m_xLogAxis->isVisible()) return {m_xLogAxis->min() * m_unitMs, m_xLogAxis->max() * m_unitMs};
  return {m_xAxis->min() * m_unitMs, m_xAxis->max() * m_unitMs};
}

}  // namespace ayar
