#pragma once

#include <QList>
#include <QPointF>
#include <QWidget>
#include <map>
#include <string>

class QGridLayout;
class QLabel;
class QProgressBar;
class QPushButton;

namespace ayar {

class RunController;
class TimeSeriesChart;

// The Live area: progress with ETA and counts, and charts that fill as the run goes: TTFT and
// end-to-end latency per request (each on its own axis), output tokens/s, requests in flight with the
// server's queue and running requests (counts, left axis) and KV-cache use (percent, right axis) from
// /metrics, and GPU gauges when NVML sees a GPU. Points are
// added incrementally from the controller's new records, and each chart's data is replaced whole at
// most ten times a second.
class LivePage : public QWidget {
  Q_OBJECT

 public:
  explicit LivePage(RunController* controller, QWidget* parent = nullptr);

  void setDark(bool dark);
  // Without a GPU that NVML sees, the GPU chart is hidden.
  void setGpuAvailable(bool available);
  // For tests and the benchmark.
  TimeSeriesChart* latencyChart() const { return m_latency; }
  TimeSeriesChart* throughputChart() const { return m_throughput; }
  TimeSeriesChart* serverChart() const { return m_server; }
  TimeSeriesChart* gpuChart() const { return m_gpu; }
  QPushButton* stopButton() const { return m_stop; }

 signals:
  void stopRequested();

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void retranslate();
  void updateLatencyTitles();
  QString endText() const;
  void reset();
  void onUpdated(std::size_t firstNewRecord, std::size_t firstNewSample);
  void updateProgress();

  RunController* m_controller;
  QProgressBar* m_progress = nullptr;
  QLabel* m_counts = nullptr;
  QLabel* m_stage = nullptr;
  QPushButton* m_stop = nullptr;
  QGridLayout* m_grid = nullptr;
  TimeSeriesChart* m_latency = nullptr;
  TimeSeriesChart* m_throughput = nullptr;
  TimeSeriesChart* m_server = nullptr;
  TimeSeriesChart* m_gpu = nullptr;
  QList<QPointF> m_ttft, m_e2e;              // milliseconds
  double m_ttftUnit = 1.0, m_e2eUnit = 1.0;  // 1000 once a line is shown in seconds
  std::vector<double> m_tokensPerSecond;     // chunks per 1 s bin from the run's origin
  std::map<std::string, QList<QPointF>> m_sampleSeries;
  QString m_stageText;
  int m_endState = 0;  // 0 running or idle, 1 finished, 2 stopped
};

}  // namespace ayar
