// The secret scrubber, on JSON documents (what the store writes) and on text (command lines, URLs).
// A scrubbed value scrubbed again is unchanged: a second pass finding more would mean the first one
// left a secret behind.
#include "core/store/secret_scrubber.h"

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/report/json_input.h"
#include "fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using ayar::fuzz::check;
  const std::string_view text = ayar::fuzz::asText(data, size);

  const std::string scrubbedText = ayar::scrubSecretsInText(text);
  check(ayar::scrubSecretsInText(scrubbedText) == scrubbedText, "scrubSecretsInText is idempotent");

  try {
    ayar::json_input::requireDepthAtMost(text, "fuzz input", ayar::fuzz::kScrubberJsonDepthLimit);
  } catch (const ayar::Error&) {
    return 0;
  }
  const nlohmann::json value = nlohmann::json::parse(text, nullptr, false);
  if (value.is_discarded()) return 0;
  const nlohmann::json scrubbed = ayar::scrubSecrets(value);
  check(ayar::scrubSecrets(scrubbed) == scrubbed, "scrubSecrets is idempotent");
  return 0;
}
