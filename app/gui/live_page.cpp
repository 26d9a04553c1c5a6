#include "app/gui/live_page.h"

#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>
#include <cmath>

#include "app/gui/run_controller.h"
#include "widgets/time_series_chart.h"

namespace ayar {

namespace {

enum LatencySeries { TtftSeries, E2eSeries };
enum LatencyAxis { E2eAxis, TtftAxis };
enum ThroughputSeries { TokensSeries };
enum ServerSeries { InFlightSeries, WaitingSeries, RunningSeries, KvCacheSeries };
enum ServerAxis { RequestsAxis, PercentAxis };
enum GpuSeries { UtilizationSeries, MemorySeries, PowerSeries };
enum GpuAxis { GpuPercentAxis, GibAxis, WattAxis };

// Milliseconds shown in seconds once they reach a second: the factor to divide by.
double unitFor(const QList<QPointF>& pointsMs) {
  for (const QPointF& p : pointsMs) {
    if (p.y() >= 1000.0) return 1000.0;
  }
  return 1.0;
}

QList<QPointF> scaled(QList<QPointF> points, double unit) {
  if (unit != 1.0) {
    for (QPointF& p : points)
      p.setY(p.y() / unit);
  }
  return points;
}

}  // namespace

LivePage::LivePage(RunController* controller, QWidget* parent) : QWidget(parent), m_controller(controller) {
  m_progress = new QProgressBar(this);
  m_progress->setRange(0, 1);
  m_progress->setValue(0);
  m_counts = new QLabel(this);
  m_stage = new QLabel(this);
  m_stage->setWordWrap(true);
  m_stop = new QPushButton(this);
  m_stop->setEnabled(false);
  m_stop->setObjectName(QStringLiteral("stopButton"));
  connect(m_stop, &QPushButton::clicked, this, &LivePage::stopRequested);

  // Figures of different sizes or units each on an axis of their own: TTFT is a small part of the
  // end-to-end latency and would lie flat along the bottom of its axis; counts are not percentages.
  m_latency = new TimeSeriesChart(this);
  m_latency->addValueAxis(Qt::AlignRight);
  m_latency->addSeries(QStringLiteral("TTFT"), TtftAxis);
  m_latency->addSeries(QString(), E2eAxis);
  m_throughput = new TimeSeriesChart(this);
  m_throughput->addSeries(QString());
  m_server = new TimeSeriesChart(this);
  m_server->addValueAxis(Qt::AlignRight);
  m_server->setFixedValueRange(PercentAxis, 0, 100);
  m_server->addSeries(QString(), RequestsAxis);
  m_server->addSeries(QString(), RequestsAxis);
  m_server->addSeries(QString(), RequestsAxis);
  m_server->addSeries(QString(), PercentAxis);
  m_gpu = new TimeSeriesChart(this);
  m_gpu->addValueAxis(Qt::AlignRight);
  m_gpu->addValueAxis(Qt::AlignRight);
  m_gpu->setFixedValueRange(GpuPercentAxis, 0, 100);
  m_gpu->addSeries(QString(), GpuPercentAxis);
  m_gpu->addSeries(QString(), GibAxis);
  m_gpu->addSeries(QString(), WattAxis);

  auto* top = new QHBoxLayout;
  top->addWidget(m_progress, 1);
  top->addWidget(m_stop);
  auto* grid = new QGridLayout;
  m_grid = grid;
  grid->addWidget(m_latency, 0, 0);
  grid->addWidget(m_throughput, 0, 1);
  grid->addWidget(m_server, 1, 0);
  grid->addWidget(m_gpu, 1, 1);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(top);
  layout->addWidget(m_counts);
  layout->addWidget(m_stage);
  layout->addLayout(grid, 1);

  connect(controller, &RunController::started, this, [this] {
    reset();
    m_stop->setEnabled(true);
    m_endState = 0;
    updateProgress();
  });
  connect(controller, &RunController::stageChanged, this, [this](quint64, const QString& message) {
    m_stageText = message;
    m_stage->setText(message);
  });
  connect(controller, &RunController::updated, this,
          [this](quint64, std::size_t firstRecord, std::size_t firstSample) {
            onUpdated(firstRecord, firstSample);
          });
  connect(controller, &RunController::finished, this,
          [this](quint64, qint64, bool cancelled, const QString& error) {
            m_stop->setEnabled(false);
            m_endState = cancelled ? 2 : 1;
            updateProgress();
            m_stage->setText(error.isEmpty() ? endText() : error);
          });
  retranslate();
}

void LivePage::retranslate() {
  m_stop->setText(tr("Stop"));
  m_stop->setToolTip(tr("Stop the run and keep what was measured"));
  m_latency->setTitle(tr("Latency per request"));
  m_latency->setSeriesName(E2eSeries, tr("end-to-end latency"));
  m_latency->setAxisTitles(tr("time (s)"), QString());
  updateLatencyTitles();
  m_throughput->setTitle(tr("Output throughput"));
  m_throughput->setSeriesName(TokensSeries, tr("output tokens/s"));
  m_throughput->setAxisTitles(tr("time (s)"), tr("tokens/s"));
  m_server->setTitle(tr("Load and engine state (/metrics)"));
  m_server->setSeriesName(InFlightSeries, tr("requests in flight"));
  m_server->setSeriesName(WaitingSeries, tr("queue (waiting)"));
  m_server->setSeriesName(RunningSeries, tr("running"));
  m_server->setSeriesName(KvCacheSeries, tr("KV cache use"));
  m_server->setAxisTitles(tr("time (s)"), tr("requests"));
  m_server->setValueAxisTitle(PercentAxis, tr("KV cache (%)"));
  m_gpu->setTitle(tr("GPU (NVML)"));
  m_gpu->setSeriesName(UtilizationSeries, tr("utilisation"));
  m_gpu->setSeriesName(MemorySeries, tr("memory"));
  m_gpu->setSeriesName(PowerSeries, tr("power"));
  m_gpu->setAxisTitles(tr("time (s)"), tr("utilisation (%)"));
  m_gpu->setValueAxisTitle(GibAxis, tr("memory (GiB)"));
  m_gpu->setValueAxisTitle(WattAxis, tr("power (W)"));
  if (m_endState != 0) m_stage->setText(endText());
  updateProgress();
}

void LivePage::updateLatencyTitles() {
  m_latency->setValueAxisTitle(E2eAxis, m_e2eUnit > 1.0 ? tr("end-to-end (s)") : tr("end-to-end (ms)"));
  m_latency->setValueAxisTitle(TtftAxis, m_ttftUnit > 1.0 ? tr("TTFT (s)") : tr("TTFT (ms)"));
}

QString LivePage::endText() const {
  return m_endState == 2 ? tr("Stopped: what was measured is kept in the store.") : tr("Finished.");
}

void LivePage::setGpuAvailable(bool available) {
  m_gpu->setVisible(available);
  m_grid->removeWidget(m_server);
  m_grid->addWidget(m_server, 1, 0, 1, available ? 1 : 2);
}

void LivePage::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslate();
  QWidget::changeEvent(event);
}

void LivePage::setDark(bool dark) {
  for (auto* chart : {m_latency, m_throughput, m_server, m_gpu})
    chart->setDark(dark);
}

void LivePage::reset() {
  m_ttft.clear();
  m_e2e.clear();
  m_ttftUnit = m_e2eUnit = 1.0;
  updateLatencyTitles();
  m_tokensPerSecond.clear();
  m_sampleSeries.clear();
  for (auto* chart : {m_latency, m_throughput, m_server, m_gpu})
    chart->clearPoints();
  m_stage->clear();
}

void LivePage::onUpdated(std::size_t firstNewRecord, std::size_t firstNewSample) {
  const auto& records = m_controller->records();
  for (std::size_t i = firstNewRecord; i < records.size(); ++i) {
    const RequestRecord& r = records[i];
    if (!r.success || r.chunkTimesS.empty()) continue;
    m_ttft.append(QPointF(r.startS, r.ttftS() * 1000.0));
    m_e2e.append(QPointF(r.startS, r.latencyS() * 1000.0));
    for (double t : r.chunkTimesS) {
      const double at = r.startS + t;
      if (at < 0) continue;
      const auto bin = static_cast<std::size_t>(at);
      if (bin >= m_tokensPerSecond.size()) m_tokensPerSecond.resize(bin + 1, 0.0);
      m_tokensPerSecond[bin] += 1.0;
    }
  }
  const auto& samples = m_controller->samples();
  for (std::size_t i = firstNewSample; i < samples.size(); ++i)
    m_sampleSeries[samples[i].name].append(QPointF(samples[i].tS, samples[i].value));

  if (firstNewRecord < records.size()) {
    const double ttftUnit = unitFor(m_ttft), e2eUnit = unitFor(m_e2e);
    if (ttftUnit != m_ttftUnit || e2eUnit != m_e2eUnit) {
      m_ttftUnit = ttftUnit;
      m_e2eUnit = e2eUnit;
      updateLatencyTitles();
    }
    m_latency->setPoints(TtftSeries, scaled(m_ttft, m_ttftUnit));
    m_latency->setPoints(E2eSeries, scaled(m_e2e, m_e2eUnit));
    QList<QPointF> tokens;
    tokens.reserve(static_cast<qsizetype>(m_tokensPerSecond.size()));
    for (std::size_t b = 0; b < m_tokensPerSecond.size(); ++b)
      tokens.append(QPointF(static_cast<double>(b) + 0.5, m_tokensPerSecond[b]));
    m_throughput->setPoints(TokensSeries, tokens);
  }
  if (firstNewSample < samples.size()) {
    auto series = [&](const char* name) {
      auto it = m_sampleSeries.find(name);
      return it == m_sampleSeries.end() ? QList<QPointF>() : it->second;
    };
    m_server->setPoints(InFlightSeries, series("client.in_flight"));
    m_server->setPoints(WaitingSeries, series("server.waiting"));
    m_server->setPoints(RunningSeries, series("server.running"));
    QList<QPointF> kv = series("server.kv_cache_usage");
    for (QPointF& p : kv)
      p.setY(p.y() * 100.0);  // a fraction on the engine's page
    m_server->setPoints(KvCacheSeries, kv);
    m_gpu->setPoints(UtilizationSeries, series("gpu0.utilization"));
    m_gpu->setPoints(MemorySeries, series("gpu0.memory_used"));
    m_gpu->setPoints(PowerSeries, series("gpu0.power"));
  }
  updateProgress();
}

void LivePage::updateProgress() {
  const LoadProgress p = m_controller->progress();
  const QLocale locale;
  m_progress->setRange(0, std::max<int>(1, static_cast<int>(p.total)));
  m_progress->setValue(static_cast<int>(p.completed + p.failed));
  const double elapsed = m_controller->elapsedS();
  const std::size_t done = p.completed + p.failed;
  QString eta = tr("ETA: –");
  if (m_controller->isRunning() && done > 0 && p.total > done) {
    const double remaining = elapsed / static_cast<double>(done) * static_cast<double>(p.total - done);
    eta = tr("ETA: %1 s").arg(locale.toString(std::ceil(remaining), 'f', 0));
  }
  m_counts->setText(tr("Sent %1 · in flight %2 · done %3 · failed %4 of %5 · %6 s · %7")
                        .arg(locale.toString(static_cast<qulonglong>(p.sent)),
                             locale.toString(static_cast<qulonglong>(p.inFlight)),
                             locale.toString(static_cast<qulonglong>(p.completed)),
                             locale.toString(static_cast<qulonglong>(p.failed)),
                             locale.toString(static_cast<qulonglong>(p.total)),
                             locale.toString(elapsed, 'f', 1), eta));
}

}  // namespace ayar
