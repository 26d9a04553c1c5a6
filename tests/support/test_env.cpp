#include "tests/support/test_env.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <random>

#include "core/tokenizer/tokenizer.h"

namespace ayar::test {

std::filesystem::path tokenizerDir() {
  const std::filesystem::path dir = defaultTokenizerDir();
  if (!std::filesystem::exists(dir / "tokenizer.json")) {
    ADD_FAILURE() << "The Qwen3 tokenizer is not at " << dir
                  << ". Run scripts/setup.sh (or set AYAR_TOKENIZER_DIR) before the tests.";
  }
  return dir;
}

TempDir::TempDir() {
  std::random_device rd;
  for (int attempt = 0; attempt < 100; ++attempt) {
    auto candidate = std::filesystem::temp_directory_path() /
                     ("ayar-test-" + std::to_string(::getpid()) + "-" + std::to_string(rd()));
    if (std::filesystem::create_directory(candidate)) {
      m_path = candidate;
      return;
    }
  }
  throw std::runtime_error("could not create a temporary directory");
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(m_path, ec);
}

}  // namespace ayar::test
