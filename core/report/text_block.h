#pragma once

#include <optional>
#include <string>

#include "core/metrics/run_summary.h"

namespace ayar {

struct TextBlockOptions {
  // The configured request rate; a finite rate adds vLLM's "Request rate configured (RPS):" line.
  std::optional<double> requestRate;
  // Ayar's lines after the closing rule (dispatch lag, dataset, output counts, errors).
  bool ayarLines = true;
  bool syntheticDataset = false;
};

// The "Serving Benchmark Result" block as `vllm bench serve` prints it (labels padded to 40 columns,
// one space, the value; floats with two decimals; headers centred in 50 columns), with the latency
// section in seconds first as in the seed documents. Values are not padded on the right (vLLM's
// "{:<10}" leaves trailing blanks that copies of its output drop). Ayar's own lines follow the final
// rule so that the block itself compares line for line with vLLM's.
std::string formatServingBenchmarkResult(const RunSummary& summary, const TextBlockOptions& options = {});

// Python's "{:.2f}" in the C locale, whatever the process locale is.
std::string formatFixed2(double value);

}  // namespace ayar
