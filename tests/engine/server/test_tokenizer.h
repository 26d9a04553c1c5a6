#pragma once

#include <memory>

#include "core/tokenizer/tokenizer.h"
#include "tests/support/test_env.h"

namespace ayar::test {

// The real Qwen3 tokenizer, loaded once per test process (loading takes a while).
inline const Tokenizer& qwen3Tokenizer() {
  static const std::shared_ptr<const Tokenizer> tokenizer = Tokenizer::load(tokenizerDir());
  return *tokenizer;
}

}  // namespace ayar::test
