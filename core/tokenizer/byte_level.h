#pragma once

#include <optional>
#include <string>
#include <string_view>

// GPT-2's byte-level mapping (bytes_to_unicode): every byte is shown as a printable character, so
// that a vocabulary of strings can hold arbitrary bytes. The tokenizer works on raw bytes and only
// uses this mapping to read the vocabulary and merges.
namespace ayar::byte_level {

char32_t byteToChar(unsigned char byte);
// The byte a mapped character stands for, or -1 for a character outside the mapping.
int charToByte(char32_t c);

// A vocabulary string back to the bytes it stands for; none when it holds a character outside the
// mapping (or is not well-formed UTF-8).
std::optional<std::string> toBytes(std::string_view mapped);
// Bytes to their mapped string (the form written in tokenizer.json).
std::string fromBytes(std::string_view bytes);

}  // namespace ayar::byte_level
