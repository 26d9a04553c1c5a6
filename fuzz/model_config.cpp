// A model folder's config.json (loadModelConfig on the input written as a file): the architecture, the
// shape, RoPE and the FP8 quantization_config. A bad file is an ayar::Error; a config that loads has a
// shape the forward pass can run.
#include "engine/model/model_config.h"

#include <cstddef>
#include <cstdint>

#include "core/error.h"
#include "fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto file = ayar::fuzz::TempFolder::instance().write("config.json", ayar::fuzz::asText(data, size));
  ayar::engine::ModelConfig config;
  try {
    config = ayar::engine::loadModelConfig(file);
  } catch (const ayar::Error&) {
    return 0;
  }
  ayar::fuzz::check(config.hiddenSize > 0 && config.intermediateSize > 0 && config.numLayers > 0 &&
                        config.numHeads > 0 && config.numKvHeads > 0 &&
                        config.numHeads % config.numKvHeads == 0,
                    "a loaded config has positive sizes and whole query-head groups");
  ayar::fuzz::check(config.headDim > 0 && config.headDim % 2 == 0, "a loaded config has an even head_dim");
  ayar::fuzz::check((config.fp8BlockRows > 0) == (config.fp8BlockCols > 0) && config.fp8BlockRows >= 0,
                    "an FP8 block size is two positive numbers or none");
  ayar::fuzz::check(config.ropeTheta > 0 && config.rmsNormEps > 0,
                    "RoPE theta and the norm's eps are positive");
  return 0;
}
