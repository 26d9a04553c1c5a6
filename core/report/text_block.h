#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/metrics/run_summary.h"

namespace ayar {

// The two layouts of the result block.
enum class TextBlockStyle {
  // `vllm bench serve`'s current block, byte for byte: values left-aligned in 10 columns, "Failed
  // requests" always, the selected latency sections in vLLM's order (TTFT, TPOT, ITL, E2EL) in
  // milliseconds with every requested percentile.
  Vllm,
  // The seed documents' block (an older vLLM as GPUStack shows it): end-to-end latency first, in
  // seconds, "Failed requests" only when some failed, no trailing blanks.
  GpuStack,
};
// "vllm" or "gpustack"; anything else is an ayar::Error naming the text and the choices.
TextBlockStyle parseTextBlockStyle(std::string_view name);

struct TextBlockOptions {
  TextBlockStyle style = TextBlockStyle::Vllm;
  // The configured request rate; a finite rate adds vLLM's "Request rate configured (RPS):" line.
  std::optional<double> requestRate;
  // Ayar's lines after the closing rule (dispatch lag, dataset, output counts, errors).
  bool ayarLines = true;
  bool syntheticDataset = false;
};

// The "Serving Benchmark Result" block as `vllm bench serve` prints it (labels padded to 40 columns,
// one space, the value; floats with two decimals; headers centred in 50 columns) in options.style.
// Ayar's own lines follow the final rule so that the block itself compares line for line with vLLM's.
std::string formatServingBenchmarkResult(const RunSummary& summary, const TextBlockOptions& options = {});

// Python's "{:.2f}" in the C locale, whatever the process locale is.
std::string formatFixed2(double value);

}  // namespace ayar
