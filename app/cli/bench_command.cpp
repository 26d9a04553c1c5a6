#include "app/cli/bench_command.h"

#include <algorithm>
#include <charconv>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <random>
#include <sstream>
#include <thread>

#include "app/cli/bench_flags.h"
#include "app/cli/progress_display.h"
#include "core/engines/engine_catalogue.h"
#include "core/engines/engine_launcher.h"
#include "core/error.h"
#include "core/metrics/run_summary.h"
#include "core/report/result_json.h"
#include "core/report/text_block.h"
#include "core/store/store_path.h"
#include "core/study/benchmark_run.h"
#include "core/telemetry/gpu_monitor.h"

namespace ayar::cli {
namespace {

// Set by SIGINT/SIGTERM; the main thread turns it into BenchmarkRun::cancel().
std::atomic<int> g_stopSignals{0};

extern "C" void onStopSignal(int) {
  if (g_stopSignals.fetch_add(1) >= 1) {
    // A second Ctrl-C: leave at once. The store keeps every committed request; the run shows as
    // interrupted.
    std::_Exit(130);
  }
}

// vLLM's file name: {label}-{rate}qps[-concurrency{n}]-{model}-{date}.json, or for a ramp-up
// {label}-ramp-up-{strategy}-{start}qps-{end}qps[-concurrency{n}]-{model}-{date}.json; the label
// defaults to the backend. The rate is written as Python writes a float (8.0, inf).
std::string defaultResultFileName(const RunOutcome& outcome, const std::string& label,
                                  const ProfileSpec& profile, const std::string& model) {
  std::ostringstream name;
  name.imbue(std::locale::classic());
  name << label << '-';
  if (!profile.rampUpStrategy.empty()) {
    name << "ramp-up-" << profile.rampUpStrategy << '-' << profile.rampUpStartRps << "qps-"
         << profile.rampUpEndRps << "qps";
  } else if (std::isinf(outcome.requestRate)) {
    name << "infqps";
  } else {
    char text[64];
    const auto end = std::to_chars(text, text + sizeof text, outcome.requestRate).ptr;
    const std::string rate(text, end);
    name << rate << (rate.find_first_of(".e") == std::string::npos ? ".0" : "") << "qps";
  }
  if (profile.maxConcurrency) name << "-concurrency" << *profile.maxConcurrency;
  const std::string base =
      model.substr(model.find_last_of('/') == std::string::npos ? 0 : model.find_last_of('/') + 1);
  name << '-' << base << '-' << formatResultDate(std::chrono::system_clock::now()) << ".json";
  return name.str();
}

// Runs it on a worker thread while this one draws the progress and turns Ctrl-C into cancel().
std::vector<RunOutcome> execute(const RunSpec& spec, const BenchFlags& flags, ProgressDisplay& display,
                                bool& cancelled) {
  RunObserver observer;
  observer.onStage = [&display](const Message& message) {
    display.message("ayar: " + message.in(ReportLanguage::English));
  };
  // The local GPUs' utilisation, memory and power go with the run's samples when the engine runs
  // here (started by Ayar, or a remote URL on loopback); NVML absent: nothing is sampled.
  std::optional<GpuMonitor> gpus;  // NVML is not even loaded for a remote engine
  if (runsOnThisMachine(spec.engine) && gpus.emplace().available())
    observer.extraSamples = [&gpus](double tS) { return gpus->sample(tS); };
  BenchmarkRun run(spec, observer);

  std::vector<RunOutcome> outcomes;
  std::exception_ptr error;
  std::atomic<bool> done{false};
  std::thread worker([&] {
    try {
      outcomes = run.run();
    } catch (...) {
      error = std::current_exception();
    }
    done = true;
  });
  struct sigaction action {};
  action.sa_handler = onStopSignal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
  bool cancelAnnounced = false;
  while (!done) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (g_stopSignals.load() > 0 && !cancelAnnounced) {
      cancelAnnounced = true;
      display.message(
          "ayar: stopping — requests in flight are cut, what finished is kept (Ctrl-C again to quit at "
          "once)");
      run.cancel();
    }
    const LoadProgress progress = run.progress();
    if (!flags.disableTqdm && progress.total > 0) display.update(progress);
  }
  worker.join();
  cancelled = run.cancelled();
  if (error) std::rethrow_exception(error);
  return outcomes;
}

// vLLM's result file of one load test (--save-result, --save-detailed, --append-result).
void saveResultFile(const RunOutcome& outcome, const RunSpec& spec, const BenchFlags& flags, bool several) {
  const nlohmann::ordered_json result = resultForFile(outcome.result, flags.saveDetailed);
  std::filesystem::path dir =
      flags.resultDir.empty() ? std::filesystem::current_path() : std::filesystem::path(flags.resultDir);
  std::string fileName = flags.resultFilename;
  if (fileName.empty() || several) {
    const std::string label = flags.label.empty() ? result.value("backend", "openai") : flags.label;
    fileName = defaultResultFileName(outcome, label, spec.profile, result.value("model_id", "model"));
  }
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  const auto path = dir / fileName;
  // --append-result adds the result as a new line, as vLLM does, so that one file collects runs.
  const bool append =
      flags.appendResult && std::filesystem::exists(path) && std::filesystem::file_size(path, ec) > 0;
  std::ofstream out(path, flags.appendResult ? std::ios::app : std::ios::trunc);
  if (!out) throw Error("cannot write the result file " + path.string() + ": check --result-dir");
  if (append) out << '\n';
  out << result.dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
  if (!out.flush()) throw Error("could not write the result file " + path.string() + " (disk full?)");
  std::cerr << "ayar: result " << (append ? "appended to " : "saved to ") << path.string() << "\n";
}

// One load test's figures as vLLM prints them, where it was stored and saved, and what failed. Returns
// the exit code it asks for: 1 when every request failed.
int present(const RunOutcome& outcome, const RunSpec& spec, const BenchFlags& flags, bool several) {
  if (several) std::cout << "\n### " << outcome.title << "\n";
  TextBlockOptions textOptions;
  textOptions.style = parseTextBlockStyle(flags.resultStyle);
  if (!std::isinf(outcome.requestRate)) textOptions.requestRate = outcome.requestRate;
  textOptions.syntheticDataset = outcome.facts.syntheticDataset;
  std::cout << formatServingBenchmarkResult(outcome.summary, textOptions);
  if (outcome.facts.simulated) {
    std::cout << "SIMULATED: the server ran no model; figures come from its timing model.\n";
  }
  if (outcome.cancelled) {
    std::cout << "Stopped by the user; " << outcome.cancelledInFlight
              << " requests in flight were cut and are not counted.\n";
  }
  std::cout.flush();
  if (outcome.storeRunId) {
    std::cerr << "ayar: stored as run " << *outcome.storeRunId << " in " << spec.storePath.string() << "\n";
  }
  if (flags.saveResult || flags.appendResult || flags.saveDetailed || !flags.resultFilename.empty())
    saveResultFile(outcome, spec, flags, several);
  if (outcome.summary.completed == 0 && !outcome.cancelled) {
    std::cerr << "ayar: every request failed";
    if (!outcome.summary.errors.empty())
      std::cerr << "; first error: " << outcome.summary.errors.front().message;
    std::cerr << "\n";
    return 1;
  }
  if (outcome.summary.failed > 0) {
    std::cerr << "ayar: " << outcome.summary.failed << " requests failed; the first errors:\n";
    for (const auto& e : outcome.summary.errors)
      std::cerr << "  " << e.count << " x " << e.message << "\n";
  }
  return 0;
}

int runBench(const BenchFlags& flags, const Overrides& overrides, const CLI::App& command) {
  const RunSpec spec = benchSpec(flags, overrides, command);
  ProgressDisplay display;
  bool cancelled = false;
  const std::vector<RunOutcome> outcomes = execute(spec, flags, display, cancelled);
  int exitCode = 0;
  for (const auto& outcome : outcomes)
    exitCode = std::max(exitCode, present(outcome, spec, flags, outcomes.size() > 1));
  if (cancelled) {
    // Interrupted by the user: what was measured is printed and stored, and scripts see 130.
    if (outcomes.empty()) std::cerr << "ayar: stopped before any request was sent\n";
    return 130;
  }
  return exitCode;
}

}  // namespace

void addBenchCommand(CLI::App& app, int& exitCode) {
  auto* cmd = app.add_subcommand("bench", "Run a serving benchmark (vllm bench serve's flags; see --help)");
  auto flags = std::make_shared<BenchFlags>();
  auto overrides = std::make_shared<Overrides>();
  declareBenchFlags(cmd, flags, overrides);
  cmd->callback([cmd, flags, overrides, &exitCode] { exitCode = runBench(*flags, *overrides, *cmd); });
}

}  // namespace ayar::cli
