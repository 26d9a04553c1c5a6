// The scanner that reads one streamed OpenAI chunk (parseStreamChunk). What it accepts must be JSON:
// a chunk it reads is one nlohmann reads too, and a refused chunk says why.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "core/load/openai_stream.h"
#include "fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view json = ayar::fuzz::asText(data, size);
  ayar::StreamChunk chunk;
  std::string problem;
  const bool read = ayar::parseStreamChunk(json, chunk, problem);
  ayar::fuzz::check(read || !problem.empty(), "a refused chunk says why");
  if (read) {
    const nlohmann::json value = nlohmann::json::parse(json, nullptr, false);
    ayar::fuzz::check(!value.is_discarded() && value.is_object(), "an accepted chunk is a JSON object");
  }
  return 0;
}
