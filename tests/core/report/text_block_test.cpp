#include "core/report/text_block.h"

#include <gtest/gtest.h>

#include "core/error.h"

namespace ayar {
namespace {

LatencyStats stats(double meanMs, double medianMs, std::vector<PercentileValue> percentiles) {
  LatencyStats s;
  s.meanMs = meanMs;
  s.medianMs = medianMs;
  s.percentilesMs = std::move(percentiles);
  s.samples = 1;
  return s;
}

// The first vLLM run of docs/seeds' latency study (max concurrency 31), figures as printed there.
RunSummary latencyStudyRun() {
  RunSummary s;
  s.completed = 1000;
  s.maxConcurrency = 31;
  s.durationS = 130.18;
  s.totalInputTokens = 342058;
  s.totalOutputTokens = 281412;
  s.requestThroughput = 7.68;
  s.outputThroughput = 2197.17;
  s.maxOutputTokensPerS = 2885041.51;
  s.maxConcurrentRequests = 31;
  s.totalTokenThroughput = 4867.84;
  s.percentileMetrics = {LatencyMetric::Ttft, LatencyMetric::Tpot, LatencyMetric::Itl, LatencyMetric::E2el};
  s.percentiles = {50, 95, 99};
  s.e2el = stats(2620.0, 2290.0, {{50, 2290.0}, {95, 6810.0}, {99, 7750.0}});
  s.ttft = stats(41.12, 33.92, {{50, 33.92}, {95, 72.24}, {99, 141.44}});
  s.tpot = stats(1.34, 0.11, {{50, 0.11}, {95, 9.18}, {99, 10.07}});
  s.itl = stats(1.19, 0.001, {{50, 0.001}, {95, 9.08}, {99, 10.04}});
  return s;
}

TEST(TextBlock, ReproducesTheSeedDocumentsLatencyStudyBlockInGpuStackStyle) {
  TextBlockOptions options;
  options.style = TextBlockStyle::GpuStack;
  options.ayarLines = false;
  const std::string expected =
      "============ Serving Benchmark Result ============\n"
      "Successful requests:                     1000\n"
      "Maximum request concurrency:             31\n"
      "Benchmark duration (s):                  130.18\n"
      "Total input tokens:                      342058\n"
      "Total generated tokens:                  281412\n"
      "Request throughput (req/s):              7.68\n"
      "Output token throughput (tok/s):         2197.17\n"
      "Peak output token throughput (tok/s):    2885041.51\n"
      "Peak concurrent requests:                31.00\n"
      "Total Token throughput (tok/s):          4867.84\n"
      "----------------------Latency---------------------\n"
      "Mean Latency(s):                          2.62\n"
      "Median Latency(s):                        2.29\n"
      "P95 Latency(s):                           6.81\n"
      "P99 Latency(s):                           7.75\n"
      "---------------Time to First Token----------------\n"
      "Mean TTFT (ms):                          41.12\n"
      "Median TTFT (ms):                        33.92\n"
      "P95 TTFT (ms):                           72.24\n"
      "P99 TTFT (ms):                           141.44\n"
      "-----Time per Output Token (excl. 1st token)------\n"
      "Mean TPOT (ms):                          1.34\n"
      "Median TPOT (ms):                        0.11\n"
      "P95 TPOT (ms):                           9.18\n"
      "P99 TPOT (ms):                           10.07\n"
      "---------------Inter-token Latency----------------\n"
      "Mean ITL (ms):                           1.19\n"
      "Median ITL (ms):                         0.00\n"
      "P95 ITL (ms):                            9.08\n"
      "P99 ITL (ms):                            10.04\n"
      "==================================================\n";
  EXPECT_EQ(formatServingBenchmarkResult(latencyStudyRun(), options), expected);
}

TEST(TextBlock, ReproducesTheSeedDocumentsThroughputStudyBlockInGpuStackStyle) {
  // vLLM defaults: ttft,tpot,itl and P99 only, no concurrency cap, rate inf.
  RunSummary s;
  s.completed = 1000;
  s.durationS = 63.53;
  s.totalInputTokens = 217393;
  s.totalOutputTokens = 201648;
  s.requestThroughput = 15.74;
  s.outputThroughput = 3173.92;
  s.maxOutputTokensPerS = 8890.0;
  s.maxConcurrentRequests = 1000;
  s.totalTokenThroughput = 6595.66;
  s.percentileMetrics = {LatencyMetric::Ttft, LatencyMetric::Tpot, LatencyMetric::Itl};
  s.percentiles = {99};
  s.ttft = stats(22141.21, 21872.31, {{99, 31156.86}});
  s.tpot = stats(226.03, 117.46, {{99, 621.87}});
  s.itl = stats(92.83, 59.99, {{99, 627.72}});
  TextBlockOptions options;
  options.style = TextBlockStyle::GpuStack;
  options.ayarLines = false;
  options.requestRate = std::numeric_limits<double>::infinity();
  const std::string expected =
      "============ Serving Benchmark Result ============\n"
      "Successful requests:                     1000\n"
      "Benchmark duration (s):                  63.53\n"
      "Total input tokens:                      217393\n"
      "Total generated tokens:                  201648\n"
      "Request throughput (req/s):              15.74\n"
      "Output token throughput (tok/s):         3173.92\n"
      "Peak output token throughput (tok/s):    8890.00\n"
      "Peak concurrent requests:                1000.00\n"
      "Total Token throughput (tok/s):          6595.66\n"
      "---------------Time to First Token----------------\n"
      "Mean TTFT (ms):                          22141.21\n"
      "Median TTFT (ms):                        21872.31\n"
      "P99 TTFT (ms):                           31156.86\n"
      "-----Time per Output Token (excl. 1st token)------\n"
      "Mean TPOT (ms):                          226.03\n"
      "Median TPOT (ms):                        117.46\n"
      "P99 TPOT (ms):                           621.87\n"
      "---------------Inter-token Latency----------------\n"
      "Mean ITL (ms):                           92.83\n"
      "Median ITL (ms):                         59.99\n"
      "P99 ITL (ms):                            627.72\n"
      "==================================================\n";
  EXPECT_EQ(formatServingBenchmarkResult(s, options), expected);
}

TEST(TextBlock, AddsFailuresRateGoodputAndAyarLinesAfterTheRule) {
  RunSummary s;
  s.completed = 8;
  s.failed = 2;
  s.durationS = 4.0;
  s.totalInputTokens = 800;
  s.totalOutputTokens = 400;
  s.requestThroughput = 2.0;
  s.requestGoodput = 1.5;
  s.outputThroughput = 100.0;
  s.maxOutputTokensPerS = 120.0;
  s.maxConcurrentRequests = 4;
  s.totalTokenThroughput = 300.0;
  s.percentileMetrics = {LatencyMetric::Ttft};
  s.percentiles = {90, 99.9};
  s.ttft = stats(10.0, 9.0, {{90, 15.0}, {99.9, 20.125}});
  s.dispatchLagP99Ms = 0.256;
  s.outputTokensFromTokenizer = true;
  s.outputTokensFromTokenizerRequests = 3;
  s.errors = {{"HTTP 503: overloaded", 1}, {"line one\nline two", 1}};
  TextBlockOptions options;
  options.style = TextBlockStyle::GpuStack;
  options.requestRate = 2.5;
  options.syntheticDataset = true;
  const std::string expected =
      "============ Serving Benchmark Result ============\n"
      "Successful requests:                     8\n"
      "Failed requests:                         2\n"
      "Request rate configured (RPS):           2.50\n"
      "Benchmark duration (s):                  4.00\n"
      "Total input tokens:                      800\n"
      "Total generated tokens:                  400\n"
      "Request throughput (req/s):              2.00\n"
      "Request goodput (req/s):                 1.50\n"
      "Output token throughput (tok/s):         100.00\n"
      "Peak output token throughput (tok/s):    120.00\n"
      "Peak concurrent requests:                4.00\n"
      "Total Token throughput (tok/s):          300.00\n"
      "---------------Time to First Token----------------\n"
      "Mean TTFT (ms):                          10.00\n"
      "Median TTFT (ms):                        9.00\n"
      "P90 TTFT (ms):                           15.00\n"
      "P99.9 TTFT (ms):                         20.12\n"
      "==================================================\n"
      "Dispatch lag P99 (ms):                   0.26\n"
      "Synthetic dataset:                       yes\n"
      "Output tokens from tokenizer:            yes (3 requests)\n"
      "Error (1 request):                       HTTP 503: overloaded\n"
      "Error (1 request):                       line one line two\n";
  EXPECT_EQ(formatServingBenchmarkResult(s, options), expected);
}

// The expected text is what vLLM's own format strings ("{:<40} {:<10.2f}" and the centred headers)
// print for these figures, trailing blanks included.
TEST(TextBlock, VllmStyleIsVllmsCurrentBlockByteForByte) {
  RunSummary s;
  s.completed = 8;
  s.durationS = 4.0;
  s.totalInputTokens = 800;
  s.totalOutputTokens = 400;
  s.requestThroughput = 2.0;
  s.requestGoodput = 1.5;
  s.outputThroughput = 100.0;
  s.maxOutputTokensPerS = 120.0;
  s.maxConcurrentRequests = 4;
  s.maxConcurrency = 4;
  s.totalTokenThroughput = 300.0;
  s.percentileMetrics = {LatencyMetric::E2el, LatencyMetric::Ttft};  // printed in vLLM's order
  s.percentiles = {50, 99.9};
  s.ttft = stats(10.0, 9.0, {{50, 9.0}, {99.9, 20.125}});
  s.e2el = stats(1234.5, 1000.0, {{50, 1000.0}, {99.9, 22222.0}});
  TextBlockOptions options;
  options.ayarLines = false;
  options.requestRate = 2.5;
  const std::string expected =
      "============ Serving Benchmark Result ============\n"
      "Successful requests:                     8         \n"
      "Failed requests:                         0         \n"
      "Maximum request concurrency:             4         \n"
      "Request rate configured (RPS):           2.50      \n"
      "Benchmark duration (s):                  4.00      \n"
      "Total input tokens:                      800       \n"
      "Total generated tokens:                  400       \n"
      "Request throughput (req/s):              2.00      \n"
      "Request goodput (req/s):                 1.50      \n"
      "Output token throughput (tok/s):         100.00    \n"
      "Peak output token throughput (tok/s):    120.00    \n"
      "Peak concurrent requests:                4.00      \n"
      "Total token throughput (tok/s):          300.00    \n"
      "---------------Time to First Token----------------\n"
      "Mean TTFT (ms):                          10.00     \n"
      "Median TTFT (ms):                        9.00      \n"
      "P50 TTFT (ms):                           9.00      \n"
      "P99.9 TTFT (ms):                         20.12     \n"
      "----------------End-to-end Latency----------------\n"
      "Mean E2EL (ms):                          1234.50   \n"
      "Median E2EL (ms):                        1000.00   \n"
      "P50 E2EL (ms):                           1000.00   \n"
      "P99.9 E2EL (ms):                         22222.00  \n"
      "==================================================\n";
  EXPECT_EQ(formatServingBenchmarkResult(s, options), expected);
  EXPECT_EQ(parseTextBlockStyle("gpustack"), TextBlockStyle::GpuStack);
  EXPECT_THROW(parseTextBlockStyle("fancy"), Error);
}

TEST(TextBlock, FormatsTwoDecimalsLikePython) {
  EXPECT_EQ(formatFixed2(0.125), "0.12");  // binary 0.125 is exact: ties go to even, as in Python
  EXPECT_EQ(formatFixed2(0.375), "0.38");
  EXPECT_EQ(formatFixed2(2.675), "2.67");  // 2.67499999... in binary
  EXPECT_EQ(formatFixed2(1e6), "1000000.00");
  EXPECT_EQ(formatFixed2(-0.001), "-0.00");
  EXPECT_EQ(formatFixed2(std::numeric_limits<double>::infinity()), "inf");
}

}  // namespace
}  // namespace ayar
