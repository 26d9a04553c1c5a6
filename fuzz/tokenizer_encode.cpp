// The Qwen3 tokenizer encoding arbitrary bytes (invalid UTF-8 is replaced first, as transformers
// decodes it). Decoding what encodeOrdinary gives returns the text in NFC (the tokenizer's normalizer);
// the ids of encode (added tokens matched) decode too.
#include <cstddef>
#include <cstdint>

#include "core/tokenizer/nfc.h"
#include "core/tokenizer/utf8.h"
#include "fuzz/fuzz_support.h"
#include "fuzz/qwen3_tokenizer.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  (void)ayar::fuzz::qwen3Tokenizer();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const ayar::Tokenizer& tokenizer = ayar::fuzz::qwen3Tokenizer();
  const std::string_view text = ayar::fuzz::asText(data, size);
  const std::vector<ayar::TokenId> ordinary = tokenizer.encodeOrdinary(text);
  const std::string normalized = ayar::nfc::normalize(ayar::utf8::replaceInvalid(text));
  ayar::fuzz::check(tokenizer.decode(ordinary) == normalized, "decode(encodeOrdinary(text)) is NFC(text)");
  const std::vector<ayar::TokenId> ids = tokenizer.encode(text);
  ayar::fuzz::check(ids.size() <= normalized.size() + 1, "no more tokens than bytes");
  (void)tokenizer.decode(ids, true);
  return 0;
}
