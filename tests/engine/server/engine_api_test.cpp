// The OpenAI routes of a real ayar-engine process (--device sim) on 127.0.0.1.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "tests/engine/server/engine_process.h"
#include "tests/engine/server/http_client.h"
#include "tests/engine/server/test_tokenizer.h"

namespace ayar::test {
namespace {

using nlohmann::json;

// The JSON events of an SSE body, [DONE] checked and left out.
std::vector<json> streamedChunks(const HttpReply& reply) {
  EXPECT_EQ(reply.status, 200) << reply.body;
  EXPECT_NE(reply.headers.find("text/event-stream"), std::string::npos);
  std::vector<std::string> data = sseData(reply.body);
  EXPECT_FALSE(data.empty());
  if (data.empty()) return {};
  EXPECT_EQ(data.back(), "[DONE]");
  std::vector<json> chunks;
  for (std::size_t i = 0; i + 1 < data.size(); ++i)
    chunks.push_back(json::parse(data[i]));
  return chunks;
}

int promptTokens(const std::string& text) {
  return static_cast<int>(qwen3Tokenizer().encode(text).size());
}

TEST(EngineApi, HealthModelsAndVersionAnswerWithTheSimulatedMarker) {
  EngineProcess engine(
      simEngineArgs("fixed:0,0", {"--served-model-name", "my-model", "--max-model-len", "4096"}));
  EXPECT_EQ(httpGet(engine.url("/health")).status, 200);
  const HttpReply models = httpGet(engine.url("/v1/models"));
  ASSERT_EQ(models.status, 200);
  const json card = json::parse(models.body)["data"][0];
  EXPECT_EQ(card["id"], "my-model");
  EXPECT_EQ(card["object"], "model");
  EXPECT_EQ(card["owned_by"], "ayar-sim");
  EXPECT_EQ(card["root"], "qwen3-8b");
  EXPECT_EQ(card["max_model_len"], 4096);
  EXPECT_EQ(card["simulated"], true);
  EXPECT_EQ(json::parse(httpGet(engine.url("/version")).body)["version"], AYAR_VERSION);
  const std::string metrics = httpGet(engine.url("/metrics")).body;
  EXPECT_NE(metrics.find("ayar:simulated{model_name=\"my-model\"} 1.0"), std::string::npos);
}

TEST(EngineApi, TheDescriptorTableIsGrownAtStartForThousandsOfConnections) {
  // Growing it later, while clients connect, would stall the accepting thread for an RCU grace period.
  EngineProcess engine(simEngineArgs("fixed:0,0"));
  const std::string proc = "/proc/" + std::to_string(engine.pid());
  long tableSize = -1;
  long softLimit = -1;
  std::ifstream status(proc + "/status");
  for (std::string line; std::getline(status, line);)
    if (line.starts_with("FDSize:")) tableSize = std::stol(line.substr(7));
  std::ifstream limits(proc + "/limits");
  for (std::string line; std::getline(limits, line);)
    if (line.starts_with("Max open files"))
      softLimit = std::stol(line.substr(std::string("Max open files").size()));
  ASSERT_GT(tableSize, 0);
  ASSERT_GT(softLimit, 0);
  EXPECT_GE(tableSize, std::min(softLimit, 65536L));
}

TEST(EngineApi, StreamedCompletionHasVllmChunksAndExactUsage) {
  EngineProcess engine(simEngineArgs("fixed:0,0"));
  const std::string prompt = "The quick brown fox jumps over the lazy dog. Ünïcödé and 漢字 too.";
  const json request = {{"model", "qwen3-8b"}, {"prompt", prompt},
                        {"max_tokens", 16},    {"ignore_eos", true},
                        {"stream", true},      {"stream_options", {{"include_usage", true}}}};
  const std::vector<json> chunks = streamedChunks(httpPost(engine.url("/v1/completions"), request.dump()));
  ASSERT_EQ(chunks.size(), 17u);  // one per token, then the usage chunk
  const std::string id = chunks[0]["id"];
  EXPECT_EQ(id.rfind("cmpl-", 0), 0u);
  for (std::size_t i = 0; i < 16; ++i) {
    EXPECT_EQ(chunks[i]["id"], id);
    EXPECT_EQ(chunks[i]["object"], "text_completion");
    EXPECT_EQ(chunks[i]["model"], "qwen3-8b");
    ASSERT_EQ(chunks[i]["choices"].size(), 1u);
    EXPECT_TRUE(chunks[i]["choices"][0]["text"].is_string());
    EXPECT_EQ(chunks[i]["choices"][0]["finish_reason"], i == 15 ? json("length") : json(nullptr));
  }
  const json& usage = chunks[16]["usage"];
  EXPECT_TRUE(chunks[16]["choices"].empty());
  EXPECT_EQ(usage["prompt_tokens"], promptTokens(prompt));
  EXPECT_EQ(usage["completion_tokens"], 16);
  EXPECT_EQ(usage["total_tokens"], promptTokens(prompt) + 16);
}

TEST(EngineApi, UnstreamedCompletionAndTokenIdPromptsReportExactUsage) {
  EngineProcess engine(simEngineArgs("fixed:0,0"));
  const HttpReply text = httpPost(engine.url("/v1/completions"),
                                  R"({"prompt":"Hello there, engine.","max_tokens":12,"ignore_eos":true})");
  ASSERT_EQ(text.status, 200) << text.body;
  const json body = json::parse(text.body);
  EXPECT_EQ(body["object"], "text_completion");
  EXPECT_FALSE(body["choices"][0]["text"].get<std::string>().empty());
  EXPECT_EQ(body["choices"][0]["finish_reason"], "length");
  EXPECT_EQ(body["usage"]["prompt_tokens"], promptTokens("Hello there, engine."));
  EXPECT_EQ(body["usage"]["completion_tokens"], 12);

  const HttpReply ids = httpPost(engine.url("/v1/completions"),
                                 R"({"prompt":[101,202,303,404,505],"max_tokens":3,"ignore_eos":true})");
  ASSERT_EQ(ids.status, 200) << ids.body;
  EXPECT_EQ(json::parse(ids.body)["usage"]["prompt_tokens"], 5);
}

TEST(EngineApi, StreamedChatStartsWithTheAssistantRoleAndCountsTheChatTemplate) {
  EngineProcess engine(simEngineArgs("fixed:0,0"));
  const json messages = json::array({{{"role", "system"}, {"content", "You are terse."}},
                                     {{"role", "user"}, {"content", "Name three colours."}}});
  const json request = {{"messages", messages},
                        {"max_completion_tokens", 10},
                        {"ignore_eos", true},
                        {"stream", true},
                        {"stream_options", {{"include_usage", true}}}};
  const std::vector<json> chunks =
      streamedChunks(httpPost(engine.url("/v1/chat/completions"), request.dump()));
  ASSERT_EQ(chunks.size(), 12u);  // role chunk, 10 tokens, usage
  EXPECT_EQ(chunks[0]["object"], "chat.completion.chunk");
  EXPECT_EQ(chunks[0]["id"].get<std::string>().rfind("chatcmpl-", 0), 0u);
  EXPECT_EQ(chunks[0]["choices"][0]["delta"]["role"], "assistant");
  for (std::size_t i = 1; i <= 10; ++i) {
    EXPECT_TRUE(chunks[i]["choices"][0]["delta"]["content"].is_string());
    EXPECT_FALSE(chunks[i]["choices"][0]["delta"].contains("role"));
  }
  EXPECT_EQ(chunks[10]["choices"][0]["finish_reason"], "length");
  const std::vector<ChatMessage> chat = {{"system", "You are terse."}, {"user", "Name three colours."}};
  EXPECT_EQ(chunks[11]["usage"]["prompt_tokens"], promptTokens(applyChatTemplate(chat)));
  EXPECT_EQ(chunks[11]["usage"]["completion_tokens"], 10);
}

TEST(EngineApi, UnstreamedChatAnswersWithAnAssistantMessage) {
  EngineProcess engine(simEngineArgs("fixed:0,0"));
  const HttpReply reply =
      httpPost(engine.url("/v1/chat/completions"),
               R"({"messages":[{"role":"user","content":"Hi"}],"max_tokens":6,"ignore_eos":true,
                                       "chat_template_kwargs":{"enable_thinking":false}})");
  ASSERT_EQ(reply.status, 200) << reply.body;
  const json body = json::parse(reply.body);
  EXPECT_EQ(body["object"], "chat.completion");
  EXPECT_EQ(body["choices"][0]["message"]["role"], "assistant");
  EXPECT_FALSE(body["choices"][0]["message"]["content"].get<std::string>().empty());
  const std::vector<ChatMessage> chat = {{"user", "Hi"}};
  ChatTemplateOptions noThinking;
  noThinking.enableThinking = false;
  EXPECT_EQ(body["usage"]["prompt_tokens"], promptTokens(applyChatTemplate(chat, noThinking)));
  EXPECT_EQ(body["usage"]["completion_tokens"], 6);
}

TEST(EngineApi, ReasoningParserSendsThinkingToReasoningContentUntilTheTemplateClosesIt) {
  EngineProcess engine(simEngineArgs("fixed:0,0", {"--reasoning-parser", "qwen3"}));
  // The sim never writes </think>: with thinking on, all output is reasoning; with thinking off the
  // template has already closed the block, so all output is content.
  const std::string thinking =
      R"({"messages":[{"role":"user","content":"2+2?"}],"max_tokens":5,"ignore_eos":true})";
  const json thought = json::parse(httpPost(engine.url("/v1/chat/completions"), thinking).body);
  EXPECT_FALSE(thought["choices"][0]["message"]["reasoning_content"].get<std::string>().empty());
  EXPECT_TRUE(thought["choices"][0]["message"]["content"].is_null());

  const std::string direct =
      R"({"messages":[{"role":"user","content":"2+2?"}],"max_tokens":5,"ignore_eos":true,
                                 "chat_template_kwargs":{"enable_thinking":false},"stream":true})";
  const std::vector<json> chunks = streamedChunks(httpPost(engine.url("/v1/chat/completions"), direct));
  ASSERT_EQ(chunks.size(), 6u);
  for (std::size_t i = 1; i < chunks.size(); ++i) {
    EXPECT_TRUE(chunks[i]["choices"][0]["delta"].contains("content")) << chunks[i].dump();
    EXPECT_FALSE(chunks[i]["choices"][0]["delta"].contains("reasoning_content"));
  }
}

TEST(EngineApi, MaxModelLenIsEnforcedWithVllmsMessages) {
  EngineProcess engine(simEngineArgs("fixed:0,0", {"--max-model-len", "64"}));
  json longPrompt = {{"prompt", std::vector<int>(100, 1000)}};
  const HttpReply tooLong = httpPost(engine.url("/v1/completions"), longPrompt.dump());
  EXPECT_EQ(tooLong.status, 400);
  const std::string message = json::parse(tooLong.body)["error"]["message"];
  EXPECT_NE(message.find("maximum context length is 64 tokens"), std::string::npos) << message;
  EXPECT_NE(message.find("100 input tokens"), std::string::npos) << message;

  json tooMany = {{"prompt", std::vector<int>(10, 1000)}, {"max_tokens", 60}};
  const HttpReply tooManyReply = httpPost(engine.url("/v1/completions"), tooMany.dump());
  EXPECT_EQ(tooManyReply.status, 400);
  const json error = json::parse(tooManyReply.body)["error"];
  EXPECT_EQ(error["param"], "max_tokens");
  EXPECT_NE(error["message"].get<std::string>().find("(60 > 64 - 10)"), std::string::npos) << error.dump();

  // Without max_tokens the output may fill the context.
  json fill = {{"prompt", std::vector<int>(10, 1000)}, {"ignore_eos", true}};
  const HttpReply filled = httpPost(engine.url("/v1/completions"), fill.dump());
  ASSERT_EQ(filled.status, 200) << filled.body;
  EXPECT_EQ(json::parse(filled.body)["usage"]["completion_tokens"], 54);
}

TEST(EngineApi, StopStringsAreFoundAcrossTokensAndCutTheText) {
  EngineProcess engine(simEngineArgs("fixed:0,0"));
  // A seeded request gets the same tokens every time, so a first run shows where the tokens fall.
  const json base = {{"prompt", "Tell me a story."},
                     {"max_tokens", 40},
                     {"ignore_eos", true},
                     {"seed", 7},
                     {"stream", true}};
  const std::vector<json> chunks = streamedChunks(httpPost(engine.url("/v1/completions"), base.dump()));
  ASSERT_EQ(chunks.size(), 40u);
  std::vector<std::string> pieces;
  for (const json& chunk : chunks)
    pieces.push_back(chunk["choices"][0]["text"]);
  // A stop string made of the end of one token's text and the start of the next one's.
  std::string stop;
  for (std::size_t i = 5; i + 1 < pieces.size() && stop.empty(); ++i) {
    const std::string& a = pieces[i];
    const std::string& b = pieces[i + 1];
    const auto ascii = [](const std::string& s) {
      return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c > ' ' && c < 127; });
    };
    if (ascii(a) && ascii(b)) stop = a.substr(a.size() - 1) + b.substr(0, 1);
  }
  ASSERT_FALSE(stop.empty()) << "no two neighbouring ASCII tokens in the seeded output";
  std::string fullText;
  int tokensUntilStop = 0;
  for (const std::string& piece : pieces) {
    fullText += piece;
    ++tokensUntilStop;
    if (fullText.find(stop) != std::string::npos) break;
  }
  const std::string expected = fullText.substr(0, fullText.find(stop));

  json withStop = base;
  withStop["stop"] = {stop};
  withStop["stream"] = false;
  const HttpReply unstreamed = httpPost(engine.url("/v1/completions"), withStop.dump());
  ASSERT_EQ(unstreamed.status, 200) << unstreamed.body;
  const json body = json::parse(unstreamed.body);
  EXPECT_EQ(body["choices"][0]["text"], expected);
  EXPECT_EQ(body["choices"][0]["finish_reason"], "stop");
  EXPECT_EQ(body["choices"][0]["stop_reason"], stop);
  EXPECT_EQ(body["usage"]["completion_tokens"], tokensUntilStop);

  withStop["stream"] = true;
  const std::vector<json> stopped = streamedChunks(httpPost(engine.url("/v1/completions"), withStop.dump()));
  ASSERT_FALSE(stopped.empty());
  std::string streamedText;
  for (const json& chunk : stopped)
    streamedText += chunk["choices"][0]["text"].get<std::string>();
  EXPECT_EQ(streamedText, expected);
  EXPECT_EQ(stopped.back()["choices"][0]["finish_reason"], "stop");
  EXPECT_EQ(static_cast<int>(stopped.size()), tokensUntilStop);
}

TEST(EngineApi, SixtyFourConcurrentStreamsAllComplete) {
  EngineProcess engine(simEngineArgs("fixed:20,2"));
  const json request = {{"prompt", "Count with me:"},
                        {"max_tokens", 32},
                        {"ignore_eos", true},
                        {"stream", true},
                        {"stream_options", {{"include_usage", true}}}};
  const std::vector<HttpReply> replies =
      httpPostConcurrently(engine.url("/v1/completions"), std::vector<std::string>(64, request.dump()));
  ASSERT_EQ(replies.size(), 64u);
  std::set<std::string> ids;
  for (const HttpReply& reply : replies) {
    const std::vector<json> chunks = streamedChunks(reply);
    ASSERT_EQ(chunks.size(), 33u);
    EXPECT_EQ(chunks.back()["usage"]["completion_tokens"], 32);
    ids.insert(chunks.front()["id"].get<std::string>());
  }
  EXPECT_EQ(ids.size(), 64u);
  const std::string metrics = httpGet(engine.url("/metrics")).body;
  EXPECT_NE(
      metrics.find("vllm:request_success_total{finished_reason=\"length\",model_name=\"qwen3-8b\"} 64.0"),
      std::string::npos);
  EXPECT_NE(metrics.find("vllm:generation_tokens_total{model_name=\"qwen3-8b\"} 2048.0"), std::string::npos);
}

TEST(EngineApi, MetricsSplitARequestIntoVllmsQueuePrefillAndDecodePhases) {
  // The sim releases the first token 100 ms after arrival and each next one 10 ms later; an idle
  // engine schedules the request at once. So: queue ~0, prefill ~0.1 s, decode ~10 x 10 ms.
  EngineProcess engine(simEngineArgs("fixed:100,10"));
  const json request = {{"prompt", "Hello"}, {"max_tokens", 11}, {"ignore_eos", true}};
  ASSERT_EQ(httpPost(engine.url("/v1/completions"), request.dump()).status, 200);
  const std::string metrics = httpGet(engine.url("/metrics")).body;
  EXPECT_EQ(metricValue(metrics, "vllm:request_queue_time_seconds_count"), 1.0);
  EXPECT_LT(metricValue(metrics, "vllm:request_queue_time_seconds_sum"), 0.02);
  EXPECT_NEAR(metricValue(metrics, "vllm:request_prefill_time_seconds_sum"), 0.1, 0.02);
  EXPECT_NEAR(metricValue(metrics, "vllm:request_decode_time_seconds_sum"), 0.1, 0.02);
  EXPECT_NEAR(metricValue(metrics, "vllm:request_inference_time_seconds_sum"), 0.2, 0.03);
  EXPECT_NE(metrics.find("vllm:request_decode_time_seconds_bucket{le=\"0.3\",model_name=\"qwen3-8b\"} 1.0"),
            std::string::npos);
}

TEST(EngineApi, AClientThatDisconnectsMidStreamCancelsItsRequestAndFreesItsBlocks) {
  EngineProcess engine(simEngineArgs("fixed:0,20"));
  const std::string before = httpGet(engine.url("/metrics")).body;
  const double totalBlocks = metricValue(before, "ayar:num_kv_blocks");
  ASSERT_GT(totalBlocks, 0.0);
  {
    RawConnection client(engine.port());
    const json request = {{"prompt", std::vector<int>(200, 1000)},
                          {"max_tokens", 2000},
                          {"ignore_eos", true},
                          {"stream", true}};
    client.send(rawPost("/v1/completions", request.dump()));
    ASSERT_NE(client.readUntil("data: {").find("data: {"), std::string::npos);
    const std::string during = httpGet(engine.url("/metrics")).body;
    EXPECT_EQ(metricValue(during, "vllm:num_requests_running"), 1.0);
    EXPECT_LT(metricValue(during, "ayar:num_kv_blocks_free"), totalBlocks);
  }  // the client goes away mid-stream
  // The abort travels server -> loop -> blocks within milliseconds; each poll is one /metrics request.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  std::string after;
  do {
    after = httpGet(engine.url("/metrics")).body;
  } while (metricValue(after, "ayar:num_kv_blocks_free") != totalBlocks &&
           std::chrono::steady_clock::now() < deadline);
  EXPECT_EQ(metricValue(after, "ayar:num_kv_blocks_free"), totalBlocks);
  EXPECT_EQ(metricValue(after, "vllm:num_requests_running"), 0.0);
  EXPECT_NE(after.find("vllm:request_success_total{finished_reason=\"abort\",model_name=\"qwen3-8b\"} 1.0"),
            std::string::npos);
  EXPECT_LT(metricValue(after, "vllm:generation_tokens_total"), 2000.0);
}

TEST(EngineApi, KeepAliveConnectionsServePipelinedRequestsInOrder) {
  EngineProcess engine(simEngineArgs("fixed:0,0"));
  RawConnection client(engine.port());
  const std::string completion =
      rawPost("/v1/completions", R"({"prompt":"a","max_tokens":2,"ignore_eos":true})");
  client.send(completion + "GET /health HTTP/1.1\r\nHost: x\r\n\r\n" + completion);
  const std::string received = client.readUntilCount("\"completion_tokens\":2", 2);
  std::vector<std::size_t> responses;
  for (std::size_t at = received.find("HTTP/1.1 200 OK"); at != std::string::npos;
       at = received.find("HTTP/1.1 200 OK", at + 1)) {
    responses.push_back(at);
  }
  ASSERT_EQ(responses.size(), 3u) << received;
  // In order: a completion, the health check (text/plain, empty), a completion.
  EXPECT_LT(received.find("text_completion"), responses[1]);
  EXPECT_EQ(received.find("Content-Type: text/plain", responses[1]), responses[1] + 17);
  EXPECT_NE(received.find("text_completion", responses[2]), std::string::npos);
}

TEST(EngineApi, Http10ClientsGetAStreamWithoutChunkedFramingEndedByClose) {
  EngineProcess engine(simEngineArgs("fixed:0,0"));
  RawConnection client(engine.port());
  const std::string body = R"({"prompt":"a","max_tokens":3,"ignore_eos":true,"stream":true})";
  client.send("POST /v1/completions HTTP/1.0\r\nContent-Type: application/json\r\nContent-Length: " +
              std::to_string(body.size()) + "\r\n\r\n" + body);
  std::string received;
  ASSERT_TRUE(client.readUntilClosed(received));
  EXPECT_EQ(received.rfind("HTTP/1.1 200 OK", 0), 0u) << received;
  EXPECT_EQ(received.find("Transfer-Encoding"), std::string::npos);
  const std::string payload = received.substr(received.find("\r\n\r\n") + 4);
  EXPECT_EQ(sseData(payload).size(), 4u) << payload;  // 3 tokens and [DONE], no chunk-size lines
  EXPECT_EQ(payload.substr(payload.size() - 14), "data: [DONE]\n\n");
}

}  // namespace
}  // namespace ayar::test
