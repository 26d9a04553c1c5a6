// The client's HTTP/1.1 response reader, fed the input in one piece and in slices (the first byte
// picks the slicing). How the bytes are split must not change what is read: the same status, body,
// outcome and connection reuse.
#include "core/load/http_response.h"

#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/fuzz_support.h"

namespace {

struct BodyCollector final : ayar::HttpBodySink {
  void onBody(std::string_view bytes) override { body.append(bytes); }
  std::string body;
};

struct Outcome {
  bool done = false;
  bool failed = false;
  bool completeAtClose = false;
  int status = 0;
  bool keepAlive = false;
  std::size_t consumed = 0;
  std::string body;
  bool operator==(const Outcome&) const = default;
};

Outcome read(const std::vector<std::string_view>& pieces) {
  ayar::HttpResponseParser parser;
  BodyCollector sink;
  Outcome out;
  for (std::string_view piece : pieces) {
    const std::size_t used = parser.feed(piece, sink);
    ayar::fuzz::check(used <= piece.size(), "feed() uses no more than it was given");
    out.consumed += used;
    if (parser.done() || parser.failed()) break;
    ayar::fuzz::check(used == piece.size(), "feed() uses every byte until the response ends");
  }
  out.failed = parser.failed();
  if (!out.failed) out.completeAtClose = parser.finishAtClose();
  out.done = parser.done();
  out.failed = parser.failed();
  out.status = parser.status();
  out.keepAlive = out.done && parser.keepAlive();
  out.body = std::move(sink.body);
  ayar::fuzz::check(!out.failed || !parser.error().empty(), "a failed response says why");
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view bytes = ayar::fuzz::asText(data + 1, size - 1);
  const Outcome whole = read({bytes});
  const Outcome sliced = read(ayar::fuzz::slices(bytes, data[0]));
  ayar::fuzz::check(whole == sliced, "slicing the bytes does not change the response read");
  return 0;
}
