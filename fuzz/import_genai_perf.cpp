// Result import: genai-perf's profile export.
#include "fuzz/import_target.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ayar::fuzz::importResultFile(data, size, "profile_export_genai_perf.json");
  return 0;
}
