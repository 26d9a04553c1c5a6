// The safetensors reader (SafetensorsFile::open on the input written as a file: the header length, the
// JSON header, dtypes, shapes against byte ranges). A bad file is an ayar::Error; the tensors of a file
// that opens convert to float32 when their dtype can.
#include "engine/model/safetensors.h"

#include <cstddef>
#include <cstdint>
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
