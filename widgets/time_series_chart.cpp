#include "widgets/time_series_chart.h"

#include <QChart>
#include <QLineSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <limits>

namespace ayar {

namespace {

// The next "nice" axis end above `value`: 1, 2, 2.5 or 5 times a power of ten.
qreal niceCeiling(qreal value) {
  if (!(value > 0)) return 1.0;
  const qreal magnitude = std::pow(10.0, std::floor(std::log10(value)));
  for (qreal step : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    if (value <= step * magnitude) return step * magnitude;
  }
  return 10.0 * magnitude;
}

}  // namespace

TimeSeriesChart::TimeSeriesChart(QWidget* parent) : ChartWidget(parent) {
  m_xAxis = new QValueAxis(this);
  m_yAxis = new QValueAxis(this);
  m_xAxis->setLabelFormat(QStringLiteral("%g"));
  m_yAxis->setLabelFormat(QStringLiteral("%g"));
  m_xAxis->setRange(0, 1);
  m_yAxis->setRange(0, 1);
  chart()->addAxis(m_xAxis, Qt::AlignBottom);
  chart()->addAxis(m_yAxis, Qt::AlignLeft);
}

TimeSeriesChart::~TimeSeriesChart() = default;

int TimeSeriesChart::addSeries(const QString& name) {
  auto* series = new QLineSeries(this);
  series->setName(name);
  chart()->addSeries(series);
  series->attachAxis(m_xAxis);
  series->attachAxis(m_yAxis);
  m_series.push_back(series);
  m_shown.emplace_back();
  QPen pen = series->pen();
  pen.setColor(seriesColor(static_cast<int>(m_series.size()) - 1));
  pen.setWidthF(1.6);
  series->setPen(pen);
  connectLegendMarkers();
  return static_cast<int>(m_series.size()) - 1;
}

void TimeSeriesChart::setSeriesName(int series, const QString& name) {
  m_series.at(static_cast<std::size_t>(series))->setName(name);
}

int TimeSeriesChart::seriesCount() const {
  return static_cast<int>(m_series.size());
}

void TimeSeriesChart::setAxisTitles(const QString& xTitle, const QString& yTitle) {
  m_xAxis->setTitleText(xTitle);
  m_yAxis->setTitleText(yTitle);
}

QList<QPointF> TimeSeriesChart::decimate(const QList<QPointF>& points, int maxPoints) {
  if (points.size() <= maxPoints || maxPoints < 2) {
    QList<QPointF> sorted = points;
    std::sort(sorted.begin(), sorted.end(), [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
    return sorted;
  }
  qreal lo = std::numeric_limits<qreal>::max(), hi = std::numeric_limits<qreal>::lowest();
  for (const QPointF& p : points) {
    lo = std::min(lo, p.x());
    hi = std::max(hi, p.x());
  }
  const int slices = maxPoints / 2;
  const qreal width = hi > lo ? (hi - lo) / slices : 1.0;
  struct Slice {
    int low = -1;
    int high = -1;
  };
  std::vector<Slice> bySlice(static_cast<std::size_t>(slices));
  for (int i = 0; i < points.size(); ++i) {
    const int s = std::clamp(static_cast<int>((points[i].x() - lo) / width), 0, slices - 1);
    Slice& slice = bySlice[static_cast<std::size_t>(s)];
    if (slice.low < 0 || points[i].y() < points[slice.low].y()) slice.low = i;
    if (slice.high < 0 || points[i].y() > points[slice.high].y()) slice.high = i;
  }
  QList<QPointF> out;
  out.reserve(maxPoints);
  for (const Slice& slice : bySlice) {
    if (slice.low < 0) continue;
    const QPointF& a = points[slice.low];
    const QPointF& b = points[slice.high];
    if (slice.low == slice.high) {
      out.append(a);
    } else if (a.x() <= b.x()) {
      out.append(a);
      out.append(b);
    } else {
      out.append(b);
      out.append(a);
    }
  }
  return out;
}

void TimeSeriesChart::setPoints(int series, const QList<QPointF>& points) {
  const auto index = static_cast<std::size_t>(series);
  m_shown.at(index) = decimate(points, kMaxShownPoints);
  m_series.at(index)->replace(m_shown[index]);
  updateRanges();
}

void TimeSeriesChart::clearPoints() {
  for (std::size_t i = 0; i < m_series.size(); ++i) {
    m_shown[i].clear();
    m_series[i]->clear();
  }
  updateRanges();
}

void TimeSeriesChart::updateRanges() {
  qreal xMax = 0, yMax = 0, yMin = 0;
  for (const auto& points : m_shown) {
    for (const QPointF& p : points) {
      xMax = std::max(xMax, p.x());
      yMax = std::max(yMax, p.y());
      yMin = std::min(yMin, p.y());
    }
  }
  xMax = niceCeiling(xMax);
  yMax = niceCeiling(yMax * 1.05);
  yMin = yMin < 0 ? -niceCeiling(-yMin * 1.05) : 0;
  if (xMax != m_xMax) {
    m_xMax = xMax;
    m_xAxis->setRange(0, xMax);
  }
  if (yMax != m_yMax || yMin != m_yMin) {
    m_yMax = yMax;
    m_yMin = yMin;
    m_yAxis->setRange(yMin, yMax);
  }
}

QList<QPointF> TimeSeriesChart::shownPoints(int series) const {
  return m_series.at(static_cast<std::size_t>(series))->points();
}

QList<qreal> TimeSeriesChart::axisRanges() const {
  return {m_xAxis->min(), m_xAxis->max(), m_yAxis->min(), m_yAxis->max()};
}

}  // namespace ayar
