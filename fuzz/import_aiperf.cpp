// Result import: AIPerf's summary export, without its per-request file.
#include "fuzz/import_target.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ayar::fuzz::importResultFile(data, size, "profile_export_aiperf.json");
  return 0;
}
