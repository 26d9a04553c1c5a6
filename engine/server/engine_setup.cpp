#include "engine/server/engine_setup.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/error.h"
#include "core/tokenizer/tokenizer.h"
#include "engine/backend/cpu/cpu_backend.h"
#ifdef AYAR_HAS_CUDA
#include "engine/backend/cuda/cuda_backend.h"
#endif
#include "engine/model/weights.h"

namespace ayar::engine {

namespace fs = std::filesystem;

namespace {

std::string presetNames() {
  std::string names;
  for (const ModelConfig& preset : modelPresets()) {
    if (!names.empty()) names += ", ";
    names += preset.name;
  }
  return names;
}

bool hasSafetensors(const fs::path& folder) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(folder, ec)) {
    if (entry.path().extension() == ".safetensors") return true;
  }
  return false;
}

SamplingDefaults readGenerationConfig(const fs::path& folder) {
  SamplingDefaults defaults;
  const fs::path file = folder / "generation_config.json";
  std::ifstream in(file);
  if (!in) return defaults;
  try {
    const auto json = nlohmann::json::parse(in);
    if (auto it = json.find("temperature"); it != json.end() && it->is_number()) {
      defaults.temperature = it->get<float>();
    }
    if (auto it = json.find("top_p"); it != json.end() && it->is_number()) defaults.topP = it->get<float>();
    if (auto it = json.find("top_k"); it != json.end() && it->is_number_integer())
      defaults.topK = it->get<int>();
  } catch (const nlohmann::json::exception& error) {
    throw Error(file.string() + ": not valid JSON (" + error.what() + "); fix or remove the file");
  }
  return defaults;
}

// What a step's activations and the runtime take on the device beside weights and KV cache: the CUDA
// backend's buffers for a full --max-num-batched-tokens step (rounded up to its row bucket, at most 512
// rows more): the float residual stream, bf16 normed rows, q/k/v, attention output, projection, gate/up and
// activated MLP rows; float32 logits for a full batch; and 512 MiB of runtime (CUDA context, cuBLAS
// workspace, graphs). An estimate in the spirit of vLLM's profiling run, which a simulator cannot perform.
std::int64_t activationReserveBytes(const ModelConfig& model, const EngineOptions& options, int maxNumSeqs) {
  const std::int64_t hidden = model.hiddenSize, inter = model.intermediateSize;
  const std::int64_t qDim = std::int64_t{model.numHeads} * model.headDim;
  const std::int64_t kvDim = std::int64_t{model.numKvHeads} * model.headDim;
  const std::int64_t perToken =
      4 * hidden + 2 * (hidden + (qDim + 2 * kvDim) + qDim + hidden + 2 * inter + inter);
  const std::int64_t rows = std::int64_t{options.maxNumBatchedTokens} + 512;
  return (std::int64_t{512} << 20) + rows * perToken + (std::int64_t{maxNumSeqs} + 16) * model.vocabSize * 4;
}

void resolveModel(const EngineOptions& options, EnginePlan& plan) {
  if (auto preset = findModelPreset(options.model)) {
    plan.model = *preset;
    return;
  }
  const fs::path folder(options.model);
  std::error_code ec;
  if (fs::is_directory(folder, ec)) {
    if (!fs::exists(folder / "config.json", ec)) {
      throw Error("MODEL '" + options.model +
                  "' is a folder without config.json: give a Hugging Face model folder (config.json, "
                  "*.safetensors, tokenizer.json) or a preset (" +
                  presetNames() + ")");
    }
    plan.model = loadModelConfig(folder / "config.json");
    plan.modelFolder = folder;
    plan.samplingDefaults = readGenerationConfig(folder);
    return;
  }
  throw Error("Unknown model '" + options.model + "': give a preset (" + presetNames() +
              ") or a Hugging Face folder with config.json, *.safetensors and tokenizer.json");
}

void resolveDevice(const EngineOptions& options, EnginePlan& plan) {
  plan.enforceEager = options.enforceEager;
  if (options.device == "cuda" || options.device == "auto") {
    const std::string problem = cudaUnavailableReason();
    if (problem.empty()) {
      plan.device = "cuda";
#ifdef AYAR_HAS_CUDA
      const CudaDeviceInfo gpu = probeCudaDevice();
      plan.deviceName = gpu.name;
      plan.memoryBytes = gpu.totalBytes;
#endif
    } else if (options.device == "cuda") {
      throw Error("--device cuda: " + problem +
                  "; use --device cpu for real math or --device sim for GPU timings");
    } else {
      plan.device = "cpu";  // auto without a usable GPU
    }
  } else {
    plan.device = options.device;
  }
  plan.fp8KvCache = options.kvCacheDtype != "auto";
  // An FP8 checkpoint is served in FP8 whatever --quantization says, as vLLM reads the checkpoint's
  // quantization_config.
  plan.fp8Weights = options.quantization == "fp8" || plan.model.fp8Checkpoint();
  if (plan.device == "cuda" && plan.fp8KvCache) {
    throw Error("--kv-cache-dtype " + options.kvCacheDtype +
                ": the cuda backend has no fp8 KV cache yet; use --kv-cache-dtype auto, or --device cpu "
                "(the reference, at CPU speed) or sim");
  }
  if (plan.device == "cuda" && plan.fp8Weights) {
    throw Error(std::string(plan.model.fp8Checkpoint() ? "MODEL '" + options.model + "' is an FP8 checkpoint"
                                                       : std::string("--quantization fp8")) +
                ": the cuda backend has no FP8 kernels yet; use --device cpu (the reference, at CPU speed) "
                "or sim" +
                (plan.model.fp8Checkpoint() ? "" : ", or --quantization none"));
  }
  if (plan.device == "sim") {
    plan.simProfile = SimProfile::parse(options.simProfile);
    plan.simProfile->enforceEager = options.enforceEager;
    plan.simProfile->fp8Weights = plan.fp8Weights;
    plan.simProfile->fp8KvCache = plan.fp8KvCache;
    plan.loadFormat = "none";
    return;
  }
  const bool isPreset = plan.modelFolder.empty();
  if (options.loadFormat == "safetensors" && isPreset) {
    throw Error(
        "--load-format safetensors: '" + options.model +
        "' is a preset without weights files; use --load-format dummy, or give a Hugging Face folder");
  }
  if (options.loadFormat == "dummy" || isPreset) {
    plan.loadFormat = "dummy";
  } else {
    if (!hasSafetensors(plan.modelFolder)) {
      throw Error(
          "MODEL '" + options.model +
          "' has no *.safetensors files: add the weights, or use --load-format dummy for random ones");
    }
    plan.loadFormat = "safetensors";
  }
}

void resolveTokenizer(const EngineOptions& options, EnginePlan& plan) {
  std::error_code ec;
  if (!options.tokenizer.empty()) {
    plan.tokenizerPath = options.tokenizer;
  } else if (!plan.modelFolder.empty() && fs::exists(plan.modelFolder / "tokenizer.json", ec)) {
    plan.tokenizerPath = plan.modelFolder;
  } else {
    plan.tokenizerPath = defaultTokenizerDir();
  }
}

void planMemory(const EngineOptions& options, std::int64_t availableHostBytes, EnginePlan& plan) {
  const ModelConfig& model = plan.model;
  plan.maxModelLen = options.maxModelLen.value_or(model.maxPositionEmbeddings);
  if (plan.maxModelLen > model.maxPositionEmbeddings) {
    throw Error("--max-model-len " + std::to_string(plan.maxModelLen) + " is larger than " + model.name +
                "'s max_position_embeddings (" + std::to_string(model.maxPositionEmbeddings) + "): lower it");
  }
  const bool sim = plan.device == "sim";
  const bool gpu = sim || plan.device == "cuda";
  plan.kvBytesPerBlock = model.kvBytesPerToken(plan.fp8KvCache ? 1 : gpu ? 2 : 4) * options.blockSize;
  const std::int64_t blocksPerSequence = (plan.maxModelLen + options.blockSize - 1) / options.blockSize;
  const std::int64_t sequenceKvBytes = blocksPerSequence * plan.kvBytesPerBlock;
  std::string budgetSource;

  if (gpu) {
    if (sim) plan.memoryBytes = simulatedDeviceMemoryBytes(*plan.simProfile);
    const std::string card = (sim ? "the simulated " + plan.simProfile->name : "the " + plan.deviceName) +
                             " (" + formatBytes(plan.memoryBytes) + ")";
    plan.weightBytes = model.deviceWeightBytes(plan.fp8Weights);
    const std::string weightKind = plan.fp8Weights ? "fp8" : "bf16";
    const std::int64_t reserve = activationReserveBytes(model, options, plan.maxNumSeqs);
    if (options.kvCacheMemoryBytes) {
      plan.kvBudgetBytes = *options.kvCacheMemoryBytes;
      if (plan.weightBytes + reserve + plan.kvBudgetBytes > plan.memoryBytes) {
        throw Error("--kv-cache-memory-bytes " + formatBytes(plan.kvBudgetBytes) + " plus " + model.name +
                    "'s " + formatBytes(plan.weightBytes) + " of " + weightKind + " weights and " +
                    formatBytes(reserve) + " of activations exceed " + card +
                    ": lower --kv-cache-memory-bytes or pick a smaller model");
      }
      budgetSource = "--kv-cache-memory-bytes";
    } else {
      const auto usable =
          static_cast<std::int64_t>(static_cast<double>(plan.memoryBytes) * options.gpuMemoryUtilization);
      plan.kvBudgetBytes = usable - plan.weightBytes - reserve;
      if (plan.kvBudgetBytes <= 0) {
        char utilisation[32];
        std::snprintf(utilisation, sizeof utilisation, "%.2f", options.gpuMemoryUtilization);
        throw Error(
            model.name + " does not fit: its " + weightKind + " weights (" + formatBytes(plan.weightBytes) +
            ") and activations (" + formatBytes(reserve) + ") exceed " + card + " x " + utilisation +
            " (--gpu-memory-utilization) = " + formatBytes(usable) + ": raise --gpu-memory-utilization, " +
            (sim ? "use a larger --sim-profile, " : "") + "or pick a smaller model");
      }
      budgetSource = "--gpu-memory-utilization";
    }
  } else {
    plan.memoryBytes = availableHostBytes;
    plan.weightBytes = cpuWeightBytes(model);
    plan.kvBudgetBytes = options.kvCacheMemoryBytes.value_or(kDefaultCpuKvCacheBytes);
    budgetSource = "--kv-cache-memory-bytes";
    if (availableHostBytes > 0 && plan.weightBytes + plan.kvBudgetBytes > availableHostBytes) {
      throw Error(
          model.name + " does not fit on --device cpu: its float32 weights take " +
          formatBytes(plan.weightBytes) + " and the KV cache " + formatBytes(plan.kvBudgetBytes) +
          " (--kv-cache-memory-bytes), but only " + formatBytes(availableHostBytes) +
          " of memory is available (MemAvailable): pick a smaller model (qwen3-tiny runs anywhere), a "
          "smaller --kv-cache-memory-bytes, or --device sim");
    }
  }

  const std::int64_t blocks = std::min<std::int64_t>(plan.kvBudgetBytes / plan.kvBytesPerBlock, INT_MAX / 2);
  if (blocks < blocksPerSequence) {
    const std::int64_t largestLen = blocks * options.blockSize;
    throw Error("--max-model-len " + std::to_string(plan.maxModelLen) + " needs " +
                formatBytes(sequenceKvBytes) + " of KV cache for one full-length sequence, more than the " +
                formatBytes(plan.kvBudgetBytes) + " available (" + budgetSource +
                "). Based on the available memory the largest --max-model-len is " +
                std::to_string(largestLen) + ": lower --max-model-len or give the KV cache more memory");
  }
  plan.numBlocks = static_cast<int>(blocks);
}

}  // namespace

std::string formatBytes(std::int64_t bytes) {
  char text[32];
  const double value = static_cast<double>(bytes);
  if (bytes >= (std::int64_t{1} << 30)) {
    std::snprintf(text, sizeof text, "%.2f GiB", value / (1 << 30));
  } else if (bytes >= (1 << 20)) {
    std::snprintf(text, sizeof text, "%.1f MiB", value / (1 << 20));
  } else {
    std::snprintf(text, sizeof text, "%lld bytes", static_cast<long long>(bytes));
  }
  return text;
}

bool cudaBackendBuilt() {
#ifdef AYAR_HAS_CUDA
  return true;
#else
  return false;
#endif
}

std::string cudaUnavailableReason() {
#ifdef AYAR_HAS_CUDA
  const CudaDeviceInfo gpu = probeCudaDevice();
  return gpu.usable ? std::string() : "no usable GPU here (" + gpu.problem + ")";
#else
  return "this ayar-engine was built without its CUDA backend (configure with nvcc present, or "
         "-DAYAR_CUDA=ON)";
#endif
}

std::string describeAutoDevice() {
  const std::string problem = cudaUnavailableReason();
  if (!problem.empty()) return "cpu " + problem;
  std::string line = "cuda";
#ifdef AYAR_HAS_CUDA
  const CudaDeviceInfo gpu = probeCudaDevice();
  char memory[32];
  std::snprintf(memory, sizeof memory, " %.1f GiB", static_cast<double>(gpu.totalBytes) / (1 << 30));
  line += " " + gpu.name + memory;
#endif
  return line;
}

std::int64_t availableHostMemoryBytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string line;
  while (std::getline(meminfo, line)) {
    long long kib = 0;
    if (std::sscanf(line.c_str(), "MemAvailable: %lld kB", &kib) == 1) return kib * 1024;
  }
  return 0;
}

int defaultMaxNumSeqs(const std::string& gpuName, std::int64_t gpuMemoryBytes, int maxNumBatchedTokens) {
  std::string upper = gpuName;
  for (char& c : upper)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  const bool large = gpuMemoryBytes >= (std::int64_t{70} << 30) && upper.find("A100") == std::string::npos;
  return std::min(large ? 1024 : 256, maxNumBatchedTokens);
}

EnginePlan planEngine(const EngineOptions& options, std::int64_t availableHostBytes) {
  EnginePlan plan;
  resolveModel(options, plan);
  resolveDevice(options, plan);
  resolveTokenizer(options, plan);
  if (options.maxNumSeqs) {
    plan.maxNumSeqs = *options.maxNumSeqs;
  } else if (plan.device == "cuda") {
    plan.maxNumSeqs = defaultMaxNumSeqs(plan.deviceName, plan.memoryBytes, options.maxNumBatchedTokens);
  } else if (plan.device == "sim" && plan.simProfile->kind == SimProfile::Kind::kRoofline) {
    plan.maxNumSeqs = defaultMaxNumSeqs(plan.simProfile->name, simulatedDeviceMemoryBytes(*plan.simProfile),
                                        options.maxNumBatchedTokens);
  } else {
    plan.maxNumSeqs = defaultMaxNumSeqs("", 0, options.maxNumBatchedTokens);
  }
  plan.servedModelName = options.servedModelName.empty() ? options.model : options.servedModelName;
  planMemory(options, availableHostBytes, plan);
  return plan;
}

std::unique_ptr<Backend> createBackend(const EnginePlan& plan, std::uint64_t seed) {
  if (plan.device == "sim") return makeSimBackend(plan.model, *plan.simProfile, seed);
#ifdef AYAR_HAS_CUDA
  if (plan.device == "cuda") {
    CudaBackendOptions options;
    options.enforceEager = plan.enforceEager;
    options.seed = seed;
    options.maxPositions = plan.maxModelLen;
    if (plan.loadFormat == "safetensors") {
      const Weights weights = loadWeights(plan.modelFolder, plan.model);
      return makeCudaBackend(plan.model, &weights, seed, options);
    }
    return makeCudaBackend(plan.model, nullptr, seed, options);  // dummy weights drawn on the GPU
  }
#endif
  Weights weights = plan.loadFormat == "safetensors" ? loadWeights(plan.modelFolder, plan.model)
                                                     : makeDummyWeights(plan.model, seed);
  CpuPrecision precision;
  precision.fp8KvCache = plan.fp8KvCache;
  if (plan.model.fp8Checkpoint() && plan.loadFormat == "safetensors") {
    precision.fp8ActivationGroup = plan.model.fp8BlockCols;  // the checkpoint's weights are FP8 already
  } else if (plan.fp8Weights) {
    quantizeLinearWeightsFp8(weights, plan.model);
    precision.fp8ActivationGroup = 0;
  }
  return makeCpuBackend(plan.model, std::make_shared<const Weights>(std::move(weights)), seed, precision);
}

}  // namespace ayar::engine
