// Clients that bend HTTP: they linger, pipeline, half-close, leave early, or break the framing rules
// of RFC 9112 and RFC 9110. A real ayar-engine (sim) on 127.0.0.1, spoken to over raw sockets.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <regex>
#include <thread>

#include "tests/engine/server/engine_process.h"
#include "tests/engine/server/http_client.h"
#include "tests/support/test_env.h"

namespace ayar::test {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

constexpr std::string_view kProbe = "HTTP/1.1 100 Continue\r\n\r\n";

// Polls /metrics until `done` holds or `timeout` passes; returns the last text read.
template <typename Done>
std::string metricsWhen(const EngineProcess& engine, Done done, std::chrono::milliseconds timeout = 5s) {
  const auto deadline = Clock::now() + timeout;
  std::string metrics;
  do {
    metrics = httpGet(engine.url("/metrics")).body;
    if (done(metrics)) break;
    std::this_thread::sleep_for(20ms);
  } while (Clock::now() < deadline);
  return metrics;
}

// The status line's code of the response that starts at `at`, or 0.
int statusAt(const std::string& received, std::size_t at = 0) {
  if (received.compare(at, 9, "HTTP/1.1 ") != 0 || received.size() < at + 12) return 0;
  return std::stoi(received.substr(at + 9, 3));
}

// The body of the one response in `received` (after its head).
std::string bodyOf(const std::string& received) {
  const auto end = received.find("\r\n\r\n");
  return end == std::string::npos ? std::string() : received.substr(end + 4);
}

void expectStillServing(const EngineProcess& engine) {
  EXPECT_EQ(httpGet(engine.url("/health")).status, 200);
  const HttpReply ok = httpPost(engine.url("/v1/completions"), R"({"prompt":"still here?","max_tokens":3})");
  EXPECT_EQ(ok.status, 200) << ok.body;
}

TEST(EngineHostileClients, TheLingerAfterAnErrorEndsAFixedTimeAfterItWhateverTheClientSends) {
  EngineProcess engine(simEngineArgs("fixed:0,0"));
  RawConnection client(engine.port());
  client.send("HELLO\x01\x02 nonsense\r\n\r\n");
  ASSERT_EQ(statusAt(client.readUntil("\r\n\r\n")), 400);
  const auto answered = Clock::now();
  // A byte every 100 ms: each one used to restart the linger, so the connection stayed open for good.
  // Once the server has closed it, the next byte is answered with a reset and a later send fails.
  bool refused = false;
  while (!refused && Clock::now() - answered < 8s) {
    refused = !client.trySend("x");
    std::this_thread::sleep_for(100ms);
  }
  const auto held = Clock::now() - answered;
  EXPECT_TRUE(refused) << "the connection was still open after 8 s";
  EXPECT_LT(held, 4s) << std::chrono::duration_cast<std::chrono::milliseconds>(held).count() << " ms";
  expectStillServing(engine);
}

TEST(EngineHostileClients, UnstreamedClientsThatLeaveAreCancelledEvenWithBytesSentAhead) {
  // Each request would run 40 s (2000 tokens, 20 ms apart) if nothing cancelled it.
  EngineProcess engine(simEngineArgs("fixed:0,20"));
  const std::string request = rawPost(
      "/v1/completions",
      json({{"prompt", std::vector<int>(100, 1000)}, {"max_tokens", 2000}, {"ignore_eos", true}}).dump());
  std::vector<std::unique_ptr<RawConnection>> clients;
  for (int i = 0; i < 4; ++i) {
    clients.push_back(std::make_unique<RawConnection>(engine.port()));
    // Two send a byte of a next request with theirs, one sends it later, one nothing.
    clients.back()->send(i < 2 ? request + "P" : request);
  }
  const std::string running = metricsWhen(
      engine, [](const std::string& m) { return metricValue(m, "vllm:num_requests_running") == 4; });
  ASSERT_EQ(metricValue(running, "vllm:num_requests_running"), 4.0) << running;
  EXPECT_GT(metricValue(running, "vllm:kv_cache_usage_perc"), 0.0);
  clients[2]->send("P");
  std::this_thread::sleep_for(100ms);  // the late byte reaches the server before its client leaves
  clients.clear();                     // all four leave without reading anything

  const std::string idle = metricsWhen(engine, [](const std::string& m) {
    return metricValue(m, "vllm:num_requests_running") == 0 &&
           metricValue(m, "vllm:kv_cache_usage_perc") == 0;
  });
  EXPECT_EQ(metricValue(idle, "vllm:num_requests_running"), 0.0) << idle;
  EXPECT_EQ(metricValue(idle, "vllm:kv_cache_usage_perc"), 0.0) << idle;
  EXPECT_NE(idle.find("vllm:request_success_total{finished_reason=\"abort\",model_name=\"qwen3-8b\"} 4.0"),
            std::string::npos)
      << idle;
  expectStillServing(engine);
}

TEST(EngineHostileClients, AClientThatHalfClosesAfterItsRequestsGetsItsResponses) {
  // 10 tokens 20 ms apart: the end of stream arrives while the request runs.
  EngineProcess engine(simEngineArgs("fixed:0,20"));
  const std::string unstreamed = R"({"prompt":"x","max_tokens":10,"ignore_eos":true})";
  {
    RawConnection client(engine.port());
    client.send(rawPost("/v1/completions", unstreamed));
    client.shutdownWrite();
    std::string received;
    ASSERT_TRUE(client.readUntilClosed(received)) << received;
    // Asked whether it is still there (an interim 100), then answered in full.
    const auto final = received.find("HTTP/1.1 200 OK");
    ASSERT_NE(final, std::string::npos) << received;
    EXPECT_TRUE(final == 0 || received.substr(0, final) == kProbe) << received;
    EXPECT_EQ(json::parse(bodyOf(received.substr(final)))["usage"]["completion_tokens"], 10);
  }
  {
    RawConnection client(engine.port());
    client.send(
        rawPost("/v1/completions", R"({"prompt":"x","max_tokens":10,"ignore_eos":true,"stream":true})"));
    client.shutdownWrite();
    std::string received;
    ASSERT_TRUE(client.readUntilClosed(received)) << received;
    EXPECT_EQ(statusAt(received), 200) << received;
    EXPECT_NE(received.find("data: [DONE]"), std::string::npos) << received;
    EXPECT_EQ(received.find("HTTP/1.1 100"), std::string::npos) << "a stream needs no probe";
  }
  {
    // Two requests at once, then the end of stream: both are answered, in order.
    RawConnection client(engine.port());
    client.send(rawPost("/v1/completions", unstreamed) + rawPost("/v1/completions", unstreamed));
    client.shutdownWrite();
    std::string received;
    ASSERT_TRUE(client.readUntilClosed(received)) << received;
    std::size_t answers = 0;
    for (auto at = received.find("\"completion_tokens\":10"); at != std::string::npos;
         at = received.find("\"completion_tokens\":10", at + 1)) {
      ++answers;
    }
    EXPECT_EQ(answers, 2u) << received;
  }
  {
    // HTTP/1.0 has no 1xx: the answer comes alone.
    RawConnection client(engine.port());
    client.send("POST /v1/completions HTTP/1.0\r\nContent-Type: application/json\r\nContent-Length: " +
                std::to_string(unstreamed.size()) + "\r\n\r\n" + unstreamed);
    client.shutdownWrite();
    std::string received;
    ASSERT_TRUE(client.readUntilClosed(received)) << received;
    EXPECT_EQ(statusAt(received), 200) << received;
    EXPECT_EQ(json::parse(bodyOf(received))["usage"]["completion_tokens"], 10);
  }
  const std::string metrics = httpGet(engine.url("/metrics")).body;
  EXPECT_NE(metrics.find("vllm:request_success_total{finished_reason=\"abort\",model_name=\"qwen3-8b\"} 0.0"),
            std::string::npos)
      << metrics;
}

// Sends `request` on a new connection and reads until the server closes it.
std::string sendAndRead(const EngineProcess& engine, const std::string& request, bool halfClose = false) {
  RawConnection client(engine.port());
  client.send(request);
  if (halfClose) client.shutdownWrite();
  std::string received;
  EXPECT_TRUE(client.readUntilClosed(received)) << request;
  return received;
}

void expectRefusal(const std::string& received, int status, const std::string& messagePart,
                   const std::string& context) {
  EXPECT_EQ(statusAt(received), status) << context << "\n" << received;
  json body;
  try {
    body = json::parse(bodyOf(received));
  } catch (const json::exception&) {
    ADD_FAILURE() << context << ": the body is not JSON: " << received;
    return;
  }
  EXPECT_EQ(body["error"]["code"], status) << context;
  const std::string message = body["error"]["message"];
  EXPECT_NE(message.find(messagePart), std::string::npos) << context << ": " << message;
}

TEST(EngineHostileClients, RequestsThatBreakHttpFramingRulesAreRefusedAsTheRfcsSay) {
  EngineProcess engine(simEngineArgs("fixed:0,0"));
  const std::string body = R"({"prompt":"x","max_tokens":1})";
  expectRefusal(sendAndRead(engine, "GET /health HTTP/1.1\r\n\r\n"), 400, "Host header", "no Host");
  expectRefusal(sendAndRead(engine, "GET /health HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"), 400,
                "2 Host headers", "two Host headers");
  // A coding the server does not implement is 501, not a body read as if it were plain.
  char size[16];
  std::snprintf(size, sizeof size, "%zx", body.size());  // chunk sizes are hexadecimal
  const std::string chunked = size + ("\r\n" + body) + "\r\n0\r\n\r\n";
  expectRefusal(sendAndRead(engine,
                            "POST /v1/completions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, "
                            "chunked\r\n\r\n" +
                                chunked),
                501, "gzip, chunked", "gzip, chunked");
  expectRefusal(sendAndRead(engine,
                            "POST /v1/completions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n"
                            "Transfer-Encoding: chunked\r\n\r\n" +
                                chunked),
                501, "gzip, chunked", "gzip and chunked on two lines");
  // Without chunked last, the body's length cannot be known.
  expectRefusal(
      sendAndRead(engine,
                  "POST /v1/completions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n" + body),
      400, "does not end with chunked", "gzip alone");
  expectRefusal(sendAndRead(engine, rawPost("/v1/completions", body,
                                            "Authorization: Bearer a\r\nAuthorization: Bearer b\r\n")),
                400, "2 Authorization headers", "two Authorization headers");
  // A body shorter than its Content-Length, then the end of stream.
  expectRefusal(
      sendAndRead(engine, "POST /v1/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n{\"prompt\"",
                  true),
      400, "ended after 9 of the 50 bytes its Content-Length announced", "short body");
  // chunked alone is still read.
  const std::string accepted =
      sendAndRead(engine,
                  "POST /v1/completions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
                  "Connection: close\r\n\r\n" +
                      chunked);
  EXPECT_EQ(statusAt(accepted), 200) << accepted;
  expectStillServing(engine);
}

TEST(EngineHostileClients, HeadOnAGetRouteAnswersLikeGetWithoutTheBody) {
  EngineProcess engine(simEngineArgs("fixed:0,0"));
  RawConnection client(engine.port());
  // On one connection: were a body sent after the HEAD response, it would stand before the next one.
  client.send(
      "HEAD /v1/models HTTP/1.1\r\nHost: x\r\n\r\nHEAD /v1/completions HTTP/1.1\r\nHost: x\r\n\r\n"
      "GET /health HTTP/1.1\r\nHost: x\r\n\r\n");
  const std::string received = client.readUntilCount("HTTP/1.1 ", 3);
  ASSERT_EQ(statusAt(received), 200) << received;
  const std::smatch length = [&] {
    std::smatch match;
    std::regex_search(received, match, std::regex("Content-Length: ([0-9]+)"));
    return match;
  }();
  ASSERT_FALSE(length.empty()) << received;
  EXPECT_EQ(length[1].str(), std::to_string(httpGet(engine.url("/v1/models")).body.size()));
  const auto second = received.find("\r\n\r\n") + 4;
  ASSERT_EQ(statusAt(received, second), 405) << received;
  EXPECT_NE(received.find("Allow: POST", second), std::string::npos) << received;
  const auto third = received.find("\r\n\r\n", second) + 4;
  EXPECT_EQ(statusAt(received, third), 200) << received;
  const HttpReply wrongMethod = httpRequest("DELETE", engine.url("/health"));
  EXPECT_EQ(wrongMethod.status, 405);
  EXPECT_NE(wrongMethod.headers.find("Allow: GET, HEAD"), std::string::npos) << wrongMethod.headers;
}

TEST(EngineHostileClients, WithAKeyUnknownV1RoutesAnswer401Before404) {
  EngineProcess engine(simEngineArgs("fixed:0,0", {"--api-key", "s3cret"}));
  EXPECT_EQ(httpGet(engine.url("/v1/nothing")).status, 401);
  EXPECT_EQ(httpGet(engine.url("/v1")).status, 401);
  EXPECT_EQ(httpRequest("DELETE", engine.url("/v1/models")).status, 401);
  EXPECT_EQ(httpGet(engine.url("/v1/nothing"), {"Authorization: Bearer s3cret"}).status, 404);
  EXPECT_EQ(httpRequest("DELETE", engine.url("/v1/models"), {}, {"Authorization: Bearer s3cret"}).status,
            405);
  EXPECT_EQ(httpGet(engine.url("/nothing")).status, 404);  // outside /v1 nothing is guarded
}

}  // namespace
}  // namespace ayar::test
