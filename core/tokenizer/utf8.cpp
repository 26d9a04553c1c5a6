#include "core/tokenizer/utf8.h"

#include <cassert>
#include <cstdint>
#include <cstring>

namespace ayar::utf8 {

namespace {

bool inRange(unsigned char byte, unsigned char low, unsigned char high) {
  return byte >= low && byte <= high;
}

// What a lead byte promises: the sequence's length (0: not a lead byte) and the allowed range of
// the second byte (no overlongs, no surrogates, nothing above U+10FFFF); later bytes are plain
// continuation bytes.
struct LeadByteRule {
  std::size_t length = 0;
  unsigned char secondLow = 0x80;
  unsigned char secondHigh = 0xBF;
};

LeadByteRule leadByteRule(unsigned char lead) {
  LeadByteRule rule;
  if (inRange(lead, 0xC2, 0xDF)) {
    rule.length = 2;
  } else if (inRange(lead, 0xE0, 0xEF)) {
    rule.length = 3;
    if (lead == 0xE0) rule.secondLow = 0xA0;
    if (lead == 0xED) rule.secondHigh = 0x9F;
  } else if (inRange(lead, 0xF0, 0xF4)) {
    rule.length = 4;
    if (lead == 0xF0) rule.secondLow = 0x90;
    if (lead == 0xF4) rule.secondHigh = 0x8F;
  }
  return rule;
}

bool continuationOk(const LeadByteRule& rule, std::size_t index, unsigned char byte) {
  return index == 1 ? inRange(byte, rule.secondLow, rule.secondHigh) : inRange(byte, 0x80, 0xBF);
}

}  // namespace

void append(std::string& out, char32_t codePoint) {
  const auto cp = static_cast<std::uint32_t>(codePoint);
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

char32_t decodeValid(std::string_view text, std::size_t& pos) {
  const auto lead = static_cast<unsigned char>(text[pos]);
  if (lead < 0x80) {
    ++pos;
    return lead;
  }
  int length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
  std::uint32_t cp = lead & (0x7F >> length);
  for (int i = 1; i < length; ++i)
    cp = (cp << 6) | (static_cast<unsigned char>(text[pos + i]) & 0x3F);
  pos += static_cast<std::size_t>(length);
  return cp;
}

std::size_t validSequenceLength(std::string_view text, std::size_t pos, bool* incompleteAtEnd) {
  if (incompleteAtEnd) *incompleteAtEnd = false;
  const auto lead = static_cast<unsigned char>(text[pos]);
  if (lead < 0x80) return 1;
  const LeadByteRule rule = leadByteRule(lead);
  if (rule.length == 0) return 0;
  for (std::size_t i = 1; i < rule.length; ++i) {
    if (pos + i >= text.size()) {
      if (incompleteAtEnd) *incompleteAtEnd = true;
      return 0;
    }
    if (!continuationOk(rule, i, static_cast<unsigned char>(text[pos + i]))) return 0;
  }
  return rule.length;
}

std::optional<std::size_t> firstInvalidOffset(std::string_view text) {
  std::size_t pos = 0;
  while (pos < text.size()) {
    // Eight ASCII bytes at a time: most text (and all of a tokenizer.json's syntax) is ASCII.
    std::uint64_t chunk;
    if (pos + 8 <= text.size() &&
        (std::memcpy(&chunk, text.data() + pos, 8), (chunk & 0x8080808080808080ULL) == 0)) {
      pos += 8;
      continue;
    }
    if (static_cast<unsigned char>(text[pos]) < 0x80) {
      ++pos;
      continue;
    }
    const std::size_t length = validSequenceLength(text, pos);
    if (length == 0) return pos;
    pos += length;
  }
  return std::nullopt;
}

bool isValid(std::string_view text) {
  return !firstInvalidOffset(text);
}

// Length of the maximal ill-formed subpart at text[pos] (at least 1): the longest prefix of a
// well-formed sequence, so that the next decode starts at the first byte that broke it.
static std::size_t illFormedSubpartLength(std::string_view text, std::size_t pos) {
  const LeadByteRule rule = leadByteRule(static_cast<unsigned char>(text[pos]));
  if (rule.length == 0) return 1;
  std::size_t consumed = 1;
  for (std::size_t i = 1; i < rule.length && pos + i < text.size(); ++i) {
    if (!continuationOk(rule, i, static_cast<unsigned char>(text[pos + i]))) break;
    ++consumed;
  }
  return consumed;
}

void appendReplacingInvalid(std::string& out, std::string_view text) {
  std::size_t pos = 0;
  std::size_t validStart = 0;
  while (pos < text.size()) {
    if (static_cast<unsigned char>(text[pos]) < 0x80) {
      ++pos;
      continue;
    }
    const std::size_t length = validSequenceLength(text, pos);
    if (length != 0) {
      pos += length;
      continue;
    }
    out.append(text.substr(validStart, pos - validStart));
    append(out, kReplacementCharacter);
    pos += illFormedSubpartLength(text, pos);
    validStart = pos;
  }
  out.append(text.substr(validStart));
}

std::string replaceInvalid(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  appendReplacingInvalid(out, text);
  return out;
}

std::size_t completePrefixLength(std::string_view bytes) {
  // A character is at most 4 bytes, so only the last 3 bytes can start a truncated one.
  const std::size_t start = bytes.size() > 3 ? bytes.size() - 3 : 0;
  for (std::size_t pos = start; pos < bytes.size(); ++pos) {
    const auto byte = static_cast<unsigned char>(bytes[pos]);
    if ((byte & 0xC0) == 0x80) continue;  // a continuation byte cannot start a character
    bool incomplete = false;
    validSequenceLength(bytes, pos, &incomplete);
    if (incomplete) return pos;
  }
  return bytes.size();
}

}  // namespace ayar::utf8
