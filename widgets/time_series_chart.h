#pragma once

#include <QList>
#include <QPointF>
#include <QString>
#include <vector>

#include "widgets/chart_widget.h"

class QLineSeries;
class QValueAxis;

namespace ayar {

// Lines over time (x in seconds): per-request latencies, throughput, requests in flight, server
// gauges. setPoints() replaces a series' data at once (never point by point) and draws at most
// kMaxShownPoints of it: above that, each of kMaxShownPoints/2 slices of the x range shows its lowest
// and highest point, so that spikes stay visible while a 100,000-point series redraws in
// milliseconds. Axis ranges change only when the data's range does.
class TimeSeriesChart : public ChartWidget {
  Q_OBJECT

 public:
  static constexpr int kMaxShownPoints = 1200;

  explicit TimeSeriesChart(QWidget* parent = nullptr);
  ~TimeSeriesChart() override;

  // Adds a line; returns its index for setPoints().
  int addSeries(const QString& name);
  void setSeriesName(int series, const QString& name);
  int seriesCount() const;
  void setAxisTitles(const QString& xTitle, const QString& yTitle);
  // The points in any x order.
  void setPoints(int series, const QList<QPointF>& points);
  // Empties every series (the lines stay).
  void clearPoints();

  // What the chart draws, for checks: the series' points (decimated when there were many).
  QList<QPointF> shownPoints(int series) const;
  // The axis ranges in use: x min, x max, y min, y max.
  QList<qreal> axisRanges() const;

  // At most `maxPoints` points with each slice's extremes (x order); the input as is when small.
  static QList<QPointF> decimate(const QList<QPointF>& points, int maxPoints);

 private:
  void updateRanges();

  std::vector<QLineSeries*> m_series;
  std::vector<QList<QPointF>> m_shown;
  QValueAxis* m_xAxis = nullptr;
  QValueAxis* m_yAxis = nullptr;
  qreal m_xMax = -1, m_yMax = -1, m_yMin = 0;
};

}  // namespace ayar
