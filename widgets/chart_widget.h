#pragma once

#include <QImage>
#include <QString>
#include <QWidget>

class QChart;
class QChartView;

namespace ayar {

// The common frame of Ayar's charts: a chart view with zoom (drag a rectangle; a double click
// resets), legend entries that hide and show their series when clicked, light and dark colours, and a
// context menu that resets the zoom and saves the chart as PNG or SVG. Subclasses own their series; Qt Charts
// stays behind this folder, so a later move to another chart library touches widgets/ only.
class ChartWidget : public QWidget {
  Q_OBJECT

 public:
  explicit ChartWidget(QWidget* parent = nullptr);
  ~ChartWidget() override;

  void setTitle(const QString& title);
  QString title() const;
  void setDark(bool dark);
  bool isDark() const { return m_dark; }
  // Writes the chart as it is drawn (PNG, or any format QImageWriter knows by the file's suffix).
  bool exportImage(const QString& path);
  // Writes the chart as SVG (vector lines and text).
  bool exportSvg(const QString& path);
  // The chart as drawn, for reports.
  QImage toImage();

 protected:
  QChart* chart() const { return m_chart; }
  // Called after series were added, so that their legend markers toggle them.
  void connectLegendMarkers();
  // Colours of the n-th series in the current theme (readable on both backgrounds).
  QColor seriesColor(int index) const;
  // Called when the theme changed, for subclasses whose series carry their own colours.
  virtual void restyle() {}

 private:
  void showContextMenu(const QPoint& position);

  QChart* m_chart = nullptr;
  QChartView* m_view = nullptr;
  bool m_dark = false;
};

}  // namespace ayar
