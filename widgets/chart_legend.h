#pragma once

#include <QAbstractButton>
#include <QList>
#include <QPointer>
#include <QWidget>

class QLegendMarker;

namespace ayar {

// One entry of a chart's legend: the series' swatch (a line, dashed if the series is, or a filled box)
// and its name. Clicking it hides and shows the series; a hidden series' name is struck out.
class ChartLegendEntry : public QAbstractButton {
  Q_OBJECT

 public:
  ChartLegendEntry(QLegendMarker* marker, QWidget* parent);

  QLegendMarker* marker() const;
  QSize sizeHint() const override;
  QSize minimumSizeHint() const override { return sizeHint(); }
  // The text is drawn whole: the entry is at least as wide as its text needs.
  bool showsWholeText() const;

 signals:
  void textChanged();

 protected:
  void paintEvent(QPaintEvent* event) override;
  void changeEvent(QEvent* event) override;

 private:
  void retranslate();

  QPointer<QLegendMarker> m_marker;
};

// A chart's legend below the plot, as a widget: its entries flow into as many lines as the width
// needs, so that no name is cut, whatever the language and the window size. Built from Qt Charts'
// own legend markers (whose legend stays hidden), so it follows every series' name, colour and
// visibility.
class ChartLegend : public QWidget {
  Q_OBJECT

 public:
  explicit ChartLegend(QWidget* parent = nullptr);

  // Rebuilds the entries, one per marker, in this order.
  void setMarkers(const QList<QLegendMarker*>& markers);
  QList<ChartLegendEntry*> entries() const { return m_entries; }
  QStringList texts() const;
  // Every entry drawn whole inside the legend.
  bool showsWholeTexts() const;
  void setTextColor(const QColor& color);

  // The height the entries need in lines of `width`.
  int neededHeight(int width) const;
  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 signals:
  // Entries came or went, or a name changed: the chart gives the legend the height it needs.
  void contentChanged();

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  // Places the entries in lines of `width`; returns the height they take. Moves them when `apply`.
  int layoutEntries(int width, bool apply) const;

  QList<ChartLegendEntry*> m_entries;
};

}  // namespace ayar
