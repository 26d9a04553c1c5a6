#pragma once

#include <map>
#include <string>
#include <string_view>

namespace ayar {

// The gauges Ayar charts from an engine's Prometheus /metrics page, summed over label sets.
// vLLM's names (and the older gpu_cache_usage_perc); SGLang's sglang:num_running_reqs and friends.
struct ServerMetricsSnapshot {
  std::map<std::string, double> values;  // "server.running", "server.waiting", "server.kv_cache_usage"
};

// Parses Prometheus text exposition and keeps the series Ayar knows. Lines it does not know, comments
// and malformed lines are skipped: a server's page is input, never a reason to stop a run.
ServerMetricsSnapshot parseServerMetrics(std::string_view prometheusText);

}  // namespace ayar
