#include "core/interop/result_import.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <new>

#include "core/error.h"
#include "core/interop/guidellm_report_import.h"
#include "core/interop/profile_export_import.h"
#include "core/interop/vllm_result_import.h"
#include "core/report/json_input.h"
#include "core/report/json_type_name.h"
#include "core/report/message_text.h"

namespace ayar {

namespace {

MessageArgument knownFormats() {
  return Message{MessageText::ImportKnownFormats, {}}.asArgument();
}

// Messages said in one language, for the import mark (which keeps each language's list).
std::vector<std::string> texts(const std::vector<Message>& messages, ReportLanguage language) {
  std::vector<std::string> out;
  out.reserve(messages.size());
  for (const Message& message : messages)
    out.push_back(message.in(language));
  return out;
}

std::string megabytes(std::uintmax_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return text;
}

// Refuses a file over the size limit before anything of it is read.
void requireSizeAtMost(const std::filesystem::path& file, const ImportLimits& limits) {
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(file, ec);
  if (!ec && size > limits.maxFileBytes) {
    throw MessageError(Message{MessageText::ImportFileTooLarge,
                               {file.string(), megabytes(size), megabytes(limits.maxFileBytes)}});
  }
}

std::string readText(const std::filesystem::path& file, const ImportLimits& limits) {
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec)) {
    throw MessageError({MessageText::ImportIsFolder, {file.string(), knownFormats()}});
  }
  requireSizeAtMost(file, limits);
  std::ifstream in(file, std::ios::binary);
  if (!in) throw MessageError({MessageText::ImportCannotOpen, {file.string()}});
  std::string text;
  text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return text;
}

bool endsWith(const std::string& text, std::string_view suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool hasMetricObject(const nlohmann::ordered_json& root) {
  for (const char* name : {"time_to_first_token", "request_latency", "request_throughput", "request_count"}) {
    const auto it = root.find(name);
    if (it != root.end() && it->is_object() && it->contains("unit")) return true;
  }
  const auto records = root.find("records");
  return records != root.end() && records->is_object();
}

// A profile export is genai-perf's when its name says so, or its input_config is genai-perf's.
bool isGenaiPerf(const std::filesystem::path& file, const nlohmann::ordered_json& root) {
  if (file.filename().string().find("genai_perf") != std::string::npos) return true;
  if (file.filename().string().find("aiperf") != std::string::npos) return false;
  const auto config = root.find("input_config");
  return config != root.end() && config->is_object() &&
         (config->contains("perf_analyzer") || config->contains("model_names") || config->contains("model"));
}

std::vector<ImportedRun> readProfileExport(const std::filesystem::path& file,
                                           const nlohmann::ordered_json* root, const ImportLimits& limits) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (root == nullptr) {  // the per-request .jsonl: its summary sits beside it, if anywhere
    requireSizeAtMost(file, limits);
    const fs::path summary = file.parent_path() / "profile_export_aiperf.json";
    if (fs::is_regular_file(summary, ec)) {
      const std::string text = readText(summary, limits);
      json_input::requireDepthAtMost(text, summary.string(), limits.maxDepth);
      const auto objects = parseResultObjects(text, summary.string());
      return {importProfileExport("aiperf", summary, nlohmann::json::parse(objects.front().dump()), file)};
    }
    return {importProfileExport("aiperf", std::nullopt, nullptr, file)};
  }
  const std::string tool = isGenaiPerf(file, *root) ? "genai-perf" : "aiperf";
  std::optional<fs::path> records;
  if (tool == "aiperf") {
    const fs::path beside = file.parent_path() / "profile_export.jsonl";
    if (fs::is_regular_file(beside, ec)) {
      requireSizeAtMost(beside, limits);
      records = beside;
    }
  }
  return {importProfileExport(tool, file, nlohmann::json::parse(root->dump()), records)};
}

nlohmann::json toJson(const nlohmann::ordered_json& value) {
  return nlohmann::json::parse(value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

std::vector<ImportedRun> readRuns(const std::filesystem::path& file, const ImportLimits& limits) {
  if (endsWith(file.filename().string(), ".jsonl")) return readProfileExport(file, nullptr, limits);
  const std::string text = readText(file, limits);
  // Before anything recursive sees the text: parsed values are copied and written recursively.
  json_input::requireDepthAtMost(text, file.string(), limits.maxDepth);

  std::vector<nlohmann::ordered_json> objects;
  try {
    objects = parseResultObjects(text, file.string());
  } catch (const Error&) {
    std::string first = text.substr(0, text.find('\n'));
    throw MessageError({MessageText::ImportNotJson, {file.string(), first.substr(0, 40), knownFormats()}});
  }
  const nlohmann::ordered_json& root = objects.front();
  if (!root.is_object()) {
    throw MessageError(
        {MessageText::ImportNotObject, {file.string(), jsonTypeName(toJson(root)), knownFormats()}});
  }
  if (root.contains("benchmarks")) return importGuidellmReport(file, toJson(root));
  if (root.contains("completed") || root.contains("duration"))
    return importVllmResults(file, objects, json_input::topLevelTexts(text));
  if (root.contains("input_config") || hasMetricObject(root)) return readProfileExport(file, &root, limits);
  throw MessageError({MessageText::ImportUnknownFormat, {file.string(), knownFormats()}});
}

}  // namespace

std::vector<ImportedRun> readImportedRuns(const std::filesystem::path& file) {
  return readImportedRuns(file, ImportLimits{});
}

std::vector<ImportedRun> readImportedRuns(const std::filesystem::path& file, const ImportLimits& limits) {
  try {
    return readRuns(file, limits);
  } catch (const std::bad_alloc&) {
    // What was allocated is freed by now; say which file did not fit.
    std::error_code ec;
    const std::uintmax_t size = std::filesystem::file_size(file, ec);
    throw MessageError(Message{MessageText::ImportOutOfMemory, {file.string(), ec ? "?" : megabytes(size)}});
  }
}

FinishedRun toFinishedRun(const ImportedRun& run) {
  nlohmann::json mark = {{"tool", run.tool},
                         {"version", run.toolVersion},
                         {"format", run.format},
                         {"file", run.source.string()},
                         {"title", run.title},
                         {"recomputed", run.recomputed},
                         {"requests", run.records.size()},
                         {"notes", texts(run.notes, ReportLanguage::English)},
                         {"notes_tr", texts(run.notes, ReportLanguage::Turkish)},
                         {"differences", texts(run.differences, ReportLanguage::English)},
                         {"differences_tr", texts(run.differences, ReportLanguage::Turkish)}};
  if (!run.requestsSource.empty()) mark["requests_file"] = run.requestsSource.string();

  FinishedRun out;
  RunInfo& info = out.info;
  info.label = run.setup.label.value_or("");
  info.backend = run.setup.backend;
  info.baseUrl = run.baseUrl;
  info.endpoint = run.endpoint;
  info.model = run.setup.modelId;
  info.servedModelName = run.setup.modelId;
  info.tokenizer = run.setup.tokenizerId;
  info.profile = {{"name", run.tool + " import" + (run.title.empty() ? "" : ": " + run.title)},
                  {"num_prompts", run.setup.numPrompts},
                  {"max_concurrency", run.setup.maxConcurrency ? nlohmann::json(*run.setup.maxConcurrency)
                                                               : nlohmann::json(nullptr)}};
  info.config = {{"imported", mark}};

  std::error_code ec;
  double started = 0.0;
  if (run.startedAtS) {
    started = *run.startedAtS;
  } else if (const auto modified = std::filesystem::last_write_time(run.source, ec); !ec) {
    // Tools write their file when the run ends.
    started = static_cast<double>(std::chrono::duration_cast<std::chrono::seconds>(
                                      std::chrono::file_clock::to_sys(modified).time_since_epoch())
                                      .count()) -
              run.summary.durationS;
    const Message note{MessageText::ImportNoteStartFromFileTime, {}};
    mark["notes"].push_back(note.in(ReportLanguage::English));
    mark["notes_tr"].push_back(note.in(ReportLanguage::Turkish));
  }
  // The system clock holds nanoseconds since 1970 in 64 bits, up to the year 2262: a start or an end
  // outside that comes from a date or a duration that cannot be true, and cannot be stored or shown.
  constexpr double kClockEndS = 9.2e9;
  const bool fromDate = run.startedAtS.has_value();
  if (!(started >= 0.0 && started < kClockEndS)) {
    json_input::failImpossible(run.source.string(), fromDate ? "date" : "duration",
                               json_input::numberText(fromDate ? started : run.summary.durationS),
                               json_input::outsideClockReason());
  }
  if (!(started + run.summary.durationS < kClockEndS)) {
    json_input::failImpossible(run.source.string(), "duration", json_input::numberText(run.summary.durationS),
                               json_input::outsideClockReason());
  }
  out.createdAt = started;
  out.finishedAt = started + run.summary.durationS;
  out.status =
      run.summary.completed == 0 && run.summary.failed > 0 ? RunStatus::Failed : RunStatus::Completed;
  out.requests = run.records;

  ResultSetup setup = run.setup;
  if (setup.numPrompts == 0) setup.numPrompts = run.summary.completed + run.summary.failed;
  // The run's own start, not the time of the import (vLLM's files keep their own date).
  if (setup.date.empty()) {
    setup.date = formatResultDate(
        std::chrono::system_clock::time_point(std::chrono::duration_cast<std::chrono::system_clock::duration>(
            std::chrono::duration<double>(started))));
  }
  info.config["imported"] = mark;
  nlohmann::json ayar = {{"imported", mark}};
  out.summary = toJson(resultJson(setup, run.summary, {}, /*detailed=*/false, ayar));
  if (!run.originalText.empty()) {
    ayar["imported_original_text"] = run.originalText;
  } else if (!run.original.is_null()) {
    ayar["imported_original"] = toJson(run.original);
    nlohmann::json order = nlohmann::json::array();
    for (const auto& [key, value] : run.original.items())
      order.push_back(key);
    ayar["imported_original_key_order"] = order;
  }
  nlohmann::ordered_json result =
      resultJson(setup, run.summary, run.records, /*detailed=*/!run.records.empty(), ayar);
  if (!run.startTimesKnown) {
    // The records' start times are 0 for want of the file's: not written as if they were measured.
    result.erase("start_times");
    result.erase("queue_times");
  }
  out.result = toJson(result);
  return out;
}

const nlohmann::json* importMarkOf(const RunInfo& info) {
  const auto it = info.config.find("imported");
  return it != info.config.end() && it->is_object() ? &*it : nullptr;
}

}  // namespace ayar
