// Result import: guidellm's benchmarks report.
#include "fuzz/import_target.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ayar::fuzz::importResultFile(data, size, "benchmarks.json");
  return 0;
}
