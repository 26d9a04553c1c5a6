#pragma once

#include <gtest/gtest.h>

#include <memory>

#include "core/dataset/prompt_vocabulary.h"
#include "tests/support/test_env.h"

namespace ayar::test {

// Loads the real Qwen3 tokenizer and builds the prompt pools once for a whole suite.
class DatasetTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!s_tokenizer) {
      s_tokenizer = Tokenizer::load(tokenizerDir());
      s_vocabulary = std::make_unique<PromptVocabulary>(s_tokenizer);
    }
  }
  static const Tokenizer& tokenizer() { return *s_tokenizer; }
  static const PromptVocabulary& vocabulary() { return *s_vocabulary; }

  // The prompt's text re-tokenizes to exactly its ids.
  static void expectExactTokens(const SampleRequest& request) {
    EXPECT_EQ(static_cast<int>(request.promptTokenIds.size()), request.promptTokens);
    EXPECT_EQ(tokenizer().encode(request.prompt), request.promptTokenIds)
        << "prompt: " << request.prompt.substr(0, 200);
  }

 private:
  static inline std::shared_ptr<const Tokenizer> s_tokenizer;
  static inline std::unique_ptr<PromptVocabulary> s_vocabulary;
};

}  // namespace ayar::test
