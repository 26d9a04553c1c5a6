// The engine spec reader (from_json, then validate), as studies and the workbench's settings read
// an engine. A bad spec is an ayar::Error; a spec that reads is written back and reads again equal.
#include "core/engines/engine_spec.h"

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const nlohmann::json json = nlohmann::json::parse(ayar::fuzz::asText(data, size), nullptr, false);
  if (json.is_discarded()) return 0;
  ayar::EngineSpec spec;
  try {
    spec = json.get<ayar::EngineSpec>();
    spec.validate();
  } catch (const ayar::Error&) {
    return 0;
  }
  try {
    const ayar::EngineSpec again = nlohmann::json(spec).get<ayar::EngineSpec>();
    ayar::fuzz::check(again == spec, "an engine spec written and read back is equal");
  } catch (const ayar::Error& error) {
    ayar::fuzz::check(false, error.what());
  }
  return 0;
}
