#include "core/interop/guidellm_report_import.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/interop/import_summary.h"
#include "core/interop/json_field.h"
#include "core/report/json_input.h"

namespace ayar {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
const std::vector<double> kPercentiles{50.0, 90.0, 95.0, 99.0};

std::string rateText(double rate) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", rate);
  return text;
}

// A request's times as guidellm keeps them, from either generation of its request schema.
struct GuidellmRequest {
  double start = 0.0;
  std::optional<double> firstToken;
  std::optional<double> lastToken;
  double end = 0.0;
  int promptTokens = 0;
  int outputTokens = 0;
  std::string output;
  std::string error;
};

// A time of the request that must not come before its start (`start` is null for the start itself).
double timeAfter(const JsonField& field, const double* start) {
  const double t = field.nonNegative();
  if (start != nullptr && t < *start) {
    json_input::failImpossible(field.source(), field.path(), json_input::numberText(t),
                               json_input::beforeStartReason());
  }
  return t;
}

GuidellmRequest readRequest(const JsonField& request) {
  GuidellmRequest r;
  if (auto info = request.find("info")) {  // schema 1 and 2: GenerativeRequestStats
    const JsonField timings = (*info)["timings"];
    r.start = timeAfter(timings.requireAny({"request_start", "resolve_start"}), nullptr);
    if (auto v = timings.find("first_token_iteration")) r.firstToken = timeAfter(*v, &r.start);
    if (auto v = timings.find("last_token_iteration")) r.lastToken = timeAfter(*v, &r.start);
    r.end = timeAfter(timings.requireAny({"request_end", "resolve_end"}), &r.start);
    if (auto error = info->find("error")) r.error = error->string();
  } else {  // 0.3: GenerativeTextResponseStats / GenerativeTextErrorStats
    r.start = timeAfter(request["start_time"], nullptr);
    if (auto v = request.find("first_token_time")) r.firstToken = timeAfter(*v, &r.start);
    if (auto v = request.find("last_token_time")) r.lastToken = timeAfter(*v, &r.start);
    r.end = timeAfter(request["end_time"], &r.start);
    if (auto error = request.find("error")) r.error = error->string();
  }
  if (auto v = request.find("prompt_tokens")) r.promptTokens = v->count();
  if (auto v = request.find("output_tokens")) r.outputTokens = v->count();
  if (auto v = request.find("output")) r.output = v->string();
  return r;
}

RequestRecord toRecord(const GuidellmRequest& r, double originS, bool success, std::int64_t index) {
  RequestRecord record;
  record.index = index;
  record.startS = r.start - originS;
  record.scheduledS = record.startS;
  record.promptTokens = r.promptTokens;
  record.outputTokens = r.outputTokens;
  record.success = success;
  record.httpStatus = success ? 200 : 0;
  record.generatedText = r.output;
  if (!success)
    record.error = r.error.empty() ? "incomplete: still running when the benchmark ended" : r.error;
  if (r.firstToken) {
    record.chunkTimesS.push_back(*r.firstToken - r.start);
    if (r.lastToken && *r.lastToken > *r.firstToken) record.chunkTimesS.push_back(*r.lastToken - r.start);
  } else if (success) {
    record.chunkTimesS.push_back(r.end - r.start);  // not streamed: the whole answer at once
  }
  return record;
}

// One guidellm distribution (successful requests) as one of vLLM's latency figures, in ms.
void readWrittenStats(const JsonField& distribution, double scaleToMs, LatencyStats& stats) {
  stats.meanMs = distribution["mean"].nonNegative() * scaleToMs;
  stats.medianMs = distribution["median"].nonNegative() * scaleToMs;
  stats.stdMs = distribution["std_dev"].nonNegative() * scaleToMs;
  if (auto count = distribution.find("count")) stats.samples = static_cast<std::size_t>(count->count());
  const JsonField percentiles = distribution["percentiles"];
  for (double p : kPercentiles) {
    const std::string key = "p" + percentileWord(p);
    if (auto value = percentiles.find(key))
      stats.percentilesMs.push_back({p, value->nonNegative() * scaleToMs});
  }
}

enum class StatusKind { Successful, Incomplete, Errored };

struct Strategy {
  std::string text;
  double requestRate = kInf;
  double burstiness = 1.0;
  std::optional<int> maxConcurrency;
};

Strategy readStrategy(const JsonField& strategy) {
  Strategy s;
  const std::string type = strategy["type_"].string();
  const auto cap = [&](std::string_view key) -> std::optional<int> {
    if (auto v = strategy.find(key)) return v->count();
    return std::nullopt;
  };
  if (type == "synchronous") {
    s.text = "synchronous";
    s.maxConcurrency = 1;
  } else if (type == "concurrent") {
    s.maxConcurrency = cap("streams");
    s.text = "concurrent, " + std::to_string(s.maxConcurrency.value_or(0)) + " streams";
  } else if (type == "throughput") {
    s.maxConcurrency = cap("max_concurrency");
    s.text = "throughput";
  } else if (type == "constant" || type == "async" || type == "poisson") {
    s.requestRate = strategy["rate"].nonNegative();
    s.burstiness = type == "poisson" ? 1.0 : kInf;  // evenly spaced arrivals: vLLM's burstiness inf
    s.maxConcurrency = cap("max_concurrency");
    s.text = type + " " + rateText(s.requestRate) + " req/s";
  } else {
    s.text = type;
  }
  return s;
}

struct StatusCounts {
  std::int64_t successful = 0, incomplete = 0, errored = 0;
};

// guidellm's own figures for a benchmark, from the successful requests' distributions.
void readWrittenSummary(const JsonField& metrics, const StatusCounts& counts, const Strategy& strategy,
                        double duration, RunSummary& s) {
  s.completed = static_cast<int>(counts.successful);
  s.failed = static_cast<int>(counts.incomplete + counts.errored);
  s.maxConcurrency = strategy.maxConcurrency;
  s.percentiles = kPercentiles;
  s.totalInputTokens = std::llround(metrics["prompt_token_count"]["successful"]["total_sum"].nonNegative());
  s.totalOutputTokens = std::llround(metrics["output_token_count"]["successful"]["total_sum"].nonNegative());
  s.durationS = duration;
  import_summary::setDuration(s, duration);
  readWrittenStats(metrics["time_to_first_token_ms"]["successful"], 1.0, s.ttft);
  s.percentileMetrics.push_back(LatencyMetric::Ttft);
  readWrittenStats(metrics["inter_token_latency_ms"]["successful"], 1.0, s.tpot);
  s.percentileMetrics.push_back(LatencyMetric::Tpot);
  readWrittenStats(metrics["request_latency"]["successful"], 1000.0, s.e2el);
  s.percentileMetrics.push_back(LatencyMetric::E2el);
  s.maxOutputTokensPerS.reset();  // guidellm keeps no chunk times
  s.maxConcurrentRequests.reset();
  if (auto concurrency = metrics.find("request_concurrency")) {
    if (auto successful = concurrency->find("successful")) {
      if (auto max = successful->find("max"))
        s.maxConcurrentRequests = static_cast<int>(std::lround(max->nonNegative()));
    }
  }
}

// The figures guidellm defines as vLLM does (a sum, a plain mean): those a recomputation is checked
// against. Its TPOT is weighted by output tokens, its request latency runs to the request's end
// rather than its last token, and its percentiles are its own, so those are not compared.
const import_summary::WrittenKeys kGuidellmCheckedKeys{"total_input_tokens", "total_output_tokens",
                                                       "mean_ttft_ms"};

// The benchmark's set-up: the strategy (rate, burstiness, concurrency), its title, the model, the
// target and the API. Schema 1/2 keep it per benchmark in "config", 0.3 in "args" and "worker".
Strategy readSetup(ImportedRun& run, const JsonField& report, const JsonField& bench, std::size_t index,
                   std::size_t count) {
  const std::optional<JsonField> config = bench.findAny({"config", "args"});
  const Strategy strategy = config ? readStrategy((*config)["strategy"]) : Strategy{};
  run.title = "benchmark " + std::to_string(index + 1) + " of " + std::to_string(count) +
              (strategy.text.empty() ? "" : ": " + strategy.text);
  run.setup.requestRate = strategy.requestRate;
  run.setup.burstiness = strategy.burstiness;
  run.setup.maxConcurrency = strategy.maxConcurrency;
  run.setup.backend = "openai";
  std::optional<JsonField> backend;
  if (config) backend = config->find("backend");
  if (!backend) backend = bench.find("worker");
  const auto backendText = [&](std::initializer_list<std::string_view> keys) -> std::string {
    if (backend && backend->value().is_object()) {
      if (auto v = backend->findAny(keys); v && v->value().is_string()) return v->string();
    }
    return {};
  };
  run.setup.modelId = backendText({"model", "backend_model"});
  if (run.setup.modelId.empty()) {
    if (auto reportConfig = report.findAny({"config", "args"})) {
      if (auto model = reportConfig->find("model"); model && model->value().is_string())
        run.setup.modelId = model->string();
    }
  }
  run.baseUrl = backendText({"target", "backend_target"});
  if (backendText({"request_format"}).find("chat") != std::string::npos) run.setup.backend = "openai-chat";
  return strategy;
}

// The measured window (warm-up and cool-down left out), as guidellm divides by it.
struct MeasuredWindow {
  double start = 0.0;
  double end = 0.0;
  double duration = 0.0;
  // The window itself, where the scheduler records it apart from the benchmark's times.
  double windowStart = 0.0;
  double windowEnd = 0.0;
};

MeasuredWindow readWindow(const JsonField& bench) {
  MeasuredWindow w;
  w.start = bench.find("start_time") ? bench["start_time"].nonNegative()
                                     : bench["scheduler_metrics"]["measure_start_time"].nonNegative();
  w.end = bench.find("end_time") ? bench["end_time"].nonNegative()
                                 : bench["scheduler_metrics"]["measure_end_time"].nonNegative();
  w.duration = bench.find("duration") ? bench["duration"].nonNegative() : w.end - w.start;
  json_input::requireNonNegative(w.duration, bench.source(), bench.path() + ".duration");
  w.windowStart = w.start;
  w.windowEnd = w.end;
  if (auto scheduler = bench.find("scheduler_metrics"); scheduler && scheduler->value().is_object()) {
    if (auto v = scheduler->find("measure_start_time")) w.windowStart = v->nonNegative();
    if (auto v = scheduler->find("measure_end_time")) w.windowEnd = v->nonNegative();
  }
  return w;
}

// A request the report kept, with its status.
struct Kept {
  GuidellmRequest request;
  bool success = false;
  StatusKind kind = StatusKind::Successful;
};

// The requests the report kept, and whether they are every measured one.
struct KeptRequests {
  std::vector<Kept> requests;
  bool complete = false;    // every measured request is here: the figures can be recomputed
  std::size_t outside = 0;  // kept requests of the warm-up or cool-down, left out
};

// Every measured request kept? Then recompute; a sampled report keeps only some of them. Requests of
// the warm-up and cool-down lie outside the measured window: they are left out, as guidellm leaves
// them out of its figures, not taken for a sign of sampling.
KeptRequests keptRequests(const JsonField& bench, const StatusCounts& counts, const MeasuredWindow& window) {
  KeptRequests result;
  std::vector<Kept>& kept = result.requests;
  if (auto lists = bench.find("requests")) {
    const auto add = [&](std::string_view key, bool success, StatusKind kind) {
      if (auto list = lists->find(key)) {
        for (const JsonField& r : list->items())
          kept.push_back({readRequest(r), success, kind});
      }
    };
    add("successful", true, StatusKind::Successful);
    add("incomplete", false, StatusKind::Incomplete);
    add("errored", false, StatusKind::Errored);
  }
  const auto matchesTotals = [&](const std::vector<Kept>& requests) {
    StatusCounts seen;
    for (const Kept& k : requests) {
      std::int64_t& n = k.kind == StatusKind::Successful   ? seen.successful
                        : k.kind == StatusKind::Incomplete ? seen.incomplete
                                                           : seen.errored;
      ++n;
    }
    return seen.successful == counts.successful && seen.incomplete == counts.incomplete &&
           seen.errored == counts.errored;
  };
  result.complete = !kept.empty() && matchesTotals(kept);
  if (kept.empty() || result.complete) return result;
  // Which requests guidellm counts in the window: those inside it whole, else those that ended in it,
  // else those that started in it; the first rule that gives its totals is the one it used.
  using Rule = bool (*)(const GuidellmRequest&, double, double);
  const Rule rules[] = {
      [](const GuidellmRequest& r, double from, double to) { return r.start >= from && r.end <= to; },
      [](const GuidellmRequest& r, double from, double to) { return r.end >= from && r.end <= to; },
      [](const GuidellmRequest& r, double from, double to) { return r.start >= from && r.start <= to; }};
  for (Rule rule : rules) {
    std::vector<Kept> inside;
    for (const Kept& k : kept) {
      if (rule(k.request, window.windowStart, window.windowEnd)) inside.push_back(k);
    }
    if (!inside.empty() && matchesTotals(inside)) {
      result.outside = kept.size() - inside.size();
      kept = std::move(inside);
      result.complete = true;
      break;
    }
  }
  return result;
}

ImportedRun importBenchmark(const std::filesystem::path& file, const JsonField& report,
                            const JsonField& bench, std::size_t index, std::size_t count,
                            const std::string& version) {
  ImportedRun run;
  run.tool = "guidellm";
  run.toolVersion = version;
  run.source = file;
  run.format = "guidellm benchmarks report";
  bench.requireObject();
  if (auto type = bench.optionalString("type_"); type && *type != "generative_benchmark") {
    bench["type_"].fail({MessageText::ImportNotGenerative, {*type}});
  }
  const Strategy strategy = readSetup(run, report, bench, index, count);
  const MeasuredWindow window = readWindow(bench);
  const double duration = window.duration;
  run.startedAtS = window.start;

  const JsonField metrics = bench["metrics"];
  const JsonField totals =
      metrics.find("request_totals") ? metrics["request_totals"] : bench["request_totals"];
  StatusCounts counts{totals["successful"].count(), totals["incomplete"].count(), totals["errored"].count()};
  run.setup.numPrompts = static_cast<int>(counts.successful + counts.incomplete + counts.errored);
  KeptRequests keptSet = keptRequests(bench, counts, window);
  std::vector<Kept>& kept = keptSet.requests;
  const bool complete = keptSet.complete;
  const std::size_t outside = keptSet.outside;

  RunSummary written;
  readWrittenSummary(metrics, counts, strategy, duration, written);
  if (complete) {
    const double origin = std::min_element(kept.begin(), kept.end(), [](const auto& a, const auto& b) {
                            return a.request.start < b.request.start;
                          })->request.start;
    for (std::size_t i = 0; i < kept.size(); ++i)
      run.records.push_back(toRecord(kept[i].request, origin, kept[i].success, static_cast<std::int64_t>(i)));
    std::sort(run.records.begin(), run.records.end(),
              [](const auto& a, const auto& b) { return a.startS < b.startS; });
    for (std::size_t i = 0; i < run.records.size(); ++i)
      run.records[i].index = static_cast<std::int64_t>(i);
    run.summary = import_summary::recompute(run.records,
                                            {LatencyMetric::Ttft, LatencyMetric::Tpot, LatencyMetric::E2el},
                                            kPercentiles, strategy.maxConcurrency, duration);
    run.summary.maxOutputTokensPerS.reset();
    run.recomputed = true;
    run.notes.push_back({MessageText::ImportNoteGuidellmRecomputed,
                         {countArgument(static_cast<long long>(run.records.size()))}});
    if (outside > 0) {
      run.notes.push_back(
          {MessageText::ImportNoteGuidellmOutside, {countArgument(static_cast<long long>(outside))}});
    }
    run.notes.push_back({MessageText::ImportNoteGuidellmTwoTimes, {}});
    run.differences = import_summary::differences(written, run.summary, kGuidellmCheckedKeys);
    return run;
  }

  // Taken as written, from the successful requests' distributions.
  run.summary = written;
  if (!run.summary.maxConcurrentRequests)
    run.notes.push_back({MessageText::ImportNoteGuidellmNoConcurrency, {}});
  run.notes.push_back(
      {kept.empty() ? MessageText::ImportNoteGuidellmNoRequests : MessageText::ImportNoteGuidellmSample, {}});
  run.notes.push_back({MessageText::ImportNoteGuidellmDistributions, {}});
  return run;
}

}  // namespace

std::vector<ImportedRun> importGuidellmReport(const std::filesystem::path& file, const nlohmann::json& root) {
  const JsonField report(root, file.string(), MessageText::ImportExpectGuidellm);
  std::string version;
  if (auto metadata = report.find("metadata"))
    version = metadata->optionalString("guidellm_version").value_or("");
  const std::vector<JsonField> benchmarks = report["benchmarks"].items();
  if (benchmarks.empty()) report["benchmarks"].fail({MessageText::ImportNoBenchmark, {}});
  std::vector<ImportedRun> runs;
  for (std::size_t i = 0; i < benchmarks.size(); ++i)
    runs.push_back(importBenchmark(file, report, benchmarks[i], i, benchmarks.size(), version));
  return runs;
}

}  // namespace ayar
