#include "engine/server/sse_chunk_formatter.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace ayar::engine {
namespace {

nlohmann::json eventJson(const std::string& event) {
  EXPECT_EQ(event.rfind("data: ", 0), 0u);
  EXPECT_EQ(event.substr(event.size() - 2), "\n\n");
  return nlohmann::json::parse(event.substr(6, event.size() - 8));
}

TEST(SseChunkFormatter, CompletionChunksHaveVllmsFields) {
  SseChunkFormatter formatter(ApiRoute::kCompletions, "cmpl-1", 1700000000, "qwen3-8b");
  std::string out;
  formatter.appendTextChunk(out, "He said \"hi\"\n", TextChannel::kContent);
  const auto chunk = eventJson(out);
  EXPECT_EQ(chunk["id"], "cmpl-1");
  EXPECT_EQ(chunk["object"], "text_completion");
  EXPECT_EQ(chunk["created"], 1700000000);
  EXPECT_EQ(chunk["model"], "qwen3-8b");
  EXPECT_EQ(chunk["choices"][0]["index"], 0);
  EXPECT_EQ(chunk["choices"][0]["text"], "He said \"hi\"\n");
  EXPECT_TRUE(chunk["choices"][0]["logprobs"].is_null());
  EXPECT_TRUE(chunk["choices"][0]["finish_reason"].is_null());

  out.clear();
  formatter.appendFinalChunk(out, "end", TextChannel::kContent, "stop", "###");
  const auto last = eventJson(out);
  EXPECT_EQ(last["choices"][0]["finish_reason"], "stop");
  EXPECT_EQ(last["choices"][0]["stop_reason"], "###");
}

TEST(SseChunkFormatter, ChatChunksCarryRoleContentAndReasoningDeltas) {
  SseChunkFormatter formatter(ApiRoute::kChatCompletions, "chatcmpl-1", 1, "m");
  std::string role, content, reasoning, usage;
  formatter.appendRoleChunk(role);
  formatter.appendTextChunk(content, "x", TextChannel::kContent);
  formatter.appendTextChunk(reasoning, "y", TextChannel::kReasoning);
  formatter.appendUsageChunk(usage, 10, 3);
  EXPECT_EQ(eventJson(role)["object"], "chat.completion.chunk");
  EXPECT_EQ(eventJson(role)["choices"][0]["delta"]["role"], "assistant");
  EXPECT_EQ(eventJson(content)["choices"][0]["delta"]["content"], "x");
  EXPECT_EQ(eventJson(reasoning)["choices"][0]["delta"]["reasoning_content"], "y");
  const auto usageChunk = eventJson(usage);
  EXPECT_TRUE(usageChunk["choices"].empty());
  EXPECT_EQ(usageChunk["usage"]["prompt_tokens"], 10);
  EXPECT_EQ(usageChunk["usage"]["completion_tokens"], 3);
  EXPECT_EQ(usageChunk["usage"]["total_tokens"], 13);
  std::string done;
  SseChunkFormatter::appendDone(done);
  EXPECT_EQ(done, "data: [DONE]\n\n");
}

}  // namespace
}  // namespace ayar::engine
