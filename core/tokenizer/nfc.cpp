#include "core/tokenizer/nfc.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/tokenizer/utf8.h"

namespace ayar::nfc {

namespace {

#include "core/tokenizer/unicode_tables.inc"

// Hangul syllables are composed and decomposed arithmetically (Unicode 3.12), not from tables.
constexpr char32_t kSBase = 0xAC00, kLBase = 0x1100, kVBase = 0x1161, kTBase = 0x11A7;
constexpr char32_t kLCount = 19, kVCount = 21, kTCount = 28;
constexpr char32_t kNCount = kVCount * kTCount, kSCount = kLCount * kNCount;

enum QuickCheck : unsigned { kYes = 0, kMaybe = 1, kNo = 2 };

std::uint16_t property(char32_t cp) {
  if (cp >= 0x110000) return 0;
  return kNfcPropertyStage2[kNfcPropertyStage1[cp / kNfcPropertyBlockSize] * kNfcPropertyBlockSize +
                            cp % kNfcPropertyBlockSize];
}

unsigned combiningClass(char32_t cp) {
  return property(cp) & 0xFFu;
}

void appendDecomposition(std::vector<char32_t>& out, char32_t cp) {
  if (cp >= kSBase && cp < kSBase + kSCount) {
    const char32_t index = cp - kSBase;
    out.push_back(kLBase + index / kNCount);
    out.push_back(kVBase + (index % kNCount) / kTCount);
    if (index % kTCount != 0) out.push_back(kTBase + index % kTCount);
    return;
  }
  const auto* end = std::end(kDecompositions);
  const auto* it = std::lower_bound(std::begin(kDecompositions), end, cp,
                                    [](const DecompositionEntry& e, char32_t c) { return e.codePoint < c; });
  if (it == end || it->codePoint != cp) {
    out.push_back(cp);
    return;
  }
  out.insert(out.end(), kDecompositionPool + it->offset, kDecompositionPool + it->offset + it->length);
}

// The primary composite of (first, second), or 0 when there is none.
char32_t compose(char32_t first, char32_t second) {
  if (first >= kLBase && first < kLBase + kLCount && second >= kVBase && second < kVBase + kVCount) {
    return kSBase + ((first - kLBase) * kVCount + (second - kVBase)) * kTCount;
  }
  if (first >= kSBase && first < kSBase + kSCount && (first - kSBase) % kTCount == 0 && second > kTBase &&
      second < kTBase + kTCount) {
    return first + (second - kTBase);
  }
  const std::uint64_t key = (static_cast<std::uint64_t>(first) << 21) | second;
  const auto* end = std::end(kCompositions);
  const auto* it = std::lower_bound(std::begin(kCompositions), end, key,
                                    [](const CompositionEntry& e, std::uint64_t k) { return e.pair < k; });
  return it != end && it->pair == key ? it->composite : 0;
}

bool isAscii(std::string_view text) {
  std::size_t pos = 0;
  for (; pos + 8 <= text.size(); pos += 8) {
    std::uint64_t chunk;
    std::memcpy(&chunk, text.data() + pos, sizeof chunk);
    if (chunk & 0x8080808080808080ULL) return false;
  }
  for (; pos < text.size(); ++pos) {
    if (static_cast<unsigned char>(text[pos]) >= 0x80) return false;
  }
  return true;
}

}  // namespace

bool isQuickCheckYes(std::string_view text) {
  if (isAscii(text)) return true;
  unsigned lastClass = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    if (static_cast<unsigned char>(text[pos]) < 0x80) {
      lastClass = 0;
      ++pos;
      continue;
    }
    const std::uint16_t value = property(utf8::decodeValid(text, pos));
    const unsigned combining = value & 0xFFu;
    if ((value >> 8) != kYes) return false;
    if (combining != 0 && lastClass > combining) return false;
    lastClass = combining;
  }
  return true;
}

void appendNormalized(std::string& out, std::string_view text) {
  if (isQuickCheckYes(text)) {
    out.append(text);
    return;
  }
  // Canonical decomposition.
  std::vector<char32_t> chars;
  chars.reserve(text.size());
  for (std::size_t pos = 0; pos < text.size();)
    appendDecomposition(chars, utf8::decodeValid(text, pos));

  // Canonical ordering: stable sort of each run of non-starters by combining class.
  std::vector<unsigned> classes(chars.size());
  for (std::size_t i = 0; i < chars.size(); ++i)
    classes[i] = combiningClass(chars[i]);
  for (std::size_t i = 0; i < chars.size();) {
    if (classes[i] == 0) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < chars.size() && classes[end] != 0)
      ++end;
    // Runs are short (a few marks), so insertion sort is the simple stable choice.
    for (std::size_t j = i + 1; j < end; ++j) {
      for (std::size_t k = j; k > i && classes[k - 1] > classes[k]; --k) {
        std::swap(classes[k - 1], classes[k]);
        std::swap(chars[k - 1], chars[k]);
      }
    }
    i = end;
  }

  // Canonical composition: a character combines with the last starter unless a character between
  // them has a combining class of zero or one not lower than its own (it is "blocked").
  std::vector<char32_t> composed;
  composed.reserve(chars.size());
  std::ptrdiff_t starter = -1;
  unsigned lastClass = 0;
  for (std::size_t i = 0; i < chars.size(); ++i) {
    const char32_t c = chars[i];
    const unsigned combining = classes[i];
    if (starter >= 0) {
      const bool adjacent = static_cast<std::size_t>(starter) + 1 == composed.size();
      if (adjacent || (lastClass != 0 && lastClass < combining)) {
        if (const char32_t composite = compose(composed[static_cast<std::size_t>(starter)], c)) {
          composed[static_cast<std::size_t>(starter)] = composite;
          continue;
        }
      }
    }
    if (combining == 0) starter = static_cast<std::ptrdiff_t>(composed.size());
    composed.push_back(c);
    lastClass = combining;
  }
  for (char32_t c : composed)
    utf8::append(out, c);
}

std::string normalize(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  appendNormalized(out, text);
  return out;
}

const char* unicodeVersion() {
  return kUnicodeVersion;
}

}  // namespace ayar::nfc
