#include "core/report/result_json.h"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <fstream>
#include <numeric>
#include <set>
#include <sstream>

#include "core/error.h"
#include "core/report/json_input.h"
#include "core/report/message_text.h"

namespace ayar {

namespace {

using ordered_json = nlohmann::ordered_json;

constexpr double kInf = std::numeric_limits<double>::infinity();

ordered_json rateValue(double value) {
  if (std::isinf(value) && value > 0) return "inf";
  if (!std::isfinite(value)) return nullptr;
  return value;
}

ordered_json optionalInt(const std::optional<int>& value) {
  return value ? ordered_json(*value) : ordered_json(nullptr);
}

void addMetric(ordered_json& out, const RunSummary& summary, LatencyMetric metric) {
  const std::string key(latencyMetricKey(metric));
  const LatencyStats& stats = summary.stats(metric);
  out["mean_" + key + "_ms"] = stats.meanMs;
  out["median_" + key + "_ms"] = stats.medianMs;
  out["std_" + key + "_ms"] = stats.stdMs;
  for (const PercentileValue& p : stats.percentilesMs) {
    out["p" + percentileWord(p.percentile) + "_" + key + "_ms"] = p.value;
  }
}

nlohmann::json summaryExtras(const RunSummary& summary) {
  nlohmann::json errors = nlohmann::json::array();
  for (const ErrorCount& e : summary.errors)
    errors.push_back({{"message", e.message}, {"count", e.count}});
  return {
      {"dispatch_lag_ms",
       {{"mean", summary.dispatchLagMeanMs},
        {"median", summary.dispatchLagMedianMs},
        {"p99", summary.dispatchLagP99Ms},
        {"max", summary.dispatchLagMaxMs}}},
      {"slot_wait_ms", {{"mean", summary.slotWaitMeanMs}, {"max", summary.slotWaitMaxMs}}},
      {"output_tokens_from_tokenizer", summary.outputTokensFromTokenizerRequests},
      {"errors", errors},
  };
}

nlohmann::json requestExtras(std::span<const RequestRecord* const> records) {
  nlohmann::json indices = nlohmann::json::array(), scheduled = nlohmann::json::array(),
                 slotWaits = nlohmann::json::array(), statuses = nlohmann::json::array(),
                 fromUsage = nlohmann::json::array(), expected = nlohmann::json::array();
  for (const RequestRecord* r : records) {
    indices.push_back(r->index);
    scheduled.push_back(r->scheduledS);
    slotWaits.push_back(r->slotWaitS);
    statuses.push_back(r->httpStatus);
    fromUsage.push_back(r->outputTokensFromUsage);
    expected.push_back(r->expectedOutputTokens);
  }
  return {{"indices", indices},
          {"scheduled_times", scheduled},
          {"slot_waits", slotWaits},
          {"http_statuses", statuses},
          {"output_tokens_from_usage", fromUsage},
          {"expected_output_lens", expected}};
}

// Python's json module writes Infinity, -Infinity and NaN as bare tokens, which strict JSON parsers
// reject; quote them so that they parse as strings.
std::string quoteNonFiniteTokens(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool inString = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (inString) {
      out += c;
      if (c == '\\' && i + 1 < text.size()) {
        out += text[++i];
      } else if (c == '"') {
        inString = false;
      }
      continue;
    }
    if (c == '"') inString = true;
    bool replaced = false;
    for (std::string_view token : {"-Infinity", "Infinity", "NaN"}) {
      if (text.substr(i, token.size()) == token) {
        out += '"';
        out += token;
        out += '"';
        i += token.size() - 1;
        replaced = true;
        break;
      }
    }
    if (!replaced) out += c;
  }
  return out;
}

class Reader {
 public:
  Reader(const ordered_json& root, std::string_view source) : m_root(root), m_source(source) {}

  [[noreturn]] void fail(std::string_view key, const Message& problem) const {
    throw MessageError(
        {MessageText::ResultField, {std::string(m_source), std::string(key), problem.asArgument()}});
  }

  static std::optional<double> asDouble(const ordered_json& value) {
    if (value.is_number()) return value.get<double>();
    if (value.is_string()) {
      const auto& text = value.get_ref<const std::string&>();
      if (text == "inf" || text == "Infinity" || text == "+inf") return kInf;
      if (text == "-inf" || text == "-Infinity") return -kInf;
      if (text == "nan" || text == "NaN") return std::nan("");
    }
    return std::nullopt;
  }

  std::optional<double> optionalDouble(const ordered_json& object, const std::string& key) const {
    const auto it = object.find(key);
    if (it == object.end() || it->is_null()) return std::nullopt;
    if (auto value = asDouble(*it)) return value;
    fail(key, {MessageText::ResultNotNumber, {}});
  }
  double number(const std::string& key, double fallback = 0.0) const {
    return optionalDouble(m_root, key).value_or(fallback);
  }
  std::int64_t integer(const std::string& key) const {
    const double value = number(key);
    if (!std::isfinite(value) || std::fabs(value) > 9e15) fail(key, {MessageText::ResultNotCount, {}});
    return static_cast<std::int64_t>(std::llround(value));
  }
  // A figure that cannot be below zero (a duration, a throughput, a latency): absent when the file
  // does not write it, refused naming the key when it is negative or not finite.
  std::optional<double> figure(const ordered_json& object, const std::string& key) const {
    const auto value = optionalDouble(object, key);
    if (value) json_input::requireNonNegative(*value, m_source, key);
    return value;
  }
  // A count: a whole number from 0 to `largest`; absent when the file does not write it.
  std::optional<std::int64_t> count(const std::string& key, double largest) const {
    const auto value = figure(m_root, key);
    if (!value) return std::nullopt;
    if (*value != std::trunc(*value)) {
      json_input::failImpossible(m_source, key, json_input::numberText(*value), json_input::notWholeReason());
    }
    if (*value > largest) {
      json_input::failImpossible(m_source, key, json_input::numberText(*value),
                                 json_input::tooLargeReason(static_cast<long long>(largest)));
    }
    return static_cast<std::int64_t>(*value);
  }
  std::string_view source() const { return m_source; }
  std::optional<std::string> optionalString(const std::string& key) const {
    const auto it = m_root.find(key);
    if (it == m_root.end() || it->is_null()) return std::nullopt;
    if (!it->is_string()) fail(key, {MessageText::ResultNotString, {}});
    return it->get<std::string>();
  }
  const ordered_json* array(const std::string& key, const ordered_json& object) const {
    const auto it = object.find(key);
    if (it == object.end() || it->is_null()) return nullptr;
    if (!it->is_array()) fail(key, {MessageText::ResultNotList, {}});
    return &*it;
  }

 private:
  const ordered_json& m_root;
  std::string_view m_source;
};

const std::set<std::string, std::less<>> kKnownKeys = {"date",
                                                       "endpoint_type",
                                                       "backend",
                                                       "label",
                                                       "model_id",
                                                       "tokenizer_id",
                                                       "num_prompts",
                                                       "request_rate",
                                                       "burstiness",
                                                       "max_concurrency",
                                                       "duration",
                                                       "completed",
                                                       "failed",
                                                       "total_input_tokens",
                                                       "total_output_tokens",
                                                       "request_throughput",
                                                       "request_goodput",
                                                       "output_throughput",
                                                       "total_token_throughput",
                                                       "input_lens",
                                                       "output_lens",
                                                       "ttfts",
                                                       "itls",
                                                       "start_times",
                                                       "generated_texts",
                                                       "errors",
                                                       "max_output_tokens_per_s",
                                                       "max_concurrent_requests",
                                                       "ayar",
                                                       "ramp_up_strategy",
                                                       "ramp_up_start_rps",
                                                       "ramp_up_end_rps",
                                                       "rps_change_events"};

bool isMetricKey(std::string_view key) {
  for (LatencyMetric metric : kAllLatencyMetrics) {
    const std::string suffix = "_" + std::string(latencyMetricKey(metric)) + "_ms";
    if (key.size() > suffix.size() && key.substr(key.size() - suffix.size()) == suffix) return true;
  }
  return false;
}

void readMetrics(const Reader& reader, const ordered_json& root, RunSummary& summary) {
  for (LatencyMetric metric : kAllLatencyMetrics) {
    const std::string key(latencyMetricKey(metric));
    const std::string suffix = "_" + key + "_ms";
    if (!root.contains("mean" + suffix)) continue;
    summary.percentileMetrics.push_back(metric);
    LatencyStats& stats = summary.stats(metric);
    stats.meanMs = reader.figure(root, "mean" + suffix).value_or(0.0);
    stats.medianMs = reader.figure(root, "median" + suffix).value_or(0.0);
    stats.stdMs = reader.figure(root, "std" + suffix).value_or(0.0);
    for (const auto& [name, value] : root.items()) {
      if (name.size() <= suffix.size() + 1 || name[0] != 'p' ||
          name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) {
        continue;
      }
      const std::string word = name.substr(1, name.size() - 1 - suffix.size());
      double p = 0.0;
      try {
        std::size_t used = 0;
        p = std::stod(word, &used);
        if (used != word.size()) continue;
      } catch (const std::exception&) {
        continue;
      }
      const auto v = Reader::asDouble(value);
      if (!v) reader.fail(name, {MessageText::ResultNotNumber, {}});
      stats.percentilesMs.push_back({p, json_input::requireNonNegative(*v, reader.source(), name)});
    }
    if (summary.percentiles.empty()) {
      for (const PercentileValue& p : stats.percentilesMs)
        summary.percentiles.push_back(p.percentile);
    }
  }
}

void readAyarSummary(const Reader& reader, const nlohmann::json& ayar, RunSummary& summary) {
  if (!ayar.is_object() || !ayar.contains("summary") || !ayar["summary"].is_object()) return;
  const nlohmann::json& extras = ayar["summary"];
  const auto number = [&](const char* group, const char* key) {
    if (!extras.contains(group) || !extras[group].is_object()) return 0.0;
    const auto& object = extras[group];
    const auto it = object.find(key);
    return it != object.end() && it->is_number() ? it->get<double>() : 0.0;
  };
  summary.dispatchLagMeanMs = number("dispatch_lag_ms", "mean");
  summary.dispatchLagMedianMs = number("dispatch_lag_ms", "median");
  summary.dispatchLagP99Ms = number("dispatch_lag_ms", "p99");
  summary.dispatchLagMaxMs = number("dispatch_lag_ms", "max");
  summary.slotWaitMeanMs = number("slot_wait_ms", "mean");
  summary.slotWaitMaxMs = number("slot_wait_ms", "max");
  if (auto it = extras.find("output_tokens_from_tokenizer"); it != extras.end() && it->is_number_integer()) {
    summary.outputTokensFromTokenizerRequests = it->get<int>();
    summary.outputTokensFromTokenizer = summary.outputTokensFromTokenizerRequests > 0;
  }
  if (auto it = extras.find("errors"); it != extras.end() && it->is_array()) {
    for (const auto& e : *it) {
      if (!e.is_object() || !e.contains("message") || !e["message"].is_string()) {
        reader.fail("ayar.summary.errors", {MessageText::ResultErrorWithoutMessage, {}});
      }
      summary.errors.push_back({e["message"].get<std::string>(), e.value("count", 1)});
    }
  }
}

void readRecords(const Reader& reader, const ordered_json& root, ResultFile& file) {
  const ordered_json* inputLens = reader.array("input_lens", root);
  const ordered_json* outputLens = reader.array("output_lens", root);
  const ordered_json* ttfts = reader.array("ttfts", root);
  const ordered_json* itls = reader.array("itls", root);
  const ordered_json* startTimes = reader.array("start_times", root);
  const ordered_json* texts = reader.array("generated_texts", root);
  const ordered_json* errors = reader.array("errors", root);
  if (!inputLens && !ttfts && !errors) return;  // not a detailed file

  std::size_t count = 0;
  for (const ordered_json* list : {inputLens, outputLens, ttfts, itls, startTimes, texts, errors}) {
    if (list) count = std::max(count, list->size());
  }
  const auto checkSize = [&](const ordered_json* list, const char* key) {
    if (list && list->size() != count) {
      reader.fail(key, {MessageText::ResultListSizes, {std::to_string(list->size()), std::to_string(count)}});
    }
  };
  checkSize(inputLens, "input_lens");
  checkSize(outputLens, "output_lens");
  checkSize(ttfts, "ttfts");
  checkSize(itls, "itls");
  checkSize(startTimes, "start_times");
  checkSize(texts, "generated_texts");
  checkSize(errors, "errors");

  const nlohmann::json* extras = nullptr;
  if (file.ayar.is_object() && file.ayar.contains("requests") && file.ayar["requests"].is_object()) {
    extras = &file.ayar["requests"];
  }
  const auto extra = [&](const char* key, std::size_t i) -> const nlohmann::json* {
    if (!extras) return nullptr;
    const auto it = extras->find(key);
    if (it == extras->end() || !it->is_array() || it->size() != count) return nullptr;
    return &(*it)[i];
  };
  const auto at = [](const char* key, std::size_t i) {
    return std::string(key) + "[" + std::to_string(i) + "]";
  };
  // A list's entry: absent when the list is; null, not a finite number or (for `nonNegative`) below
  // zero, it is refused naming the list and the position.
  const auto numberAt = [&](const ordered_json* list, const char* key, std::size_t i,
                            bool nonNegative) -> double {
    if (!list) return 0.0;
    const ordered_json& item = (*list)[i];
    if (item.is_null())
      json_input::failImpossible(reader.source(), at(key, i), "null", json_input::nullInListReason());
    const auto value = Reader::asDouble(item);
    if (!value || !std::isfinite(*value)) {
      reader.fail(key, {MessageText::ResultNotFinite, {std::to_string(i)}});
    }
    if (nonNegative) json_input::requireNonNegative(*value, reader.source(), at(key, i));
    return *value;
  };
  const auto countAt = [&](const ordered_json* list, const char* key, std::size_t i) -> int {
    return list ? json_input::requireCount(numberAt(list, key, i, true), reader.source(), at(key, i)) : 0;
  };

  file.records.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    RequestRecord& r = file.records[i];
    r.index = static_cast<std::int64_t>(i);
    r.promptTokens = countAt(inputLens, "input_lens", i);
    r.outputTokens = countAt(outputLens, "output_lens", i);
    r.startS = numberAt(startTimes, "start_times", i, false);  // perf_counter() instants: any origin
    if (errors && (*errors)[i].is_string()) r.error = (*errors)[i].get<std::string>();
    if (texts && (*texts)[i].is_string()) r.generatedText = (*texts)[i].get<std::string>();
    r.success = r.error.empty();
    const double ttft = numberAt(ttfts, "ttfts", i, true);
    if (itls && (*itls)[i].is_null()) {
      json_input::failImpossible(reader.source(), at("itls", i), "null", json_input::nullInListReason());
    }
    const bool hasItls = itls && (*itls)[i].is_array() && !(*itls)[i].empty();
    // vLLM leaves ttft at 0 and itl empty when no chunk arrived.
    if (r.success || ttft > 0.0 || hasItls) {
      r.chunkTimesS.push_back(ttft);
      if (hasItls) {
        double t = ttft;
        for (std::size_t k = 0; k < (*itls)[i].size(); ++k) {
          const ordered_json& gap = (*itls)[i][k];
          const std::string field = at("itls", i) + "[" + std::to_string(k) + "]";
          if (gap.is_null())
            json_input::failImpossible(reader.source(), field, "null", json_input::nullInListReason());
          const auto value = Reader::asDouble(gap);
          if (!value || !std::isfinite(*value)) {
            reader.fail("itls", {MessageText::ResultNotFinite, {std::to_string(i)}});
          }
          t += json_input::requireNonNegative(*value, reader.source(), field);
          r.chunkTimesS.push_back(t);
        }
      }
    }
    r.scheduledS = r.startS;
    if (const auto* v = extra("indices", i); v && v->is_number_integer()) r.index = v->get<std::int64_t>();
    if (const auto* v = extra("scheduled_times", i); v && v->is_number()) r.scheduledS = v->get<double>();
    if (const auto* v = extra("slot_waits", i); v && v->is_number()) r.slotWaitS = v->get<double>();
    if (const auto* v = extra("http_statuses", i); v && v->is_number_integer()) r.httpStatus = v->get<int>();
    if (const auto* v = extra("output_tokens_from_usage", i); v && v->is_boolean()) {
      r.outputTokensFromUsage = v->get<bool>();
    }
    if (const auto* v = extra("expected_output_lens", i); v && v->is_number_integer()) {
      r.expectedOutputTokens = v->get<int>();
    }
  }
  // Files from vLLM hold perf_counter() instants; Ayar's are already relative to the run's origin.
  if (startTimes && !file.ayar.is_object() && count > 0) {
    const double first =
        std::min_element(file.records.begin(), file.records.end(), [](const auto& a, const auto& b) {
          return a.startS < b.startS;
        })->startS;
    for (RequestRecord& r : file.records) {
      r.startS -= first;
      r.scheduledS -= first;
    }
  }
}

ResultFile parseResultObject(const ordered_json& root, std::string_view source) {
  if (!root.is_object()) {
    throw MessageError({MessageText::ResultNotObject, {std::string(source), std::string(root.type_name())}});
  }
  if (!root.contains("completed") && !root.contains("duration")) {
    throw MessageError({MessageText::ResultNoResult, {std::string(source)}});
  }
  const Reader reader(root, source);
  ResultFile file;
  if (auto it = root.find("ayar"); it != root.end() && it->is_object()) file.ayar = *it;

  ResultSetup& setup = file.setup;
  setup.date = reader.optionalString("date").value_or("");
  setup.backend =
      reader.optionalString("backend").value_or(reader.optionalString("endpoint_type").value_or(""));
  setup.label = reader.optionalString("label");
  setup.modelId = reader.optionalString("model_id").value_or("");
  setup.tokenizerId = reader.optionalString("tokenizer_id").value_or("");
  setup.numPrompts =
      static_cast<int>(reader.count("num_prompts", std::numeric_limits<int>::max()).value_or(0));
  setup.requestRate = reader.number("request_rate", kInf);
  setup.burstiness = reader.number("burstiness", 1.0);
  if (auto v = reader.count("max_concurrency", std::numeric_limits<int>::max())) {
    setup.maxConcurrency = static_cast<int>(*v);
  }
  for (const auto& [key, value] : root.items()) {
    if (value.is_string() && !kKnownKeys.contains(key) && !isMetricKey(key)) {
      setup.metadata.emplace_back(key, value.get<std::string>());
    }
  }

  RunSummary& s = file.summary;
  constexpr double kMaxInt = std::numeric_limits<int>::max();
  constexpr double kMaxTokens = 9e15;  // whole numbers a double holds exactly
  s.completed = static_cast<int>(reader.count("completed", kMaxInt).value_or(0));
  s.failed = static_cast<int>(reader.count("failed", kMaxInt).value_or(0));
  s.durationS = reader.figure(root, "duration").value_or(0.0);
  s.totalInputTokens = reader.count("total_input_tokens", kMaxTokens);
  s.totalOutputTokens = reader.count("total_output_tokens", kMaxTokens).value_or(0);
  s.requestThroughput = reader.figure(root, "request_throughput").value_or(0.0);
  s.requestGoodput = reader.figure(root, "request_goodput");
  s.outputThroughput = reader.figure(root, "output_throughput").value_or(0.0);
  s.totalTokenThroughput = reader.figure(root, "total_token_throughput");
  s.maxOutputTokensPerS = reader.figure(root, "max_output_tokens_per_s");
  const auto peak = reader.count("max_concurrent_requests", kMaxInt);
  s.maxConcurrentRequests = peak ? std::optional<int>(static_cast<int>(*peak)) : std::nullopt;
  s.maxConcurrency = setup.maxConcurrency;
  readMetrics(reader, root, s);
  readAyarSummary(reader, file.ayar, s);
  readRecords(reader, root, file);
  return file;
}

std::vector<ResultFile> parseResults(std::string_view text, std::string_view source) {
  std::vector<ResultFile> results;
  for (const ordered_json& root : parseResultObjects(text, source))
    results.push_back(parseResultObject(root, source));
  return results;
}

}  // namespace

std::string formatResultDate(std::chrono::system_clock::time_point when) {
  const std::time_t t = std::chrono::system_clock::to_time_t(when);
  std::tm local{};
  localtime_r(&t, &local);
  char buffer[32];
  const std::size_t n = std::strftime(buffer, sizeof buffer, "%Y%m%d-%H%M%S", &local);
  return std::string(buffer, n);
}

ordered_json resultJson(const ResultSetup& setup, const RunSummary& summary,
                        std::span<const RequestRecord> records, bool detailed, const nlohmann::json& ayar) {
  ordered_json out;
  out["date"] = setup.date.empty() ? formatResultDate(std::chrono::system_clock::now()) : setup.date;
  out["endpoint_type"] = setup.backend;
  out["backend"] = setup.backend;
  out["label"] = setup.label ? ordered_json(*setup.label) : ordered_json(nullptr);
  out["model_id"] = setup.modelId;
  out["tokenizer_id"] = setup.tokenizerId;
  out["num_prompts"] = setup.numPrompts;
  for (const auto& [key, value] : setup.metadata)
    out[key] = value;
  out["request_rate"] = rateValue(setup.requestRate);
  out["burstiness"] = rateValue(setup.burstiness);
  out["max_concurrency"] = optionalInt(setup.maxConcurrency);
  if (setup.rampUpStrategy) {
    out["ramp_up_strategy"] = *setup.rampUpStrategy;
    out["ramp_up_start_rps"] = setup.rampUpStartRps;
    out["ramp_up_end_rps"] = setup.rampUpEndRps;
  }

  out["duration"] = summary.durationS;
  out["completed"] = summary.completed;
  out["failed"] = summary.failed;
  // A figure the run cannot give (an import whose file lacks it) is written null: absent, not 0.
  const auto optional = [](const auto& value) {
    return value ? ordered_json(*value) : ordered_json(nullptr);
  };
  out["total_input_tokens"] = optional(summary.totalInputTokens);
  out["total_output_tokens"] = summary.totalOutputTokens;
  out["request_throughput"] = summary.requestThroughput;
  out["request_goodput"] =
      summary.requestGoodput ? ordered_json(*summary.requestGoodput) : ordered_json(nullptr);
  out["output_throughput"] = summary.outputThroughput;
  out["total_token_throughput"] = optional(summary.totalTokenThroughput);

  std::vector<const RequestRecord*> ordered;
  if (detailed) {
    for (const RequestRecord& r : records)
      ordered.push_back(&r);
    std::stable_sort(ordered.begin(), ordered.end(),
                     [](const auto* a, const auto* b) { return a->index < b->index; });
    ordered_json inputLens = ordered_json::array(), outputLens = ordered_json::array(),
                 ttfts = ordered_json::array(), itls = ordered_json::array(),
                 latencies = ordered_json::array(), starts = ordered_json::array(),
                 queueTimes = ordered_json::array(), texts = ordered_json::array(),
                 errors = ordered_json::array();
    for (const RequestRecord* r : ordered) {
      inputLens.push_back(r->promptTokens);
      outputLens.push_back(r->success ? r->outputTokens : 0);  // vLLM's actual_output_lens
      ttfts.push_back(r->ttftS());
      itls.push_back(r->itlS());
      latencies.push_back(r->success ? r->latencyS() : 0.0);  // vLLM leaves a failed request's at 0
      starts.push_back(r->startS);
      // vLLM's client_queue_time: from the request's arrival in the schedule to its send.
      queueTimes.push_back(r->startS - r->scheduledS);
      texts.push_back(r->generatedText);
      errors.push_back(r->error);
    }
    out["input_lens"] = std::move(inputLens);
    out["output_lens"] = std::move(outputLens);
    out["ttfts"] = std::move(ttfts);
    out["itls"] = std::move(itls);
    out["latencies"] = std::move(latencies);
    out["start_times"] = std::move(starts);
    out["queue_times"] = std::move(queueTimes);
    out["generated_texts"] = std::move(texts);
    out["errors"] = std::move(errors);
  }
  out["max_output_tokens_per_s"] = optional(summary.maxOutputTokensPerS);
  out["max_concurrent_requests"] = optional(summary.maxConcurrentRequests);
  out["rtfx"] = 0.0;  // vLLM's audio figure (audio seconds per second); text requests carry no audio
  if (setup.rpsChangeEvents.is_array()) out["rps_change_events"] = setup.rpsChangeEvents;
  for (LatencyMetric metric : kAllLatencyMetrics) {
    if (summary.reports(metric)) addMetric(out, summary, metric);
  }

  nlohmann::json ayarObject = ayar.is_object() ? ayar : nlohmann::json::object();
  if (!ayar.is_object() && !ayar.is_null()) ayarObject["value"] = ayar;
  if (!ayarObject.contains("summary")) ayarObject["summary"] = summaryExtras(summary);
  if (detailed && !ayarObject.contains("requests")) ayarObject["requests"] = requestExtras(ordered);
  out["ayar"] =
      ordered_json::parse(ayarObject.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  return out;
}

nlohmann::ordered_json resultForFile(nlohmann::ordered_json detailedResult, bool detailed) {
  if (detailed) return detailedResult;
  for (const char* key :
       {"input_lens", "output_lens", "start_times", "ttfts", "itls", "generated_texts", "errors"})
    detailedResult.erase(key);
  if (const auto ayar = detailedResult.find("ayar"); ayar != detailedResult.end() && ayar->is_object())
    ayar->erase("requests");
  return detailedResult;
}

void writeResultFile(const std::filesystem::path& path, const ResultSetup& setup, const RunSummary& summary,
                     std::span<const RequestRecord> records, bool detailed, const nlohmann::json& ayar) {
  const std::string text = resultJson(setup, summary, records, detailed, ayar)
                               .dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw MessageError({MessageText::ResultCannotWrite, {path.string()}});
  out << text;
  out.close();
  if (!out) throw MessageError({MessageText::ResultWriteFailed, {path.string()}});
}

std::vector<ordered_json> parseResultObjects(std::string_view text, std::string_view sourceName) {
  // Before anything recursive (the parser's callers copy, compare and write values recursively).
  json_input::requireDepthAtMost(text, sourceName);
  std::istringstream in(quoteNonFiniteTokens(text));
  std::vector<ordered_json> objects;
  while (true) {
    in >> std::ws;
    if (in.peek() == std::char_traits<char>::eof()) break;
    ordered_json root;
    try {
      in >> root;
    } catch (const nlohmann::json::exception& e) {
      throw MessageError({MessageText::ResultNotJson, {std::string(sourceName), std::string(e.what())}});
    }
    objects.push_back(std::move(root));
  }
  if (objects.empty()) throw MessageError({MessageText::ResultEmpty, {std::string(sourceName)}});
  return objects;
}

ResultFile readResultObject(const ordered_json& root, std::string_view sourceName) {
  return parseResultObject(root, sourceName);
}

ResultFile parseResultJson(std::string_view text, std::string_view sourceName) {
  std::vector<ResultFile> results = parseResults(text, sourceName);
  return std::move(results.back());
}

std::vector<ResultFile> readResultFiles(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw MessageError({MessageText::ResultCannotOpen, {path.string()}});
  std::ostringstream content;
  content << in.rdbuf();
  return parseResults(content.str(), path.string());
}

ResultFile readResultFile(const std::filesystem::path& path) {
  std::vector<ResultFile> results = readResultFiles(path);
  return std::move(results.back());
}

}  // namespace ayar
