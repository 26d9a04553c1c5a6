// The UTF-8 checks the engine refuses request bodies with (findInvalidUtf8) and the client's and
// tokenizer's helpers (core/tokenizer/utf8.h), against each other and against a JSON reader: text the
// checks call valid, written as a JSON string, reads back unchanged; invalid text is refused by both.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "core/tokenizer/utf8.h"
#include "engine/server/json_text.h"
#include "fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using ayar::fuzz::check;
  const std::string_view text = ayar::fuzz::asText(data, size);
  const auto invalidAt = ayar::engine::findInvalidUtf8(text);
  check(invalidAt == ayar::utf8::firstInvalidOffset(text), "the engine's and core's checks agree");
  check(ayar::utf8::isValid(text) == !invalidAt.has_value(), "isValid agrees with the offset");
  if (invalidAt) {
    check(*invalidAt < text.size(), "the invalid offset is inside the text");
    check(!ayar::engine::findInvalidUtf8(text.substr(0, *invalidAt)), "the text before it is valid");
  }

  std::string quoted;
  ayar::engine::appendJsonString(quoted, text);
  const nlohmann::json read = nlohmann::json::parse(quoted, nullptr, false);
  check(read.is_discarded() == invalidAt.has_value(), "a JSON reader accepts exactly the valid text");
  if (!invalidAt) {
    check(read.is_string() && read.get<std::string>() == text, "valid text survives JSON escaping");
    const std::size_t length = text.size() * (size > 0 ? data[0] : 0) / 255;  // a cut anywhere
    const std::size_t boundary = ayar::engine::utf8BoundaryAtOrBefore(text, length);
    check(boundary <= length && length - boundary < 4, "a boundary is at most 3 bytes back");
    check(ayar::utf8::isValid(text.substr(0, boundary)), "the text cut at a boundary is valid");
  }

  const std::string replaced = ayar::utf8::replaceInvalid(text);
  check(ayar::utf8::isValid(replaced), "replacing the invalid sequences leaves valid text");
  check(!invalidAt || replaced != text, "invalid text is changed by the replacement");
  const std::size_t complete = ayar::utf8::completePrefixLength(text);
  check(complete <= text.size() && text.size() - complete < 4, "at most 3 bytes are held back");
  return 0;
}
