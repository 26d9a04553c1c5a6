// Result import: AIPerf's per-request profile_export.jsonl alone.
#include "fuzz/import_target.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ayar::fuzz::importResultFile(data, size, "profile_export.jsonl");
  return 0;
}
