#include "fuzz/qwen3_tokenizer.h"

#include <cstdio>
#include <cstdlib>

#include "core/error.h"

namespace ayar::fuzz {

const Tokenizer& qwen3Tokenizer() {
  static const std::shared_ptr<const Tokenizer> tokenizer = [] {
    try {
      return Tokenizer::load(defaultTokenizerDir());
    } catch (const Error& error) {
      std::fprintf(stderr, "%s\nRun scripts/setup.sh (or set AYAR_TOKENIZER_DIR) before fuzzing.\n",
                   error.what());
      std::exit(2);
    }
  }();
  return *tokenizer;
}

}  // namespace ayar::fuzz
