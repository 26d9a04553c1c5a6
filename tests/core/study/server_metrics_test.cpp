#include "core/study/server_metrics.h"

#include <gtest/gtest.h>

namespace ayar {
namespace {

TEST(ServerMetrics, ReadsVllmGaugesSummedOverLabels) {
  const char* page = R"(# HELP vllm:num_requests_running Number of requests in model execution batches.
# TYPE vllm:num_requests_running gauge
vllm:num_requests_running{engine="0",model_name="Qwen/Qwen3-8B"} 7.0
vllm:num_requests_running{engine="1",model_name="Qwen/Qwen3-8B"} 2.0
vllm:num_requests_waiting{model_name="a {b} \"c\""} 3
vllm:kv_cache_usage_perc{model_name="x"} 0.25
vllm:prompt_tokens_total{model_name="x"} 12345
)";
  const auto snapshot = parseServerMetrics(page);
  EXPECT_DOUBLE_EQ(snapshot.values.at("server.running"), 9.0);
  EXPECT_DOUBLE_EQ(snapshot.values.at("server.waiting"), 3.0);
  EXPECT_DOUBLE_EQ(snapshot.values.at("server.kv_cache_usage"), 0.25);
  EXPECT_EQ(snapshot.values.size(), 3u);
}

TEST(ServerMetrics, NewerNameWinsOverTheDeprecatedOne) {
  const auto snapshot = parseServerMetrics("vllm:gpu_cache_usage_perc 0.9\nvllm:kv_cache_usage_perc 0.4\n");
  EXPECT_DOUBLE_EQ(snapshot.values.at("server.kv_cache_usage"), 0.4);
  const auto old = parseServerMetrics("vllm:gpu_cache_usage_perc{x=\"1\"} 0.9\n");
  EXPECT_DOUBLE_EQ(old.values.at("server.kv_cache_usage"), 0.9);
}

TEST(ServerMetrics, SkipsMalformedLinesAndReadsSglang) {
  const char* page =
      "garbage\nvllm:num_requests_running{unterminated 5\nvllm:num_requests_waiting NaN\n"
      "sglang:num_running_reqs 4 1700000000000\r\nsglang:token_usage 0.5\n";
  const auto snapshot = parseServerMetrics(page);
  EXPECT_DOUBLE_EQ(snapshot.values.at("server.running"), 4.0);
  EXPECT_DOUBLE_EQ(snapshot.values.at("server.kv_cache_usage"), 0.5);
  EXPECT_EQ(snapshot.values.count("server.waiting"), 0u);
}

}  // namespace
}  // namespace ayar
