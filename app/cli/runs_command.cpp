#include "app/cli/runs_command.h"

#include <cstdio>
#include <fstream>
#include <iostream>

#include "app/cli/cli_store.h"
#include "app/cli/terminal_text.h"
#include "core/error.h"
#include "core/interop/result_import.h"
#include "core/interop/vllm_result_export.h"
#include "core/metrics/run_summary.h"
#include "core/report/request_csv.h"
#include "core/report/result_json.h"
#include "core/report/text_block.h"
#include "core/store/result_store.h"
#include "core/store/store_path.h"
#include "core/study/profile_spec.h"

namespace ayar::cli {
namespace {

struct RunsFlags {
  std::string store;
  std::string label;
  std::string model;
  std::string status;
  int limit = 50;
  std::int64_t id = 0;
  std::string format = "json";
  std::string output;
  std::vector<std::string> files;
  std::string toolVersion;
};

std::filesystem::path storePath(const RunsFlags& flags) {
  return existingStorePath(flags.store, "ayar-cli bench");
}

std::string fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

// The result file of a stored run: the one written when it finished, else rebuilt from the requests
// the store kept (an interrupted run).
nlohmann::ordered_json resultOf(ResultStore& store, const StoredRun& run) {
  if (!run.result.is_null() && !run.result.empty()) return nlohmann::ordered_json::parse(run.result.dump());
  const std::vector<RequestRecord> records = store.loadRequests(run.id);
  ResultSetup setup;
  setup.backend = run.info.backend.empty() ? "openai" : run.info.backend;
  if (!run.info.label.empty()) setup.label = run.info.label;
  setup.modelId = run.info.servedModelName.empty() ? run.info.model : run.info.servedModelName;
  setup.tokenizerId = run.info.tokenizer;
  setup.numPrompts = run.info.profile.value("num_prompts", static_cast<int>(records.size()));
  const RunSummary summary = computeRunSummary(records);
  nlohmann::json ayarJson = {{"engine", run.info.engine},
                             {"profile", run.info.profile},
                             {"status", std::string(toString(run.status))},
                             {"rebuilt_from_store", true}};
  return resultJson(setup, summary, records, /*detailed=*/true, ayarJson);
}

// Where imports go: the store, created when this is the first run in it.
std::filesystem::path importStorePath(const RunsFlags& flags) {
  return flags.store.empty() ? defaultStorePath() : std::filesystem::path(flags.store);
}

std::string describeImport(const RunImportFacts& imported) {
  std::string text = imported.tool.empty() ? std::string("?") : imported.tool;
  text += imported.version.empty() ? " (version not recorded)" : " " + imported.version;
  text += ", " + (imported.file.empty() ? std::string("?") : imported.file);
  if (!imported.requestsFile.empty()) text += " + " + imported.requestsFile;
  return text;
}

int importRuns(const RunsFlags& flags) {
  // Read every file before writing anything: a bad file among several leaves the store as it was.
  std::vector<ImportedRun> runs;
  for (const std::string& file : flags.files) {
    std::vector<ImportedRun> fromFile = readImportedRuns(file);
    for (ImportedRun& run : fromFile) {
      if (!flags.toolVersion.empty()) run.toolVersion = flags.toolVersion;
      runs.push_back(std::move(run));
    }
  }
  ResultStore store(importStorePath(flags));
  for (const ImportedRun& run : runs) {
    const std::int64_t id = store.addFinishedRun(toFinishedRun(run));
    std::cout << "run " << id << ": imported from " << run.source.string()
              << (run.title.empty() ? "" : " (" + run.title + ")") << ", " << run.tool
              << (run.toolVersion.empty() ? "" : " " + run.toolVersion) << ", " << run.summary.completed
              << " completed, " << run.summary.failed << " failed; "
              << (run.recomputed
                      ? "figures recomputed from its " + std::to_string(run.records.size()) + " requests"
                      : std::string("figures as written"))
              << "\n";
    for (const Message& note : run.notes)
      std::cout << "    note: " << note.in(ReportLanguage::English) << "\n";
    for (const Message& difference : run.differences)
      std::cout << "    differs: " << difference.in(ReportLanguage::English) << "\n";
  }
  return 0;
}

int listRuns(const RunsFlags& flags) {
  ResultStore store(storePath(flags));
  RunFilter filter;
  if (!flags.label.empty()) filter.label = flags.label;
  if (!flags.model.empty()) filter.model = flags.model;
  if (!flags.status.empty()) filter.status = parseRunStatus(flags.status);
  filter.limit = flags.limit;
  const auto runs = store.listRuns(filter);
  if (runs.empty()) {
    std::cout << "no runs in " << store.path().string() << "\n";
    return 0;
  }
  std::printf("%-5s %-19s %-11s %-16s %-14s %-22s %6s %6s %9s %10s %10s %10s\n", "ID", "STARTED", "STATUS",
              "LABEL", "MODEL", "PROFILE", "OK", "FAILED", "REQ/S", "OUT TOK/S", "TTFT ms", "TPOT ms");
  for (const auto& run : runs) {
    // A run that never finished has no summary row: its figures come from the requests it kept, as
    // `runs show` gives them.
    const bool unfinished = !run.summary.is_object() || run.summary.empty();
    const nlohmann::json s =
        unfinished && run.storedRequests > 0 ? nlohmann::json(resultOf(store, run)) : run.summary;
    auto number = [&](const char* key, int decimals) {
      return s.is_object() && s.contains(key) && s[key].is_number() ? fixed(s[key].get<double>(), decimals)
                                                                    : std::string("-");
    };
    std::string profile = runProfileName(run).name;
    if (profile.empty()) profile = run.info.dataset;
    if (const auto imported = runImportFacts(run.info))
      profile = "imported: " + (imported->tool.empty() ? std::string("?") : imported->tool);
    std::printf("%-5lld %-19s %-11s %-16.16s %-14.14s %-22.22s %6s %6s %9s %10s %10s %10s\n",
                static_cast<long long>(run.id), localTime(run.createdAt).c_str(),
                std::string(toString(run.status)).c_str(), oneLine(run.info.label).c_str(),
                oneLine(run.info.model).c_str(), oneLine(profile).c_str(), number("completed", 0).c_str(),
                number("failed", 0).c_str(), number("request_throughput", 2).c_str(),
                number("output_throughput", 1).c_str(), number("mean_ttft_ms", 2).c_str(),
                number("mean_tpot_ms", 2).c_str());
  }
  return 0;
}

std::string describeProfile(const nlohmann::json& json) {
  try {
    ProfileSpec profile;
    from_json(json, profile);
    return profile.describe();
  } catch (const Error&) {
    return json.dump();  // written by another version: show it as it is
  }
}

std::string profileNameOrDash(const StoredRun& run) {
  const std::string name = runProfileName(run).name;
  return name.empty() ? std::string("-") : name;
}

std::string describeEngine(const StoredRun& run) {
  if (!run.info.engine.is_object() || run.info.engine.empty()) return "not recorded";
  const RunEngineFacts engine = runEngineFacts(run);
  std::string text = !engine.command.empty()
                         ? engine.command
                         : "remote endpoint " + (engine.baseUrl.empty() ? "?" : engine.baseUrl);
  if (runFacts(run).simulated) text += " (SIMULATED)";
  return text;
}

StoredRun requireRun(ResultStore& store, std::int64_t id) {
  auto run = store.findRun(id);
  if (!run)
    throw Error("no run " + std::to_string(id) + " in " + store.path().string() +
                ": see `ayar-cli runs list`");
  return *run;
}

int showRun(const RunsFlags& flags) {
  ResultStore store(storePath(flags));
  const StoredRun run = requireRun(store, flags.id);
  const std::optional<RunImportFacts> imported = runImportFacts(run.info);
  const RunEngineFacts engine = runEngineFacts(run);
  std::cout << "Run " << run.id << " (" << run.uuid << ")\n"
            << "  status:    " << toString(run.status) << "\n"
            << "  started:   " << localTime(run.createdAt) << "\n";
  if (run.finishedAt) std::cout << "  finished:  " << localTime(*run.finishedAt) << "\n";
  if (!run.info.label.empty()) std::cout << "  label:     " << run.info.label << "\n";
  std::cout << "  model:     " << run.info.model << "\n"
            << "  target:    " << run.info.baseUrl << run.info.endpoint << " (" << run.info.backend << ")\n"
            << "  dataset:   " << run.info.dataset << "\n"
            << "  profile:   " << (imported ? profileNameOrDash(run) : describeProfile(run.info.profile))
            << "\n"
            << "  load:      " << run.info.config.value("load", std::string("-")) << "\n"
            << "  engine:    " << describeEngine(run) << "\n"
            << (engine.logPath.empty() ? std::string() : "  engine log: " + engine.logPath + "\n")
            << "  requests stored: " << run.storedRequests << "\n";
  if (!run.info.notes.empty()) std::cout << "  notes:     " << run.info.notes << "\n";
  if (imported) {
    std::cout << "  imported:  " << describeImport(*imported) << "\n"
              << "  figures:   "
              << (imported->recomputed ? "recomputed from the file's requests" : "as the file wrote them")
              << "\n";
    for (const MessageArgument& note : imported->notes)
      std::cout << "    note: " << note.english << "\n";
    for (const MessageArgument& difference : imported->differences)
      std::cout << "    differs: " << difference.english << "\n";
  }
  std::cout << "\n";
  const auto result = resultOf(store, run);
  const ResultFile parsed = parseResultJson(result.dump(), "run " + std::to_string(run.id));
  TextBlockOptions options;
  options.ayarLines = !imported;  // dispatch lag and dataset are not in other tools' files
  options.syntheticDataset = runFacts(run).syntheticDataset;
  std::cout << formatServingBenchmarkResult(parsed.summary, options);
  return 0;
}

int exportRun(const RunsFlags& flags) {
  ResultStore store(storePath(flags));
  const StoredRun run = requireRun(store, flags.id);
  std::string text;
  if (flags.format == "json") {
    text = resultOf(store, run).dump() + "\n";
  } else if (flags.format == "vllm") {
    const nlohmann::json stored = nlohmann::json::parse(resultOf(store, run).dump());
    // A run imported from a vLLM file gives back the file's own bytes; any other run is written as
    // Python's json.dump writes it, without a newline after it, as vLLM does.
    if (auto original = importedOriginalText(stored)) {
      text = std::move(*original);
    } else {
      text = vllmResultText(vllmResultOf(stored, store.loadRequests(run.id)));
    }
  } else {
    text = requestsCsv(store.loadRequests(run.id));
  }
  if (flags.output.empty() || flags.output == "-") {
    std::cout << text;
    return 0;
  }
  std::ofstream out(flags.output, std::ios::binary);
  if (!out || !(out << text) || !out.flush())
    throw Error("cannot write " + flags.output + ": check the path");
  std::cerr << "ayar: run " << run.id << " exported to " << flags.output << "\n";
  return 0;
}

int deleteRun(const RunsFlags& flags) {
  ResultStore store(storePath(flags));
  if (!store.deleteRun(flags.id))
    throw Error("no run " + std::to_string(flags.id) + " in " + store.path().string());
  std::cerr << "ayar: run " << flags.id << " deleted\n";
  return 0;
}

}  // namespace

void addRunsCommand(CLI::App& app, int& exitCode) {
  auto* runs =
      app.add_subcommand("runs", "List, show, import, export and delete the runs in the results store");
  runs->require_subcommand(1);
  auto flags = std::make_shared<RunsFlags>();
  auto addStore = [&flags](CLI::App* command) {
    command->add_option("--store", flags->store, "Results store file (default: ~/.local/share/ayar/ayar.db)");
  };

  auto* list = runs->add_subcommand("list", "Runs, newest first");
  list->add_option("--label", flags->label, "Only runs with this label");
  list->add_option("--model", flags->model, "Only runs of this model");
  list->add_option("--status", flags->status, "Only runs with this status")
      ->check(CLI::IsMember({"running", "completed", "interrupted", "failed", "cancelled"}));
  list->add_option("--limit", flags->limit, "At most this many (0: all; default 50)")
      ->check(CLI::NonNegativeNumber);
  addStore(list);
  list->callback([flags, &exitCode] { exitCode = listRuns(*flags); });

  auto* show = runs->add_subcommand("show", "One run: its set-up and its figures");
  show->add_option("ID", flags->id, "Run id (see runs list)")->required();
  addStore(show);
  show->callback([flags, &exitCode] { exitCode = showRun(*flags); });

  auto* exp =
      runs->add_subcommand("export", "One run as Ayar's result JSON, vLLM's result file, or per-request CSV");
  exp->add_option("ID", flags->id, "Run id (see runs list)")->required();
  exp->add_option("--format", flags->format,
                  "json (default: vLLM's keys plus Ayar's \"ayar\" object, detailed), vllm (exactly what "
                  "`vllm bench serve --save-result --save-detailed` writes; a run imported from a vLLM file "
                  "gives back that file) or csv (one row per request)")
      ->check(CLI::IsMember({"json", "vllm", "csv"}));
  exp->add_option("-o,--output", flags->output, "File to write (default: standard output)");
  addStore(exp);
  exp->callback([flags, &exitCode] { exitCode = exportRun(*flags); });

  auto* imp = runs->add_subcommand(
      "import",
      "Add runs from other tools' result files: vLLM --save-result JSON (detailed or not, appended or "
      "not), guidellm's benchmarks report, AIPerf's profile_export_aiperf.json or profile_export.jsonl, "
      "genai-perf's profile_export_genai_perf.json");
  imp->add_option("FILE", flags->files, "Result files; nothing is stored unless every one can be read")
      ->required()
      ->check(CLI::ExistingFile);
  imp->add_option("--tool-version", flags->toolVersion,
                  "The version of the tool that wrote the files, when they do not record it (vLLM's do not)");
  addStore(imp);
  imp->callback([flags, &exitCode] { exitCode = importRuns(*flags); });

  auto* del = runs->add_subcommand("delete", "Remove a run and its requests from the store");
  del->add_option("ID", flags->id, "Run id (see runs list)")->required();
  addStore(del);
  del->callback([flags, &exitCode] { exitCode = deleteRun(*flags); });
}

}  // namespace ayar::cli
