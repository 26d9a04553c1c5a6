#include "core/report/text_block.h"

#include <charconv>
#include <cmath>
#include <string_view>

#include "core/error.h"
#include "core/report/message_text.h"

namespace ayar {

namespace {

constexpr std::size_t kBlockWidth = 50;
constexpr std::size_t kLabelWidth = 40;

// Python's "{s:{c}^{n}}": the odd padding character goes to the right.
std::string centred(std::string_view text, char fill) {
  if (text.size() >= kBlockWidth) return std::string(text);
  const std::size_t padding = kBlockWidth - text.size();
  const std::size_t left = padding / 2;
  return std::string(left, fill) + std::string(text) + std::string(padding - left, fill);
}

constexpr std::size_t kValueWidth = 10;

class Block {
 public:
  // vLLM pads values to 10 columns ("{:<10}"); the seed documents' copies dropped those blanks.
  explicit Block(bool padValues) : m_padValues(padValues) {}

  void line(std::string_view text) {
    m_text += text;
    m_text += '\n';
  }
  // "{:<40} {:<10}" (labelWidth 41 reproduces the seed documents' latency lines).
  void row(std::string_view label, std::string_view value, std::size_t labelWidth = kLabelWidth) {
    m_text += label;
    if (label.size() < labelWidth) m_text.append(labelWidth - label.size(), ' ');
    m_text += ' ';
    m_text += value;
    if (m_padValues && value.size() < kValueWidth) m_text.append(kValueWidth - value.size(), ' ');
    m_text += '\n';
  }
  std::string take() { return std::move(m_text); }

 private:
  bool m_padValues;
  std::string m_text;
};

// One latency section in milliseconds. vLLM prints every requested percentile; the seed documents'
// block leaves out P50, which its Median line already says.
void latencySection(Block& block, const RunSummary& summary, LatencyMetric metric, bool skipP50) {
  static constexpr std::string_view kNames[] = {"TTFT", "TPOT", "ITL", "E2EL"};
  static constexpr std::string_view kHeaders[] = {"Time to First Token",
                                                  "Time per Output Token (excl. 1st token)",
                                                  "Inter-token Latency", "End-to-end Latency"};
  const auto index = static_cast<std::size_t>(metric);
  const std::string name(kNames[index]);
  const LatencyStats& stats = summary.stats(metric);
  block.line(centred(kHeaders[index], '-'));
  block.row("Mean " + name + " (ms):", formatFixed2(stats.meanMs));
  block.row("Median " + name + " (ms):", formatFixed2(stats.medianMs));
  for (const PercentileValue& p : stats.percentilesMs) {
    if (skipP50 && p.percentile == 50.0) continue;
    block.row("P" + percentileWord(p.percentile) + " " + name + " (ms):", formatFixed2(p.value));
  }
}

// End-to-end latency in seconds, laid out as the seed documents show it (their own header and a
// value column one further to the right).
void endToEndSection(Block& block, const RunSummary& summary) {
  const LatencyStats& stats = summary.e2el;
  constexpr std::size_t kWidth = kLabelWidth + 1;
  block.line("----------------------Latency---------------------");
  block.row("Mean Latency(s):", formatFixed2(stats.meanMs / 1000.0), kWidth);
  block.row("Median Latency(s):", formatFixed2(stats.medianMs / 1000.0), kWidth);
  for (const PercentileValue& p : stats.percentilesMs) {
    if (p.percentile == 50.0) continue;
    block.row("P" + percentileWord(p.percentile) + " Latency(s):", formatFixed2(p.value / 1000.0), kWidth);
  }
}

}  // namespace

std::string formatFixed2(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buffer[400];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, 2);
  return std::string(buffer, result.ptr);
}

TextBlockStyle parseTextBlockStyle(std::string_view name) {
  if (name == "vllm") return TextBlockStyle::Vllm;
  if (name == "gpustack") return TextBlockStyle::GpuStack;
  throw MessageError({MessageText::ReportStyleUnknown, {std::string(name)}});
}

std::string formatServingBenchmarkResult(const RunSummary& summary, const TextBlockOptions& options) {
  const bool vllm = options.style == TextBlockStyle::Vllm;
  Block block(vllm);
  block.line(centred(" Serving Benchmark Result ", '='));
  block.row("Successful requests:", std::to_string(summary.completed));
  if (vllm || summary.failed > 0) block.row("Failed requests:", std::to_string(summary.failed));
  if (summary.maxConcurrency)
    block.row("Maximum request concurrency:", std::to_string(*summary.maxConcurrency));
  if (options.requestRate && std::isfinite(*options.requestRate)) {
    block.row("Request rate configured (RPS):", formatFixed2(*options.requestRate));
  }
  block.row("Benchmark duration (s):", formatFixed2(summary.durationS));
  // A figure the run cannot give (an import whose file lacks it) is left out, not printed as 0.
  if (summary.totalInputTokens) block.row("Total input tokens:", std::to_string(*summary.totalInputTokens));
  block.row("Total generated tokens:", std::to_string(summary.totalOutputTokens));
  block.row("Request throughput (req/s):", formatFixed2(summary.requestThroughput));
  if (summary.requestGoodput) block.row("Request goodput (req/s):", formatFixed2(*summary.requestGoodput));
  block.row("Output token throughput (tok/s):", formatFixed2(summary.outputThroughput));
  if (summary.maxOutputTokensPerS)
    block.row("Peak output token throughput (tok/s):", formatFixed2(*summary.maxOutputTokensPerS));
  if (summary.maxConcurrentRequests)
    block.row("Peak concurrent requests:", formatFixed2(*summary.maxConcurrentRequests));
  if (summary.totalTokenThroughput) {
    block.row(vllm ? "Total token throughput (tok/s):" : "Total Token throughput (tok/s):",
              formatFixed2(*summary.totalTokenThroughput));
  }
  if (!vllm && summary.reports(LatencyMetric::E2el)) endToEndSection(block, summary);
  for (LatencyMetric metric : kAllLatencyMetrics) {
    if (summary.reports(metric) && (vllm || metric != LatencyMetric::E2el)) {
      latencySection(block, summary, metric, /*skipP50=*/!vllm);
    }
  }
  block.line(std::string(kBlockWidth, '='));
  std::string text = block.take();

  if (options.ayarLines) {
    Block ayar(/*padValues=*/false);
    ayar.row("Dispatch lag P99 (ms):", formatFixed2(summary.dispatchLagP99Ms));
    ayar.row("Synthetic dataset:", options.syntheticDataset ? "yes" : "no");
    ayar.row("Output tokens from tokenizer:",
             summary.outputTokensFromTokenizer
                 ? "yes (" + std::to_string(summary.outputTokensFromTokenizerRequests) + " requests)"
                 : "no");
    for (const ErrorCount& error : summary.errors) {
      std::string message = error.message;
      for (char& c : message) {
        if (c == '\n' || c == '\r') c = ' ';  // one line per error
      }
      ayar.row("Error (" + std::to_string(error.count) + (error.count == 1 ? " request):" : " requests):"),
               message);
    }
    text += ayar.take();
  }
  return text;
}

}  // namespace ayar
