#pragma once

#include <QImage>
#include <QPointF>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <QValueAxis>  // QPointer<QValueAxis> needs the whole class
#include <QWidget>

class QChart;
class QChartView;

namespace ayar {

class ChartLegend;

// The common frame of Ayar's charts: a chart view with zoom (drag a rectangle; a double click
// resets), a crosshair that reads the values under the pointer, a legend below the plot whose entries
// hide and show their series when clicked and wrap onto more lines rather than being cut, light and
// dark colours, and a context menu that resets the zoom and saves the chart as PNG or SVG. Numbers
// (axes, legends, crosshair) are written in the UI's locale and follow a language switch at run
// time. Subclasses own their series; Qt Charts stays behind this folder, so a later move to another
// chart library touches widgets/ only.
class ChartWidget : public QWidget {
  Q_OBJECT

 public:
  explicit ChartWidget(QWidget* parent = nullptr);
  ~ChartWidget() override;

  void setTitle(const QString& title);
  QString title() const;
  void setDark(bool dark);
  bool isDark() const { return m_dark; }
  // Writes the chart as it is drawn, legend included (PNG, or any format QImageWriter knows by the
  // file's suffix).
  bool exportImage(const QString& path);
  // Writes the chart as SVG (vector lines and text).
  bool exportSvg(const QString& path);
  // The chart as drawn, legend included, for reports.
  QImage toImage();

  // What the chart shows, for checks. The legend's texts, in order.
  QStringList legendTexts() const;
  // Every legend entry is drawn whole (none cut or elided).
  bool legendShowsWholeTexts() const;
  // The tick labels drawn by the `nth` axis on one side (Qt::AlignBottom, AlignLeft, AlignRight),
  // left to right or bottom to top; counted from the plot outwards. Empty until the chart was laid
  // out (shown, or grabbed).
  QStringList shownAxisLabels(Qt::Alignment side, int nth = 0) const;
  // Every text drawn in the plot's frame (title, axis titles and tick labels), as drawn: Qt Charts
  // writes "..." where it cuts one.
  QStringList shownTexts() const;
  // The crosshair's text, empty while it is hidden.
  QString crosshairText() const;
  QChartView* chartView() const { return m_view; }

  // A round step for ticks between lo and hi in at most `maxIntervals` intervals: 1, 2 or 5 times a
  // power of ten, the range widened to whole steps, and the decimals its labels need.
  struct Scale {
    double min = 0, max = 1, step = 1;
    int decimals = 0;
  };
  static Scale roundScale(double lo, double hi, int maxIntervals);
  // A number in the UI's locale with `decimals` decimals ("1.234,5" in Turkish).
  static QString formatNumber(double value, int decimals);
  // A duration given in milliseconds, in ms below a second and in s above ("28,2 ms", "1,79 s"),
  // never in exponent form.
  static QString formatDurationMs(double ms);
  // A duration in `unitMs` units (1 for ms, 1000 for s) and its unit: two decimals below ten, one
  // below a thousand, none above.
  static QString formatDuration(double ms, double unitMs);

 protected:
  QChart* chart() const { return m_chart; }
  // Called after series were added or removed, so that the legend lists them.
  void connectLegendMarkers();
  void setLegendVisible(bool visible);
  // Colours of the n-th series in the current theme (readable on both backgrounds).
  QColor seriesColor(int index) const;
  // Called when the theme changed, for subclasses whose series carry their own colours.
  virtual void restyle() {}
  // Called after a language switch (the locale is already the new one), for subclasses that write
  // numbers into names.
  virtual void relabel() {}
  // Keeps the axis' ticks on round values (see roundScale) for whatever range it shows, zoomed or
  // not, with as many ticks as its length holds, labelled in the UI's locale. `counts`: whole numbers
  // only (a step of at least 1).
  void useRoundTicks(QValueAxis* axis, bool counts = false);
  // Sets the axis to a round range around [lo, hi]; changes it only when the ends change.
  void setRoundRange(QValueAxis* axis, double lo, double hi);
  // Sets an axis' range as it is; its ticks first, when they are kept round.
  void setAxisRange(QValueAxis* axis, double min, double max);
  // The text of the crosshair at a point of the chart (chart coordinates, inside the plot area): each
  // axis' title and its value there.
  virtual QString crosshairTextAt(const QPointF& point) const;
  void changeEvent(QEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  friend class ChartView;
  void showContextMenu(const QPoint& position);
  void applyRoundTicks(QValueAxis* axis);
  void applyRoundTicks(QValueAxis* axis, double min, double max);
  void resetZoom();
  int maxIntervals(const QValueAxis* axis) const;
  Scale scaleFor(const QValueAxis* axis, double lo, double hi) const;
  void fitLegend();
  void fitAxesToPlot();
  void updateCrosshair(const QPointF& scenePosition);
  void hideCrosshair();

  QChart* m_chart = nullptr;
  QChartView* m_view = nullptr;
  ChartLegend* m_legend = nullptr;
  bool m_legendVisible = true;
  bool m_dark = false;
  QString m_crosshairText;
  QList<QPointer<QValueAxis>> m_roundAxes;
  int m_refits = 0;
  bool m_refitting = false;
};

}  // namespace ayar
