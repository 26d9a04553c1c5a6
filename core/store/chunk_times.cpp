#include "core/store/chunk_times.h"

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>

#include "core/error.h"
#include "core/report/message_text.h"

namespace ayar {

namespace {

std::uint64_t toLittleEndian(std::uint64_t value) {
  if constexpr (std::endian::native == std::endian::little) {
    return value;
  } else {
    return __builtin_bswap64(value);
  }
}

}  // namespace

std::vector<std::byte> encodeChunkTimes(std::span<const double> chunkTimesS) {
  std::vector<std::byte> blob(chunkTimesS.size() * sizeof(std::uint64_t));
  for (std::size_t i = 0; i < chunkTimesS.size(); ++i) {
    const std::uint64_t bits = toLittleEndian(std::bit_cast<std::uint64_t>(chunkTimesS[i]));
    std::memcpy(blob.data() + i * sizeof bits, &bits, sizeof bits);
  }
  return blob;
}

std::vector<double> decodeChunkTimes(std::span<const std::byte> blob, std::string_view what) {
  if (blob.size() % sizeof(std::uint64_t) != 0) {
    throw MessageError({MessageText::StoreChunkTimes, {std::string(what), std::to_string(blob.size())}});
  }
  std::vector<double> times(blob.size() / sizeof(std::uint64_t));
  for (std::size_t i = 0; i < times.size(); ++i) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, blob.data() + i * sizeof bits, sizeof bits);
    times[i] = std::bit_cast<double>(toLittleEndian(bits));
  }
  return times;
}

}  // namespace ayar
