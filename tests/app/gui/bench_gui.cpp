// bench_gui: the workbench's responsiveness figures (issue 8), printed.
//   1. Cold start to a usable window: this program started again as a child (`--cold-start`), timed
//      from before the exec to the child's first event-loop turn after the window is shown.
//   2. Event-loop stalls under load: the whole window runs a real load test against the bundled
//      engine's timing simulator, sized so that --in-flight requests are in flight and the live charts
//      hold 2 x --requests points; a 5 ms timer on the UI thread records how late it fires.
//   3. One redraw of a live chart holding 100,000 points.
// Run under a display: xvfb-run -a build/dev/bin/bench_gui
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <algorithm>
#include <chrono>
#include <clocale>
#include <cstdio>
#include <string>
#include <vector>

#include "app/gui/live_page.h"
#include "app/gui/main_window.h"
#include "app/gui/run_controller.h"
#include "app/gui/setup_panel.h"
#include "core/load/load_runner.h"
#include "core/metrics/statistics.h"
#include "tests/app/gui/gui_test_support.h"
#include "widgets/time_series_chart.h"

namespace {

using Clock = std::chrono::steady_clock;

double ms(Clock::duration d) {
  return std::chrono::duration<double, std::milli>(d).count();
}

// CPU time of the calling thread, in milliseconds.
double threadCpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

// Starts this program with --cold-start and returns the milliseconds until it reports a usable window.
double coldStartMs(const char* self) {
  int fds[2];
  if (pipe(fds) != 0) return -1;
  const auto start = Clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    dup2(fds[1], 3);
    execl(self, self, "--cold-start", static_cast<char*>(nullptr));
    _exit(127);
  }
  close(fds[1]);
  char byte = 0;
  const bool ok = read(fds[0], &byte, 1) == 1;
  const auto end = Clock::now();
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return ok ? ms(end - start) : -1;
}

// The child: build the window, show it, and on the first turn of the event loop after it is exposed,
// write one byte to fd 3 and quit.
int coldStartChild(QApplication& app, const QString& store) {
  ayar::MainWindow window({store.toStdString(), QStringLiteral("en")});
  window.show();
  QTimer::singleShot(0, &app, [&] {
    const char byte = 1;
    if (write(3, &byte, 1) != 1) std::perror("write");
    app.quit();
  });
  return app.exec();
}

// How late each 5 ms tick came, and how much of the gap the UI thread spent on the CPU itself (its own
// work: drawing, handling records) rather than waiting for a core the OS gave to other threads.
struct Stalls {
  std::vector<double> lateMs;
  std::vector<double> busyMs;
  double maxBusyMs() const { return busyMs.empty() ? 0 : *std::max_element(busyMs.begin(), busyMs.end()); }
  double maxMs() const { return lateMs.empty() ? 0 : *std::max_element(lateMs.begin(), lateMs.end()); }
  double p99Ms() const {
    auto sorted = lateMs;
    std::sort(sorted.begin(), sorted.end());
    return ayar::percentileLinear(sorted, 99.0);
  }
  std::size_t over(double limit) const {
    return static_cast<std::size_t>(
        std::count_if(lateMs.begin(), lateMs.end(), [&](double v) { return v > limit; }));
  }
};

std::string loadAverage() {
  FILE* f = std::fopen("/proc/loadavg", "r");
  if (!f) return "?\n";
  char line[128] = {};
  const bool ok = std::fgets(line, sizeof line, f) != nullptr;
  std::fclose(f);
  return ok ? std::string(line) : std::string("?\n");
}

}  // namespace

int main(int argc, char** argv) {
  QStandardPaths::setTestModeEnabled(true);
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // each figure out as soon as it is measured
  QApplication app(argc, argv);
  std::setlocale(LC_NUMERIC, "C");
  QApplication::setOrganizationName(QStringLiteral("AyarBench"));
  QApplication::setApplicationName(QStringLiteral("bench_gui"));
  QCommandLineParser parser;
  const QCommandLineOption coldStart(QStringLiteral("cold-start"));
  const QCommandLineOption requests(QStringLiteral("requests"), QStringLiteral("requests in the load test"),
                                    QStringLiteral("N"), QStringLiteral("50000"));
  const QCommandLineOption inFlight(QStringLiteral("in-flight"), QStringLiteral("requests in flight"),
                                    QStringLiteral("N"), QStringLiteral("2000"));
  const QCommandLineOption seconds(QStringLiteral("request-seconds"), QStringLiteral("each request's length"),
                                   QStringLiteral("S"), QStringLiteral("1"));
  const QCommandLineOption starts(QStringLiteral("starts"), QStringLiteral("cold starts to time"),
                                  QStringLiteral("N"), QStringLiteral("5"));
  parser.addOptions({coldStart, requests, inFlight, seconds, starts});
  parser.process(app);
  QTemporaryDir dir;
  const QString store = dir.path() + QStringLiteral("/ayar.db");
  if (parser.isSet(coldStart)) return coldStartChild(app, store);

  // 1. Cold start.
  {
    const int n = parser.value(starts).toInt();
    std::vector<double> times;
    coldStartMs(argv[0]);  // the first start also warms the page cache; not counted
    for (int i = 0; i < n; ++i)
      times.push_back(coldStartMs(argv[0]));
    std::sort(times.begin(), times.end());
    std::printf(
        "cold start to usable window: median %.0f ms, max %.0f ms over %d starts (target < 1500 ms)\n",
        times[times.size() / 2], times.back(), n);
  }

  // 3. One redraw of a chart with 100,000 points.
  {
    ayar::TimeSeriesChart chart;
    chart.resize(800, 400);
    chart.show();
    const int series = chart.addSeries(QStringLiteral("TTFT"));
    QList<QPointF> points;
    for (int i = 0; i < 100000; ++i)
      points.append(QPointF(i * 0.0003, 20.0 + (i * 7919 % 1000) / 50.0));
    QApplication::processEvents();
    const auto start = Clock::now();
    chart.setPoints(series, points);
    chart.repaint();
    std::printf("one live-chart redraw with 100,000 points: %.1f ms (setPoints + repaint)\n",
                ms(Clock::now() - start));
  }

  // 2. Stalls during a real load test.
  const int n = parser.value(requests).toInt();
  const int flight = parser.value(inFlight).toInt();
  const double lengthS = parser.value(seconds).toDouble();
  const double rate = flight / lengthS;
  // Fixed timings: TTFT of half the length, then 10 tokens over the other half.
  const int ttftMs = static_cast<int>(lengthS * 500);
  const int tpotMs = static_cast<int>(lengthS * 50);
  ayar::MainWindow window({store.toStdString(), QStringLiteral("en")});
  window.resize(1500, 940);
  window.show();
  ayar::RunSpec spec = ayar::test::simRunSpec(ttftMs, tpotMs, n, rate, "bench_gui");
  spec.profile.randomInputLen = 16;
  spec.profile.randomOutputLen = 11;
  window.setupPanel()->setRunSpec(spec);

  Stalls duringRun, atEnd;
  bool finished = false;
  std::size_t peakInFlight = 0;
  auto last = Clock::now();
  double lastCpu = threadCpuMs();
  QTimer probe;
  probe.setTimerType(Qt::PreciseTimer);
  probe.setInterval(5);
  QObject::connect(&probe, &QTimer::timeout, [&] {
    const auto now = Clock::now();
    const double cpu = threadCpuMs();
    const double late = ms(now - last) - 5.0;
    Stalls& stalls = finished ? atEnd : duringRun;
    stalls.lateMs.push_back(std::max(0.0, late));
    stalls.busyMs.push_back(cpu - lastCpu);
    last = now;
    lastCpu = cpu;
    peakInFlight = std::max(peakInFlight, window.controller()->progress().inFlight);
  });
  QSignalSpy done(&window, &ayar::MainWindow::runFinished);
  QObject::connect(window.controller(), &ayar::RunController::finished, [&] { finished = true; });
  if (!window.startRun()) {
    std::fprintf(stderr, "bench_gui: %s\n", qPrintable(window.statusText()));
    return 1;
  }
  last = Clock::now();
  lastCpu = threadCpuMs();
  probe.start();
  const auto runStart = Clock::now();
  if (!done.wait(600000)) {
    std::fprintf(stderr, "bench_gui: the run did not finish\n");
    return 1;
  }
  // A second of the finished window, results shown.
  QElapsedTimer settle;
  settle.start();
  while (settle.elapsed() < 1000)
    QApplication::processEvents(QEventLoop::AllEvents, 50);
  probe.stop();
  const auto* chart = window.livePage()->latencyChart();
  std::printf("load: %d requests, %.0f req/s, requests of %.1f s: peak %zu in flight, %zu records, %.1f s\n",
              n, rate, lengthS, peakInFlight, window.controller()->records().size(),
              ms(Clock::now() - runStart) / 1000);
  std::printf("live charts: %zu points held (TTFT + E2E per request), %lld drawn after decimation\n",
              2 * window.controller()->records().size(),
              static_cast<long long>(chart->shownPoints(0).size() + chart->shownPoints(1).size()));
  std::printf(
      "UI thread during the run: %zu probes, stall max %.1f ms, p99 %.1f ms, %zu over 50 ms (target max <= "
      "50); "
      "longest own work between two ticks %.1f ms\n",
      duringRun.lateMs.size(), duringRun.maxMs(), duringRun.p99Ms(), duringRun.over(50.0),
      duringRun.maxBusyMs());
  std::printf(
      "UI thread while the finished run's results show: stall max %.1f ms, longest own work %.1f ms\n",
      atEnd.maxMs(), atEnd.maxBusyMs());
  std::printf("machine load average at the end: %s", loadAverage().c_str());
  return 0;
}
