#include "core/interop/profile_export_import.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>

#include "core/error.h"
#include "core/interop/import_summary.h"
#include "core/interop/json_field.h"
#include "core/report/json_input.h"
#include "core/report/message_text.h"

namespace ayar {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
const std::vector<double> kPercentiles{50.0, 90.0, 95.0, 99.0};

// Milliseconds per one of the export's time units; nullopt for a unit that is not a time.
std::optional<double> msPer(std::string_view unit) {
  if (unit == "ms") return 1.0;
  if (unit == "s" || unit == "sec" || unit == "seconds") return 1000.0;
  if (unit == "us") return 1e-3;
  if (unit == "ns") return 1e-6;
  return std::nullopt;
}

// A time cannot be negative or infinite; one that is is refused naming its field.
double timeInMs(const JsonField& metric, const JsonField& value) {
  const std::string unit = metric["unit"].string();
  const auto scale = msPer(unit);
  if (!scale) metric["unit"].fail({MessageText::ImportNotTimeUnit, {unit}});
  return value.nonNegative() * *scale;
}

// The export's metric objects sit at the top level, or under "records" in some AIPerf versions.
std::optional<JsonField> findMetric(const JsonField& root, std::string_view name) {
  if (auto metric = root.find(name); metric && metric->value().is_object()) return metric;
  if (auto records = root.find("records")) {
    if (auto metric = records->find(name); metric && metric->value().is_object()) return metric;
  }
  return std::nullopt;
}

// Every figure of the export is a count, a time or a rate: none can be negative or infinite.
std::optional<double> average(const JsonField& root, std::string_view name) {
  if (auto plain = root.find(name); plain && plain->value().is_number()) return plain->nonNegative();
  if (auto metric = findMetric(root, name)) {
    if (auto avg = metric->find("avg")) return avg->nonNegative();
  }
  return std::nullopt;
}

// Reads one latency metric's figures and notes the vLLM keys they stand for.
bool readWrittenStats(const JsonField& root, std::string_view name, LatencyMetric as, LatencyStats& stats,
                      import_summary::WrittenKeys& keys) {
  const auto metric = findMetric(root, name);
  if (!metric || !metric->find("avg")) return false;
  const std::string key(latencyMetricKey(as));
  stats.meanMs = timeInMs(*metric, (*metric)["avg"]);
  keys.insert("mean_" + key + "_ms");
  if (auto p50 = metric->find("p50")) {
    stats.medianMs = timeInMs(*metric, *p50);
    keys.insert("median_" + key + "_ms");
  }
  if (auto std = metric->find("std")) {
    stats.stdMs = timeInMs(*metric, *std);
    keys.insert("std_" + key + "_ms");
  }
  for (double p : kPercentiles) {
    if (auto value = metric->find("p" + percentileWord(p))) {
      stats.percentilesMs.push_back({p, timeInMs(*metric, *value)});
      keys.insert("p" + percentileWord(p) + "_" + key + "_ms");
    }
  }
  return true;
}

// The command's set-up, from AIPerf's input_config or genai-perf's (newer nested or older flat).
void readInputConfig(const JsonField& root, ImportedRun& run) {
  run.setup.backend = "openai";
  const auto config = root.find("input_config");
  if (!config || !config->value().is_object()) {
    run.notes.push_back({MessageText::ImportNoteNoInputConfig, {}});
    return;
  }
  const auto text = [](const std::optional<JsonField>& field) -> std::string {
    return field && field->value().is_string() ? field->string() : std::string();
  };
  const auto firstName = [](const std::optional<JsonField>& field) -> std::string {
    if (!field) return {};
    if (field->value().is_string()) return field->string();
    if (field->value().is_array() && !field->value().empty() && field->value()[0].is_string())
      return (*field)[0].string();
    return {};
  };
  const std::optional<JsonField> endpoint = config->find("endpoint");
  const bool nested = endpoint && endpoint->value().is_object();
  run.setup.modelId = firstName(nested ? endpoint->findAny({"model_names", "model"}) : std::nullopt);
  if (run.setup.modelId.empty()) run.setup.modelId = firstName(config->findAny({"model_names", "model"}));
  if (run.setup.modelId.empty()) {  // AIPerf's later layout: {"models": {"items": [{"name": ...}]}}
    if (auto models = config->find("models"); models && models->value().is_object()) {
      if (auto items = models->find("items");
          items && items->value().is_array() && !items->value().empty() && (*items)[0].value().is_object()) {
        run.setup.modelId = text((*items)[0].find("name"));
      }
    }
  }
  // One URL ("url"), or AIPerf's list of them ("urls"): the first is the target.
  run.baseUrl = firstName(nested ? endpoint->findAny({"url", "urls"}) : config->findAny({"url", "urls"}));
  run.endpoint = text(nested ? endpoint->find("custom_endpoint") : config->find("endpoint"));
  const std::string type = text(nested ? endpoint->find("type") : config->find("endpoint_type"));
  if (type == "chat") run.setup.backend = "openai-chat";

  std::optional<JsonField> load = config->findAny({"loadgen"});
  if (!load) {
    if (auto pa = config->find("perf_analyzer"); pa && pa->value().is_object()) load = pa->find("stimulus");
  }
  if (!load) load = *config;  // older genai-perf: flat
  if (!load->value().is_object()) return;
  if (auto concurrency = load->find("concurrency")) run.setup.maxConcurrency = concurrency->count();
  if (auto rate = load->find("request_rate")) {
    run.setup.requestRate = rate->nonNegative();
    const std::string mode = text(load->findAny({"request_rate_mode", "arrival_pattern"}));
    run.setup.burstiness = mode.find("constant") != std::string::npos ? kInf : 1.0;
  }
  if (auto count = load->find("request_count")) run.setup.numPrompts = count->count();
}

// The export's own figures, and the vLLM keys they stand for. `requestsBeside`: the per-request file
// will give the counts and the duration, so the summary may lack them.
import_summary::WrittenKeys readWrittenSummary(const JsonField& root, ImportedRun& run, bool requestsBeside) {
  import_summary::WrittenKeys keys;
  RunSummary& s = run.summary;
  s.maxConcurrency = run.setup.maxConcurrency;
  s.percentiles = kPercentiles;
  if (readWrittenStats(root, "time_to_first_token", LatencyMetric::Ttft, s.ttft, keys))
    s.percentileMetrics.push_back(LatencyMetric::Ttft);
  if (readWrittenStats(root, "inter_token_latency", LatencyMetric::Tpot, s.tpot, keys))
    s.percentileMetrics.push_back(LatencyMetric::Tpot);
  if (readWrittenStats(root, "inter_chunk_latency", LatencyMetric::Itl, s.itl, keys))
    s.percentileMetrics.push_back(LatencyMetric::Itl);
  if (readWrittenStats(root, "request_latency", LatencyMetric::E2el, s.e2el, keys))
    s.percentileMetrics.push_back(LatencyMetric::E2el);

  // No count, no run: a run with 0 requests and a request rate would contradict itself.
  const auto completed = average(root, "request_count");
  if (!completed && !requestsBeside) {
    throw MessageError(
        Message{MessageText::ImportNoRequestCount, {root.source(), std::string("request_count")}});
  }
  const auto countOf = [&](double value, const char* field) {
    return json_input::requireCount(value, root.source(), field);
  };
  if (completed) {
    s.completed = countOf(*completed, "request_count");
    keys.insert("completed");
  }
  // AIPerf writes error_request_count only when some request failed: absent, none failed.
  if (auto failed = average(root, "error_request_count")) {
    s.failed = countOf(*failed, "error_request_count");
    keys.insert("failed");
  }
  const auto throughput = average(root, "request_throughput");
  if (auto duration = findMetric(root, "benchmark_duration")) {
    s.durationS = timeInMs(*duration, (*duration)["avg"]) / 1000.0;
  } else if (throughput && *throughput > 0.0) {
    s.durationS = s.completed / *throughput;  // genai-perf writes no duration
  } else if (!requestsBeside) {
    throw MessageError(Message{MessageText::ImportNoDuration,
                               {root.source(), std::string("benchmark_duration, request_throughput")}});
  }
  // A total the export does not give is absent: never 0, never a throughput that leaves it out.
  const auto total = [&](std::string_view totalName,
                         std::string_view perRequest) -> std::optional<std::int64_t> {
    if (auto value = average(root, totalName)) return std::llround(*value);
    if (auto mean = average(root, perRequest); mean && completed) return std::llround(*mean * s.completed);
    return std::nullopt;
  };
  // Only a total the export writes is compared: a mean times the count is rounded.
  s.totalInputTokens = total("total_isl", "input_sequence_length");
  if (average(root, "total_isl")) keys.insert("total_input_tokens");
  if (auto output = total("total_osl", "output_sequence_length")) {
    s.totalOutputTokens = *output;
    if (average(root, "total_osl")) keys.insert("total_output_tokens");
  } else {
    run.notes.push_back({MessageText::ImportNoteNoOutputTokens, {}});
  }
  if (!s.totalInputTokens) run.notes.push_back({MessageText::ImportNoteNoInputTokens, {}});
  import_summary::setDuration(s, s.durationS);
  if (throughput) {
    s.requestThroughput = *throughput;
    keys.insert("request_throughput");
  }
  if (auto output = average(root, "output_token_throughput")) {
    s.outputThroughput = *output;
    keys.insert("output_throughput");
  }
  if (auto goodput =
          findMetric(root, "goodput") ? average(root, "goodput") : average(root, "request_goodput")) {
    s.requestGoodput = goodput;
  }
  // The export writes no peak figures.
  s.maxOutputTokensPerS.reset();
  s.maxConcurrentRequests.reset();
  if (s.percentileMetrics.empty() && s.completed > 0) {
    root.fail({MessageText::ImportNoLatencyMetric, {}});
  }
  return keys;
}

// One line of AIPerf's profile_export.jsonl.
struct ExportRecord {
  std::int64_t startNs = 0;
  RequestRecord record;
};

ExportRecord readRecordLine(const JsonField& line) {
  ExportRecord out;
  RequestRecord& r = out.record;
  const JsonField metadata = line["metadata"];
  // Nanoseconds since 1970: a negative one cannot be true (and two far apart would overflow their
  // difference, which gives each request's start).
  const JsonField start = metadata["request_start_ns"];
  out.startNs = start.integer();
  if (out.startNs < 0)
    json_input::failImpossible(start.source(), start.path(), std::to_string(out.startNs),
                               json_input::negativeReason());
  if (auto session = metadata.find("session_num")) r.index = session->integer();
  const bool cancelled = metadata.find("was_cancelled") && metadata["was_cancelled"].boolean();
  const std::optional<JsonField> error = line.find("error");
  r.success = !error && !cancelled;
  r.httpStatus = r.success ? 200 : 0;
  if (error) {
    const std::string type =
        error->optionalString("type").value_or(error->optionalString("error_type").value_or(""));
    const std::string message =
        error->optionalString("message").value_or(error->optionalString("error_message").value_or(""));
    r.error = type.empty() ? message : message.empty() ? type : type + ": " + message;
    if (auto code = error->findAny({"code", "error_code"}); code && code->value().is_number_integer()) {
      r.httpStatus = static_cast<int>(code->integer());
    }
  } else if (cancelled) {
    r.error = "cancelled by AIPerf";
  }
  if (r.error.empty() && !r.success) r.error = "(no error message)";

  const std::optional<JsonField> metrics = line.find("metrics");
  const auto value = [&](std::string_view name) -> std::optional<JsonField> {
    if (!metrics) return std::nullopt;
    if (auto metric = metrics->find(name)) return (*metric)["value"];
    return std::nullopt;
  };
  const auto timeMs = [&](std::string_view name) -> std::optional<double> {
    if (auto v = value(name)) return timeInMs((*metrics)[name], *v);
    return std::nullopt;
  };
  const auto count = [&](std::initializer_list<std::string_view> names) -> int {
    for (std::string_view name : names) {
      if (auto v = value(name)) return v->count();
    }
    return 0;
  };
  r.promptTokens = count({"input_sequence_length", "error_isl"});
  if (r.success) r.outputTokens = count({"output_sequence_length", "output_token_count"});
  if (auto ttft = timeMs("time_to_first_token")) {
    double t = *ttft / 1000.0;
    r.chunkTimesS.push_back(t);
    if (auto gaps = value("inter_chunk_latency")) {
      const double scale = *msPer((*metrics)["inter_chunk_latency"]["unit"].string()) / 1000.0;
      for (const JsonField& gap : gaps->items()) {
        t += gap.nonNegative() * scale;
        r.chunkTimesS.push_back(t);
      }
    }
  } else if (auto latency = timeMs("request_latency"); latency && r.success) {
    r.chunkTimesS.push_back(*latency / 1000.0);  // not streamed: the answer arrives at once
  }
  return out;
}

struct RecordsFile {
  std::vector<RequestRecord> records;
  double firstStartS = 0.0;  // Unix time of the first request
  std::size_t warmupSkipped = 0;
};

RecordsFile readRecordsFile(const std::filesystem::path& path) {
  RecordsFile file;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw MessageError({MessageText::ImportCannotOpen, {path.string()}});
  std::vector<ExportRecord> read;
  std::string text;
  std::size_t lineNumber = 0;
  while (std::getline(in, text)) {
    ++lineNumber;
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
    // file:line, as compilers name a line: the same in every language.
    const std::string source = path.string() + ":" + std::to_string(lineNumber);
    json_input::requireDepthAtMost(text, source);
    nlohmann::json line;
    try {
      line = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
      throw MessageError({MessageText::ImportRecordsNotJson,
                          {source, std::string(e.what()),
                           Message{MessageText::ImportExpectAiperfRecords, {}}.asArgument()}});
    }
    const JsonField field(line, source, MessageText::ImportExpectAiperfRecords);
    if (auto phase = field["metadata"].optionalString("benchmark_phase"); phase && *phase != "profiling") {
      ++file.warmupSkipped;
      continue;
    }
    read.push_back(readRecordLine(field));
  }
  if (read.empty())
    throw MessageError({MessageText::ImportRecordsEmpty,
                        {path.string(), Message{MessageText::ImportExpectAiperfRecords, {}}.asArgument()}});
  std::stable_sort(read.begin(), read.end(),
                   [](const auto& a, const auto& b) { return a.startNs < b.startNs; });
  const std::int64_t origin = read.front().startNs;
  file.firstStartS = static_cast<double>(origin) / 1e9;
  for (std::size_t i = 0; i < read.size(); ++i) {
    RequestRecord record = std::move(read[i].record);
    // Whole nanoseconds apart first: epoch nanoseconds do not fit a double exactly.
    record.startS = static_cast<double>(read[i].startNs - origin) / 1e9;
    record.scheduledS = record.startS;
    record.index = static_cast<std::int64_t>(i);
    file.records.push_back(std::move(record));
  }
  return file;
}

}  // namespace

ImportedRun importProfileExport(const std::string& tool,
                                const std::optional<std::filesystem::path>& summaryFile,
                                const nlohmann::json& summary,
                                const std::optional<std::filesystem::path>& recordsFile) {
  ImportedRun run;
  run.tool = tool;
  run.format = tool == "aiperf" ? "AIPerf profile export" : "genai-perf profile export";
  run.source = summaryFile ? *summaryFile : *recordsFile;
  const MessageText expected =
      tool == "aiperf" ? MessageText::ImportExpectAiperf : MessageText::ImportExpectGenaiPerf;
  const nlohmann::json summaryObject = summary.is_null() ? nlohmann::json::object() : summary;
  const JsonField root(summaryObject, summaryFile ? summaryFile->string() : std::string(), expected);
  import_summary::WrittenKeys writtenKeys;
  if (summaryFile) {
    root.requireObject();
    if (auto version = root.findAny({"aiperf_version", "genai_perf_version", "version"});
        version && version->value().is_string()) {
      run.toolVersion = version->string();
    }
    readInputConfig(root, run);
    if (auto started = root.optionalString("start_time")) {
      run.startedAtS = import_summary::parseLocalTime(*started, "%Y-%m-%dT%H:%M:%S");
    }
    writtenKeys = readWrittenSummary(root, run, recordsFile.has_value());
    if (!recordsFile) run.notes.push_back({MessageText::ImportNoteNoPeaks, {}});
  }
  if (!recordsFile) {
    run.notes.push_back({MessageText::ImportNoteNoRecordsFile, {}});
    return run;
  }

  run.requestsSource = *recordsFile;
  RecordsFile read = readRecordsFile(*recordsFile);
  run.records = std::move(read.records);
  if (!run.startedAtS) run.startedAtS = read.firstStartS;
  if (read.warmupSkipped > 0) {
    run.notes.push_back(
        {MessageText::ImportNoteWarmupLeftOut, {countArgument(static_cast<long long>(read.warmupSkipped))}});
  }
  const RunSummary written = run.summary;
  std::optional<double> duration;
  if (summaryFile && written.durationS > 0.0) duration = written.durationS;
  run.summary = import_summary::recompute(
      run.records, {LatencyMetric::Ttft, LatencyMetric::Tpot, LatencyMetric::Itl, LatencyMetric::E2el},
      kPercentiles, run.setup.maxConcurrency, duration);
  run.summary.requestGoodput = written.requestGoodput;  // its SLOs are not in the export
  run.recomputed = true;
  if (run.setup.numPrompts == 0) run.setup.numPrompts = static_cast<int>(run.records.size());
  run.notes.push_back(
      {duration ? MessageText::ImportNoteAiperfRecomputed : MessageText::ImportNoteAiperfRecomputedSpan,
       {countArgument(static_cast<long long>(run.records.size())), recordsFile->filename().string()}});
  run.notes.push_back({MessageText::ImportNoteAiperfNoDue, {}});
  if (summaryFile) run.differences = import_summary::differences(written, run.summary, writtenKeys);
  return run;
}

}  // namespace ayar
