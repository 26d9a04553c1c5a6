#include "core/study/server_metrics.h"

#include <charconv>
#include <cmath>
#include <utility>

namespace ayar {
namespace {

// Prometheus name -> Ayar's sample name.
constexpr std::pair<std::string_view, std::string_view> kKnownSeries[] = {
    {"vllm:num_requests_running", "server.running"},
    {"vllm:num_requests_waiting", "server.waiting"},
    {"vllm:kv_cache_usage_perc", "server.kv_cache_usage"},
    {"vllm:gpu_cache_usage_perc", "server.kv_cache_usage"},
    {"sglang:num_running_reqs", "server.running"},
    {"sglang:num_queue_reqs", "server.waiting"},
    {"sglang:token_usage", "server.kv_cache_usage"},
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

}  // namespace

ServerMetricsSnapshot parseServerMetrics(std::string_view text) {
  std::map<std::string_view, double> sums;  // by Prometheus name, over label sets
  while (!text.empty()) {
    const auto end = text.find('\n');
    std::string_view line = trim(text.substr(0, end));
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    if (line.empty() || line.front() == '#') continue;
    // name{labels} value [timestamp]; label values may hold spaces, so skip the braces whole.
    std::size_t nameEnd = line.find_first_of("{ \t");
    if (nameEnd == std::string_view::npos) continue;
    const std::string_view name = line.substr(0, nameEnd);
    std::size_t valueStart = nameEnd;
    if (line[nameEnd] == '{') {
      bool quoted = false;
      std::size_t i = nameEnd + 1;
      for (; i < line.size(); ++i) {
        if (line[i] == '\\' && quoted) {
          ++i;
        } else if (line[i] == '"') {
          quoted = !quoted;
        } else if (line[i] == '}' && !quoted) {
          break;
        }
      }
      if (i >= line.size()) continue;
      valueStart = i + 1;
    }
    std::string_view rest = trim(line.substr(valueStart));
    rest = rest.substr(0, rest.find_first_of(" \t"));
    double value = 0.0;
    const auto [ptr, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), value);
    if (ec != std::errc() || ptr != rest.data() + rest.size() || !std::isfinite(value)) continue;
    for (const auto& [prometheusName, sampleName] : kKnownSeries) {
      if (name == prometheusName) sums[prometheusName] += value;
    }
  }
  // Where a server exposes an old and a new name for one gauge, the first listed wins.
  ServerMetricsSnapshot snapshot;
  for (const auto& [prometheusName, sampleName] : kKnownSeries) {
    const auto found = sums.find(prometheusName);
    if (found != sums.end()) snapshot.values.try_emplace(std::string(sampleName), found->second);
  }
  return snapshot;
}

}  // namespace ayar
