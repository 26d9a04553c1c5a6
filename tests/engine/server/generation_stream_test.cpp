// GenerationStream behind the real HttpServer in this process, fed a scripted token sequence in place
// of the engine loop (which cannot be told what to generate): the reasoning split and UTF-8 handling
// are checked on known text, through real HTTP.
#include "engine/server/generation_stream.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <thread>

#include "engine/server/http_server.h"
#include "tests/engine/server/http_client.h"
#include "tests/engine/server/test_tokenizer.h"

namespace ayar::engine {
namespace {

using nlohmann::json;
using test::httpPost;
using test::qwen3Tokenizer;

// Serves POST /{completions|chat}: {"text": ... | "ids": [...], "stream": bool, "reasoning": bool, "stop":
// [...]} answered by a GenerationStream that receives the text's tokens one event each.
class ScriptedGenerationServer {
 public:
  ScriptedGenerationServer()
      : m_metrics("scripted", false),
        m_server(HttpServerConfig{"127.0.0.1", 0, 1},
                 [this](const std::shared_ptr<HttpConnection>& connection, HttpRequest&& request) {
                   handle(connection, request);
                 }),
        m_thread([this] { m_server.run(); }) {}
  ~ScriptedGenerationServer() {
    m_server.stop();
    m_thread.join();
  }

  std::string url(const std::string& path) const {
    return "http://127.0.0.1:" + std::to_string(m_server.port()) + path;
  }

 private:
  void handle(const std::shared_ptr<HttpConnection>& connection, const HttpRequest& request) {
    const json body = json::parse(request.body);
    const std::vector<TokenId> tokens = body.contains("ids")
                                            ? body["ids"].get<std::vector<TokenId>>()
                                            : qwen3Tokenizer().encode(body["text"].get<std::string>());
    GenerationStreamSetup setup;
    setup.route = request.path == "/chat" ? ApiRoute::kChatCompletions : ApiRoute::kCompletions;
    setup.responseId = "test-1";
    setup.model = "scripted";
    setup.stream = body["stream"];
    setup.promptTokens = 3;
    setup.stop = body.value("stop", std::vector<std::string>{});
    if (body.value("reasoning", false)) {
      const std::vector<TokenId> prompt = qwen3Tokenizer().encode("<|im_start|>assistant\n");
      setup.reasoning.emplace(Qwen3ReasoningParser::ThinkTokens{}, prompt);
    }
    auto stream =
        std::make_shared<GenerationStream>(std::move(setup), qwen3Tokenizer(), m_metrics, connection);
    stream->start();
    for (std::size_t i = 0; i < tokens.size() && !stream->done(); ++i) {
      GenerationEvent event;
      event.tokens = {tokens[i]};
      event.finish = i + 1 == tokens.size() ? FinishReason::kLength : FinishReason::kNone;
      stream->onEvent(event, Clock::now());
    }
    stream->flush();
  }

  ServerMetrics m_metrics;
  HttpServer m_server;
  std::thread m_thread;
};

std::vector<json> chunksOf(const test::HttpReply& reply) {
  EXPECT_EQ(reply.status, 200) << reply.body;
  std::vector<json> chunks;
  for (const std::string& data : test::sseData(reply.body)) {
    if (data != "[DONE]") chunks.push_back(json::parse(data));  // throws on invalid UTF-8
  }
  return chunks;
}

TEST(GenerationStream, Qwen3ReasoningParserSplitsAtThinkEndStreamedAndNot) {
  ScriptedGenerationServer server;
  const std::string output = "<think>\nTwo plus two is four.\n</think>\n\nThe answer is 4.";
  json request = {{"text", output}, {"stream", true}, {"reasoning", true}};
  std::string reasoning, content;
  for (const json& chunk : chunksOf(httpPost(server.url("/chat"), request.dump()))) {
    const json& delta = chunk["choices"][0]["delta"];
    if (delta.contains("reasoning_content")) reasoning += delta["reasoning_content"].get<std::string>();
    if (delta.contains("content")) content += delta["content"].get<std::string>();
  }
  EXPECT_EQ(reasoning, "\nTwo plus two is four.\n");
  EXPECT_EQ(content, "\n\nThe answer is 4.");

  request["stream"] = false;
  const json body = json::parse(httpPost(server.url("/chat"), request.dump()).body);
  EXPECT_EQ(body["choices"][0]["message"]["reasoning_content"], "\nTwo plus two is four.\n");
  EXPECT_EQ(body["choices"][0]["message"]["content"], "\n\nThe answer is 4.");

  request["reasoning"] = false;  // without the parser the think tags are ordinary text
  const json plain = json::parse(httpPost(server.url("/chat"), request.dump()).body);
  EXPECT_EQ(plain["choices"][0]["message"]["content"], output);
}

TEST(GenerationStream, NoChunkHoldsHalfAUtf8Character) {
  ScriptedGenerationServer server;
  const std::string text = "Türkçe ayar 漢字テスト 🙂🚀 emoji ve ğüşıöç";
  const std::size_t tokens = qwen3Tokenizer().encode(text).size();
  const json request = {{"text", text}, {"stream", true}};
  const std::vector<json> chunks = chunksOf(httpPost(server.url("/completions"), request.dump()));
  ASSERT_EQ(chunks.size(), tokens);  // one chunk per token, even when a token is half a character
  std::string joined;
  std::size_t emptyChunks = 0;
  for (const json& chunk : chunks) {
    const std::string piece = chunk["choices"][0]["text"];
    emptyChunks += piece.empty() ? 1 : 0;
    joined += piece;
  }
  EXPECT_EQ(joined, text);
  EXPECT_GT(emptyChunks, 0u)
      << "the emoji should take several tokens, the first ones holding no full character";
}

TEST(GenerationStream, StopStringBetweenTokensCutsTheStreamAndFinishesWithStop) {
  ScriptedGenerationServer server;
  const json request = {{"text", "alpha beta gamma delta"}, {"stream", true}, {"stop", {"ta gam"}}};
  const std::vector<json> chunks = chunksOf(httpPost(server.url("/completions"), request.dump()));
  ASSERT_FALSE(chunks.empty());
  std::string joined;
  for (const json& chunk : chunks)
    joined += chunk["choices"][0]["text"].get<std::string>();
  EXPECT_EQ(joined, "alpha be");
  EXPECT_EQ(chunks.back()["choices"][0]["finish_reason"], "stop");
  EXPECT_EQ(chunks.back()["choices"][0]["stop_reason"], "ta gam");
}

// Qwen3's model vocabulary (151936) is larger than its tokenizer's (151669 ids): dummy weights can
// sample the padding ids. They count as generated tokens and carry no text, as transformers decodes
// them, and the server keeps serving.
TEST(GenerationStream, IdsBeyondTheTokenizerCountButHaveNoText) {
  ScriptedGenerationServer server;
  const std::vector<TokenId> ok = qwen3Tokenizer().encode("ok");
  ASSERT_EQ(ok.size(), 1u);
  const json request = {{"ids", {151700, ok[0], 151935}}, {"stream", true}};
  const std::vector<json> chunks = chunksOf(httpPost(server.url("/completions"), request.dump()));
  std::string joined;
  for (const json& chunk : chunks)
    joined += chunk["choices"][0]["text"].get<std::string>();
  EXPECT_EQ(joined, "ok");
  EXPECT_EQ(chunks.size(), 3u);  // one chunk per token, as for any other token
  EXPECT_EQ(chunks.back()["choices"][0]["finish_reason"], "length");
}

}  // namespace
}  // namespace ayar::engine
