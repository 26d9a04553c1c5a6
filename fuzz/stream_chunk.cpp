// The scanner that reads one streamed OpenAI chunk (parseStreamChunk). What it accepts must be JSON:
// a chunk it reads is one nlohmann reads too, and a refused chunk says why. One leniency is by design,
// as in Python's json module that vLLM's client reads chunks with: an escaped lone surrogate is read
// (as U+FFFD) where nlohmann refuses it, so chunks with surrogate escapes are not compared; and a
// number past a double's range is JSON (read as infinity) that nlohmann refuses as out of range.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "core/load/openai_stream.h"
#include "fuzz/fuzz_support.h"

namespace {

bool hasSurrogateEscape(std::string_view json) {
  for (std::size_t at = json.find("\\u"); at != std::string_view::npos; at = json.find("\\u", at + 1)) {
    if (at + 3 < json.size() && (json[at + 2] == 'd' || json[at + 2] == 'D') &&
        std::string_view("89abcdefABCDEF").find(json[at + 3]) != std::string_view::npos)
      return true;
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view json = ayar::fuzz::asText(data, size);
  ayar::StreamChunk chunk;
  std::string problem;
  const bool read = ayar::parseStreamChunk(json, chunk, problem);
  ayar::fuzz::check(read || !problem.empty(), "a refused chunk says why");
  if (read && !hasSurrogateEscape(json)) {
    try {
      ayar::fuzz::check(nlohmann::json::parse(json).is_object(), "an accepted chunk is a JSON object");
    } catch (const nlohmann::json::out_of_range&) {
    } catch (const nlohmann::json::exception& error) {
      ayar::fuzz::check(false, error.what());
    }
  }
  return 0;
}
