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
// `h100` / `h200`: a roofline per step, time = max(bytes / bandwidth, flops / tensor rate) + overhead,
// with effective (achieved) rates rather than datasheet peaks:
//   - HBM bandwidth: H100 SXM 3.35 TB/s peak, H200 4.8 TB/s peak (NVIDIA datasheets). Achieved: a device
//     copy on an H200 measured ~4.3 TB/s (0.896 of peak), and the linear layers of a decode step as
//     cuBLAS bf16 GEMMs in a CUDA graph reached 86-89% of that copy floor (ENGINE.md). Effective
//     bandwidth = peak x 0.896 x 0.89: H100 2.67 TB/s, H200 3.83 TB/s.
//   - Tensor rate: ~989 TFLOP/s dense bf16 peak on both (H100 SXM datasheet; the H200 has the same
//     GH100 compute). Large cuBLAS bf16 GEMMs and flash attention achieve roughly 70% of it: 692 TFLOP/s.
//   - Per-step overhead: 30 us (graph launch, sampling, host bookkeeping of a C++ engine).
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
  double memoryBytesPerSecond = 0.0;  // effective
  double flopsPerSecond = 0.0;        // effective, dense bf16
  double stepOverheadSeconds = 0.0;
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
  double bytes = 0.0;  // linear weights in bf16 once + KV read + KV written
  double flops = 0.0;  // linear layers + attention
  double memorySeconds = 0.0;
  double computeSeconds = 0.0;
  double seconds = 0.0;  // max of the two + per-step overhead
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
