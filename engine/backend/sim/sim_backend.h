#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "engine/backend/backend.h"
#include "engine/model/model_config.h"

namespace ayar::engine {

// The hardware the timing simulator pretends to be, from --sim-profile.
//
// `fixed:TTFT_MS,ITL_MS`: every request's first token is released exactly TTFT ms after its arrival and
// each later one exactly ITL ms after the previous one, whatever else runs (for testing clients).
//
// `step:BASE_MS,PER_SEQ_MS`: every step takes BASE_MS + PER_SEQ_MS x (sequences in the step), tokens
// released at the step's end. A bigger batch (--max-num-seqs) makes each step slower but serves more
// sequences per step, so a flag search has a known answer: with all requests at once and a TPOT
// limit T, the largest batch whose step fits is floor((T - BASE_MS) / PER_SEQ_MS).
//
// `h100` / `h200`: a step-time model of the bundled CUDA backend, fitted to what it measured on an H200
// (scripts/step-sweep.sh there, scripts/fit-sim-profile.py here; the constants are in sim_backend.cpp,
// the fit point by point in docs/BENCHMARKS.md):
//   step = layers x overhead per layer (by the kind of step: the *OverheadPerLayerSeconds below)
//        + max(weight bytes / weight bandwidth, linear FLOPs / linear rate)
//        + KV bytes read by decode tokens / attention bandwidth
//        + prefill attention FLOPs / prefill attention rate
// The h100 profile keeps the H200's compute rates and overheads (the same GH100 chip) and scales the
// memory terms by the two datasheets' HBM bandwidths.
struct SimProfile {
  enum class Kind { kFixed, kStep, kRoofline };
  Kind kind = Kind::kFixed;
  std::string name;  // "fixed", "step", "h100", "h200"
  // kFixed
  double ttftMs = 0.0;
  double itlMs = 0.0;
  // kStep
  double stepBaseMs = 0.0;
  double stepPerSeqMs = 0.0;
  // kRoofline
  double memoryBytesPerSecond = 0.0;          // weights streamed by the linear layers
  double flopsPerSecond = 0.0;                // linear layers once compute-bound, dense bf16
  double attentionBytesPerSecond = 0.0;       // decode attention reading the KV cache
  double attentionFlopsPerSecond = 0.0;       // prefill attention
  double fusedOverheadPerLayerSeconds = 0.0;  // launch and host costs of a decode-only step of 1-2
                                              // sequences (the CUDA backend's fused GEMV path, a graph)
  double graphOverheadPerLayerSeconds = 0.0;  // the same for a decode-only step of 3-16 (cuBLAS, a graph)
  double wideOverheadPerLayerSeconds = 0.0;   // and of more than 16 (cuBLAS at 32 or more padded rows)
  double eagerOverheadPerLayerSeconds = 0.0;  // the same for a prefill-only step, or any step when eager
  double mixedOverheadPerLayerSeconds = 0.0;  // and for a step with prefill beside decodes (eager, both
                                              // attention kernels)
  bool enforceEager = false;                  // --enforce-eager: every step pays the eager overhead
  // --quantization fp8: the layers' linear weights are read at one byte each and their GEMMs run at
  // twice the fitted bf16 rate (Hopper's FP8 tensor-core peak is twice its bf16 one); embedding and
  // lm_head stay bf16. --kv-cache-dtype fp8: K and V at one byte an element, written and read. Not
  // fitted: no backend has measured FP8 yet, so these are the datasheet's ratios on the bf16 fit.
  bool fp8Weights = false;
  bool fp8KvCache = false;
  // Both: the device memory the server sizes its KV pool from.
  std::int64_t deviceMemoryBytes = 0;

  // Parses the --sim-profile value; throws ayar::Error naming the value otherwise.
  static SimProfile parse(std::string_view value);
};

// The length of one step of a step profile over `sequences` sequences: BASE_MS + PER_SEQ_MS x sequences.
double stepMilliseconds(const SimProfile& profile, std::size_t sequences);

// What nvidia-smi reports as total memory: H100 SXM 80 GB (81,559 MiB), H200 141 GB (143,771 MiB).
// Fixed and step modes have no device; they report the H200's so that every preset fits.
std::int64_t simulatedDeviceMemoryBytes(const SimProfile& profile);

// The roofline of one step, from counting bytes and FLOPs (see SimProfile). For a fixed profile only
// the counts are filled in.
struct StepCost {
  double bytes = 0.0;             // linear weights in bf16 once + KV read by decodes + KV written
  double flops = 0.0;             // linear layers + attention
  double memorySeconds = 0.0;     // weights (and new K/V written) over the weight bandwidth
  double computeSeconds = 0.0;    // linear FLOPs over the linear rate
  double attentionSeconds = 0.0;  // decode KV read + prefill attention FLOPs
  double overheadSeconds = 0.0;   // per layer, graph or eager
  double seconds = 0.0;           // overhead + max(memory, compute) + attention
  bool computeBound() const { return computeSeconds > memorySeconds; }
};
StepCost rooflineStepCost(const ModelConfig& model, const SimProfile& profile,
                          std::span<const SeqStep> batch);

// A backend with no math: random token ids drawn from [0, 151643) (never a special token), seeded, on
// the profile's timing. Fixed mode returns from step() at once and sets StepOutput::releaseAt; step and
// roofline modes sleep until the modelled end of the step and release tokens at once.
std::unique_ptr<Backend> makeSimBackend(const ModelConfig& model, const SimProfile& profile,
                                        std::uint64_t seed);

}  // namespace ayar::engine
