#include "core/store/secret_scrubber.h"

#include <gtest/gtest.h>

namespace ayar {
namespace {

TEST(SecretScrubber, RecognisesCredentialNamesHoweverSpelled) {
  for (const char* name : {"api_key", "--api-key", "apiKey", "API_KEY", "OPENAI_API_KEY", "x-api-key",
                           "Authorization", "hf_token", "HF_TOKEN", "password", "db_password", "token"}) {
    EXPECT_TRUE(isSecretName(name)) << name;
  }
  for (const char* name : {"model", "max_tokens", "eos_token", "bos_token", "tokenizer", "api_base",
                           "max-num-seqs", "key_cache_dtype"}) {
    EXPECT_FALSE(isSecretName(name)) << name;
  }
}

TEST(SecretScrubber, RedactsValuesUnderSecretKeysAtAnyDepth) {
  const nlohmann::json spec = {{"model", "qwen3-8b"},
                               {"api_key", "sk-one"},
                               {"env", {{"OPENAI_API_KEY", "sk-two"}, {"CUDA_VISIBLE_DEVICES", "0"}}},
                               {"eos_token", "<|im_end|>"},
                               {"headers", {{"Authorization", "Bearer sk-three"}}}};
  const nlohmann::json scrubbed = scrubSecrets(spec);
  EXPECT_EQ(scrubbed["model"], "qwen3-8b");
  EXPECT_EQ(scrubbed["api_key"], kRedacted);
  EXPECT_EQ(scrubbed["env"]["OPENAI_API_KEY"], kRedacted);
  EXPECT_EQ(scrubbed["env"]["CUDA_VISIBLE_DEVICES"], "0");
  EXPECT_EQ(scrubbed["eos_token"], "<|im_end|>");
  EXPECT_EQ(scrubbed["headers"]["Authorization"], kRedacted);
  EXPECT_EQ(scrubbed.dump().find("sk-"), std::string::npos) << scrubbed.dump();
}

TEST(SecretScrubber, RedactsTheValueAfterASecretFlagInArgumentLists) {
  const nlohmann::json flags = {"--max-num-seqs",   "256",    "--api-key", "sk-one",
                                "--api-key=sk-two", "--port", "8000"};
  const nlohmann::json expected = {"--max-num-seqs",       "256",    "--api-key", kRedacted,
                                   "--api-key=[redacted]", "--port", "8000"};
  EXPECT_EQ(scrubSecrets(flags), expected);
}

TEST(SecretScrubber, RedactsFlagsBearerTokensAndUrlCredentialsInText) {
  EXPECT_EQ(scrubSecretsInText("vllm serve m --api-key sk-one --port 8000"),
            "vllm serve m --api-key [redacted] --port 8000");
  EXPECT_EQ(scrubSecretsInText("vllm serve m --api-key=sk-one"), "vllm serve m --api-key=[redacted]");
  EXPECT_EQ(scrubSecretsInText("Authorization: Bearer sk-one"), "Authorization: Bearer [redacted]");
  EXPECT_EQ(scrubSecretsInText("https://user:sk-one@example.com:8000/v1"),
            "https://[redacted]@example.com:8000/v1");
  EXPECT_EQ(scrubSecretsInText("http://127.0.0.1:8000/v1?x=a@b"), "http://127.0.0.1:8000/v1?x=a@b");
  EXPECT_EQ(scrubSecretsInText("  plain\ttext\n"), "  plain\ttext\n");
}

TEST(SecretScrubber, ScrubsAValueNestedDeeperThanAnyStackWouldHold) {
  nlohmann::json value = {{"api_key", "sk-deep"}};
  for (int i = 0; i < 200000; ++i)
    value = nlohmann::json::array({std::move(value)});
  const nlohmann::json scrubbed = scrubSecrets(value);
  const nlohmann::json* inner = &scrubbed;
  int depth = 0;
  while (inner->is_array()) {
    inner = &(*inner)[0];
    ++depth;
  }
  EXPECT_EQ(depth, 200000);
  EXPECT_EQ((*inner)["api_key"], kRedacted);
}

TEST(SecretScrubber, RedactsUrlCredentialsAndSecretMetadataValues) {
  EXPECT_EQ(redactUrlCredentials("http://user:sk-one@127.0.0.1:8000"), "http://[redacted]@127.0.0.1:8000");
  EXPECT_EQ(redactUrlCredentials("checking http://user:sk-one@gpu-box:8000/v1/models"),
            "checking http://[redacted]@gpu-box:8000/v1/models");
  EXPECT_EQ(redactUrlCredentials("http://127.0.0.1:8000/v1"), "http://127.0.0.1:8000/v1");
  const std::vector<std::pair<std::string, std::string>> metadata = {
      {"api_key", "sk-one"}, {"token", "t-two"}, {"password", "p-three"}, {"tp", "1"}, {"hf_token", ""}};
  const std::vector<std::pair<std::string, std::string>> expected = {{"api_key", "[redacted]"},
                                                                     {"token", "[redacted]"},
                                                                     {"password", "[redacted]"},
                                                                     {"tp", "1"},
                                                                     {"hf_token", ""}};
  EXPECT_EQ(redactSecretValues(metadata), expected);
}

}  // namespace
}  // namespace ayar
