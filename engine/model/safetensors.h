#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace ayar::engine {

// Element types of the safetensors format. The CPU backend converts BF16, F16 and F32; the others are
// recognised so that a file holding them is still validated, and refused only when such a tensor is used.
enum class SafetensorsDType {
  kBF16,
  kF16,
  kF32,
  kF64,
  kI8,
  kI16,
  kI32,
  kI64,
  kU8,
  kU16,
  kU32,
  kU64,
  kBool,
  kF8E4M3,
  kF8E5M2
};

std::string_view dtypeName(SafetensorsDType dtype);
std::size_t dtypeSize(SafetensorsDType dtype);

// One tensor of a mapped file: its bytes stay valid while the file that holds it is alive.
struct SafetensorsTensor {
  std::string name;
  SafetensorsDType dtype = SafetensorsDType::kF32;
  std::vector<std::int64_t> shape;
  std::span<const std::byte> bytes;
  std::filesystem::path file;

  std::int64_t elementCount() const;
};

// A .safetensors file mapped read-only. open() validates everything the format promises: the 8-byte
// header length, the JSON header, dtypes, shapes against byte ranges, ranges inside the file and not
// overlapping, and __metadata__ (string to string). Every problem is an ayar::Error naming the file
// (and the tensor where there is one).
class SafetensorsFile {
 public:
  static std::unique_ptr<SafetensorsFile> open(const std::filesystem::path& path);
  ~SafetensorsFile();
  SafetensorsFile(const SafetensorsFile&) = delete;
  SafetensorsFile& operator=(const SafetensorsFile&) = delete;

  const std::filesystem::path& path() const { return m_path; }
  const std::map<std::string, SafetensorsTensor>& tensors() const { return m_tensors; }
  const std::map<std::string, std::string>& metadata() const { return m_metadata; }
  const SafetensorsTensor* find(const std::string& name) const;

 private:
  SafetensorsFile() = default;

  std::filesystem::path m_path;
  void* m_mapping = nullptr;
  std::size_t m_mappingSize = 0;
  std::map<std::string, SafetensorsTensor> m_tensors;
  std::map<std::string, std::string> m_metadata;
};

// The safetensors files of a Hugging Face folder: the shards that model.safetensors.index.json names
// (each tensor where its weight_map says), or else every *.safetensors in the folder. A tensor name that
// appears in two files is an error.
class SafetensorsCheckpoint {
 public:
  static SafetensorsCheckpoint open(const std::filesystem::path& folder);

  const std::filesystem::path& folder() const { return m_folder; }
  const std::vector<std::unique_ptr<SafetensorsFile>>& files() const { return m_files; }
  const SafetensorsTensor* find(const std::string& name) const;
  std::size_t tensorCount() const { return m_index.size(); }

 private:
  std::filesystem::path m_folder;
  std::vector<std::unique_ptr<SafetensorsFile>> m_files;
  std::map<std::string, const SafetensorsTensor*> m_index;
};

// Converts a BF16, F16 or F32 tensor to float32. `out` must hold elementCount() floats. Other dtypes
// throw ayar::Error naming the file and tensor.
void convertToFloat32(const SafetensorsTensor& tensor, std::span<float> out);

// An FP8 checkpoint's matrix: each F8_E4M3 code of `codes` times the scale of its block of blockRows x
// blockCols in `scales` (its weight_scale_inv: [ceil(rows / blockRows), ceil(cols / blockCols)], F32, BF16
// or F16; the last blocks of a row or column may be cut short). `out` holds elementCount() floats. A scale
// tensor of another shape, a scale that is not a positive finite number, or a NaN code is an ayar::Error
// naming the file and tensor.
void dequantizeBlockScaledFp8(const SafetensorsTensor& codes, const SafetensorsTensor& scales, int blockRows,
                              int blockCols, std::span<float> out);

// Writes a safetensors file (F32, or BF16 or F8_E4M3 rounded to nearest even). For tests and tools.
struct SafetensorsWriteTensor {
  std::string name;
  SafetensorsDType dtype = SafetensorsDType::kF32;  // kF32, kBF16 or kF8E4M3
  std::vector<std::int64_t> shape;
  std::span<const float> values;
};
void writeSafetensors(const std::filesystem::path& path, std::span<const SafetensorsWriteTensor> tensors,
                      const std::map<std::string, std::string>& metadata = {});

float bf16ToFloat(std::uint16_t bits);
std::uint16_t floatToBf16(float value);
float f16ToFloat(std::uint16_t bits);

}  // namespace ayar::engine
