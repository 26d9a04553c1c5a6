// Test helper: an FP8 checkpoint as Qwen's FP8 releases lay it out, written from float weights.

#pragma once

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/model/fp8.h"
#include "engine/model/model_config.h"
#include "engine/model/safetensors.h"
#include "engine/model/weights.h"

namespace ayar::engine {

// Writes `weights` into `folder` as an FP8 checkpoint in two shards with model.safetensors.index.json: every
// linear layer's weight (*_proj.weight) as F8_E4M3 codes with a float32 <name>_scale_inv per block of
// blockRows x blockCols (the scales in the other shard than their weight), everything else F32, and a
// config.json of `configFields` (a JSON object's members, without braces) plus quantization_config. Returns
// what the codes and scales stand for: the weights dequantized by hand.
inline Weights writeFp8TestCheckpoint(const std::filesystem::path& folder, const ModelConfig& config,
                                      Weights weights, int blockRows, int blockCols,
                                      const std::string& configFields) {
  struct Stored {
    std::string name;
    SafetensorsDType dtype;
    std::vector<std::int64_t> shape;
    std::vector<float> values;
    int shard;
  };
  std::vector<Stored> stored;
  std::vector<WeightTensorRef> refs = weightTensors(weights, config);
  for (std::size_t i = 0; i < refs.size(); ++i) {
    WeightTensorRef& ref = refs[i];
    const int shard = i < refs.size() / 2 ? 1 : 2;
    const bool linear = ref.name.size() > 12 && ref.name.ends_with("_proj.weight");
    if (!linear) {
      stored.push_back({ref.name, SafetensorsDType::kF32, ref.shape, *ref.values, shard});
      continue;
    }
    const std::int64_t rows = ref.shape[0], cols = ref.shape[1];
    const std::int64_t scaleRows = (rows + blockRows - 1) / blockRows,
                       scaleCols = (cols + blockCols - 1) / blockCols;
    std::vector<float> scales(static_cast<std::size_t>(scaleRows * scaleCols));
    std::vector<float> codes(ref.values->size());
    for (std::int64_t br = 0; br < scaleRows; ++br) {
      for (std::int64_t bc = 0; bc < scaleCols; ++bc) {
        const std::int64_t r0 = br * blockRows, c0 = bc * blockCols;
        const std::int64_t r1 = std::min(rows, r0 + blockRows), c1 = std::min(cols, c0 + blockCols);
        float absMax = 0.0f;
        for (std::int64_t r = r0; r < r1; ++r) {
          for (std::int64_t c = c0; c < c1; ++c)
            absMax = std::max(absMax, std::fabs((*ref.values)[static_cast<std::size_t>(r * cols + c)]));
        }
        const float scale = fp8Scale(absMax);
        scales[static_cast<std::size_t>(br * scaleCols + bc)] = scale;
        for (std::int64_t r = r0; r < r1; ++r) {
          for (std::int64_t c = c0; c < c1; ++c) {
            float& w = (*ref.values)[static_cast<std::size_t>(r * cols + c)];
            const std::uint8_t code = floatToE4m3(w / scale);
            codes[static_cast<std::size_t>(r * cols + c)] = e4m3ToFloat(code);
            w = e4m3ToFloat(code) * scale;  // what the loader must give back
          }
        }
      }
    }
    stored.push_back({ref.name, SafetensorsDType::kF8E4M3, ref.shape, codes, shard});
    stored.push_back(
        {ref.name + "_scale_inv", SafetensorsDType::kF32, {scaleRows, scaleCols}, scales, 3 - shard});
  }
  nlohmann::json weightMap = nlohmann::json::object();
  for (const int shard : {1, 2}) {
    const std::string file = "model-0000" + std::to_string(shard) + "-of-00002.safetensors";
    std::vector<SafetensorsWriteTensor> tensors;
    for (const Stored& s : stored) {
      if (s.shard != shard) continue;
      tensors.push_back({s.name, s.dtype, s.shape, s.values});
      weightMap[s.name] = file;
    }
    writeSafetensors(folder / file, tensors, {{"format", "pt"}});
  }
  std::ofstream(folder / "model.safetensors.index.json")
      << nlohmann::json{{"metadata", nlohmann::json::object()}, {"weight_map", weightMap}}.dump();
  std::ofstream(folder / "config.json")
      << "{" << configFields
      << R"(, "quantization_config": {"activation_scheme": "dynamic", "fmt": "e4m3", "quant_method": "fp8", )"
      << R"("weight_block_size": [)" << blockRows << ", " << blockCols << "]}}";
  return weights;
}

}  // namespace ayar::engine
