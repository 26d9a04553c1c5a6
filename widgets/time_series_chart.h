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
// gauges. Lines of different units sit on value axes of their own (left and right of the plot), so
// that a small figure is not flattened against a large one. setPoints() replaces a series' data at
// once (never point by point) and draws at most kMaxShownPoints of it: above that, each of
// kMaxShownPoints/2 slices of the x range shows its lowest and highest point, so that spikes stay
// visible while a 100,000-point series redraws in milliseconds. Axes tick at round values; their
// ranges change only when the data's range or the plot's size does.
class TimeSeriesChart : public ChartWidget {
  Q_OBJECT

 public:
  static constexpr int kMaxShownPoints = 1200;

  explicit TimeSeriesChart(QWidget* parent = nullptr);
  ~TimeSeriesChart() override;

  // Adds a value axis beside the plot; returns its index. Axis 0, on the left, is there from the start.
  int addValueAxis(Qt::Alignment side);
  // Adds a line measured on value axis `axis`; returns its index for setPoints().
  int addSeries(const QString& name, int axis = 0);
  void setSeriesName(int series, const QString& name);
  int seriesCount() const;
  int seriesAxis(int series) const;
  // The time axis' title and value axis 0's.
  void setAxisTitles(const QString& xTitle, const QString& yTitle);
  void setValueAxisTitle(int axis, const QString& title);
  QString valueAxisTitle(int axis) const;
  Qt::Alignment valueAxisSide(int axis) const;
  // Keeps a value axis at [min, max] whatever the data (percentages: 0 to 100).
  void setFixedValueRange(int axis, double min, double max);
  // The points in any x order.
  void setPoints(int series, const QList<QPointF>& points);
  // Empties every series (the lines stay).
  void clearPoints();

  // What the chart draws, for checks: the series' points (decimated when there were many).
  QList<QPointF> shownPoints(int series) const;
  // The axis ranges in use: x min, x max, value axis 0's min and max.
  QList<qreal> axisRanges() const;
  // A value axis' min and max; the step between its ticks, and between the time axis' ticks.
  QList<qreal> valueAxisRange(int axis) const;
  qreal tickInterval(int axis) const;
  qreal timeTickInterval() const;

  // At most `maxPoints` points with each slice's extremes (x order); the input as is when small.
  static QList<QPointF> decimate(const QList<QPointF>& points, int maxPoints);

 private:
  void updateRanges();
  void restyle() override;

  struct ValueAxis {
    QValueAxis* axis = nullptr;
    bool fixed = false;
  };
  std::vector<QLineSeries*> m_series;
  std::vector<int> m_seriesAxis;
  std::vector<QList<QPointF>> m_shown;
  QValueAxis* m_xAxis = nullptr;
  std::vector<ValueAxis> m_yAxes;
};

}  // namespace ayar
