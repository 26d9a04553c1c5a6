// tokenizer.json loading (Tokenizer::load on a folder holding the input as tokenizer.json). A bad
// file is an ayar::Error naming it; a file that loads encodes any text and decodes what it encoded.
#include <cstddef>
#include <cstdint>

#include "core/error.h"
#include "core/tokenizer/tokenizer.h"
#include "fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto& folder = ayar::fuzz::TempFolder::instance();
  const std::filesystem::path file = folder.write("tokenizer.json", ayar::fuzz::asText(data, size));
  std::shared_ptr<const ayar::Tokenizer> tokenizer;
  try {
    tokenizer = ayar::Tokenizer::load(folder.path());
  } catch (const ayar::Error& error) {
    ayar::fuzz::check(std::string_view(error.what()).find(file.string()) != std::string_view::npos,
                      "a tokenizer.json error names the file");
    return 0;
  }
  // A loaded tokenizer has a token for every byte, so any text encodes, and its ids decode.
  for (const char* text :
       {"Hello, world! 123", "Merhaba dünya: ığüşöç İĞÜŞÖÇ", "<|im_start|>user\n\xE4\xBD\xA0"})
    (void)tokenizer->decode(tokenizer->encode(text));
  return 0;
}
