#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace ayar::engine {

// Appends `text` to `out` as the inside of a JSON string (no surrounding quotes): quotes, backslashes
// and control characters escaped, everything else copied byte for byte. This is on the per-token
// streaming path, so it copies runs of plain bytes in one go and never allocates beyond `out`'s growth.
void appendJsonEscaped(std::string& out, std::string_view text);

// Appends `text` as a complete JSON string literal, quotes included.
void appendJsonString(std::string& out, std::string_view text);

// The offset of the first byte that does not belong to a well-formed UTF-8 sequence (overlong forms,
// surrogates and code points above U+10FFFF count as ill-formed), or nullopt when all of `text` is valid.
std::optional<std::size_t> findInvalidUtf8(std::string_view text);

// The length of the longest prefix of `text` that ends on a UTF-8 character boundary, assuming `text`
// itself is valid UTF-8 that may have been cut anywhere.
std::size_t utf8BoundaryAtOrBefore(std::string_view text, std::size_t length);

}  // namespace ayar::engine
