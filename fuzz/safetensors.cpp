// The safetensors reader (SafetensorsFile::open on the input written as a file: the header length, the
// JSON header, dtypes, shapes against byte ranges). A bad file is an ayar::Error; the tensors of a file
// that opens convert to float32 when their dtype can, and an F8_E4M3 matrix with a <name>_scale_inv
// beside it dequantizes with 128 x 128 blocks (an FP8 checkpoint's) and with 2 x 3 ones, or is refused.
#include "engine/model/safetensors.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/error.h"
#include "fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using ayar::engine::SafetensorsDType;
  const auto file =
      ayar::fuzz::TempFolder::instance().write("model.safetensors", ayar::fuzz::asText(data, size));
  std::unique_ptr<ayar::engine::SafetensorsFile> opened;
  try {
    opened = ayar::engine::SafetensorsFile::open(file);
  } catch (const ayar::Error&) {
    return 0;
  }
  for (const auto& [name, tensor] : opened->tensors()) {
    const ayar::engine::SafetensorsTensor* scales = opened->find(name + "_scale_inv");
    if (tensor.dtype == SafetensorsDType::kF8E4M3 && scales) {
      std::vector<float> values(static_cast<std::size_t>(tensor.elementCount()));
      for (const auto& [rows, cols] : {std::pair{128, 128}, std::pair{2, 3}}) {
        try {
          ayar::engine::dequantizeBlockScaledFp8(tensor, *scales, rows, cols, values);
          for (const float v : values)
            ayar::fuzz::check(std::isfinite(v), "a dequantized FP8 weight is a finite number");
        } catch (const ayar::Error&) {
        }
      }
    }
    ayar::fuzz::check(tensor.bytes.size() == static_cast<std::size_t>(tensor.elementCount()) *
                                                 ayar::engine::dtypeSize(tensor.dtype),
                      "a tensor's bytes are its shape times its dtype's size");
    if (tensor.dtype != SafetensorsDType::kBF16 && tensor.dtype != SafetensorsDType::kF16 &&
        tensor.dtype != SafetensorsDType::kF32)
      continue;
    std::vector<float> values(static_cast<std::size_t>(tensor.elementCount()));
    ayar::engine::convertToFloat32(tensor, values);
  }
  return 0;
}
