// The streamed response reader (SSE framing, then each chunk's meaning), fed the body in one piece
// and in slices (the first byte picks the slicing): what it reads must not depend on the slicing.
#include <cstddef>
#include <cstdint>

#include "core/load/openai_stream.h"
#include "fuzz/fuzz_support.h"

namespace {

struct Read {
  std::size_t chunks = 0;
  std::string text;
  bool sawDone = false;
  bool failed = false;
  std::int64_t promptTokens = -1;
  std::int64_t completionTokens = -1;
  std::size_t events = 0;
  bool operator==(const Read&) const = default;
};

Read read(const std::vector<std::string_view>& pieces) {
  ayar::OpenAiStreamReader reader;
  double arrival = 0;
  for (std::string_view piece : pieces)
    reader.feed(piece, arrival += 0.001);
  return {reader.chunkTimesS().size(),
          reader.text(),
          reader.sawDone(),
          reader.failed(),
          reader.promptTokens(),
          reader.completionTokens(),
          reader.eventCount()};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view body = ayar::fuzz::asText(data + 1, size - 1);
  ayar::fuzz::check(read({body}) == read(ayar::fuzz::slices(body, data[0])),
                    "slicing the body does not change what is read");
  return 0;
}
