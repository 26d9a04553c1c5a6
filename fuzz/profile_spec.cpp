// The load profile reader (loadProfile on the input written as a file). A bad profile is an
// ayar::Error; a profile that reads is written back and reads again the same.
#include "core/study/profile_spec.h"

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto file = ayar::fuzz::TempFolder::instance().write("profile.json", ayar::fuzz::asText(data, size));
  ayar::ProfileSpec profile;
  try {
    profile = ayar::loadProfile(file.string());
  } catch (const ayar::Error&) {
    return 0;
  }
  const nlohmann::json written = profile;
  try {
    ayar::ProfileSpec again;
    ayar::from_json(written, again);
    again.validate();
    ayar::fuzz::check(nlohmann::json(again) == written, "a profile written and read back is the same");
  } catch (const ayar::Error& error) {
    ayar::fuzz::check(false, error.what());
  }
  return 0;
}
