#pragma once

#include "core/tokenizer/tokenizer.h"

namespace ayar::fuzz {

// The real Qwen3 tokenizer that scripts/setup.sh fetches (AYAR_TOKENIZER_DIR overrides where), loaded
// once per process. Exits with a message saying how to get it when it is not there.
const Tokenizer& qwen3Tokenizer();

}  // namespace ayar::fuzz
