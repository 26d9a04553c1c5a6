// dump_logits: the logits a backend computes for a token sequence, for comparison with another
// implementation (scripts/hf-qwen3-check.py compares them with Hugging Face transformers' Qwen3).
//
//   dump_logits --model DIR --device cuda|cpu --tokens 1,2,3,... --prefill P --out FILE
//
// Loads the Hugging Face folder DIR (config.json, *.safetensors), prefills the first P tokens in one step,
// then feeds the rest one decode step at a time. FILE gets float32 rows of vocab_size logits, one for
// each position P-1 .. N-1 (the logits that predict the token after it).

#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.h"
#include "engine/backend/cpu/cpu_backend.h"
#include "engine/backend/cuda/cuda_backend.h"
#include "engine/model/weights.h"

int main(int argc, char** argv) {
  using namespace ayar::engine;
  std::string modelDir, device = "cuda", tokenText, outPath;
  int prefill = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i], value = argv[i + 1];
    if (flag == "--model") {
      modelDir = value;
    } else if (flag == "--device") {
      device = value;
    } else if (flag == "--tokens") {
      tokenText = value;
    } else if (flag == "--prefill") {
      prefill = std::stoi(value);
    } else if (flag == "--out") {
      outPath = value;
    }
  }
  std::vector<std::int32_t> tokens;
  std::stringstream list(tokenText);
  for (std::string item; std::getline(list, item, ',');)
    tokens.push_back(std::stoi(item));
  if (modelDir.empty() || outPath.empty() || tokens.empty() || prefill < 1 ||
      prefill > static_cast<int>(tokens.size())) {
    std::fprintf(stderr,
                 "usage: dump_logits --model DIR --device cuda|cpu --tokens 1,2,3 --prefill P --out FILE\n");
    return 2;
  }
  try {
    const ModelConfig config = loadModelConfig(std::filesystem::path(modelDir) / "config.json");
    auto weights = std::make_shared<const Weights>(loadWeights(modelDir, config));
    std::unique_ptr<Backend> backend;
    CpuBackend* cpu = nullptr;
    CudaBackend* gpu = nullptr;
    if (device == "cpu") {
      auto b = std::make_unique<CpuBackend>(config, weights, 0);
      cpu = b.get();
      backend = std::move(b);
    } else {
      auto b = std::make_unique<CudaBackend>(config, weights.get(), 0, CudaBackendOptions{});
      gpu = b.get();
      backend = std::move(b);
    }
    const int blockSize = 16;
    const int blocks = static_cast<int>(tokens.size()) / blockSize + 1;
    backend->allocateKvCache(blocks, blockSize);
    std::vector<std::int32_t> table(static_cast<std::size_t>(blocks));
    for (int b = 0; b < blocks; ++b)
      table[static_cast<std::size_t>(b)] = blocks - 1 - b;  // reversed: pages need not be in order
    const SamplingParams greedy{.temperature = 0.0f};
    std::ofstream out(outPath, std::ios::binary);
    for (int position = 0; position < static_cast<int>(tokens.size());) {
      const int count = position == 0 ? prefill : 1;
      SeqStep step{.seqId = 1,
                   .tokens = std::span<const std::int32_t>(tokens).subspan(static_cast<std::size_t>(position),
                                                                           static_cast<std::size_t>(count)),
                   .position = position,
                   .blockTable = table,
                   .sample = true,
                   .sampling = &greedy};
      StepOutput result;
      backend->step(std::span(&step, 1), result);
      std::vector<float> logits;
      if (cpu) logits.assign(cpu->lastLogits().begin(), cpu->lastLogits().end());
      if (gpu) logits = gpu->lastLogits();
      out.write(reinterpret_cast<const char*>(logits.data()),
                static_cast<std::streamsize>(logits.size() * sizeof(float)));
      position += count;
    }
  } catch (const ayar::Error& error) {
    std::fprintf(stderr, "dump_logits: %s\n", error.what());
    return 1;
  }
  return 0;
}
