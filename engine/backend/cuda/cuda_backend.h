#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "engine/backend/backend.h"
#include "engine/model/model_config.h"
#include "engine/model/weights.h"

namespace ayar::engine {

// What the CUDA runtime reports about device 0.
struct CudaDeviceInfo {
  bool usable = false;
  std::string name;     // "NVIDIA H200"
  std::string problem;  // why not usable ("no CUDA driver is installed", ...)
  std::int64_t totalBytes = 0;
  std::int64_t freeBytes = 0;
  int computeMajor = 0;
  int computeMinor = 0;
  int multiprocessors = 0;
};
CudaDeviceInfo probeCudaDevice();

// How the launches of a decode step of 1-2 rows follow one another. A programmatic dependent launch lets
// a kernel's blocks start, and issue their weight loads, while the kernel before it finishes.
enum class DecodeOverlap {
  None,          // every kernel starts once the one before it has finished
  BetweenGemvs,  // the GEMVs that follow a GEMV: qkv, gate/up, down and the lm_head
  All,           // also the decode attention after qkv and the o GEMV after the attention
};

// Settings that exist to measure the backend, not to run it: the engine leaves them at their defaults,
// and only bench_cuda_backend (and the backend's tests of each setting) change them.
struct CudaBackendTuning {
  // BetweenGemvs, not All: the o GEMV's early weight loads would delay the latency-bound attention before
  // it by more than the overlap gains (the comparison is in docs/BENCHMARKS.md).
  DecodeOverlap overlap = DecodeOverlap::BetweenGemvs;
  // Steps of more than 2 rows compute a row count rounded up to a bucket (16 up to 256 rows, 64 up to
  // 1,024, 256 up to 4,096, then 512), so that cuBLAS meets few distinct shapes, all of them in warmUp().
  // Off only to measure what it gives.
  bool bucketRows = true;
  // Time each step on the device too (CUDA events around its transfers and kernels; see
  // CudaBackend::lastStepDeviceMs), to measure the host's share of a step.
  bool timeSteps = false;
};

struct CudaBackendOptions {
  bool enforceEager = false;   // no CUDA graphs for decode steps
  std::uint64_t seed = 0;      // draws of requests without their own seed
  int maxPositions = 0;        // positions the rotary table covers (0: the model's maximum)
  CudaBackendTuning tuning{};  // the benchmark's settings (see above)
};

// The bf16 forward pass on one NVIDIA GPU: cuBLAS GEMMs (fused QKV and gate/up projections) and a
// split-K GEMV for steps of 1-2 tokens, own kernels for norms, RoPE with the paged KV write, SiLU,
// paged attention (decode and prefill) and sampling; decode steps replay CUDA graphs. Only token ids
// come back to the host. The pass is in cuda_backend.cu, the kernels under kernels/ (cuda_kernels.h).
class CudaBackend final : public Backend {
 public:
  // Uploads host weights (float32, converted to bf16), or, with hostWeights null, draws
  // makeDummyWeights(config, dummySeed)'s values on the device directly.
  CudaBackend(const ModelConfig& config, const Weights* hostWeights, std::uint64_t dummySeed,
              const CudaBackendOptions& options);
  ~CudaBackend() override;
  CudaBackend(const CudaBackend&) = delete;
  CudaBackend& operator=(const CudaBackend&) = delete;

  std::string_view name() const override { return "cuda"; }
  std::size_t kvBytesPerBlock(int blockSize) const override;
  void allocateKvCache(int numBlocks, int blockSize) override;
  // Runs the model's GEMMs once at every row bucket up to maxBatchedTokens (and the lm_head at every
  // bucket of sampled rows up to maxSeqs), so that a request's step never pays cuBLAS's first use of a
  // shape; allocates the activations for the largest step.
  void warmUp(int maxBatchedTokens, int maxSeqs) override;
  void step(std::span<const SeqStep> batch, StepOutput& out) override;

  // The logits behind the last step's sampled tokens (one row of vocabSize per sampled sequence, in
  // batch order), copied from the device. For tests and tools.
  std::vector<float> lastLogits() const;
  // Bytes of weights on the device (bf16).
  std::int64_t weightBytes() const;
  // Decode graphs captured so far (0 with enforceEager).
  int capturedGraphs() const;
  // With CudaBackendTuning::timeSteps: the device's time for the last step, from the start of its input
  // transfer to the end of the sampled tokens' transfer (what the step costs the GPU; the rest of the
  // step's wall time is the host's). 0 otherwise.
  double lastStepDeviceMs() const;

 private:
  struct State;
  std::unique_ptr<State> m;
};

// The backend for --device cuda.
std::unique_ptr<Backend> makeCudaBackend(const ModelConfig& config, const Weights* hostWeights,
                                         std::uint64_t dummySeed, const CudaBackendOptions& options);

// Device-to-device copy bandwidth of device 0 in bytes per second, counting bytes read plus bytes
// written (the median of `repeats` copies of `bytes`).
double measureCopyBandwidth(std::int64_t bytes, int repeats);

}  // namespace ayar::engine
