// Every kind of bad request answered with its status and vLLM's error body, and the server serving on.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/engine/server/engine_process.h"
#include "tests/engine/server/http_client.h"
#include "tests/support/test_env.h"

namespace ayar::test {
namespace {

using nlohmann::json;

void expectError(const HttpReply& reply, long status, const std::string& messagePart,
                 const std::string& context) {
  EXPECT_EQ(reply.status, status) << context << ": " << reply.body;
  json body;
  try {
    body = json::parse(reply.body);
  } catch (const json::exception&) {
    ADD_FAILURE() << context << ": the body is not JSON: " << reply.body;
    return;
  }
  ASSERT_TRUE(body.contains("error")) << context;
  const json& error = body["error"];
  EXPECT_TRUE(error["message"].is_string()) << context;
  EXPECT_TRUE(error["type"].is_string()) << context;
  EXPECT_TRUE(error.contains("param")) << context;
  EXPECT_EQ(error["code"], status) << context;
  EXPECT_NE(error["message"].get<std::string>().find(messagePart), std::string::npos)
      << context << ": " << error["message"];
}

void expectStillServing(const EngineProcess& engine) {
  EXPECT_EQ(httpGet(engine.url("/health")).status, 200);
  const HttpReply ok = httpPost(engine.url("/v1/completions"), R"({"prompt":"still here?","max_tokens":3})");
  EXPECT_EQ(ok.status, 200) << ok.body;
}

TEST(EngineErrors, BadRequestsGetTheirStatusAndTheServerKeepsServing) {
  EngineProcess engine(
      simEngineArgs("fixed:0,0", {"--max-model-len", "128", "--max-request-body-bytes", "4096"}));
  const std::string completions = engine.url("/v1/completions");
  expectError(httpPost(completions, R"({"prompt": "x", )"), 400, "not valid JSON", "malformed JSON");
  expectError(httpPost(completions, R"({"prompt": "x", "max_tokens": "ten"})"), 400, "max_tokens",
              "wrong type");
  expectError(httpPost(completions, R"({"prompt": "x", "max_tokens": -5})"), 400, "at least 1", "negative");
  expectError(httpPost(completions, R"({"prompt": "x", "max_tokens": 1000000000000})"), 400, "too large",
              "absurd");
  expectError(httpPost(completions, R"({"prompt": ""})"), 400, "empty", "empty prompt");
  expectError(httpPost(completions, json({{"prompt", std::vector<int>(200, 7)}}).dump()), 400,
              "maximum context length is 128 tokens", "prompt too long");
  expectError(httpPost(completions, "{\"prompt\": \"caf\xc3\"}"), 400, "UTF-8", "invalid UTF-8");
  // The JSON parser's message quotes the body up to a byte inside a character (found by fuzzing).
  expectError(httpPost(completions, "{\"prompt\": [198, \xc7\x98yte707]}"), 400, "not valid JSON",
              "malformed JSON cut inside a character");
  expectError(httpPost(completions, R"({"prompt": [151e644]})"), 400,
              "'prompt[0]' is 151e644, a number too large", "number out of range");
  expectError(httpPost(completions, R"({"prompt": ["a", "b"]})"), 400, "one request per prompt",
              "two prompts");
  expectError(httpPost(completions, R"({"prompt": "x", "n": 3})"), 400, "n must be 1", "n=3");
  expectError(httpPost(completions, R"({"prompt": [1, 999999]})"), 400, "out of vocabulary", "token id");
  expectError(httpPost(completions, R"({"prompt": "x", "model": "gpt-4"})"), 404,
              "The model `gpt-4` does not exist", "unknown model");
  expectError(httpGet(engine.url("/v1/nothing")), 404, "no route", "unknown route");
  const HttpReply wrongMethod = httpGet(completions);
  expectError(wrongMethod, 405, "takes POST", "wrong method");
  EXPECT_NE(wrongMethod.headers.find("Allow: POST"), std::string::npos);
  expectError(httpRequest("DELETE", engine.url("/health")), 405, "takes GET", "DELETE /health");
  expectError(httpPost(completions, json({{"prompt", std::string(8000, 'a')}}).dump()), 413,
              "--max-request-body-bytes", "body too big");
  expectStillServing(engine);
}

TEST(EngineErrors, NumbersBeyondTheirTypeAreRefusedNamingTheField) {
  EngineProcess engine(simEngineArgs("fixed:0,0"));
  struct Case {
    std::string body;
    std::string param;
    std::string messagePart;
  };
  const std::vector<Case> cases = {
      // Beyond a double: the JSON parser itself gives up on them.
      {R"({"prompt": "x", "temperature": 1e999})", "temperature", "1e999"},
      {R"({"prompt": "x", "max_tokens": -1e999})", "max_tokens", "-1e999"},
      {R"({"prompt": [1, 2, 1e999]})", "prompt[2]", "1e999"},
      {R"({"prompt": "x", "stop": ["a"], "extra": {"deep": [0, 1e999]}})", "extra.deep[1]", "1e999"},
      // Fine as a double, not as the float the sampler uses.
      {R"({"prompt": "x", "temperature": 1e39})", "temperature", "too large for a float"},
      {R"({"prompt": "x", "top_p": 1e-50})", "top_p", "0 as a float"},
  };
  for (const Case& c : cases) {
    const HttpReply reply = httpPost(engine.url("/v1/completions"), c.body);
    expectError(reply, 400, c.messagePart, c.body);
    EXPECT_EQ(json::parse(reply.body)["error"]["param"], c.param) << c.body;
  }
  const HttpReply chat = httpPost(engine.url("/v1/chat/completions"),
                                  R"({"messages": [{"role": "user", "content": "hi"}], "seed": 1e999})");
  expectError(chat, 400, "1e999", "chat seed");
  EXPECT_EQ(json::parse(chat.body)["error"]["param"], "seed");
  EXPECT_EQ(engine.log().find("ERROR"), std::string::npos) << engine.log();
  expectStillServing(engine);
}

TEST(EngineErrors, MalformedHttpIsAnsweredAndClosedWithoutHarm) {
  EngineProcess engine(simEngineArgs("fixed:0,0"));
  {
    RawConnection garbage(engine.port());
    garbage.send("HELLO\x01\x02 nonsense\r\n\r\n");
    std::string received;
    EXPECT_TRUE(garbage.readUntilClosed(received));
    EXPECT_EQ(received.rfind("HTTP/1.1 400", 0), 0u) << received;
  }
  {
    RawConnection hugeHeader(engine.port());
    hugeHeader.send("GET /health HTTP/1.1\r\nX-Big: " + std::string(64 * 1024, 'x') + "\r\n\r\n");
    std::string received;
    EXPECT_TRUE(hugeHeader.readUntilClosed(received));
    EXPECT_EQ(received.rfind("HTTP/1.1 431", 0), 0u) << received.substr(0, 100);
  }
  {
    RawConnection lyingLength(engine.port());  // says 10 bytes, sends 3, then closes
    lyingLength.send("POST /v1/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n{\"p");
  }
  expectStillServing(engine);
}

TEST(EngineErrors, ASilentClientIsDisconnectedAfterTheReadTimeout) {
  EngineProcess engine(simEngineArgs("fixed:0,0", {"--http-read-timeout", "0.5"}));
  RawConnection slow(engine.port());
  slow.send("POST /v1/completions HTTP/1.1\r\nHost: x\r\n");  // and then nothing
  std::string received;
  const auto started = std::chrono::steady_clock::now();
  EXPECT_TRUE(slow.readUntilClosed(received, std::chrono::seconds(5)));
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(3));
  RawConnection idle(engine.port());  // an idle keep-alive connection too
  EXPECT_TRUE(idle.readUntilClosed(received, std::chrono::seconds(5)));
  expectStillServing(engine);
}

TEST(EngineErrors, ApiKeyGuardsTheV1RoutesButNotHealthOrMetrics) {
  EngineProcess engine(simEngineArgs("fixed:0,0", {"--api-key", "s3cret"}));
  expectError(httpGet(engine.url("/v1/models")), 401, "Authorization: Bearer", "no key");
  expectError(httpGet(engine.url("/v1/models"), {"Authorization: Bearer wrong"}), 401, "--api-key",
              "wrong key");
  expectError(httpPost(engine.url("/v1/completions"), R"({"prompt":"x","max_tokens":1})"), 401,
              "Unauthorized", "completion without key");
  EXPECT_EQ(httpGet(engine.url("/v1/models"), {"Authorization: Bearer s3cret"}).status, 200);
  EXPECT_EQ(httpPost(engine.url("/v1/completions"), R"({"prompt":"x","max_tokens":1})",
                     {"Authorization: Bearer s3cret"})
                .status,
            200);
  EXPECT_EQ(httpGet(engine.url("/health")).status, 200);
  EXPECT_EQ(httpGet(engine.url("/metrics")).status, 200);
}

TEST(EngineErrors, AFullWaitingQueueAnswers503AndServingResumes) {
  EngineProcess engine({"qwen3-8b", "--device", "sim", "--sim-profile", "fixed:0,50", "--tokenizer",
                        tokenizerDir().string(), "--max-num-seqs", "1", "--max-waiting-requests", "1"});
  const std::string longRequest =
      rawPost("/v1/completions", R"({"prompt":"x","max_tokens":1000,"ignore_eos":true,"stream":true})");
  RawConnection running(engine.port());
  running.send(longRequest);
  ASSERT_NE(running.readUntil("data: {").find("data: {"), std::string::npos);  // it runs
  RawConnection waiting(engine.port());
  waiting.send(longRequest);
  ASSERT_NE(waiting.readUntil("\r\n\r\n").find("200 OK"), std::string::npos);  // it waits (submitted)
  expectError(httpPost(engine.url("/v1/completions"), R"({"prompt":"x","max_tokens":1})"), 503, "capacity",
              "queue full");
  running.close();
  waiting.close();
  // Once those are cancelled the queue has room again.
  HttpReply ok;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  do {
    ok = httpPost(engine.url("/v1/completions"), R"({"prompt":"x","max_tokens":1})");
  } while (ok.status == 503 && std::chrono::steady_clock::now() < deadline);
  EXPECT_EQ(ok.status, 200) << ok.body;
}

}  // namespace
}  // namespace ayar::test
