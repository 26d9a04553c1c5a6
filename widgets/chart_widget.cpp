#include "widgets/chart_widget.h"

#include <QChart>
#include <QChartView>
#include <QFileDialog>
#include <QLegendMarker>
#include <QMenu>
#include <QMouseEvent>
#include <QPixmap>
#include <QSvgGenerator>
#include <QVBoxLayout>
#include <QXYSeries>

namespace ayar {

namespace {

// Zooms with a rubber band; a double click or right click goes back to the whole chart.
class ZoomingChartView : public QChartView {
 public:
  explicit ZoomingChartView(QChart* chart, QWidget* parent) : QChartView(chart, parent) {
    setRubberBand(QChartView::RectangleRubberBand);
    setRenderHint(QPainter::Antialiasing, true);
  }

 protected:
  void mouseDoubleClickEvent(QMouseEvent* event) override {
    chart()->zoomReset();
    event->accept();
  }
  void mouseReleaseEvent(QMouseEvent* event) override {
    if (event->button() == Qt::RightButton) {
      event->accept();  // the right button opens the context menu; QChartView would zoom out
      return;
    }
    QChartView::mouseReleaseEvent(event);
  }
};

}  // namespace

ChartWidget::ChartWidget(QWidget* parent) : QWidget(parent) {
  m_chart = new QChart();
  m_chart->setAnimationOptions(QChart::NoAnimation);  // live charts redraw often; animations only lag
  m_chart->legend()->setAlignment(Qt::AlignBottom);
  QFont legendFont = m_chart->legend()->font();
  legendFont.setPointSizeF(legendFont.pointSizeF() * 0.85);
  m_chart->legend()->setFont(legendFont);
  m_chart->setMargins(QMargins(4, 4, 4, 4));
  m_view = new ZoomingChartView(m_chart, this);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(m_view);
  setMinimumSize(240, 180);
  m_view->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(m_view, &QWidget::customContextMenuRequested, this, &ChartWidget::showContextMenu);
  setDark(false);
}

ChartWidget::~ChartWidget() = default;

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
  for (QLegendMarker* marker : m_chart->legend()->markers()) {
    QObject::disconnect(marker, &QLegendMarker::clicked, this, nullptr);
    connect(marker, &QLegendMarker::clicked, this, [marker] {
      QAbstractSeries* series = marker->series();
      series->setVisible(!series->isVisible());
      marker->setVisible(true);
      QFont font = marker->font();
      font.setStrikeOut(!series->isVisible());
      marker->setFont(font);
    });
  }
}

QImage ChartWidget::toImage() {
  return m_view->grab().toImage();
}

void ChartWidget::showContextMenu(const QPoint& position) {
  QMenu menu(this);
  menu.addAction(tr("Reset zoom"), this, [this] { m_chart->zoomReset(); });
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
  menu.exec(m_view->mapToGlobal(position));
}

bool ChartWidget::exportSvg(const QString& path) {
  QSvgGenerator generator;
  generator.setFileName(path);
  generator.setSize(m_view->size());
  generator.setViewBox(QRect(QPoint(0, 0), m_view->size()));
  generator.setTitle(m_chart->title());
  QPainter painter;
  if (!painter.begin(&generator)) return false;
  m_view->render(&painter);
  return painter.end();
}

bool ChartWidget::exportImage(const QString& path) {
  return m_view->grab().save(path);
}

}  // namespace ayar
