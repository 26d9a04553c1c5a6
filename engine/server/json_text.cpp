#include "engine/server/json_text.h"

#include <array>
#include <cstdint>

#include "core/tokenizer/utf8.h"

namespace ayar::engine {

namespace {

// 0: copy as is; 1: short escape (\" \\ \n ...); 2: \u00XX.
constexpr std::array<std::uint8_t, 256> makeEscapeClass() {
  std::array<std::uint8_t, 256> table{};
  for (int c = 0; c < 0x20; ++c)
    table[static_cast<std::size_t>(c)] = 2;
  for (char c : {'"', '\\', '\b', '\f', '\n', '\r', '\t'})
    table[static_cast<unsigned char>(c)] = 1;
  table[0x7f] = 0;
  return table;
}

constexpr std::array<std::uint8_t, 256> kEscapeClass = makeEscapeClass();

char shortEscape(char c) {
  switch (c) {
    case '"':
      return '"';
    case '\\':
      return '\\';
    case '\b':
      return 'b';
    case '\f':
      return 'f';
    case '\n':
      return 'n';
    case '\r':
      return 'r';
    default:
      return 't';
  }
}

}  // namespace

void appendJsonEscaped(std::string& out, std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::size_t runStart = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    const std::uint8_t escape = kEscapeClass[byte];
    if (escape == 0) continue;
    out.append(text.data() + runStart, i - runStart);
    if (escape == 1) {
      const char pair[2] = {'\\', shortEscape(text[i])};
      out.append(pair, 2);
    } else {
      const char unicode[6] = {'\\', 'u', '0', '0', kHex[byte >> 4], kHex[byte & 0xf]};
      out.append(unicode, 6);
    }
    runStart = i + 1;
  }
  out.append(text.data() + runStart, text.size() - runStart);
}

void appendJsonString(std::string& out, std::string_view text) {
  out.push_back('"');
  appendJsonEscaped(out, text);
  out.push_back('"');
}

std::optional<std::size_t> findInvalidUtf8(std::string_view text) {
  return utf8::firstInvalidOffset(text);
}

std::size_t utf8BoundaryAtOrBefore(std::string_view text, std::size_t length) {
  if (length >= text.size()) return text.size();
  // A continuation byte (10xxxxxx) at `length` means a character straddles the cut.
  while (length > 0 && (static_cast<unsigned char>(text[length]) & 0xc0) == 0x80)
    --length;
  return length;
}

}  // namespace ayar::engine
