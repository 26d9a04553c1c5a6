#include "core/study/request_builder.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "tests/support/test_env.h"

namespace ayar {
namespace {

std::shared_ptr<const Tokenizer> qwen3() {
  static const auto tokenizer = Tokenizer::load(test::tokenizerDir());
  return tokenizer;
}

TEST(RequestBuilder, ShareGptWithoutAFileFallsBackToSyntheticAndSaysSo) {
  ProfileSpec profile = loadProfile("sharegpt-4rps");
  profile.numPrompts = 200;
  const BuiltRequests built = buildRequests(profile, qwen3());
  EXPECT_TRUE(built.synthetic);
  EXPECT_EQ(built.datasetName, "synthetic-sharegpt");
  EXPECT_NE(built.note.find("no ShareGPT file"), std::string::npos);
  ASSERT_EQ(built.requests.size(), 200u);
  EXPECT_FALSE(built.forcesIgnoreEos);  // vLLM forces it for its random set only
  double input = 0;
  for (const auto& request : built.requests)
    input += request.promptTokens;
  EXPECT_NEAR(input / 200.0, 217.4, 217.4 * 0.1);
}

TEST(RequestBuilder, RandomPromptsHaveExactLengthsAndForceIgnoreEosAsVllmDoes) {
  ProfileSpec profile;
  profile.datasetName = "random";
  profile.numPrompts = 20;
  profile.randomInputLen = 300;
  profile.randomOutputLen = 17;
  const BuiltRequests built = buildRequests(profile, qwen3());
  EXPECT_FALSE(built.synthetic);
  EXPECT_TRUE(built.forcesIgnoreEos);
  ASSERT_EQ(built.requests.size(), 20u);
  for (const auto& request : built.requests) {
    EXPECT_EQ(qwen3()->encode(request.prompt).size(), 300u);
    EXPECT_EQ(request.promptTokens, 300);
    EXPECT_EQ(request.expectedOutputTokens, 17);
  }
}

TEST(RequestBuilder, MissingShareGptFileIsAnErrorNamingIt) {
  ProfileSpec profile;
  profile.datasetName = "sharegpt";
  profile.datasetPath = "/nonexistent/ShareGPT.json";
  try {
    buildRequests(profile, qwen3());
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/ShareGPT.json"), std::string::npos);
  }
}

}  // namespace
}  // namespace ayar
