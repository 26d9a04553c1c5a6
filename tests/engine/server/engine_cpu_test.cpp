// The server over the real float32 CPU backend (qwen3-tiny, dummy weights): real math end to end.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/engine/server/engine_process.h"
#include "tests/engine/server/http_client.h"
#include "tests/engine/server/test_tokenizer.h"

namespace ayar::test {
namespace {

using nlohmann::json;

std::vector<std::string> cpuArgs() {
  return {"qwen3-tiny",
          "--device",
          "cpu",
          "--tokenizer",
          tokenizerDir().string(),
          "--max-model-len",
          "512",
          "--kv-cache-memory-bytes",
          "64M",
          "--seed",
          "3"};
}

std::string streamedText(const HttpReply& reply, json& usage) {
  std::string text;
  for (const std::string& data : sseData(reply.body)) {
    if (data == "[DONE]") continue;
    const json chunk = json::parse(data);
    if (chunk.contains("usage") && chunk["choices"].empty()) usage = chunk["usage"];
    for (const json& choice : chunk["choices"])
      text += choice["text"].get<std::string>();
  }
  return text;
}

TEST(EngineCpu, GreedyOutputIsTheSameStreamedOrNotAndRunsToMaxTokens) {
  EngineProcess engine(cpuArgs());
  const std::string prompt = "The capital of France is";
  json request = {{"prompt", prompt}, {"max_tokens", 8}, {"temperature", 0}, {"ignore_eos", true}};
  const HttpReply plain = httpPost(engine.url("/v1/completions"), request.dump());
  ASSERT_EQ(plain.status, 200) << plain.body;
  const json body = json::parse(plain.body);
  EXPECT_EQ(body["usage"]["prompt_tokens"], qwen3Tokenizer().encode(prompt).size());
  EXPECT_EQ(body["usage"]["completion_tokens"], 8);
  EXPECT_EQ(body["choices"][0]["finish_reason"], "length");

  request["stream"] = true;
  request["stream_options"] = {{"include_usage", true}};
  json usage;
  const std::string text = streamedText(httpPost(engine.url("/v1/completions"), request.dump()), usage);
  EXPECT_EQ(text, body["choices"][0]["text"].get<std::string>());
  EXPECT_EQ(usage["completion_tokens"], 8);
  EXPECT_EQ(usage["prompt_tokens"], body["usage"]["prompt_tokens"]);
}

TEST(EngineCpu, ChatCountsTheTemplatedPromptAndStopTokenIdsEndTheOutput) {
  EngineProcess engine(cpuArgs());
  const HttpReply reply = httpPost(engine.url("/v1/chat/completions"),
                                   R"({"messages":[{"role":"user","content":"Hello!"}],"max_tokens":4,
                                       "temperature":0,"ignore_eos":true})");
  ASSERT_EQ(reply.status, 200) << reply.body;
  const json body = json::parse(reply.body);
  const std::vector<ChatMessage> chat = {{"user", "Hello!"}};
  EXPECT_EQ(body["usage"]["prompt_tokens"], qwen3Tokenizer().encode(applyChatTemplate(chat)).size());
  EXPECT_EQ(body["usage"]["completion_tokens"], 4);

  // Every token id is a stop token: the first generated token ends the output, ignore_eos or not
  // (ignore_eos drops only the end-of-sequence tokens, as in vLLM).
  std::vector<int> everyToken(151936);
  for (int i = 0; i < 151936; ++i)
    everyToken[static_cast<std::size_t>(i)] = i;
  const json stopAll = {
      {"prompt", "Hi"}, {"max_tokens", 6}, {"ignore_eos", true}, {"stop_token_ids", everyToken}};
  const HttpReply stopped = httpPost(engine.url("/v1/completions"), stopAll.dump());
  ASSERT_EQ(stopped.status, 200) << stopped.body;
  const json stoppedBody = json::parse(stopped.body);
  EXPECT_EQ(stoppedBody["usage"]["completion_tokens"], 1);
  EXPECT_EQ(stoppedBody["choices"][0]["finish_reason"], "stop");
}

// --quantization fp8 and --kv-cache-dtype fp8 on the CPU backend: it starts, says so, holds four times the
// tokens in the same KV memory (one byte an element against float32's four) and serves greedy text.
TEST(EngineCpu, ServesWithFp8WeightsAndAnFp8KvCache) {
  EngineProcess plain(cpuArgs());
  std::vector<std::string> args = cpuArgs();
  args.insert(args.end(), {"--quantization", "fp8", "--kv-cache-dtype", "fp8"});
  EngineProcess fp8(args);
  EXPECT_NE(fp8.log().find("fp8 weights and activations, fp8 KV cache"), std::string::npos) << fp8.log();
  auto blocks = [](const std::string& log) {
    const std::size_t at = log.find(" KV blocks of ");
    EXPECT_NE(at, std::string::npos) << log;
    std::size_t start = log.rfind(' ', at - 1);
    return std::stol(log.substr(start + 1, at - start - 1));
  };
  EXPECT_EQ(blocks(fp8.log()), 4 * blocks(plain.log()));
  // /metrics says it as vLLM does.
  const std::string metrics = httpGet(fp8.url("/metrics")).body;
  EXPECT_NE(
      metrics.find("vllm:cache_config_info{block_size=\"16\",cache_dtype=\"fp8_e4m3\",num_gpu_blocks=\"" +
                   std::to_string(blocks(fp8.log())) + "\""),
      std::string::npos)
      << metrics;
  EXPECT_NE(httpGet(plain.url("/metrics")).body.find("cache_dtype=\"auto\""), std::string::npos);
  const json request = {
      {"prompt", "The capital of France is"}, {"max_tokens", 8}, {"temperature", 0}, {"ignore_eos", true}};
  const HttpReply reply = httpPost(fp8.url("/v1/completions"), request.dump());
  ASSERT_EQ(reply.status, 200) << reply.body;
  EXPECT_EQ(json::parse(reply.body)["usage"]["completion_tokens"], 8);
}

}  // namespace
}  // namespace ayar::test
