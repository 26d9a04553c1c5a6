// vLLM result JSON read in memory: one result object (parseResultJson) and the objects of a file
// grown with --append-result (parseResultObjects, then readResultObject on each), as
// `ayar-cli compare` and the imports read them. Bad input is an ayar::Error.
#include "core/report/result_json.h"

#include <cstddef>
#include <cstdint>

#include "core/error.h"
#include "fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = ayar::fuzz::asText(data, size);
  try {
    (void)ayar::parseResultJson(text, "fuzz input");
  } catch (const ayar::Error&) {
  }
  try {
    for (const auto& object : ayar::parseResultObjects(text, "fuzz input"))
      (void)ayar::readResultObject(object, "fuzz input");
  } catch (const ayar::Error&) {
  }
  return 0;
}
