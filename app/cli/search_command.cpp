#include "app/cli/search_command.h"

#include <atomic>
#include <csignal>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "core/error.h"
#include "core/report/text_block.h"
#include "core/store/store_path.h"
#include "core/study/search.h"

namespace ayar::cli {
namespace {

std::atomic<bool> g_searchCancelled{false};

extern "C" void onSearchStopSignal(int) {
  if (g_searchCancelled.exchange(true)) std::_Exit(130);  // a second Ctrl-C: leave at once
}

struct SearchFlags {
  // The engine.
  std::string engine = "bundled";
  std::string model;
  std::string device = "auto";
  std::vector<std::string> engineArgs;
  std::string baseUrl;
  std::string tokenizer;
  // The load.
  std::string profile;
  int numPrompts = 0;
  int warmups = 0;
  // The limits.
  double sloTtft = 0, sloTpot = 0, sloE2el = 0;
  double sloAttainment = 0.9;
  double successFloor = 0.99;
  // tune
  std::string flag;
  long long min = 0, max = 0;
  std::string values;
  std::string figure = "output_throughput";
  double plateau = 0.01;
  // capacity
  double startRate = 1.0;
  double maxRate = 1024.0;
  double tolerance = 0.05;
  int maxProbes = 12;
  // Output.
  std::string store;
  bool noStore = false;
  std::string lang = "en";
  std::string format = "md";
  std::string output;
};

SearchSetup setupFrom(const SearchFlags& flags) {
  SearchSetup setup;
  if (!flags.baseUrl.empty()) {
    setup.engine.kind = EngineKind::Remote;
    setup.engine.baseUrl = flags.baseUrl;
  } else if (flags.engine == "bundled" || flags.engine == "ayar") {
    setup.engine.kind = EngineKind::Bundled;
    setup.engine.engine = "ayar";
  } else {
    setup.engine.kind = EngineKind::External;
    setup.engine.engine = flags.engine;
  }
  setup.engine.model = flags.model;
  setup.engine.device = flags.device;
  for (const std::string& arg : flags.engineArgs)
    setup.engine.flags.push_back(EngineFlag::fromArgument(arg));
  setup.engine.validate();
  setup.tokenizer = flags.tokenizer;
  setup.profile = loadProfile(flags.profile);
  if (flags.numPrompts > 0) setup.profile.numPrompts = flags.numPrompts;
  if (flags.sloTtft > 0) setup.slo.ttftMs = flags.sloTtft;
  if (flags.sloTpot > 0) setup.slo.tpotMs = flags.sloTpot;
  if (flags.sloE2el > 0) setup.slo.e2elMs = flags.sloE2el;
  setup.sloAttainment = flags.sloAttainment;
  setup.successRateFloor = flags.successFloor;
  setup.warmupRequests = flags.warmups;
  if (!flags.noStore)
    setup.storePath = flags.store.empty() ? defaultStorePath() : std::filesystem::path(flags.store);
  return setup;
}

void writeReport(const SearchFlags& flags, const ReportDocument& document) {
  const std::string text = renderReport(document, parseReportFormat(flags.format));
  if (flags.output.empty()) {
    std::cout << text;
    return;
  }
  std::ofstream out(flags.output, std::ios::binary);
  if (!out) throw Error("cannot write " + flags.output + ": check the folder exists and is writable");
  out << text;
}

void printProbe(const SearchProbe& probe, const std::string& what) {
  std::cerr << "ayar: " << what << " " << formatFixed2(probe.value) << " (" << probe.step << "): ";
  if (!probe.started) {
    std::cerr << "the engine did not start: " << probe.error.substr(0, probe.error.find('\n')) << "\n";
    return;
  }
  std::cerr << (probe.figure ? formatFixed2(*probe.figure) : std::string("-")) << ", SLOs met "
            << formatFixed2(probe.sloAttainment * 100.0) << "%, success "
            << formatFixed2(probe.successRate * 100.0) << "%, "
            << (probe.withinLimits ? "within the limits" : "outside the limits")
            << (probe.runId ? ", run " + std::to_string(*probe.runId) : std::string()) << "\n";
}

void installStopHandler() {
  struct sigaction action {};
  action.sa_handler = onSearchStopSignal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

std::vector<long long> candidateValues(const SearchFlags& flags) {
  std::vector<long long> values;
  if (!flags.values.empty()) {
    std::istringstream in(flags.values);
    std::string item;
    while (std::getline(in, item, ',')) {
      try {
        std::size_t used = 0;
        values.push_back(std::stoll(item, &used));
        if (used != item.size()) throw std::invalid_argument(item);
      } catch (const std::exception&) {
        throw Error("--values takes whole numbers separated by commas, like 32,64,128; \"" + item +
                    "\" is not one");
      }
    }
    return values;
  }
  if (flags.max < flags.min || flags.max - flags.min > 100000)
    throw Error("give --min and --max (--max at least --min, at most 100000 values), or --values");
  for (long long value = flags.min; value <= flags.max; ++value)
    values.push_back(value);
  return values;
}

int runTuneCommand(const SearchFlags& flags) {
  const ReportLanguage language = parseReportLanguage(flags.lang);
  parseReportFormat(flags.format);
  TuneSpec spec;
  spec.setup = setupFrom(flags);
  spec.flag = flags.flag;
  spec.values = candidateValues(flags);
  spec.figure = parseRunFigure(flags.figure);
  spec.plateau = flags.plateau;
  installStopHandler();
  const TuneResult result = runTune(
      spec, [&](const SearchProbe& probe) { printProbe(probe, flags.flag); }, &g_searchCancelled);
  writeReport(flags, tuneReport(spec, result, reportLocaleFor(language, parseReportFormat(flags.format))));
  if (g_searchCancelled) return 130;
  return result.best ? 0 : 1;
}

int runCapacityCommand(const SearchFlags& flags) {
  const ReportLanguage language = parseReportLanguage(flags.lang);
  parseReportFormat(flags.format);
  CapacitySpec spec;
  spec.setup = setupFrom(flags);
  spec.startRate = flags.startRate;
  spec.maxRate = flags.maxRate;
  spec.tolerance = flags.tolerance;
  spec.maxProbes = flags.maxProbes;
  installStopHandler();
  const CapacityResult result = runCapacity(
      spec, [&](const SearchProbe& probe) { printProbe(probe, "rate"); }, &g_searchCancelled);
  writeReport(flags,
              capacityReport(spec, result, reportLocaleFor(language, parseReportFormat(flags.format))));
  if (g_searchCancelled) return 130;
  return result.capacity ? 0 : 1;
}

void addCommonOptions(CLI::App* command, SearchFlags& f) {
  command->add_option("--engine", f.engine,
                      "bundled (default) or an engine template: vllm, sglang, tensorrt-llm");
  command
      ->add_option("--model", f.model,
                   "The model to serve (a preset of the bundled engine, an id or a folder)")
      ->required();
  command->add_option("--device", f.device,
                      "The bundled engine's device: auto, cuda, cpu or sim (default auto)");
  command->add_option(
      "--engine-arg", f.engineArgs,
      "An engine flag, repeatable: --engine-arg=--sim-profile=step:10,5 --engine-arg=--enforce-eager");
  command->add_option("--tokenizer", f.tokenizer, "tokenizer.json or its folder (default: the Qwen3 one)");
  command
      ->add_option("--profile", f.profile, "The load: a profile name (see `ayar-cli profiles`) or JSON file")
      ->required();
  command->add_option("--num-prompts", f.numPrompts, "Requests per probe (default: the profile's)")
      ->check(CLI::PositiveNumber);
  command->add_option("--warmup", f.warmups, "Warm-up requests before each probe, not counted")
      ->check(CLI::NonNegativeNumber);
  command->add_option("--slo-ttft", f.sloTtft, "SLO on TTFT in ms")->check(CLI::PositiveNumber);
  command->add_option("--slo-tpot", f.sloTpot, "SLO on TPOT in ms")->check(CLI::PositiveNumber);
  command->add_option("--slo-e2el", f.sloE2el, "SLO on end-to-end latency in ms")->check(CLI::PositiveNumber);
  command
      ->add_option("--slo-attainment", f.sloAttainment,
                   "Share of successful requests that must meet every SLO (default 0.9)")
      ->check(CLI::Range(0.0, 1.0));
  command->add_option("--success-floor", f.successFloor, "Share of requests that must succeed (default 0.99)")
      ->check(CLI::Range(0.0, 1.0));
  command->add_option("--store", f.store, "Results store file (default: ~/.local/share/ayar/ayar.db)");
  command->add_flag("--no-store", f.noStore, "Do not keep the probes' runs");
  command->add_option("--lang", f.lang, "Report language: en or tr (default en)");
  command->add_option("--format", f.format, "Report format: md, html, csv or json (default md)");
  command->add_option("-o,--output", f.output, "File to write the report to (default: standard output)");
}

}  // namespace

void addSearchCommands(CLI::App& app, int& exitCode) {
  auto flags = std::make_shared<SearchFlags>();
  auto* tune = app.add_subcommand(
      "tune",
      "Search one engine flag for the best figure while the SLOs hold (ternary search, each probe reported)");
  addCommonOptions(tune, *flags);
  tune->add_option("--flag", flags->flag, "The flag to search, e.g. --max-num-seqs")->required();
  tune->add_option("--min", flags->min, "Smallest value");
  tune->add_option("--max", flags->max, "Largest value");
  tune->add_option("--values", flags->values,
                   "The candidate values instead of --min/--max, e.g. 32,64,128,256");
  tune->add_option(
      "--figure", flags->figure,
      "The figure to optimise, as in vLLM's result JSON (default output_throughput; e.g. mean_e2el_ms)");
  tune->add_option("--plateau", flags->plateau,
                   "Probes within this share of each other count as a plateau (default 0.01)")
      ->check(CLI::Range(0.0, 1.0));
  tune->callback([flags, &exitCode] { exitCode = runTuneCommand(*flags); });

  auto* capacity = app.add_subcommand(
      "capacity",
      "Find the largest request rate whose goodput meets the SLOs (rate search with interpolation)");
  addCommonOptions(capacity, *flags);
  capacity->add_option("--base-url", flags->baseUrl, "A running server instead of starting one");
  capacity->add_option("--start-rate", flags->startRate, "The first rate, req/s (default 1)")
      ->check(CLI::PositiveNumber);
  capacity->add_option("--max-rate", flags->maxRate, "The highest rate to try, req/s (default 1024)")
      ->check(CLI::PositiveNumber);
  capacity
      ->add_option("--tolerance", flags->tolerance,
                   "Stop when the passing and failing rates are this close, relative (default 0.05)")
      ->check(CLI::PositiveNumber);
  capacity->add_option("--max-probes", flags->maxProbes, "At most this many probes (default 12)")
      ->check(CLI::PositiveNumber);
  capacity->callback([flags, &exitCode] { exitCode = runCapacityCommand(*flags); });
}

}  // namespace ayar::cli
