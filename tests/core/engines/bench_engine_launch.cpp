// Prints what starting and stopping engines costs Ayar itself: spawning and reaping a child,
// capturing its output, and a launcher's start-to-healthy and stop times against the test server
// (which is ready at once, so the figures are Ayar's overhead, not an engine's load time).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <numeric>
#include <string>
#include <vector>

#include "core/engines/engine_launcher.h"
#include "core/engines/process.h"
#include "core/engines/resources_dir.h"

namespace {

using Clock = std::chrono::steady_clock;

double ms(Clock::duration duration) {
  return std::chrono::duration<double, std::milli>(duration).count();
}

void report(const char* what, std::vector<double> samples) {
  std::sort(samples.begin(), samples.end());
  const double mean =
      std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(samples.size());
  std::printf("%-44s n=%-4zu mean %8.2f ms  p50 %8.2f ms  p90 %8.2f ms\n", what, samples.size(), mean,
              samples[samples.size() / 2], samples[samples.size() * 9 / 10]);
}

}  // namespace

int main() {
  using namespace std::chrono_literals;
  std::vector<double> spawnReap;
  for (int i = 0; i < 200; ++i) {
    const auto start = Clock::now();
    ayar::ProcessOptions options;
    options.args = {"true"};
    ayar::Process process(std::move(options));
    process.wait();
    process.stop();
    spawnReap.push_back(ms(Clock::now() - start));
  }
  report("spawn + wait + stop of true", spawnReap);

  const auto log = std::filesystem::temp_directory_path() / "ayar-bench-capture.log";
  const long lines = 2'000'000;
  const auto captureStart = Clock::now();
  {
    ayar::ProcessOptions options;
    options.args = {"sh", "-c",
                    "yes 'INFO 12-02 09:41:00 engine.py: step done' | head -n " + std::to_string(lines)};
    options.logPath = log;
    ayar::Process process(std::move(options));
    process.wait();
    process.stop();
  }
  const double seconds = ms(Clock::now() - captureStart) / 1000.0;
  const double megabytes = static_cast<double>(std::filesystem::file_size(log)) / 1e6;
  std::printf("%-44s %.1f MB, %ld lines in %.2f s: %.0f MB/s, %.2f M lines/s\n",
              "output capture (log + tail)", megabytes, lines, seconds, megabytes / seconds,
              static_cast<double>(lines) / seconds / 1e6);
  std::filesystem::remove(log);

  const auto catalogue = ayar::EngineCatalogue::loadFolder(ayar::resourcesDir() / "engines");
  std::vector<double> toHealthy;
  std::vector<double> toStopped;
  for (int i = 0; i < 20; ++i) {
    ayar::EngineSpec spec;
    spec.model = "qwen3-tiny";
    ayar::LaunchOptions options;
    options.bundledEngine = AYAR_TEST_HEALTH_SERVER;
    options.logPath = log;
    ayar::EngineLauncher launcher(spec, catalogue, options);
    auto start = Clock::now();
    launcher.start();
    toHealthy.push_back(ms(Clock::now() - start));
    start = Clock::now();
    launcher.stop();
    toStopped.push_back(ms(Clock::now() - start));
  }
  report("launcher start until /health is 200", toHealthy);
  report("launcher stop (SIGTERM, reap, log closed)", toStopped);
  std::filesystem::remove(log);
  return 0;
}
