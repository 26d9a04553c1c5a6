#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "engine/backend/backend.h"
#include "engine/backend/sim/sim_backend.h"
#include "engine/model/model_config.h"
#include "engine/server/completion_request.h"
#include "engine/server/engine_options.h"

namespace ayar::engine {

// Everything decided from the command line before anything big is allocated: the model, the device,
// where the weights and the tokenizer come from, and the KV cache pool.
struct EnginePlan {
  ModelConfig model;
  std::string device;      // "cuda", "cpu" or "sim" (auto resolved)
  std::string deviceName;  // the GPU's name for cuda ("NVIDIA H200")
  bool enforceEager = false;
  std::optional<SimProfile> simProfile;
  bool fp8Weights = false;            // --quantization fp8 (sim only so far)
  bool fp8KvCache = false;            // --kv-cache-dtype fp8 / fp8_e4m3 (sim only so far)
  std::string loadFormat;             // "dummy", "safetensors", or "none" (sim: no weights)
  std::filesystem::path modelFolder;  // empty for a preset
  std::filesystem::path tokenizerPath;
  std::string servedModelName;
  SamplingDefaults samplingDefaults;  // from the folder's generation_config.json when present

  int maxModelLen = 0;
  int maxNumSeqs = 0;  // --max-num-seqs, or its default for the device (defaultMaxNumSeqs)
  int numBlocks = 0;
  std::int64_t kvBytesPerBlock = 0;
  std::int64_t weightBytes = 0;    // as the device holds them (cpu: float32, cuda and sim: bf16 or fp8)
  std::int64_t kvBudgetBytes = 0;  // the KV pool
  std::int64_t memoryBytes =
      0;  // what the budget was taken from (cuda, sim: device memory; cpu: MemAvailable)
};

// vLLM's default --max-num-seqs for the device: 1024 on a GPU with at least 70 GiB that is not an A100
// (H100/H200 class; the h100/h200 sim models such cards), else 256; never above the step's token budget,
// since every running sequence needs a token of it. `gpuName` and `gpuMemoryBytes` describe the (real or
// simulated) card; a cpu plan passes an empty name and 0.
int defaultMaxNumSeqs(const std::string& gpuName, std::int64_t gpuMemoryBytes, int maxNumBatchedTokens);

// The KV budget on --device cpu when --kv-cache-memory-bytes is not given.
inline constexpr std::int64_t kDefaultCpuKvCacheBytes = std::int64_t{1} << 30;

// Resolves MODEL, --device, --load-format and --tokenizer and sizes the KV pool: cuda and sim from the
// (real or simulated) card's memory x --gpu-memory-utilization minus bf16 weights and an activation
// reserve; cpu from
// --kv-cache-memory-bytes (1 GiB by default) once float32 weights plus that budget fit in
// `availableHostBytes`. Throws ayar::Error naming the flag (or MODEL) and what to do.
EnginePlan planEngine(const EngineOptions& options, std::int64_t availableHostBytes);

// MemAvailable from /proc/meminfo; 0 when it cannot be read.
std::int64_t availableHostMemoryBytes();

// Whether this build has the CUDA backend, and what it finds on this machine: "" when a usable GPU is
// present, else why not.
bool cudaBackendBuilt();
std::string cudaUnavailableReason();
// What `--device auto` picks here, as `ayar-engine device` prints it: "cuda NVIDIA H200 139.8 GiB" or
// "cpu no CUDA driver is installed (...)".
std::string describeAutoDevice();

// Loads (or seeds) the weights and creates the backend of the plan.
std::unique_ptr<Backend> createBackend(const EnginePlan& plan, std::uint64_t seed);

// "1.5 GiB": byte counts for messages.
std::string formatBytes(std::int64_t bytes);

}  // namespace ayar::engine
