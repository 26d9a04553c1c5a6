// Result import: vLLM's --save-result files (Ayar's own result files too).
#include "fuzz/import_target.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ayar::fuzz::importResultFile(data, size, "vllm_result.json");
  return 0;
}
