// The client's server-sent events parser, fed the input in one piece and in slices (the first byte
// picks the slicing): the events it dispatches must not depend on where the reads split the stream.
#include "core/load/sse_parser.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz/fuzz_support.h"

namespace {

std::vector<std::string> events(const std::vector<std::string_view>& pieces, bool& overflowed) {
  ayar::SseParser parser;
  std::vector<std::string> out;
  for (std::string_view piece : pieces)
    parser.feed(piece, [&](std::string_view data) { out.emplace_back(data); });
  overflowed = parser.overflowed();
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view bytes = ayar::fuzz::asText(data + 1, size - 1);
  bool wholeOverflowed = false;
  bool slicedOverflowed = false;
  const auto whole = events({bytes}, wholeOverflowed);
  const auto sliced = events(ayar::fuzz::slices(bytes, data[0]), slicedOverflowed);
  ayar::fuzz::check(whole == sliced, "slicing the stream does not change its events");
  ayar::fuzz::check(wholeOverflowed == slicedOverflowed, "slicing the stream does not change overflow");
  return 0;
}
