#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/scheduler/engine_loop.h"

namespace ayar::engine {

// A Prometheus histogram that any thread may observe into (relaxed atomics: /metrics readers may see
// a sample in the count a moment before the sum, which Prometheus tolerates).
class LatencyHistogram {
 public:
  explicit LatencyHistogram(std::span<const double> upperBounds);
  void observe(double seconds);
  // `labels` is the rendered label list without braces, e.g. model_name="qwen3-8b".
  void appendPrometheus(std::string& out, std::string_view name, std::string_view labels) const;
  std::uint64_t count() const { return m_count.load(std::memory_order_relaxed); }

 private:
  std::vector<double> m_upperBounds;
  std::unique_ptr<std::atomic<std::uint64_t>[]> m_bucketCounts;  // per bucket, +Inf last; not cumulative
  std::atomic<std::uint64_t> m_count{0};
  std::atomic<double> m_sum{0.0};
};

// vLLM's bucket bounds (vllm/v1/metrics/loggers.py), so dashboards built for vLLM read ours.
std::span<const double> timeToFirstTokenBuckets();
std::span<const double> interTokenLatencyBuckets();
std::span<const double> requestLatencyBuckets();

enum class RequestOutcome { kStop, kLength, kAbort };

// What /metrics shows: the server's own latency histograms and outcome counts plus the engine loop's
// stats, under vLLM's names with a model_name label, and ayar-specific figures under ayar:.
class ServerMetrics {
 public:
  ServerMetrics(std::string servedModelName, bool simulated);

  void observeTimeToFirstToken(double seconds) { m_timeToFirstToken.observe(seconds); }
  void observeInterTokenLatency(double seconds) { m_interTokenLatency.observe(seconds); }
  void observeFinished(RequestOutcome outcome, double e2eSeconds);
  // The phases of a request that finished normally, as vLLM splits them: queue (arrival to first
  // scheduled), prefill (first scheduled to first token), decode (first token to last token) and
  // inference (first scheduled to last token).
  struct RequestPhases {
    double queueSeconds = 0.0;
    double prefillSeconds = 0.0;
    double decodeSeconds = 0.0;
    double inferenceSeconds = 0.0;
  };
  void observePhases(const RequestPhases& phases);
  void countHttpError() { m_httpErrors.fetch_add(1, std::memory_order_relaxed); }
  void setOpenConnections(std::int64_t count) { m_openConnections.store(count, std::memory_order_relaxed); }

  // vLLM's vllm:cache_config_info: the KV pool as the engine planned it, as labels on a gauge of 1.
  // cacheDtype is vLLM's value ("auto", or "fp8_e4m3" for --kv-cache-dtype fp8); numBlocks the pool's
  // blocks (vLLM's num_gpu_blocks label, on whichever device holds the pool). Set once, before serving.
  struct CacheConfig {
    int blockSize = 0;
    std::string cacheDtype = "auto";
    std::int64_t numBlocks = 0;
  };
  void setCacheConfig(const CacheConfig& config);

  std::string renderPrometheus(const EngineStats& stats) const;

 private:
  std::string m_cacheConfigLabels;  // empty until setCacheConfig
  std::string m_labels;             // model_name="..."
  bool m_simulated;
  LatencyHistogram m_timeToFirstToken;
  LatencyHistogram m_interTokenLatency;
  LatencyHistogram m_e2eLatency;
  LatencyHistogram m_queueTime;
  LatencyHistogram m_prefillTime;
  LatencyHistogram m_decodeTime;
  LatencyHistogram m_inferenceTime;
  std::atomic<std::uint64_t> m_finished[3] = {};
  std::atomic<std::uint64_t> m_httpErrors{0};
  std::atomic<std::int64_t> m_openConnections{0};
};

}  // namespace ayar::engine
