#include "widgets/time_series_chart.h"

#include <QChart>
#include <QLineSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <limits>

namespace ayar {

TimeSeriesChart::TimeSeriesChart(QWidget* parent) : ChartWidget(parent) {
  m_xAxis = new QValueAxis(this);
  setAxisRange(m_xAxis, 0, 1);
  chart()->addAxis(m_xAxis, Qt::AlignBottom);
  useRoundTicks(m_xAxis);
  addValueAxis(Qt::AlignLeft);
}

TimeSeriesChart::~TimeSeriesChart() = default;

int TimeSeriesChart::addValueAxis(Qt::Alignment side) {
  auto* axis = new QValueAxis(this);
  axis->setRange(0, 1);
  // One grid, the first axis': a second set of lines at other heights only clutters the plot.
  axis->setGridLineVisible(m_yAxes.empty());
  chart()->addAxis(axis, side);
  useRoundTicks(axis);
  m_yAxes.push_back({axis, false});
  return static_cast<int>(m_yAxes.size()) - 1;
}

int TimeSeriesChart::addSeries(const QString& name, int axis) {
  auto* series = new QLineSeries(this);
  series->setName(name);
  chart()->addSeries(series);
  series->attachAxis(m_xAxis);
  series->attachAxis(m_yAxes.at(static_cast<std::size_t>(axis)).axis);
  m_series.push_back(series);
  m_seriesAxis.push_back(axis);
  m_shown.emplace_back();
  QPen pen = series->pen();
  pen.setColor(seriesColor(static_cast<int>(m_series.size()) - 1));
  pen.setWidthF(1.6);
  series->setPen(pen);
  connectLegendMarkers();
  restyle();
  return static_cast<int>(m_series.size()) - 1;
}

void TimeSeriesChart::setSeriesName(int series, const QString& name) {
  m_series.at(static_cast<std::size_t>(series))->setName(name);
}

int TimeSeriesChart::seriesCount() const {
  return static_cast<int>(m_series.size());
}

int TimeSeriesChart::seriesAxis(int series) const {
  return m_seriesAxis.at(static_cast<std::size_t>(series));
}

void TimeSeriesChart::setAxisTitles(const QString& xTitle, const QString& yTitle) {
  m_xAxis->setTitleText(xTitle);
  setValueAxisTitle(0, yTitle);
}

void TimeSeriesChart::setValueAxisTitle(int axis, const QString& title) {
  m_yAxes.at(static_cast<std::size_t>(axis)).axis->setTitleText(title);
}

QString TimeSeriesChart::valueAxisTitle(int axis) const {
  return m_yAxes.at(static_cast<std::size_t>(axis)).axis->titleText();
}

Qt::Alignment TimeSeriesChart::valueAxisSide(int axis) const {
  return m_yAxes.at(static_cast<std::size_t>(axis)).axis->alignment();
}

void TimeSeriesChart::setFixedValueRange(int axis, double min, double max) {
  ValueAxis& y = m_yAxes.at(static_cast<std::size_t>(axis));
  y.fixed = true;
  setAxisRange(y.axis, min, max);
}

void TimeSeriesChart::restyle() {
  // With more than one value axis, an axis that measures one line takes that line's colour, so that
  // a reader sees which axis a line is read on; an axis of several lines keeps the theme's colours.
  if (m_yAxes.size() < 2) return;
  for (std::size_t a = 0; a < m_yAxes.size(); ++a) {
    int only = -1, count = 0;
    for (std::size_t s = 0; s < m_series.size(); ++s) {
      if (m_seriesAxis[s] != static_cast<int>(a)) continue;
      only = static_cast<int>(s);
      ++count;
    }
    QValueAxis* axis = m_yAxes[a].axis;
    if (count == 1) {
      const QColor colour = seriesColor(only);
      axis->setLabelsColor(colour);
      axis->setTitleBrush(colour);
      axis->setLinePenColor(colour);
    } else {
      axis->setLabelsBrush(m_xAxis->labelsBrush());
      axis->setTitleBrush(m_xAxis->titleBrush());
      axis->setLinePen(m_xAxis->linePen());
    }
  }
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
  qreal xMax = 0;
  std::vector<qreal> yMax(m_yAxes.size(), 0.0), yMin(m_yAxes.size(), 0.0);
  for (std::size_t s = 0; s < m_shown.size(); ++s) {
    const auto a = static_cast<std::size_t>(m_seriesAxis[s]);
    for (const QPointF& p : m_shown[s]) {
      xMax = std::max(xMax, p.x());
      yMax[a] = std::max(yMax[a], p.y());
      yMin[a] = std::min(yMin[a], p.y());
    }
  }
  setRoundRange(m_xAxis, 0, xMax > 0 ? xMax : 1.0);
  for (std::size_t a = 0; a < m_yAxes.size(); ++a) {
    if (m_yAxes[a].fixed) continue;
    // A little headroom above the highest point, so that it does not run along the frame.
    const qreal top = yMax[a] > 0 ? yMax[a] * 1.05 : 1.0;
    setRoundRange(m_yAxes[a].axis, yMin[a] < 0 ? yMin[a] * 1.05 : 0.0, top);
  }
}

QList<QPointF> TimeSeriesChart::shownPoints(int series) const {
  return m_series.at(static_cast<std::size_t>(series))->points();
}

QList<qreal> TimeSeriesChart::axisRanges() const {
  return {m_xAxis->min(), m_xAxis->max(), m_yAxes.front().axis->min(), m_yAxes.front().axis->max()};
}

QList<qreal> TimeSeriesChart::valueAxisRange(int axis) const {
  const QValueAxis* y = m_yAxes.at(static_cast<std::size_t>(axis)).axis;
  return {y->min(), y->max()};
}

qreal TimeSeriesChart::tickInterval(int axis) const {
  return m_yAxes.at(static_cast<std::size_t>(axis)).axis->tickInterval();
}

qreal TimeSeriesChart::timeTickInterval() const {
  return m_xAxis->tickInterval();
}

}  // namespace ayar
