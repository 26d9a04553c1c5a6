#include "core/tokenizer/byte_level.h"

#include <array>

#include "core/tokenizer/utf8.h"

namespace ayar::byte_level {

namespace {

struct Mapping {
  std::array<char32_t, 256> charOfByte{};
  std::array<int, 324> byteOfChar{};  // mapped characters are all below U+0144
};

// Printable bytes map to themselves; the others (controls, space, 0x7F-0xA0, 0xAD) are shifted to
// U+0100 upwards in byte order.
Mapping makeMapping() {
  Mapping m;
  m.byteOfChar.fill(-1);
  char32_t next = 256;
  for (int b = 0; b < 256; ++b) {
    const bool printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
    const char32_t c = printable ? static_cast<char32_t>(b) : next++;
    m.charOfByte[static_cast<std::size_t>(b)] = c;
    m.byteOfChar[c] = b;
  }
  return m;
}

const Mapping& mapping() {
  static const Mapping m = makeMapping();
  return m;
}

}  // namespace

char32_t byteToChar(unsigned char byte) {
  return mapping().charOfByte[byte];
}

int charToByte(char32_t c) {
  return c < mapping().byteOfChar.size() ? mapping().byteOfChar[c] : -1;
}

std::optional<std::string> toBytes(std::string_view mapped) {
  if (!utf8::isValid(mapped)) return std::nullopt;
  std::string bytes;
  bytes.reserve(mapped.size());
  for (std::size_t pos = 0; pos < mapped.size();) {
    const int byte = charToByte(utf8::decodeValid(mapped, pos));
    if (byte < 0) return std::nullopt;
    bytes.push_back(static_cast<char>(byte));
  }
  return bytes;
}

std::string fromBytes(std::string_view bytes) {
  std::string mapped;
  mapped.reserve(bytes.size() * 2);
  for (char b : bytes)
    utf8::append(mapped, byteToChar(static_cast<unsigned char>(b)));
  return mapped;
}

}  // namespace ayar::byte_level
