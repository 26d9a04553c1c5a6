#include "engine/model/safetensors.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>

#include "core/error.h"
#include "engine/model/fp8.h"

namespace ayar::engine {

namespace {

struct DTypeInfo {
  SafetensorsDType dtype;
  std::string_view name;
  std::size_t size;
};

constexpr std::array<DTypeInfo, 15> kDTypes = {{
    {SafetensorsDType::kBF16, "BF16", 2},
    {SafetensorsDType::kF16, "F16", 2},
    {SafetensorsDType::kF32, "F32", 4},
    {SafetensorsDType::kF64, "F64", 8},
    {SafetensorsDType::kI8, "I8", 1},
    {SafetensorsDType::kI16, "I16", 2},
    {SafetensorsDType::kI32, "I32", 4},
    {SafetensorsDType::kI64, "I64", 8},
    {SafetensorsDType::kU8, "U8", 1},
    {SafetensorsDType::kU16, "U16", 2},
    {SafetensorsDType::kU32, "U32", 4},
    {SafetensorsDType::kU64, "U64", 8},
    {SafetensorsDType::kBool, "BOOL", 1},
    {SafetensorsDType::kF8E4M3, "F8_E4M3", 1},
    {SafetensorsDType::kF8E5M2, "F8_E5M2", 1},
}};

const DTypeInfo& info(SafetensorsDType dtype) {
  for (const DTypeInfo& entry : kDTypes) {
    if (entry.dtype == dtype) return entry;
  }
  assert(false && "every SafetensorsDType has a row in kDTypes");
  return kDTypes[0];
}

// The format caps the header at 100 MB; anything larger is a corrupt length field.
constexpr std::uint64_t kMaxHeaderBytes = 100'000'000;

std::string shapeText(const std::vector<std::int64_t>& shape) {
  std::string text = "[";
  for (std::size_t i = 0; i < shape.size(); ++i)
    text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

[[noreturn]] void fail(const std::filesystem::path& file, const std::string& what) {
  throw Error(file.string() + ": " + what);
}

[[noreturn]] void failTensor(const std::filesystem::path& file, const std::string& tensor,
                             const std::string& what) {
  throw Error(file.string() + ": tensor '" + tensor + "': " + what);
}

SafetensorsTensor parseTensorEntry(const std::filesystem::path& file, const std::string& name,
                                   const nlohmann::json& entry, const std::byte* data,
                                   std::uint64_t dataSize) {
  if (!entry.is_object()) failTensor(file, name, "header entry is not an object");
  SafetensorsTensor tensor;
  tensor.name = name;
  tensor.file = file;

  const auto dtype = entry.find("dtype");
  if (dtype == entry.end() || !dtype->is_string())
    failTensor(file, name, "'dtype' is missing or not a string");
  const std::string dtypeText = dtype->get<std::string>();
  const auto known =
      std::find_if(kDTypes.begin(), kDTypes.end(), [&](const DTypeInfo& d) { return d.name == dtypeText; });
  if (known == kDTypes.end()) {
    failTensor(file, name, "unknown dtype '" + dtypeText + "' (Ayar reads BF16, F16 and F32 weights)");
  }
  tensor.dtype = known->dtype;

  const auto shape = entry.find("shape");
  if (shape == entry.end() || !shape->is_array())
    failTensor(file, name, "'shape' is missing or not an array");
  std::uint64_t elements = 1;
  for (const auto& dim : *shape) {
    if (!dim.is_number_unsigned())
      failTensor(file, name, "shape " + shape->dump() + " has a non-integer or negative dimension");
    const std::uint64_t d = dim.get<std::uint64_t>();
    if (d != 0 && elements > std::numeric_limits<std::uint64_t>::max() / known->size / d) {
      failTensor(file, name, "shape " + shape->dump() + " is too large");
    }
    elements *= d;
    tensor.shape.push_back(static_cast<std::int64_t>(d));
  }

  const auto offsets = entry.find("data_offsets");
  if (offsets == entry.end() || !offsets->is_array() || offsets->size() != 2 ||
      !(*offsets)[0].is_number_unsigned() || !(*offsets)[1].is_number_unsigned()) {
    failTensor(file, name, "'data_offsets' must be two non-negative integers [begin, end]");
  }
  const std::uint64_t begin = (*offsets)[0].get<std::uint64_t>();
  const std::uint64_t end = (*offsets)[1].get<std::uint64_t>();
  if (begin > end) failTensor(file, name, "data_offsets " + offsets->dump() + " end before they begin");
  if (end > dataSize) {
    failTensor(file, name,
               "data_offsets " + offsets->dump() + " run past the end of the data (" +
                   std::to_string(dataSize) + " bytes): the file is truncated or corrupt; download it again");
  }
  const std::uint64_t needed = elements * known->size;
  if (end - begin != needed) {
    failTensor(file, name,
               "shape " + shapeText(tensor.shape) + " of " + dtypeText + " needs " + std::to_string(needed) +
                   " bytes but data_offsets " + offsets->dump() + " hold " + std::to_string(end - begin));
  }
  tensor.bytes = std::span<const std::byte>(data + begin, end - begin);
  return tensor;
}

}  // namespace

std::string_view dtypeName(SafetensorsDType dtype) {
  return info(dtype).name;
}
std::size_t dtypeSize(SafetensorsDType dtype) {
  return info(dtype).size;
}

std::int64_t SafetensorsTensor::elementCount() const {
  std::int64_t count = 1;
  for (const std::int64_t d : shape)
    count *= d;
  return count;
}

std::unique_ptr<SafetensorsFile> SafetensorsFile::open(const std::filesystem::path& path) {
  std::unique_ptr<SafetensorsFile> file(new SafetensorsFile());
  file->m_path = path;

  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail(path, std::string("cannot open the safetensors file: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    fail(path, "not a regular file");
  }
  const auto fileSize = static_cast<std::uint64_t>(st.st_size);
  if (fileSize < 8) {
    ::close(fd);
    fail(path, "only " + std::to_string(fileSize) +
                   " bytes; a safetensors file starts with an 8-byte header length. The file is truncated");
  }
  void* mapping = ::mmap(nullptr, fileSize, PROT_READ, MAP_PRIVATE, fd, 0);
  ::close(fd);  // the mapping keeps the file alive
  if (mapping == MAP_FAILED) fail(path, std::string("cannot map the file: ") + std::strerror(errno));
  file->m_mapping = mapping;
  file->m_mappingSize = fileSize;
  const auto* bytes = static_cast<const std::byte*>(mapping);

  std::uint64_t headerLength = 0;
  for (int i = 7; i >= 0; --i)
    headerLength = (headerLength << 8) | std::to_integer<std::uint64_t>(bytes[i]);
  if (headerLength < 2 || headerLength > kMaxHeaderBytes || headerLength > fileSize - 8) {
    fail(path, "header length " + std::to_string(headerLength) + " does not fit a file of " +
                   std::to_string(fileSize) + " bytes: the file is truncated or not a safetensors file");
  }
  const char* headerText = reinterpret_cast<const char*>(bytes + 8);
  nlohmann::json header;
  try {
    header = nlohmann::json::parse(headerText, headerText + headerLength);
  } catch (const nlohmann::json::exception& e) {
    fail(path, std::string("the JSON header does not parse (") + e.what() + ")");
  }
  if (!header.is_object()) fail(path, "the JSON header is not an object");

  const std::byte* data = bytes + 8 + headerLength;
  const std::uint64_t dataSize = fileSize - 8 - headerLength;
  for (const auto& [key, value] : header.items()) {
    if (key == "__metadata__") {
      if (!value.is_object()) fail(path, "__metadata__ must be an object of strings");
      for (const auto& [metaKey, metaValue] : value.items()) {
        if (!metaValue.is_string()) fail(path, "__metadata__ entry '" + metaKey + "' is not a string");
        file->m_metadata[metaKey] = metaValue.get<std::string>();
      }
      continue;
    }
    file->m_tensors.emplace(key, parseTensorEntry(path, key, value, data, dataSize));
  }

  // Two tensors may not share bytes: such a file is corrupt (or crafted).
  std::vector<const SafetensorsTensor*> byOffset;
  for (const auto& [name, tensor] : file->m_tensors) {
    if (!tensor.bytes.empty()) byOffset.push_back(&tensor);
  }
  std::sort(byOffset.begin(), byOffset.end(), [](const SafetensorsTensor* a, const SafetensorsTensor* b) {
    return a->bytes.data() < b->bytes.data();
  });
  for (std::size_t i = 1; i < byOffset.size(); ++i) {
    if (byOffset[i]->bytes.data() < byOffset[i - 1]->bytes.data() + byOffset[i - 1]->bytes.size()) {
      failTensor(path, byOffset[i]->name, "its bytes overlap tensor '" + byOffset[i - 1]->name + "'");
    }
  }
  return file;
}

SafetensorsFile::~SafetensorsFile() {
  if (m_mapping) ::munmap(m_mapping, m_mappingSize);
}

const SafetensorsTensor* SafetensorsFile::find(const std::string& name) const {
  const auto it = m_tensors.find(name);
  return it == m_tensors.end() ? nullptr : &it->second;
}

SafetensorsCheckpoint SafetensorsCheckpoint::open(const std::filesystem::path& folder) {
  SafetensorsCheckpoint checkpoint;
  checkpoint.m_folder = folder;
  std::error_code ec;
  if (!std::filesystem::is_directory(folder, ec)) {
    throw Error(folder.string() +
                ": not a folder; give a Hugging Face model folder (config.json + *.safetensors)");
  }

  const std::filesystem::path indexPath = folder / "model.safetensors.index.json";
  std::map<std::string, std::string> weightMap;
  std::vector<std::filesystem::path> shardPaths;
  if (std::filesystem::exists(indexPath, ec)) {
    std::ifstream in(indexPath);
    nlohmann::json index;
    try {
      index = nlohmann::json::parse(in);
    } catch (const nlohmann::json::exception& e) {
      throw Error(indexPath.string() + ": not valid JSON (" + e.what() + ")");
    }
    const auto map = index.is_object() ? index.find("weight_map") : index.end();
    if (map == index.end() || !map->is_object()) {
      throw Error(indexPath.string() + ": 'weight_map' (tensor name -> shard file) is missing");
    }
    std::set<std::string> shardNames;
    for (const auto& [name, shard] : map->items()) {
      if (!shard.is_string())
        throw Error(indexPath.string() + ": weight_map entry '" + name + "' is not a file name");
      const std::string shardName = shard.get<std::string>();
      // A shard is a plain file name in the same folder.
      if (shardName.empty() || shardName.find('/') != std::string::npos || shardName == "." ||
          shardName == "..") {
        throw Error(indexPath.string() + ": weight_map entry '" + name + "' names '" + shardName +
                    "', which is not a file in the folder");
      }
      weightMap[name] = shardName;
      shardNames.insert(shardName);
    }
    for (const std::string& shardName : shardNames)
      shardPaths.push_back(folder / shardName);
  } else {
    for (const auto& entry : std::filesystem::directory_iterator(folder, ec)) {
      if (entry.path().extension() == ".safetensors") shardPaths.push_back(entry.path());
    }
    std::sort(shardPaths.begin(), shardPaths.end());
  }
  if (shardPaths.empty()) {
    throw Error(folder.string() +
                ": no *.safetensors files in the folder; download the weights, or use --load-format dummy");
  }

  for (const std::filesystem::path& shardPath : shardPaths) {
    checkpoint.m_files.push_back(SafetensorsFile::open(shardPath));
    const SafetensorsFile& shard = *checkpoint.m_files.back();
    for (const auto& [name, tensor] : shard.tensors()) {
      const auto [it, inserted] = checkpoint.m_index.emplace(name, &tensor);
      if (!inserted) {
        throw Error(shardPath.string() + ": tensor '" + name + "' is also in " + it->second->file.string() +
                    "; a tensor must live in one shard");
      }
    }
  }
  for (const auto& [name, shardName] : weightMap) {
    const auto it = checkpoint.m_index.find(name);
    if (it == checkpoint.m_index.end() || it->second->file.filename() != shardName) {
      throw Error((folder / shardName).string() + ": tensor '" + name +
                  "' is listed there by model.safetensors.index.json but the file does not hold it");
    }
  }
  return checkpoint;
}

const SafetensorsTensor* SafetensorsCheckpoint::find(const std::string& name) const {
  const auto it = m_index.find(name);
  return it == m_index.end() ? nullptr : it->second;
}

float bf16ToFloat(std::uint16_t bits) {
  return std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16);
}

std::uint16_t floatToBf16(float value) {
  const auto bits = std::bit_cast<std::uint32_t>(value);
  if ((bits & 0x7fffffffu) > 0x7f800000u)
    return static_cast<std::uint16_t>((bits >> 16) | 0x40);          // quiet NaN
  const std::uint32_t roundingBias = 0x7fffu + ((bits >> 16) & 1u);  // round to nearest even
  return static_cast<std::uint16_t>((bits + roundingBias) >> 16);
}

float f16ToFloat(std::uint16_t bits) {
  const std::uint32_t sign = static_cast<std::uint32_t>(bits & 0x8000u) << 16;
  const std::uint32_t exponent = (bits >> 10) & 0x1fu;
  std::uint32_t mantissa = bits & 0x3ffu;
  std::uint32_t result = 0;
  if (exponent == 0x1f) {
    result = sign | 0x7f800000u | (mantissa << 13);  // inf or NaN
  } else if (exponent != 0) {
    result = sign | ((exponent + 112u) << 23) | (mantissa << 13);
  } else if (mantissa != 0) {
    // Subnormal half: normalise into a float's range.
    std::uint32_t e = 113;
    while ((mantissa & 0x400u) == 0) {
      mantissa <<= 1;
      --e;
    }
    result = sign | (e << 23) | ((mantissa & 0x3ffu) << 13);
  } else {
    result = sign;
  }
  return std::bit_cast<float>(result);
}

void convertToFloat32(const SafetensorsTensor& tensor, std::span<float> out) {
  const auto count = static_cast<std::size_t>(tensor.elementCount());
  assert(out.size() == count);
  // An empty tensor is valid safetensors; its spans may be null, which memcpy must never be given.
  if (count == 0) return;
  const std::byte* src = tensor.bytes.data();
  switch (tensor.dtype) {
    case SafetensorsDType::kF32:
      std::memcpy(out.data(), src, count * sizeof(float));  // the data may be unaligned
      return;
    case SafetensorsDType::kBF16:
    case SafetensorsDType::kF16: {
      const bool bf16 = tensor.dtype == SafetensorsDType::kBF16;
      for (std::size_t i = 0; i < count; ++i) {
        std::uint16_t bits = 0;
        std::memcpy(&bits, src + 2 * i, 2);
        out[i] = bf16 ? bf16ToFloat(bits) : f16ToFloat(bits);
      }
      return;
    }
    default:
      failTensor(tensor.file, tensor.name,
                 "dtype " + std::string(dtypeName(tensor.dtype)) +
                     " is not supported for weights; Ayar reads BF16, F16 and F32 checkpoints (and F8_E4M3 "
                     "linear weights with block scales)");
  }
}

void dequantizeBlockScaledFp8(const SafetensorsTensor& codes, const SafetensorsTensor& scales, int blockRows,
                              int blockCols, std::span<float> out) {
  const std::string where = codes.file.string() + ": tensor '" + codes.name + "'";
  if (codes.dtype != SafetensorsDType::kF8E4M3 || codes.shape.size() != 2)
    throw Error(where + " is not an F8_E4M3 matrix: only the linear layers' weights may be FP8");
  if (blockRows <= 0 || blockCols <= 0)
    throw Error(where + ": the FP8 block size must be positive (config.json's weight_block_size)");
  const std::int64_t rows = codes.shape[0], cols = codes.shape[1];
  assert(static_cast<std::int64_t>(out.size()) == rows * cols);
  const std::int64_t scaleCols = (cols + blockCols - 1) / blockCols;
  const std::vector<std::int64_t> expected{(rows + blockRows - 1) / blockRows, scaleCols};
  if (scales.shape != expected) {
    throw Error(scales.file.string() + ": tensor '" + scales.name + "' has shape " + shapeText(scales.shape) +
                " but weight_block_size [" + std::to_string(blockRows) + ", " + std::to_string(blockCols) +
                "] over '" + codes.name + "' " + shapeText(codes.shape) + " implies " + shapeText(expected));
  }
  std::vector<float> scale(static_cast<std::size_t>(scales.elementCount()));
  convertToFloat32(scales, scale);
  for (std::size_t i = 0; i < scale.size(); ++i) {
    if (!std::isfinite(scale[i]) || scale[i] <= 0.0f) {
      throw Error(scales.file.string() + ": tensor '" + scales.name + "' block (" +
                  std::to_string(static_cast<std::int64_t>(i) / scaleCols) + ", " +
                  std::to_string(static_cast<std::int64_t>(i) % scaleCols) + ") has scale " +
                  std::to_string(scale[i]) + ": a block scale must be a positive finite number");
    }
  }
  const auto* code = reinterpret_cast<const std::uint8_t*>(codes.bytes.data());
  for (std::int64_t r = 0; r < rows; ++r) {
    const float* scaleRow = scale.data() + (r / blockRows) * scaleCols;
    for (std::int64_t c = 0; c < cols; ++c) {
      const std::uint8_t bits = code[r * cols + c];
      if ((bits & 0x7f) == 0x7f) {
        throw Error(where + " holds a NaN at (" + std::to_string(r) + ", " + std::to_string(c) +
                    "): a weight must be a number");
      }
      out[static_cast<std::size_t>(r * cols + c)] = e4m3ToFloat(bits) * scaleRow[c / blockCols];
    }
  }
}

void writeSafetensors(const std::filesystem::path& path, std::span<const SafetensorsWriteTensor> tensors,
                      const std::map<std::string, std::string>& metadata) {
  nlohmann::json header = nlohmann::json::object();
  if (!metadata.empty()) header["__metadata__"] = metadata;
  std::string data;
  for (const SafetensorsWriteTensor& t : tensors) {
    assert(t.dtype == SafetensorsDType::kF32 || t.dtype == SafetensorsDType::kBF16 ||
           t.dtype == SafetensorsDType::kF8E4M3);
    const std::size_t begin = data.size();
    if (t.dtype == SafetensorsDType::kF32) {
      data.append(reinterpret_cast<const char*>(t.values.data()), t.values.size() * sizeof(float));
    } else if (t.dtype == SafetensorsDType::kF8E4M3) {
      for (const float v : t.values)
        data.push_back(static_cast<char>(floatToE4m3(v)));
    } else {
      for (const float v : t.values) {
        const std::uint16_t bits = floatToBf16(v);
        data.append(reinterpret_cast<const char*>(&bits), 2);
      }
    }
    header[t.name] = {
        {"dtype", dtypeName(t.dtype)}, {"shape", t.shape}, {"data_offsets", {begin, data.size()}}};
  }
  std::string headerText = header.dump();
  headerText.append((8 - headerText.size() % 8) % 8, ' ');  // keeps the data 8-byte aligned
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw Error(path.string() + ": cannot create the file");
  std::array<char, 8> length{};
  std::uint64_t n = headerText.size();
  for (char& c : length) {
    c = static_cast<char>(n & 0xff);
    n >>= 8;
  }
  out.write(length.data(), length.size());
  out.write(headerText.data(), static_cast<std::streamsize>(headerText.size()));
  out.write(data.data(), static_cast<std::streamsize>(data.size()));
  if (!out) throw Error(path.string() + ": write failed (disk full?)");
}

}  // namespace ayar::engine
