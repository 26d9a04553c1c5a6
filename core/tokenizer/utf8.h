#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

// UTF-8 helpers shared by the tokenizer's normalizer, pre-tokenizer and decoders, and by the parts that
// read or write text on the wire (the client's stream reader, the engine's request checks).
namespace ayar::utf8 {

inline constexpr char32_t kReplacementCharacter = 0xFFFD;

void append(std::string& out, char32_t codePoint);

// Decodes the well-formed code point at text[pos] (the caller guarantees well-formed input) and
// advances pos past it.
char32_t decodeValid(std::string_view text, std::size_t& pos);

// Length of the well-formed sequence at text[pos], or 0 when the bytes there are not one. When
// `incompleteAtEnd` is given, it is set when the bytes are a valid but truncated prefix that runs
// into the end of `text`.
std::size_t validSequenceLength(std::string_view text, std::size_t pos, bool* incompleteAtEnd = nullptr);

bool isValid(std::string_view text);
// The offset of the first byte that does not start a well-formed sequence; none for valid UTF-8.
std::optional<std::size_t> firstInvalidOffset(std::string_view text);

// Appends `text` to `out` with each maximal ill-formed subpart replaced by U+FFFD, as Python's
// bytes.decode("utf-8", errors="replace") and the WHATWG decoder do.
void appendReplacingInvalid(std::string& out, std::string_view text);
std::string replaceInvalid(std::string_view text);

// The length of the longest prefix of `bytes` that does not end inside a character that could still
// be completed by more bytes. Bytes that can never become valid are part of the prefix (they decode
// to U+FFFD now), so only a truncated but so-far valid sequence at the very end is held back.
std::size_t completePrefixLength(std::string_view bytes);

}  // namespace ayar::utf8
