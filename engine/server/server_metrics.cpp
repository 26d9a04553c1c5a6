#include "engine/server/server_metrics.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <utility>

namespace ayar::engine {

namespace {

constexpr std::array<double, 22> kTimeToFirstTokenBuckets = {
    0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1,  0.25,  0.5,   0.75,
    1.0,   2.5,   5.0,  7.5,  10.0, 20.0, 40.0, 80.0, 160.0, 640.0, 2560.0};
constexpr std::array<double, 19> kInterTokenLatencyBuckets = {0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2,
                                                              0.3,  0.4,   0.5,  0.75,  1.0, 2.5,  5.0,
                                                              7.5,  10.0,  20.0, 40.0,  80.0};
constexpr std::array<double, 21> kRequestLatencyBuckets = {0.3,  0.5,   0.8,   1.0,   1.5,   2.0,    2.5,
                                                           5.0,  10.0,  15.0,  20.0,  30.0,  40.0,   50.0,
                                                           60.0, 120.0, 240.0, 480.0, 960.0, 1920.0, 7680.0};

// As Python's prometheus_client writes floats: shortest round-trip form, "1.0" rather than "1".
void appendNumber(std::string& out, double value) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  const std::string_view text(buffer, static_cast<std::size_t>(result.ptr - buffer));
  out += text;
  if (text.find_first_of(".eEn") == std::string_view::npos) out += ".0";
}

void appendHeader(std::string& out, std::string_view name, std::string_view type, std::string_view help) {
  out += "# HELP ";
  out += name;
  out += ' ';
  out += help;
  out += "\n# TYPE ";
  out += name;
  out += ' ';
  out += type;
  out += '\n';
}

void appendSample(std::string& out, std::string_view name, std::string_view labels, double value) {
  out += name;
  out += '{';
  out += labels;
  out += "} ";
  appendNumber(out, value);
  out += '\n';
}

void appendGauge(std::string& out, std::string_view name, std::string_view help, std::string_view labels,
                 double value) {
  appendHeader(out, name, "gauge", help);
  appendSample(out, name, labels, value);
}

// prometheus_client names a counter's sample <name>_total under a TYPE line without the suffix.
void appendCounter(std::string& out, std::string_view name, std::string_view help, std::string_view labels,
                   double value) {
  appendHeader(out, name, "counter", help);
  appendSample(out, std::string(name) + "_total", labels, value);
}

std::string escapeLabelValue(std::string_view value) {
  std::string escaped;
  for (char c : value) {
    if (c == '\\' || c == '"') {
      escaped += '\\';
      escaped += c;
    } else if (c == '\n') {
      escaped += "\\n";
    } else {
      escaped += c;
    }
  }
  return escaped;
}

}  // namespace

std::span<const double> timeToFirstTokenBuckets() {
  return kTimeToFirstTokenBuckets;
}
std::span<const double> interTokenLatencyBuckets() {
  return kInterTokenLatencyBuckets;
}
std::span<const double> requestLatencyBuckets() {
  return kRequestLatencyBuckets;
}

LatencyHistogram::LatencyHistogram(std::span<const double> upperBounds)
    : m_upperBounds(upperBounds.begin(), upperBounds.end()),
      m_bucketCounts(std::make_unique<std::atomic<std::uint64_t>[]>(upperBounds.size() + 1)) {}

void LatencyHistogram::observe(double seconds) {
  // Prometheus buckets are "less than or equal": the first bound >= the value.
  const auto bucket = static_cast<std::size_t>(
      std::lower_bound(m_upperBounds.begin(), m_upperBounds.end(), seconds) - m_upperBounds.begin());
  m_bucketCounts[bucket].fetch_add(1, std::memory_order_relaxed);
  m_sum.fetch_add(seconds, std::memory_order_relaxed);
  m_count.fetch_add(1, std::memory_order_relaxed);
}

void LatencyHistogram::appendPrometheus(std::string& out, std::string_view name,
                                        std::string_view labels) const {
  const std::string bucketName = std::string(name) + "_bucket";
  std::uint64_t cumulative = 0;
  for (std::size_t i = 0; i <= m_upperBounds.size(); ++i) {
    cumulative += m_bucketCounts[i].load(std::memory_order_relaxed);
    out += bucketName;
    out += "{le=\"";
    if (i < m_upperBounds.size()) {
      appendNumber(out, m_upperBounds[i]);
    } else {
      out += "+Inf";
    }
    out += "\",";
    out += labels;
    out += "} ";
    appendNumber(out, static_cast<double>(cumulative));
    out += '\n';
  }
  appendSample(out, std::string(name) + "_count", labels, static_cast<double>(cumulative));
  appendSample(out, std::string(name) + "_sum", labels, m_sum.load(std::memory_order_relaxed));
}

ServerMetrics::ServerMetrics(std::string servedModelName, bool simulated)
    : m_labels("model_name=\"" + escapeLabelValue(servedModelName) + "\""),
      m_simulated(simulated),
      m_timeToFirstToken(timeToFirstTokenBuckets()),
      m_interTokenLatency(interTokenLatencyBuckets()),
      m_e2eLatency(requestLatencyBuckets()),
      m_queueTime(requestLatencyBuckets()),
      m_prefillTime(requestLatencyBuckets()),
      m_decodeTime(requestLatencyBuckets()),
      m_inferenceTime(requestLatencyBuckets()) {}

void ServerMetrics::observeFinished(RequestOutcome outcome, double e2eSeconds) {
  m_finished[static_cast<int>(outcome)].fetch_add(1, std::memory_order_relaxed);
  m_e2eLatency.observe(e2eSeconds);
}

void ServerMetrics::observePhases(const RequestPhases& phases) {
  m_queueTime.observe(phases.queueSeconds);
  m_prefillTime.observe(phases.prefillSeconds);
  m_decodeTime.observe(phases.decodeSeconds);
  m_inferenceTime.observe(phases.inferenceSeconds);
}

void ServerMetrics::setCacheConfig(const CacheConfig& config) {
  m_cacheConfigLabels = "block_size=\"" + std::to_string(config.blockSize) + "\",cache_dtype=\"" +
                        escapeLabelValue(config.cacheDtype) + "\",num_gpu_blocks=\"" +
                        std::to_string(config.numBlocks) + "\"," + m_labels;
}

std::string ServerMetrics::renderPrometheus(const EngineStats& stats) const {
  std::string out;
  out.reserve(16384);
  const std::string_view labels = m_labels;
  if (!m_cacheConfigLabels.empty())
    appendGauge(out, "vllm:cache_config_info", "Information of the LLMEngine CacheConfig",
                m_cacheConfigLabels, 1);
  appendGauge(out, "vllm:num_requests_running", "Number of requests in model execution batches.", labels,
              stats.running);
  appendGauge(out, "vllm:num_requests_waiting", "Number of requests waiting to be processed.", labels,
              stats.waiting);
  appendGauge(out, "vllm:kv_cache_usage_perc", "KV-cache usage. 1 means 100 percent usage.", labels,
              stats.kvCacheUsage);
  appendCounter(out, "vllm:prefix_cache_queries",
                "Prefix cache queries, in terms of number of queried tokens.", labels,
                static_cast<double>(stats.prefixCacheQueries));
  appendCounter(out, "vllm:prefix_cache_hits", "Prefix cache hits, in terms of number of cached tokens.",
                labels, static_cast<double>(stats.prefixCacheHits));
  appendCounter(out, "vllm:num_preemptions", "Cumulative number of preemption from the engine.", labels,
                static_cast<double>(stats.preemptionsTotal));
  appendCounter(out, "vllm:prompt_tokens", "Number of prefill tokens processed.", labels,
                static_cast<double>(stats.promptTokensTotal));
  appendCounter(out, "vllm:generation_tokens", "Number of generation tokens processed.", labels,
                static_cast<double>(stats.generationTokensTotal));

  appendHeader(out, "vllm:request_success", "counter", "Count of successfully processed requests.");
  static constexpr std::pair<RequestOutcome, const char*> kOutcomes[] = {{RequestOutcome::kStop, "stop"},
                                                                         {RequestOutcome::kLength, "length"},
                                                                         {RequestOutcome::kAbort, "abort"}};
  for (const auto& [outcome, reason] : kOutcomes) {
    appendSample(out, "vllm:request_success_total",
                 std::string("finished_reason=\"") + reason + "\"," + m_labels,
                 static_cast<double>(m_finished[static_cast<int>(outcome)].load(std::memory_order_relaxed)));
  }

  appendHeader(out, "vllm:time_to_first_token_seconds", "histogram",
               "Histogram of time to first token in seconds.");
  m_timeToFirstToken.appendPrometheus(out, "vllm:time_to_first_token_seconds", labels);
  // vLLM renamed time_per_output_token to inter_token_latency; both names carry the same samples.
  appendHeader(out, "vllm:inter_token_latency_seconds", "histogram",
               "Histogram of inter-token latency in seconds.");
  m_interTokenLatency.appendPrometheus(out, "vllm:inter_token_latency_seconds", labels);
  appendHeader(out, "vllm:time_per_output_token_seconds", "histogram",
               "Histogram of time per output token in seconds.");
  m_interTokenLatency.appendPrometheus(out, "vllm:time_per_output_token_seconds", labels);
  appendHeader(out, "vllm:e2e_request_latency_seconds", "histogram",
               "Histogram of e2e request latency in seconds.");
  m_e2eLatency.appendPrometheus(out, "vllm:e2e_request_latency_seconds", labels);
  // vLLM's request phase histograms (same buckets as the e2e latency).
  appendHeader(out, "vllm:request_queue_time_seconds", "histogram",
               "Histogram of time spent in WAITING phase for request.");
  m_queueTime.appendPrometheus(out, "vllm:request_queue_time_seconds", labels);
  appendHeader(out, "vllm:request_prefill_time_seconds", "histogram",
               "Histogram of time spent in PREFILL phase for request.");
  m_prefillTime.appendPrometheus(out, "vllm:request_prefill_time_seconds", labels);
  appendHeader(out, "vllm:request_decode_time_seconds", "histogram",
               "Histogram of time spent in DECODE phase for request.");
  m_decodeTime.appendPrometheus(out, "vllm:request_decode_time_seconds", labels);
  appendHeader(out, "vllm:request_inference_time_seconds", "histogram",
               "Histogram of time spent in RUNNING phase for request.");
  m_inferenceTime.appendPrometheus(out, "vllm:request_inference_time_seconds", labels);

  appendGauge(out, "ayar:simulated", "1 when the engine runs the timing simulator (no real model math).",
              labels, m_simulated ? 1.0 : 0.0);
  appendGauge(out, "ayar:num_kv_blocks", "KV cache blocks in the pool.", labels, stats.numBlocks);
  appendGauge(out, "ayar:num_kv_blocks_free", "KV cache blocks not held by any request.", labels,
              stats.freeBlocks);
  appendCounter(out, "ayar:engine_steps", "Engine steps (batches) run.", labels,
                static_cast<double>(stats.stepsTotal));
  appendGauge(out, "ayar:http_connections_open", "Open HTTP connections.", labels,
              static_cast<double>(m_openConnections.load(std::memory_order_relaxed)));
  appendCounter(out, "ayar:http_errors", "HTTP responses with an error status.", labels,
                static_cast<double>(m_httpErrors.load(std::memory_order_relaxed)));
  return out;
}

}  // namespace ayar::engine
