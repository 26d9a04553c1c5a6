// The engine template reader (EngineCatalogue::loadFile on the input written as engine.json), as
// resources/engines/*.json are read. A bad template is an ayar::Error naming the file.
#include <cstddef>
#include <cstdint>

#include "core/engines/engine_catalogue.h"
#include "core/error.h"
#include "fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto file = ayar::fuzz::TempFolder::instance().write("engine.json", ayar::fuzz::asText(data, size));
  try {
    const ayar::EngineTemplate engine = ayar::EngineCatalogue::loadFile(file);
    (void)engine.reservedFlags();
  } catch (const ayar::Error& error) {
    ayar::fuzz::check(std::string_view(error.what()).find(file.string()) != std::string_view::npos,
                      "an engine template error names the file");
  }
  return 0;
}
