#include "engine/server/server_metrics.h"

#include <gtest/gtest.h>

namespace ayar::engine {
namespace {

TEST(ServerMetrics, HistogramBucketsAreCumulativeWithVllmsBounds) {
  ServerMetrics metrics("m", true);
  metrics.observeTimeToFirstToken(0.001);  // on a bound: counted in it (le)
  metrics.observeTimeToFirstToken(0.03);
  metrics.observeTimeToFirstToken(5000.0);  // beyond the last bound: +Inf only
  const std::string text = metrics.renderPrometheus(EngineStats{});
  EXPECT_NE(text.find("vllm:time_to_first_token_seconds_bucket{le=\"0.001\",model_name=\"m\"} 1.0"),
            std::string::npos);
  EXPECT_NE(text.find("vllm:time_to_first_token_seconds_bucket{le=\"0.04\",model_name=\"m\"} 2.0"),
            std::string::npos);
  EXPECT_NE(text.find("vllm:time_to_first_token_seconds_bucket{le=\"2560.0\",model_name=\"m\"} 2.0"),
            std::string::npos);
  EXPECT_NE(text.find("vllm:time_to_first_token_seconds_bucket{le=\"+Inf\",model_name=\"m\"} 3.0"),
            std::string::npos);
  EXPECT_NE(text.find("vllm:time_to_first_token_seconds_count{model_name=\"m\"} 3.0"), std::string::npos);
}

TEST(ServerMetrics, RequestPhasesGoToVllmsFourPhaseHistograms) {
  ServerMetrics metrics("m", false);
  metrics.observePhases({0.25, 0.5, 2.0, 2.5});
  const std::string text = metrics.renderPrometheus(EngineStats{});
  for (const char* line : {"# TYPE vllm:request_queue_time_seconds histogram",
                           "vllm:request_queue_time_seconds_bucket{le=\"0.3\",model_name=\"m\"} 1.0",
                           "vllm:request_queue_time_seconds_sum{model_name=\"m\"} 0.25",
                           "vllm:request_prefill_time_seconds_bucket{le=\"0.3\",model_name=\"m\"} 0.0",
                           "vllm:request_prefill_time_seconds_bucket{le=\"0.5\",model_name=\"m\"} 1.0",
                           "vllm:request_decode_time_seconds_bucket{le=\"1.5\",model_name=\"m\"} 0.0",
                           "vllm:request_decode_time_seconds_bucket{le=\"2.0\",model_name=\"m\"} 1.0",
                           "vllm:request_inference_time_seconds_sum{model_name=\"m\"} 2.5",
                           "vllm:request_inference_time_seconds_count{model_name=\"m\"} 1.0"}) {
    EXPECT_NE(text.find(line), std::string::npos) << line;
  }
}

TEST(ServerMetrics, ShowsEngineStatsUnderVllmNamesAndTheSimulatedMarker) {
  ServerMetrics metrics("qwen3-8b", true);
  metrics.observeFinished(RequestOutcome::kStop, 1.0);
  metrics.observeFinished(RequestOutcome::kAbort, 1.0);
  EngineStats stats;
  stats.running = 3;
  stats.waiting = 4;
  stats.numBlocks = 100;
  stats.freeBlocks = 60;
  stats.kvCacheUsage = 0.4;
  stats.promptTokensTotal = 1234;
  stats.generationTokensTotal = 99;
  stats.prefixCacheQueries = 50;
  stats.prefixCacheHits = 20;
  stats.preemptionsTotal = 2;
  const std::string text = metrics.renderPrometheus(stats);
  const std::string label = "{model_name=\"qwen3-8b\"} ";
  for (const std::string& line :
       {"vllm:num_requests_running" + label + "3.0", "vllm:num_requests_waiting" + label + "4.0",
        "vllm:kv_cache_usage_perc" + label + "0.4", "vllm:prompt_tokens_total" + label + "1234.0",
        "vllm:generation_tokens_total" + label + "99.0", "vllm:prefix_cache_queries_total" + label + "50.0",
        "vllm:prefix_cache_hits_total" + label + "20.0", "vllm:num_preemptions_total" + label + "2.0",
        "ayar:simulated" + label + "1.0", "ayar:num_kv_blocks_free" + label + "60.0",
        "ayar:num_kv_blocks" + label + "100.0",
        std::string("vllm:request_success_total{finished_reason=\"stop\",model_name=\"qwen3-8b\"} 1.0"),
        std::string("vllm:request_success_total{finished_reason=\"abort\",model_name=\"qwen3-8b\"} 1.0"),
        std::string("# TYPE vllm:e2e_request_latency_seconds histogram"),
        std::string("# TYPE vllm:inter_token_latency_seconds histogram"),
        std::string("# TYPE vllm:prompt_tokens counter")}) {
    EXPECT_NE(text.find(line), std::string::npos) << line;
  }
}

}  // namespace
}  // namespace ayar::engine
