#include "widgets/chart_widget.h"

#include <QBarCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QFileDialog>
#include <QGraphicsItemGroup>
#include <QGraphicsLineItem>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QLegend>
#include <QLegendMarker>
#include <QLogValueAxis>
#include <QMenu>
#include <QMouseEvent>
#include <QPixmap>
#include <QSvgGenerator>
#include <QVBoxLayout>
#include <QValueAxis>
#include <QXYSeries>
#include <algorithm>
#include <cmath>
#include <map>

#include "widgets/chart_legend.h"

namespace ayar {

// Zooms with a rubber band; a double click or right click goes back to the whole chart. Draws the
// crosshair of its ChartWidget while the pointer is over the plot.
class ChartView : public QChartView {
 public:
  ChartView(QChart* chart, ChartWidget* owner) : QChartView(chart, owner), m_owner(owner) {
    setRubberBand(QChartView::RectangleRubberBand);
    setRenderHint(QPainter::Antialiasing, true);
    setFrameShape(QFrame::NoFrame);
    setMouseTracking(true);
    viewport()->setMouseTracking(true);
    for (auto*& line : m_lines) {
      line = new QGraphicsLineItem(chart);
      line->setZValue(1000);
      line->hide();
    }
    m_box = new QGraphicsRectItem(chart);
    m_box->setZValue(1001);
    m_box->hide();
    m_text = new QGraphicsSimpleTextItem(m_box);
  }

  void showCrosshair(const QPointF& at, const QString& text, bool dark) {
    const QRectF plot = chart()->plotArea();
    const QColor ink = dark ? QColor(235, 235, 235) : QColor(40, 40, 40);
    QPen pen(ink, 0.8, Qt::DotLine);
    m_lines[0]->setPen(pen);
    m_lines[1]->setPen(pen);
    m_lines[0]->setLine(at.x(), plot.top(), at.x(), plot.bottom());
    m_lines[1]->setLine(plot.left(), at.y(), plot.right(), at.y());
    m_text->setText(text);
    m_text->setBrush(ink);
    QFont font = m_text->font();
    font.setPointSizeF(std::max(7.0, QWidget::font().pointSizeF() * 0.9));
    m_text->setFont(font);
    const QRectF textRect = m_text->boundingRect();
    QRectF box(0, 0, textRect.width() + 8, textRect.height() + 6);
    // Beside the pointer, inside the plot: to its right and below it unless that leaves the plot.
    QPointF corner(at.x() + 12, at.y() + 12);
    if (corner.x() + box.width() > plot.right()) corner.setX(at.x() - 12 - box.width());
    if (corner.y() + box.height() > plot.bottom()) corner.setY(at.y() - 12 - box.height());
    m_box->setRect(box);
    m_box->setPos(corner);
    m_text->setPos(4, 3);
    QColor fill = dark ? QColor(30, 32, 38) : QColor(255, 255, 255);
    fill.setAlpha(225);
    m_box->setBrush(fill);
    m_box->setPen(QPen(ink, 0.6));
    for (auto* line : m_lines)
      line->show();
    m_box->show();
  }
  void hideCrosshair() {
    for (auto* line : m_lines)
      line->hide();
    m_box->hide();
  }

 protected:
  void mouseDoubleClickEvent(QMouseEvent* event) override {
    m_owner->resetZoom();
    event->accept();
  }
  void mouseReleaseEvent(QMouseEvent* event) override {
    if (event->button() == Qt::RightButton) {
      event->accept();  // the right button opens the context menu; QChartView would zoom out
      return;
    }
    QChartView::mouseReleaseEvent(event);
  }
  void mouseMoveEvent(QMouseEvent* event) override {
    m_owner->updateCrosshair(mapToScene(event->position().toPoint()));
    QChartView::mouseMoveEvent(event);
  }
  void leaveEvent(QEvent* event) override {
    m_owner->hideCrosshair();
    QChartView::leaveEvent(event);
  }

 private:
  ChartWidget* m_owner;
  QGraphicsLineItem* m_lines[2] = {nullptr, nullptr};
  QGraphicsRectItem* m_box = nullptr;
  QGraphicsSimpleTextItem* m_text = nullptr;
};

namespace {

constexpr char kDecimals[] = "ayarDecimals";
constexpr char kCounts[] = "ayarCounts";
constexpr char kDataLo[] = "ayarDataLo";
constexpr char kDataHi[] = "ayarDataHi";
// Refitting ranges changes labels, which may move the plot's edges again: a few rounds at most.
constexpr int kMaxRefits = 3;

// The value of an axis at a chart coordinate along it.
QString axisValueAt(const QAbstractAxis* axis, const QRectF& plot, const QPointF& point) {
  const bool horizontal = axis->orientation() == Qt::Horizontal;
  const double fraction =
      horizontal ? (point.x() - plot.left()) / plot.width() : (plot.bottom() - point.y()) / plot.height();
  if (auto* value = qobject_cast<const QValueAxis*>(axis)) {
    const double v = value->min() + fraction * (value->max() - value->min());
    const QVariant decimals = value->property(kDecimals);
    return ChartWidget::formatNumber(v, decimals.isValid() ? decimals.toInt() + 1 : 2);
  }
  if (auto* log = qobject_cast<const QLogValueAxis*>(axis)) {
    const double lo = std::log10(log->min()), hi = std::log10(log->max());
    const double v = std::pow(10.0, lo + fraction * (hi - lo));
    const int decimals = std::clamp(2 - static_cast<int>(std::floor(std::log10(v))), 0, 4);
    return ChartWidget::formatNumber(v, decimals);
  }
  if (auto* categories = qobject_cast<QBarCategoryAxis*>(const_cast<QAbstractAxis*>(axis))) {
    const QStringList names = categories->categories();
    if (names.isEmpty()) return {};
    const int index = std::clamp(static_cast<int>(std::floor(fraction * names.size())), 0,
                                 static_cast<int>(names.size()) - 1);
    return names[index].trimmed();
  }
  return {};
}

}  // namespace

ChartWidget::ChartWidget(QWidget* parent) : QWidget(parent) {
  m_chart = new QChart();
  m_chart->setAnimationOptions(QChart::NoAnimation);  // live charts redraw often; animations only lag
  m_chart->legend()->hide();                          // ChartLegend below the view stands for it
  m_chart->setMargins(QMargins(4, 4, 4, 2));
  m_chart->setBackgroundRoundness(0);
  m_chart->setLocalizeNumbers(true);
  m_chart->setLocale(QLocale());
  m_view = new ChartView(m_chart, this);
  m_legend = new ChartLegend(this);
  QFont legendFont = font();
  legendFont.setPointSizeF(legendFont.pointSizeF() * 0.9);
  m_legend->setFont(legendFont);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 4);
  layout->setSpacing(0);
  layout->addWidget(m_view, 1);
  layout->addWidget(m_legend);
  setMinimumSize(240, 180);
  setAutoFillBackground(true);
  m_view->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(m_view, &QWidget::customContextMenuRequested, this, &ChartWidget::showContextMenu);
  connect(m_legend, &ChartLegend::contentChanged, this, &ChartWidget::fitLegend);
  connect(m_chart, &QChart::plotAreaChanged, this, &ChartWidget::fitAxesToPlot);
  setDark(false);
}

ChartWidget::~ChartWidget() {
  // The chart and its axes outlive this object's members (the view deletes them later): they must not
  // call back into it.
  QObject::disconnect(m_chart, nullptr, this, nullptr);
  for (QValueAxis* axis : std::as_const(m_roundAxes)) {
    if (axis) QObject::disconnect(axis, nullptr, this, nullptr);
  }
}

void ChartWidget::setTitle(const QString& title) {
  m_chart->setTitle(title);
}

QString ChartWidget::title() const {
  return m_chart->title();
}

void ChartWidget::setDark(bool dark) {
  m_dark = dark;
  m_chart->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
  m_chart->setAnimationOptions(QChart::NoAnimation);
  m_chart->setBackgroundRoundness(0);
  // A plain background (the themes paint gradients), shared with the legend below the view.
  const QColor background = dark ? QColor(42, 44, 52) : QColor(255, 255, 255);
  m_chart->setBackgroundBrush(background);
  // A theme resets series colours: give them back the palette that reads on this background.
  const auto series = m_chart->series();
  for (int i = 0; i < series.size(); ++i) {
    if (auto* xy = qobject_cast<QXYSeries*>(series[i])) {
      QPen pen = xy->pen();
      pen.setColor(seriesColor(i));
      pen.setWidthF(1.6);
      xy->setPen(pen);
    }
  }
  // The view and its legend read as one card in the chart's colours.
  QPalette p = palette();
  p.setColor(QPalette::Window, background);
  setPalette(p);
  m_legend->setTextColor(m_chart->legend()->labelColor());
  restyle();
}

QColor ChartWidget::seriesColor(int index) const {
  // Okabe-Ito colours, distinguishable with colour-blindness; lighter variants on dark backgrounds.
  static constexpr QRgb light[] = {qRgb(0, 114, 178),   qRgb(213, 94, 0),   qRgb(0, 158, 115),
                                   qRgb(204, 121, 167), qRgb(86, 180, 233), qRgb(230, 159, 0),
                                   qRgb(80, 80, 80)};
  static constexpr QRgb dark[] = {qRgb(86, 180, 233),  qRgb(240, 140, 60), qRgb(60, 210, 160),
                                  qRgb(230, 160, 200), qRgb(240, 228, 66), qRgb(230, 159, 0),
                                  qRgb(220, 220, 220)};
  constexpr int n = static_cast<int>(std::size(light));
  const int slot = ((index % n) + n) % n;
  return QColor(m_dark ? dark[slot] : light[slot]);
}

void ChartWidget::connectLegendMarkers() {
  m_legend->setMarkers(m_legendVisible ? m_chart->legend()->markers() : QList<QLegendMarker*>());
}

void ChartWidget::setLegendVisible(bool visible) {
  m_legendVisible = visible;
  connectLegendMarkers();
}

QStringList ChartWidget::legendTexts() const {
  return m_legend->texts();
}

bool ChartWidget::legendShowsWholeTexts() const {
  return m_legend->showsWholeTexts() && m_legend->height() >= m_legend->neededHeight(m_legend->width());
}

void ChartWidget::fitLegend() {
  const bool any = !m_legend->entries().isEmpty();
  m_legend->setVisible(any);
  m_legend->setFixedHeight(any ? m_legend->neededHeight(width()) : 0);
}

void ChartWidget::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  fitLegend();
  m_refits = 0;  // a new size: the ranges are rounded for it again
}

void ChartWidget::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) {
    // The language switch set the default locale first: axes, legends and the crosshair follow it.
    m_chart->setLocale(QLocale());
    relabel();
    m_refits = 0;
    fitAxesToPlot();
  }
  QWidget::changeEvent(event);
}

QString ChartWidget::formatNumber(double value, int decimals) {
  // A value that rounds to zero is written "0", never "-0".
  const double scale = std::pow(10.0, decimals);
  if (std::abs(std::round(value * scale)) < 0.5) value = 0.0;
  return QLocale().toString(value, 'f', std::max(0, decimals));
}

QString ChartWidget::formatDuration(double ms, double unitMs) {
  // Two decimals below ten, one below a thousand: "4,02 ms", "28,3 ms", "480,7 ms", "2,34 s".
  const double v = ms / unitMs;
  const double magnitude = std::abs(v);
  const int decimals = magnitude < 10.0 ? 2 : magnitude < 1000.0 ? 1 : 0;
  return formatNumber(v, decimals) + QLatin1Char(' ') + (unitMs >= 1000.0 ? tr("s") : tr("ms"));
}

QString ChartWidget::formatDurationMs(double ms) {
  return formatDuration(ms, std::abs(ms) >= 1000.0 ? 1000.0 : 1.0);
}

ChartWidget::Scale ChartWidget::roundScale(double lo, double hi, int maxIntervals) {
  maxIntervals = std::max(1, maxIntervals);
  if (!(hi > lo)) hi = lo + (lo == 0.0 ? 1.0 : std::abs(lo) * 0.1);
  const double raw = (hi - lo) / maxIntervals;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  // A little slack, so that a value a rounding error above a step is not a step of its own.
  constexpr double eps = 1e-9;
  Scale scale;
  for (double factor : {1.0, 2.0, 5.0, 10.0, 20.0}) {
    const double step = factor * magnitude;
    const double first = std::floor(lo / step + eps), last = std::ceil(hi / step - eps);
    if (last - first <= maxIntervals || factor == 20.0) {
      scale.step = step;
      scale.min = first * step;
      scale.max = std::max(last, first + 1) * step;
      break;
    }
  }
  scale.decimals = std::max(0, -static_cast<int>(std::floor(std::log10(scale.step) + eps)));
  return scale;
}

int ChartWidget::maxIntervals(const QValueAxis* axis) const {
  const QRectF plot = m_chart->plotArea();
  const bool horizontal = axis->orientation() == Qt::Horizontal;
  const double length = horizontal ? (plot.width() > 10 ? plot.width() : std::max(100, width() - 120))
                                   : (plot.height() > 10 ? plot.height() : std::max(80, height() - 110));
  const QFontMetrics metrics(axis->labelsFont());
  double spacing;
  if (horizontal) {
    // Room for the widest label this range can have, and a gap.
    const double widest = std::max(std::abs(axis->min()), std::abs(axis->max()));
    spacing = std::max(56, metrics.horizontalAdvance(formatNumber(widest, 2)) + 28);
  } else {
    spacing = metrics.height() * 2.4;
  }
  return std::clamp(static_cast<int>(length / spacing), 2, 10);
}

ChartWidget::Scale ChartWidget::scaleFor(const QValueAxis* axis, double lo, double hi) const {
  Scale scale = roundScale(lo, hi, maxIntervals(axis));
  if (axis->property(kCounts).toBool() && scale.step < 1.0) {
    scale.step = 1.0;
    scale.decimals = 0;
    scale.min = std::floor(scale.min);
    scale.max = std::max(std::ceil(scale.max), scale.min + 1.0);
  }
  return scale;
}

void ChartWidget::useRoundTicks(QValueAxis* axis, bool counts) {
  axis->setProperty(kCounts, counts);
  m_roundAxes.append(axis);
  connect(axis, &QValueAxis::rangeChanged, this, [this, axis] { applyRoundTicks(axis); });
  applyRoundTicks(axis);
}

void ChartWidget::applyRoundTicks(QValueAxis* axis) {
  applyRoundTicks(axis, axis->min(), axis->max());
}

void ChartWidget::applyRoundTicks(QValueAxis* axis, double min, double max) {
  const Scale scale = scaleFor(axis, min, max);
  if (axis->tickType() != QValueAxis::TicksDynamic) axis->setTickType(QValueAxis::TicksDynamic);
  if (axis->tickAnchor() != 0.0) axis->setTickAnchor(0.0);
  if (axis->tickInterval() != scale.step) axis->setTickInterval(scale.step);
  const QString format = QStringLiteral("%.%1f").arg(scale.decimals);
  if (axis->labelFormat() != format) axis->setLabelFormat(format);
  axis->setProperty(kDecimals, scale.decimals);
}

void ChartWidget::setRoundRange(QValueAxis* axis, double lo, double hi) {
  // Kept, so that the range can be rounded again for the plot's size once it is laid out.
  axis->setProperty(kDataLo, lo);
  axis->setProperty(kDataHi, hi);
  if (!m_refitting) m_refits = 0;
  const Scale scale = scaleFor(axis, lo, hi);
  setAxisRange(axis, scale.min, scale.max);
}

void ChartWidget::fitAxesToPlot() {
  // How many ticks fit depends on the plot's size, and so does the round range around the data; a
  // zoomed chart keeps the range its user chose.
  const bool refit = !m_chart->isZoomed() && m_refits < kMaxRefits;
  if (refit) ++m_refits;
  m_refitting = true;
  for (QValueAxis* axis : std::as_const(m_roundAxes)) {
    if (!axis) continue;
    const QVariant lo = axis->property(kDataLo), hi = axis->property(kDataHi);
    if (refit && lo.isValid() && hi.isValid()) setRoundRange(axis, lo.toDouble(), hi.toDouble());
    applyRoundTicks(axis);
  }
  m_refitting = false;
}

void ChartWidget::setAxisRange(QValueAxis* axis, double min, double max) {
  if (axis->min() == min && axis->max() == max) return;
  // Qt Charts lays an axis out for its new range before any slot hears of the change: with the step
  // of a much narrower range it would make a label for every step of the wider one.
  if (m_roundAxes.contains(axis)) applyRoundTicks(axis, min, max);
  axis->setRange(min, max);
}

void ChartWidget::resetZoom() {
  // The zoomed axes' steps are too fine for the whole range (see setAxisRange): coarse until the
  // range is back, then round again.
  for (QValueAxis* axis : std::as_const(m_roundAxes)) {
    if (axis) axis->setTickInterval(std::abs(axis->max() - axis->min()) * 1e6 + 1.0);
  }
  m_chart->zoomReset();
  for (QValueAxis* axis : std::as_const(m_roundAxes)) {
    if (axis) applyRoundTicks(axis);
  }
}

QStringList ChartWidget::shownAxisLabels(Qt::Alignment side, int nth) const {
  const QRectF plot = m_chart->plotArea();
  // Each axis keeps its tick labels in a group of its own: find the groups on that side of the plot.
  std::map<double, QStringList> groups;  // by distance from the plot
  std::map<const QGraphicsItem*, QList<QGraphicsTextItem*>> byGroup;
  for (QGraphicsItem* item : m_view->scene()->items()) {
    auto* text = dynamic_cast<QGraphicsTextItem*>(item);
    if (!text || !text->isVisible() || !text->parentItem() ||
        text->parentItem()->type() != QGraphicsItemGroup::Type)
      continue;
    byGroup[text->parentItem()].append(text);
  }
  for (auto& [group, texts] : byGroup) {
    QRectF bounds;
    for (QGraphicsTextItem* text : texts)
      bounds |= text->sceneBoundingRect();
    const QPointF centre = bounds.center();
    double distance = -1;
    if (side == Qt::AlignBottom && centre.y() > plot.bottom()) distance = centre.y() - plot.bottom();
    if (side == Qt::AlignLeft && centre.x() < plot.left()) distance = plot.left() - centre.x();
    if (side == Qt::AlignRight && centre.x() > plot.right()) distance = centre.x() - plot.right();
    if (side == Qt::AlignTop && centre.y() < plot.top()) distance = plot.top() - centre.y();
    if (distance < 0) continue;
    const bool horizontal = side == Qt::AlignBottom || side == Qt::AlignTop;
    std::sort(texts.begin(), texts.end(), [horizontal](QGraphicsTextItem* a, QGraphicsTextItem* b) {
      return horizontal ? a->sceneBoundingRect().center().x() < b->sceneBoundingRect().center().x()
                        : a->sceneBoundingRect().center().y() > b->sceneBoundingRect().center().y();
    });
    QStringList labels;
    for (QGraphicsTextItem* text : texts)
      labels.append(text->toPlainText());
    groups[distance] = labels;
  }
  int i = 0;
  for (const auto& [distance, labels] : groups) {
    if (i++ == nth) return labels;
  }
  return {};
}

QStringList ChartWidget::shownTexts() const {
  QStringList texts;
  for (QGraphicsItem* item : m_view->scene()->items()) {
    auto* text = dynamic_cast<QGraphicsTextItem*>(item);
    if (text && text->isVisible() && !text->toPlainText().isEmpty()) texts.append(text->toPlainText());
  }
  return texts;
}

QString ChartWidget::crosshairTextAt(const QPointF& point) const {
  const QRectF plot = m_chart->plotArea();
  QStringList lines;
  QList<QAbstractAxis*> axes = m_chart->axes(Qt::Horizontal);
  axes += m_chart->axes(Qt::Vertical);
  for (const QAbstractAxis* axis : axes) {
    if (!axis->isVisible()) continue;
    const QString value = axisValueAt(axis, plot, point);
    if (value.isEmpty()) continue;
    const QString title = axis->titleText();
    lines.append(title.isEmpty() ? value : tr("%1: %2").arg(title, value));
  }
  return lines.join(QLatin1Char('\n'));
}

void ChartWidget::updateCrosshair(const QPointF& scenePosition) {
  const QPointF point = m_chart->mapFromScene(scenePosition);
  if (!m_chart->plotArea().contains(point) || m_chart->axes().isEmpty()) {
    hideCrosshair();
    return;
  }
  m_crosshairText = crosshairTextAt(point);
  static_cast<ChartView*>(m_view)->showCrosshair(point, m_crosshairText, m_dark);
}

void ChartWidget::hideCrosshair() {
  m_crosshairText.clear();
  static_cast<ChartView*>(m_view)->hideCrosshair();
}

QString ChartWidget::crosshairText() const {
  return m_crosshairText;
}

QImage ChartWidget::toImage() {
  return grab().toImage();
}

void ChartWidget::showContextMenu(const QPoint& position) {
  QMenu menu(this);
  menu.addAction(tr("Reset zoom"), this, [this] { resetZoom(); });
  menu.addSeparator();
  menu.addAction(tr("Save as PNG…"), this, [this] {
    const QString path = QFileDialog::getSaveFileName(this, tr("Save chart"), QStringLiteral("chart.png"),
                                                      tr("PNG image (*.png)"));
    if (!path.isEmpty()) exportImage(path);
  });
  menu.addAction(tr("Save as SVG…"), this, [this] {
    const QString path = QFileDialog::getSaveFileName(this, tr("Save chart"), QStringLiteral("chart.svg"),
                                                      tr("SVG drawing (*.svg)"));
    if (!path.isEmpty()) exportSvg(path);
  });
  hideCrosshair();
  menu.exec(m_view->mapToGlobal(position));
}

bool ChartWidget::exportSvg(const QString& path) {
  hideCrosshair();
  QSvgGenerator generator;
  generator.setFileName(path);
  generator.setSize(size());
  generator.setViewBox(QRect(QPoint(0, 0), size()));
  generator.setTitle(m_chart->title());
  QPainter painter;
  if (!painter.begin(&generator)) return false;
  render(&painter);
  return painter.end();
}

bool ChartWidget::exportImage(const QString& path) {
  hideCrosshair();
  return grab().save(path);
}

}  // namespace ayar
