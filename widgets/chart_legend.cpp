#include "widgets/chart_legend.h"

#include <QAbstractSeries>
#include <QAreaSeries>
#include <QEvent>
#include <QLegendMarker>
#include <QPainter>
#include <QResizeEvent>
#include <QXYSeries>
#include <algorithm>

namespace ayar {

namespace {

constexpr int kSwatchWidth = 18;
constexpr int kGap = 5;          // swatch to text
constexpr int kPadding = 3;      // around an entry
constexpr int kSpacing = 10;     // between entries on a line
constexpr int kLineSpacing = 1;  // between lines

}  // namespace

ChartLegendEntry::ChartLegendEntry(QLegendMarker* marker, QWidget* parent)
    : QAbstractButton(parent), m_marker(marker) {
  setCheckable(true);
  setChecked(marker->series() ? marker->series()->isVisible() : true);
  setCursor(Qt::PointingHandCursor);
  setText(marker->label());
  retranslate();
  connect(marker, &QLegendMarker::labelChanged, this, [this] {
    if (!m_marker) return;
    setText(m_marker->label());
    updateGeometry();
    emit textChanged();
  });
  connect(this, &QAbstractButton::toggled, this, [this](bool shown) {
    if (m_marker && m_marker->series()) m_marker->series()->setVisible(shown);
    update();
  });
}

void ChartLegendEntry::retranslate() {
  setToolTip(tr("Click to hide or show this line"));
}

void ChartLegendEntry::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslate();
  QAbstractButton::changeEvent(event);
}

QLegendMarker* ChartLegendEntry::marker() const {
  return m_marker;
}

QSize ChartLegendEntry::sizeHint() const {
  const QFontMetrics metrics(font());
  return {kPadding + kSwatchWidth + kGap + metrics.horizontalAdvance(text()) + kPadding,
          metrics.height() + 2 * kPadding};
}

bool ChartLegendEntry::showsWholeText() const {
  return width() >= sizeHint().width();
}

void ChartLegendEntry::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing, true);
  const bool shown = isChecked();
  const QRect swatch(kPadding, height() / 2 - 5, kSwatchWidth, 10);
  if (m_marker) {
    painter.setOpacity(shown ? 1.0 : 0.35);
    // The series' own pen and brush: Qt Charts updates its markers' only while its legend is shown.
    QAbstractSeries* series = m_marker->series();
    if (auto* area = qobject_cast<QAreaSeries*>(series)) {
      painter.setPen(area->pen());
      painter.setBrush(area->brush());
      painter.drawRect(swatch.adjusted(0, 0, -1, -1));
    } else if (auto* line = qobject_cast<QXYSeries*>(series)) {
      QPen pen = line->pen();
      pen.setWidthF(std::max<qreal>(pen.widthF(), 2.0));
      pen.setCapStyle(Qt::FlatCap);
      painter.setPen(pen);
      painter.drawLine(swatch.left(), swatch.center().y(), swatch.right(), swatch.center().y());
    } else {
      painter.setPen(m_marker->pen());
      painter.setBrush(m_marker->brush());
      painter.drawRect(swatch.adjusted(0, 0, -1, -1));
    }
    painter.setOpacity(1.0);
  }
  QFont textFont = font();
  textFont.setStrikeOut(!shown);
  painter.setFont(textFont);
  QColor color = palette().color(QPalette::WindowText);
  if (!shown) color.setAlphaF(0.55f);
  painter.setPen(color);
  const QRect textRect(swatch.right() + 1 + kGap, 0, width() - (swatch.right() + 1 + kGap), height());
  const QString shownText = QFontMetrics(textFont).elidedText(text(), Qt::ElideRight, textRect.width());
  painter.drawText(textRect, Qt::AlignVCenter | Qt::AlignLeft, shownText);
}

ChartLegend::ChartLegend(QWidget* parent) : QWidget(parent) {
  setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
}

void ChartLegend::setMarkers(const QList<QLegendMarker*>& markers) {
  qDeleteAll(m_entries);
  m_entries.clear();
  for (QLegendMarker* marker : markers) {
    auto* entry = new ChartLegendEntry(marker, this);
    entry->setFont(font());
    entry->show();
    connect(entry, &ChartLegendEntry::textChanged, this, [this] {
      layoutEntries(width(), true);
      emit contentChanged();
    });
    m_entries.append(entry);
  }
  layoutEntries(width(), true);
  emit contentChanged();
}

QStringList ChartLegend::texts() const {
  QStringList out;
  for (const ChartLegendEntry* entry : m_entries)
    out.append(entry->text());
  return out;
}

bool ChartLegend::showsWholeTexts() const {
  for (const ChartLegendEntry* entry : m_entries) {
    if (!entry->showsWholeText() || !rect().contains(entry->geometry())) return false;
  }
  return true;
}

void ChartLegend::setTextColor(const QColor& color) {
  QPalette p = palette();
  p.setColor(QPalette::WindowText, color);
  setPalette(p);
}

int ChartLegend::layoutEntries(int width, bool apply) const {
  if (m_entries.isEmpty()) return 0;
  // Lines of entries, each line centred, as Qt Charts centres its own legend.
  struct Line {
    QList<ChartLegendEntry*> entries;
    int width = 0;
  };
  QList<Line> lines(1);
  for (ChartLegendEntry* entry : m_entries) {
    const int w = std::min(entry->sizeHint().width(), std::max(1, width));
    Line& line = lines.back();
    if (!line.entries.isEmpty() && line.width + kSpacing + w > width) lines.append(Line());
    Line& target = lines.back();
    target.width += (target.entries.isEmpty() ? 0 : kSpacing) + w;
    target.entries.append(entry);
  }
  const int lineHeight = m_entries.front()->sizeHint().height();
  int y = 0;
  for (const Line& line : lines) {
    int x = std::max(0, (width - line.width) / 2);
    for (ChartLegendEntry* entry : line.entries) {
      const int w = std::min(entry->sizeHint().width(), std::max(1, width));
      if (apply) entry->setGeometry(x, y, w, lineHeight);
      x += w + kSpacing;
    }
    y += lineHeight + kLineSpacing;
  }
  return y - kLineSpacing;
}

int ChartLegend::neededHeight(int width) const {
  return layoutEntries(width, false);
}

QSize ChartLegend::sizeHint() const {
  int width = 0;
  for (const ChartLegendEntry* entry : m_entries)
    width += entry->sizeHint().width() + kSpacing;
  return {std::max(0, width - kSpacing), m_entries.isEmpty() ? 0 : m_entries.front()->sizeHint().height()};
}

QSize ChartLegend::minimumSizeHint() const {
  int width = 0;
  for (const ChartLegendEntry* entry : m_entries)
    width = std::max(width, entry->sizeHint().width());
  return {std::min(width, 120), m_entries.isEmpty() ? 0 : m_entries.front()->sizeHint().height()};
}

void ChartLegend::resizeEvent(QResizeEvent* event) {
  layoutEntries(event->size().width(), true);
  QWidget::resizeEvent(event);
}

}  // namespace ayar
