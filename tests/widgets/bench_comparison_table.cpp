// bench_comparison_table: what a comparison costs the workbench's GUI thread, and when its intervals
// arrive. Two runs of N requests (log-normal TTFT, TPOT and end-to-end latency), the default figures, one
// candidate; ComparisonTableModel::setComparison timed on the calling (GUI) thread, then the wait until
// intervalsReady. Medians of 5.
//
//   bench_comparison_table [N...]   (default 10000 100000)
#include <QApplication>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "core/metrics/latency_values.h"
#include "core/metrics/speedup_interval.h"
#include "widgets/comparison_table_model.h"

namespace {

ayar::ComparedRun makeRun(const char* name, std::size_t n, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::lognormal_distribution<double> ttft(std::log(40.0), 0.5), tpot(std::log(8.0), 0.3),
      e2el(std::log(900.0), 0.4);
  ayar::ComparedRun run{QString::fromLatin1(name), {}, {}};
  for (auto& [metric, draw] :
       {std::pair{ayar::LatencyMetric::Ttft, &ttft}, std::pair{ayar::LatencyMetric::Tpot, &tpot},
        std::pair{ayar::LatencyMetric::E2el, &e2el}}) {
    std::vector<double>& values = run.values[metric];
    for (std::size_t i = 0; i < n; ++i)
      values.push_back((*draw)(random));
    ayar::LatencyStats& stats = run.summary.stats(metric);
    stats.samples = n;
    stats.meanMs = ayar::sampleStatistic(values, ayar::SampleStatistic::Mean);
    stats.percentilesMs.push_back({99.0, ayar::sampleStatistic(values, ayar::SampleStatistic::P99)});
  }
  run.summary.completed = static_cast<int>(n);
  return run;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  std::vector<std::size_t> sizes;
  for (int i = 1; i < argc; ++i)
    sizes.push_back(static_cast<std::size_t>(std::strtoull(argv[i], nullptr, 10)));
  if (sizes.empty()) sizes = {10000, 100000};
  std::printf("%12s %18s %22s\n", "requests", "GUI thread (ms)", "intervals ready (ms)");
  for (const std::size_t n : sizes) {
    const ayar::ComparedRun baseline = makeRun("#1", n, 1);
    const ayar::ComparedRun candidate = makeRun("#2", n, 2);
    std::vector<double> gui, ready;
    for (int r = 0; r < 5; ++r) {
      ayar::ComparisonTableModel model;
      QSignalSpy spy(&model, &ayar::ComparisonTableModel::intervalsReady);
      QElapsedTimer timer;
      timer.start();
      model.setComparison(baseline, {candidate});
      gui.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
      if (!spy.wait(600000)) {
        std::fprintf(stderr, "bench_comparison_table: no intervals after 10 minutes\n");
        return 1;
      }
      ready.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
    }
    std::printf("%12zu %18.2f %22.1f\n", n, median(gui), median(ready));
  }
  return 0;
}
