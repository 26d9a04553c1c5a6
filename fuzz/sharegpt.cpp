// The ShareGPT dataset reader (loadShareGpt on the input written as a file, with the real Qwen3
// tokenizer; the first byte picks how many prompts are asked for). A bad file is an ayar::Error
// naming it; a file that gives prompts gives as many as were asked.
#include <cstddef>
#include <cstdint>

#include "core/dataset/sharegpt_dataset.h"
#include "core/error.h"
#include "fuzz/fuzz_support.h"
#include "fuzz/qwen3_tokenizer.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  (void)ayar::fuzz::qwen3Tokenizer();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  ayar::ShareGptOptions options;
  options.path =
      ayar::fuzz::TempFolder::instance().write("sharegpt.json", ayar::fuzz::asText(data + 1, size - 1));
  options.numPrompts = 1 + data[0] % 4;
  options.seed = data[0];
  try {
    const auto requests = ayar::loadShareGpt(ayar::fuzz::qwen3Tokenizer(), options);
    ayar::fuzz::check(requests.size() == static_cast<std::size_t>(options.numPrompts),
                      "as many prompts as asked for");
  } catch (const ayar::Error& error) {
    ayar::fuzz::check(std::string_view(error.what()).find(options.path.string()) != std::string_view::npos,
                      "a ShareGPT error names the file");
  }
  return 0;
}
