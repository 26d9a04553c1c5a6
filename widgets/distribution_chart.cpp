#include "widgets/distribution_chart.h"

#include <QAreaSeries>
#include <QChart>
#include <QLineSeries>
#include <QLocale>
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

bool hasRole(const QAbstractSeries* series, const char* role) {
  return series->property(kRole).toString() == QLatin1String(role);
}

}  // namespace

DistributionChart::DistributionChart(QWidget* parent) : ChartWidget(parent) {
  m_xAxis = new QValueAxis(this);
  m_countAxis = new QValueAxis(this);
  m_cdfAxis = new QValueAxis(this);
  m_xAxis->setLabelFormat(QStringLiteral("%g"));
  m_countAxis->setLabelFormat(QStringLiteral("%d"));
  m_cdfAxis->setLabelFormat(QStringLiteral("%d"));
  m_cdfAxis->setRange(0, 100);
  chart()->addAxis(m_xAxis, Qt::AlignBottom);
  chart()->addAxis(m_countAxis, Qt::AlignLeft);
  chart()->addAxis(m_cdfAxis, Qt::AlignRight);
}

DistributionChart::~DistributionChart() = default;

void DistributionChart::setAxisTitles(const QString& valueTitle, const QString& countTitle,
                                      const QString& cdfTitle) {
  m_xAxis->setTitleText(valueTitle);
  m_countAxis->setTitleText(countTitle);
  m_cdfAxis->setTitleText(cdfTitle);
}

int DistributionChart::binCount(std::size_t n) {
  return std::clamp(static_cast<int>(std::ceil(std::sqrt(static_cast<double>(n)))), 5, 60);
}

void DistributionChart::clear() {
  chart()->removeAllSeries();
  m_edges.clear();
  m_distributions.clear();
}

void DistributionChart::setDistributions(const QList<Distribution>& distributions,
                                         const std::vector<double>& percentiles) {
  clear();
  m_distributions = distributions;
  m_percentiles = percentiles;
  double lo = 0, hi = 0;
  bool any = false;
  std::vector<std::vector<double>> sorted;
  for (const auto& d : distributions) {
    sorted.push_back(d.values);
    if (!d.sorted) std::sort(sorted.back().begin(), sorted.back().end());
    if (sorted.back().empty()) continue;
    lo = any ? std::min(lo, sorted.back().front()) : sorted.back().front();
    hi = any ? std::max(hi, sorted.back().back()) : sorted.back().back();
    any = true;
  }
  if (!any) {
    m_xAxis->setRange(0, 1);
    m_countAxis->setRange(0, 1);
    return;
  }
  if (hi <= lo) hi = lo + 1.0;
  const double pad = (hi - lo) * 0.02;
  m_xAxis->setRange(std::max(0.0, lo - pad), hi + pad);
  m_xAxis->applyNiceNumbers();
  const bool single = distributions.size() == 1;
  m_countAxis->setVisible(single);

  if (single) {
    // Histogram as a step outline filled below: one series on the value axis, unlike bar charts.
    const auto& values = sorted.front();
    const int bins = binCount(values.size());
    const double width = (hi - lo) / bins;
    std::vector<int> counts(static_cast<std::size_t>(bins), 0);
    for (double v : values)
      ++counts[static_cast<std::size_t>(std::clamp(static_cast<int>((v - lo) / width), 0, bins - 1))];
    auto* upper = new QLineSeries(this);
    int maxCount = 1;
    for (int b = 0; b < bins; ++b) {
      const double a = lo + b * width, z = lo + (b + 1) * width;
      const int c = counts[static_cast<std::size_t>(b)];
      upper->append(a, 0);
      upper->append(a, c);
      upper->append(z, c);
      upper->append(z, 0);
      maxCount = std::max(maxCount, c);
      m_edges.append(a);
    }
    m_edges.append(hi);
    auto* area = new QAreaSeries(upper);
    QColor fill = seriesColor(0);
    fill.setAlpha(110);
    area->setBrush(fill);
    area->setPen(QPen(seriesColor(0), 1.0));
    chart()->addSeries(area);
    area->attachAxis(m_xAxis);
    area->attachAxis(m_countAxis);
    m_countAxis->setRange(0, std::ceil(maxCount * 1.1));
    m_countAxis->applyNiceNumbers();
    area->setName(m_countAxis->titleText().isEmpty() ? distributions.front().name : m_countAxis->titleText());
  }

  for (int i = 0; i < distributions.size(); ++i) {
    const auto& values = sorted[static_cast<std::size_t>(i)];
    auto* cdf = new QLineSeries(this);
    cdf->setName(single ? QStringLiteral("CDF") : distributions[i].name);
    QList<QPointF> points;
    const std::size_t n = values.size();
    if (n <= static_cast<std::size_t>(kMaxCdfPoints)) {
      for (std::size_t k = 0; k < n; ++k)
        points.append(QPointF(values[k], 100.0 * static_cast<double>(k + 1) / static_cast<double>(n)));
    } else {
      for (int k = 1; k <= kMaxCdfPoints; ++k) {
        const std::size_t rank = (n * static_cast<std::size_t>(k)) / kMaxCdfPoints;
        points.append(QPointF(values[rank - 1], 100.0 * static_cast<double>(rank) / static_cast<double>(n)));
      }
    }
    cdf->replace(points);
    cdf->setProperty(kRole, QStringLiteral("cdf"));
    cdf->setPen(QPen(single ? seriesColor(1) : seriesColor(i), 2.0));
    chart()->addSeries(cdf);
    cdf->attachAxis(m_xAxis);
    cdf->attachAxis(m_cdfAxis);
  }

  if (single && !sorted.front().empty()) {
    for (std::size_t k = 0; k < percentiles.size(); ++k) {
      const double p = percentiles[k];
      const double v = percentileLinear(sorted.front(), p);
      auto* marker = new QLineSeries(this);
      marker->setName(QStringLiteral("p%1 %2").arg(QString::fromStdString(percentileWord(p)),
                                                   QLocale().toString(v, 'g', 3)));
      marker->append(v, 0);
      marker->append(v, 100);
      marker->setProperty(kRole, QStringLiteral("marker"));
      marker->setProperty(kPercentile, p);
      QPen pen(seriesColor(static_cast<int>(k) + 2), 1.4, Qt::DashLine);
      marker->setPen(pen);
      chart()->addSeries(marker);
      marker->attachAxis(m_xAxis);
      marker->attachAxis(m_cdfAxis);
    }
  }
  connectLegendMarkers();
}

void DistributionChart::restyle() {
  if (!m_distributions.isEmpty())
    setDistributions(QList<Distribution>(m_distributions), std::vector<double>(m_percentiles));
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
    if (n++ == index) return static_cast<QLineSeries*>(series)->points();
  }
  return {};
}

QList<QPointF> DistributionChart::markers() const {
  QList<QPointF> out;
  for (auto* series : chart()->series()) {
    if (!hasRole(series, "marker")) continue;
    const auto points = static_cast<QLineSeries*>(series)->points();
    out.append(QPointF(points.front().x(), series->property(kPercentile).toDouble()));
  }
  return out;
}

QStringList DistributionChart::seriesNames() const {
  QStringList names;
  for (auto* series : chart()->series())
    names.append(series->name());
  return names;
}

}  // namespace ayar
