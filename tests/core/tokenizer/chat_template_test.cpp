#include <gtest/gtest.h>

#include "tests/core/tokenizer/qwen3.h"

namespace ayar {
namespace {

std::vector<ChatMessage> messagesFrom(const nlohmann::json& conversation) {
  std::vector<ChatMessage> messages;
  for (const nlohmann::json& m : conversation) {
    messages.push_back({m["role"].get<std::string>(), m["content"].get<std::string>()});
  }
  return messages;
}

TEST(ChatTemplate, RendersExactlyWhatQwen3sJinjaTemplateRenders) {
  nlohmann::json conversations =
      test::readJson(test::tokenizerTestDataDir() / "corpus" / "chat_conversations.json");
  for (const nlohmann::json& conversation :
       test::readJson(test::tokenizerTestDataDir() / "corpus" / "chat_random_conversations.json")) {
    conversations.push_back(conversation);
  }
  const nlohmann::json fixture =
      test::readJson(test::tokenizerTestDataDir() / "fixtures" / "chat_template.json");
  ASSERT_EQ(fixture["renderings"].size(), 4 * conversations.size())
      << "stale fixture; rerun make_fixtures.mjs";
  std::size_t index = 0;
  for (std::size_t c = 0; c < conversations.size(); ++c) {
    const std::vector<ChatMessage> messages = messagesFrom(conversations[c]);
    for (const nlohmann::json& rendering :
         {fixture["renderings"][index], fixture["renderings"][index + 1], fixture["renderings"][index + 2],
          fixture["renderings"][index + 3]}) {
      ChatTemplateOptions options;
      options.addGenerationPrompt = rendering["addGenerationPrompt"].get<bool>();
      options.enableThinking = rendering["enableThinking"].get<bool>();
      const std::string rendered = applyChatTemplate(messages, options);
      EXPECT_EQ(rendered, rendering["rendered"].get<std::string>())
          << "conversation " << c << " addGenerationPrompt " << options.addGenerationPrompt
          << " enableThinking " << options.enableThinking;
      if (rendering.contains("ids")) {  // token ids are kept for the hand-written conversations
        EXPECT_EQ(test::qwen3().encode(rendered), rendering["ids"].get<std::vector<TokenId>>())
            << "conversation " << c;
      }
    }
    index += 4;
  }
}

TEST(ChatTemplate, DisablingThinkingAppendsAnEmptyThinkBlockAfterTheGenerationPrompt) {
  const std::vector<ChatMessage> messages = {{"user", "Hi"}};
  EXPECT_EQ(applyChatTemplate(messages, {.addGenerationPrompt = true, .enableThinking = false}),
            "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n");
  EXPECT_EQ(applyChatTemplate(messages, {.addGenerationPrompt = true, .enableThinking = true}),
            "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n");
  EXPECT_EQ(applyChatTemplate(messages, {.addGenerationPrompt = false, .enableThinking = false}),
            "<|im_start|>user\nHi<|im_end|>\n");
}

TEST(ChatTemplate, KeepsReasoningOnlyForAssistantTurnsAfterTheLastUserQuery) {
  const std::vector<ChatMessage> messages = {
      {"system", "S"},
      {"user", "q1"},
      {"assistant", "<think>\nold\n</think>\n\na1"},
      {"user", "q2"},
      {"assistant", "<think>new</think>a2"},
  };
  EXPECT_EQ(applyChatTemplate(messages, {.addGenerationPrompt = false}),
            "<|im_start|>system\nS<|im_end|>\n"
            "<|im_start|>user\nq1<|im_end|>\n"
            "<|im_start|>assistant\na1<|im_end|>\n"
            "<|im_start|>user\nq2<|im_end|>\n"
            "<|im_start|>assistant\n<think>\nnew\n</think>\n\na2<|im_end|>\n");
}

TEST(ChatTemplate, EmptyConversationRendersOnlyTheGenerationPrompt) {
  EXPECT_EQ(applyChatTemplate({}), "<|im_start|>assistant\n");
}

}  // namespace
}  // namespace ayar
