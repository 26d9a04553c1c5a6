#include "core/load/openai_stream.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include "core/error.h"
#include "core/load/openai_request.h"

namespace ayar {
namespace {

StreamChunk parse(std::string_view json) {
  StreamChunk chunk;
  std::string problem;
  EXPECT_TRUE(parseStreamChunk(json, chunk, problem)) << json << ": " << problem;
  return chunk;
}

TEST(StreamChunk, CompletionsTextIsRead) {
  const StreamChunk chunk =
      parse(R"({"id":"cmpl-1","object":"text_completion","created":1,"model":"m","choices":[{"index":0,)"
            R"("text":" the","logprobs":null,"finish_reason":null,"stop_reason":null}],"usage":null})");
  EXPECT_TRUE(chunk.hasChoices);
  EXPECT_EQ(chunk.text, " the");
  EXPECT_FALSE(chunk.hasUsage);
  EXPECT_FALSE(chunk.isError);
}

TEST(StreamChunk, EmptyTextStillCountsAsAChunkWithChoices) {
  const StreamChunk chunk = parse(R"({"choices":[{"index":0,"delta":{"role":"assistant","content":""}}]})");
  EXPECT_TRUE(chunk.hasChoices);
  EXPECT_EQ(chunk.text, "");
}

TEST(StreamChunk, ChatContentAndReasoningAreRead) {
  EXPECT_EQ(parse(R"({"choices":[{"delta":{"content":"hi"}}]})").text, "hi");
  EXPECT_EQ(parse(R"({"choices":[{"delta":{"reasoning_content":"think","content":null}}]})").text, "think");
  EXPECT_EQ(parse(R"({"choices":[{"delta":{"reasoning":"r"}}]})").text, "r");
}

TEST(StreamChunk, UsageChunkWithEmptyChoicesIsExcludedFromTiming) {
  const StreamChunk chunk = parse(
      R"({"id":"x","choices":[],"usage":{"prompt_tokens":12,"total_tokens":40,"completion_tokens":28}})");
  EXPECT_FALSE(chunk.hasChoices);
  EXPECT_TRUE(chunk.hasUsage);
  EXPECT_EQ(chunk.promptTokens, 12);
  EXPECT_EQ(chunk.completionTokens, 28);
}

TEST(StreamChunk, ErrorObjectMarksTheChunkAsAnError) {
  const StreamChunk chunk = parse(
      R"({"error":{"object":"error","message":"The engine died","type":"InternalServerError","code":500}})");
  EXPECT_TRUE(chunk.isError);
  EXPECT_EQ(chunk.errorMessage, "The engine died");
  EXPECT_TRUE(parse(R"({"object":"error","message":"old vLLM form","code":400})").isError);
  EXPECT_EQ(parse(R"({"object":"error","message":"old vLLM form","code":400})").errorMessage,
            "old vLLM form");
  EXPECT_EQ(parse(R"({"error":"plain"})").errorMessage, "plain");
  EXPECT_EQ(parse(R"({"error":{"code":3}})").errorMessage, R"({"code":3})");
  EXPECT_FALSE(parse(R"({"error":null,"choices":[{"text":"a"}]})").isError);
}

TEST(StreamChunk, EscapesAndUnicodeAreDecodedExactly) {
  EXPECT_EQ(parse(R"({"choices":[{"text":"a\"b\\c\/d\n\t\r\b\f"}]})").text, "a\"b\\c/d\n\t\r\b\f");
  EXPECT_EQ(parse(R"({"choices":[{"text":"\u00e9\u4e2d\ud83d\ude00"}]})").text, "é中😀");
  EXPECT_EQ(parse(R"({"choices":[{"text":"raw é 中"}]})").text, "raw é 中");
  EXPECT_EQ(parse(R"({"choices":[{"text":"lone \ud800 high, lone \udc00 low, \ud800\u0041"}]})").text,
            "lone \xEF\xBF\xBD high, lone \xEF\xBF\xBD low, \xEF\xBF\xBD"
            "A");
}

TEST(StreamChunk, OnlyTheFirstChoiceGivesText) {
  const StreamChunk chunk = parse(R"({"choices":[{"text":"first"},{"text":"second"}]})");
  EXPECT_EQ(chunk.text, "first");
}

TEST(StreamChunk, EscapedKeysAndNestedValuesAreUnderstood) {
  const StreamChunk chunk = parse(
      R"({"x":{"a":[1,2.5e-3,{"b":[true,false,null]}],"s":"}\"]"},"ch\u006fices":[{"te\u0078t":"ok","logprobs":)"
      R"({"tokens":["a"],"top":[{"a":-0.5}]}}]})");
  EXPECT_TRUE(chunk.hasChoices);
  EXPECT_EQ(chunk.text, "ok");
}

TEST(StreamChunk, InvalidJsonIsRejectedWithAReason) {
  for (const char* bad : {"", "[]", "\"text\"", "{", "{\"choices\":[{\"text\":\"a\"}]", "{\"a\":1,}",
                          "{\"a\":01}", "{\"a\":tru}", "{\"a\":\"\x01\"}", "{\"a\":\"\\x\"}", "{\"a\":1} x",
                          "{\"a\":\"\\u12\"}", "{\"a\" 1}", "{\"a\":-}", "{\"a\":1.}", "{\"a\":[1 2]}"}) {
    StreamChunk chunk;
    std::string problem;
    EXPECT_FALSE(parseStreamChunk(bad, chunk, problem)) << bad;
    EXPECT_FALSE(problem.empty()) << bad;
  }
  std::string deep(10000, '[');
  StreamChunk chunk;
  std::string problem;
  EXPECT_FALSE(parseStreamChunk("{\"a\":" + deep, chunk, problem));
  EXPECT_EQ(problem, "nested too deeply");
}

// JSON is UTF-8: a chunk with other bytes in a string (in text that is read, a key, or a value that
// is skipped) is not JSON, as a full parser and vLLM's client find. Found by fuzz/stream_chunk.cpp.
TEST(StreamChunk, InvalidUtf8InAStringIsRejected) {
  for (const char* bad :
       {"{\"id\":\"chatcmpl-1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"\\ud83d\\ude00 "
        "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\\u0130stanbul\"}}]}",
        "{\"choices\":[{\"text\":\"a\xc3\"}]}", "{\"ch\xe9\":1}", "{\"model\":\"\xed\xa0\x80\"}",
        "{\"object\":\"err\xc0\xafor\"}"}) {
    StreamChunk chunk;
    std::string problem;
    EXPECT_FALSE(parseStreamChunk(bad, chunk, problem)) << bad;
    EXPECT_EQ(problem, "invalid UTF-8 inside a string") << bad;
    EXPECT_TRUE(nlohmann::json::parse(bad, nullptr, false).is_discarded()) << bad;
  }
  const StreamChunk read = parse("{\"choices\":[{\"text\":\"\xc3\xa7\xf0\x9f\x98\x80\"}]}");
  EXPECT_EQ(read.text, "\xc3\xa7\xf0\x9f\x98\x80");

  OpenAiStreamReader reader;
  reader.feed("data: {\"choices\":[{\"text\":\"\xfe\"}]}\n\n", 0.1);
  EXPECT_TRUE(reader.failed());
  EXPECT_TRUE(reader.text().empty());
}

// Random chunks written by nlohmann::json (the reference) must read back to the same text and usage.
TEST(StreamChunk, AgreesWithAFullJsonParserOnRandomChunks) {
  std::mt19937 random(42);
  auto randomText = [&] {
    std::string text;
    const int length = static_cast<int>(random() % 12);
    for (int i = 0; i < length; ++i) {
      switch (random() % 6) {
        case 0:
          text += static_cast<char>(random() % 32);
          break;  // control characters get escaped
        case 1:
          text += "\"\\/"[random() % 3];
          break;
        case 2:
          text += "é";
          break;
        case 3:
          text += "😀";
          break;
        default:
          text += static_cast<char>('a' + random() % 26);
      }
    }
    return text;
  };
  for (int round = 0; round < 2000; ++round) {
    nlohmann::json chunk = {{"id", randomText()}, {"created", random()}, {"model", randomText()}};
    const bool chat = random() % 2 == 0;
    const int choices = static_cast<int>(random() % 3);
    chunk["choices"] = nlohmann::json::array();
    for (int i = 0; i < choices; ++i) {
      nlohmann::json choice = {{"index", i}, {"logprobs", nullptr}, {"finish_reason", nullptr}};
      if (chat) {
        choice["delta"] = {{"content", randomText()}};
      } else {
        choice["text"] = randomText();
      }
      chunk["choices"].push_back(choice);
    }
    if (random() % 2) {
      chunk["usage"] = {{"prompt_tokens", random() % 5000}, {"completion_tokens", random() % 5000}};
    } else {
      chunk["usage"] = nullptr;
    }
    const std::string json = chunk.dump(random() % 2 ? -1 : 2, ' ', random() % 2 == 0);
    const StreamChunk read = parse(json);
    ASSERT_EQ(read.hasChoices, choices > 0) << json;
    if (choices > 0) {
      const auto& first = chunk["choices"][0];
      ASSERT_EQ(read.text,
                chat ? first["delta"]["content"].get<std::string>() : first["text"].get<std::string>())
          << json;
    }
    ASSERT_EQ(read.hasUsage, chunk["usage"].is_object()) << json;
    if (read.hasUsage) {
      ASSERT_EQ(read.promptTokens, chunk["usage"]["prompt_tokens"].get<std::int64_t>());
      ASSERT_EQ(read.completionTokens, chunk["usage"]["completion_tokens"].get<std::int64_t>());
    }
  }
}

TEST(OpenAiStreamReader, FollowsAWholeStreamWithUsageAndDone) {
  OpenAiStreamReader reader;
  reader.feed("data: {\"choices\":[{\"text\":\"\"}]}\n\ndata: {\"choices\":[{\"text\":\"He\"}]}\n\n", 0.1);
  reader.feed("data: {\"choices\":[{\"text\":\"llo\"}]}\n\n", 0.2);
  reader.feed("data: {\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":3}}\n\n", 0.3);
  reader.feed("data: [DONE]\n\n", 0.4);
  EXPECT_EQ(reader.chunkTimesS(), (std::vector<double>{0.1, 0.1, 0.2}));
  EXPECT_EQ(reader.text(), "Hello");
  EXPECT_EQ(reader.promptTokens(), 5);
  EXPECT_EQ(reader.completionTokens(), 3);
  EXPECT_TRUE(reader.sawDone());
  EXPECT_FALSE(reader.failed());
}

TEST(OpenAiStreamReader, ErrorObjectFailsTheStreamAndKeepsTheMessage) {
  OpenAiStreamReader reader;
  reader.feed("data: {\"choices\":[{\"text\":\"a\"}]}\n\n", 0.1);
  reader.feed("data: {\"error\":{\"message\":\"out of KV cache\",\"code\":500}}\n\ndata: [DONE]\n\n", 0.2);
  EXPECT_TRUE(reader.failed());
  EXPECT_EQ(reader.error(), "error in the stream: out of KV cache");
  EXPECT_EQ(reader.chunkTimesS().size(), 1u);
}

TEST(OpenAiStreamReader, InvalidJsonFailsTheStreamNamingTheEvent) {
  OpenAiStreamReader reader;
  reader.feed("data: {not json}\n\n", 0.1);
  EXPECT_TRUE(reader.failed());
  EXPECT_NE(reader.error().find("{not json}"), std::string::npos) << reader.error();
}

TEST(OpenAiStreamReader, ALineThatIsNotAnEventIsAProtocolErrorWhereverTheReadsAreCut) {
  // Found by fuzzing: the error must stop the reading at the same event however the body arrives.
  const std::string body =
      "data: {\"choices\":[{\"text\":\"a\"}]}\n\n\x0b\x1b[31mjunk\ndata: "
      "{\"choices\":[{\"text\":\"b\"}]}\n\n";
  OpenAiStreamReader whole;
  whole.feed(body, 0.1);
  EXPECT_TRUE(whole.failed());
  EXPECT_EQ(
      whole.error(),
      "protocol error: the stream holds a line that is not a server-sent event: \"\\x0B\\x1B[31mjunk\"");
  for (std::size_t cut = 1; cut < body.size(); ++cut) {
    OpenAiStreamReader pieces;
    pieces.feed(std::string_view(body).substr(0, cut), 0.1);
    pieces.feed(std::string_view(body).substr(cut), 0.2);
    EXPECT_EQ(pieces.error(), whole.error()) << cut;
    EXPECT_EQ(pieces.text(), whole.text()) << cut;
    EXPECT_EQ(pieces.chunkTimesS().size(), whole.chunkTimesS().size()) << cut;
  }
  EXPECT_EQ(whole.text(), "a");
}

TEST(OpenAiStreamReader, EmptyEventsAndEventsAfterDoneAreIgnored) {
  OpenAiStreamReader reader;
  reader.feed("data:\n\ndata: {\"choices\":[{\"text\":\"a\"}]}\n\ndata: [DONE]\n\n", 0.1);
  reader.feed("data: {\"choices\":[{\"text\":\"late\"}]}\n\n", 0.2);
  EXPECT_FALSE(reader.failed());
  EXPECT_EQ(reader.text(), "a");
  EXPECT_EQ(reader.chunkTimesS().size(), 1u);
}

TEST(RequestBody, CompletionsBodyHasTheVllmFields) {
  RequestBodyOptions options;
  options.model = "qwen3-0.6b";
  options.ignoreEos = true;
  options.extraBody = {{"temperature", 0.0}, {"top_k", 5}, {"max_tokens", 7}};
  const auto body = nlohmann::json::parse(buildRequestBody(options, "Hello \xff", 32));
  EXPECT_EQ(body, nlohmann::json::parse(R"({"model": "qwen3-0.6b", "prompt": "Hello \ufffd",
      "repetition_penalty": 1.0, "max_tokens": 7, "logprobs": null, "stream": true,
      "stream_options": {"include_usage": true}, "ignore_eos": true, "temperature": 0.0, "top_k": 5})"));
  options.logprobs = 2;
  EXPECT_EQ(nlohmann::json::parse(buildRequestBody(options, "p", 3))["logprobs"], 2);
}

TEST(RequestBody, ChatBodyPutsThePromptInAUserMessagesTextPart) {
  RequestBodyOptions options;
  options.api = parseBackendName("openai-chat");
  options.model = "m";
  const auto body =
      nlohmann::json::parse(buildRequestBody(options, "What is 2+2?", 16, nlohmann::json{{"seed", 1}}));
  EXPECT_EQ(body["messages"],
            nlohmann::json::parse(R"([{"role":"user","content":[{"type":"text","text":"What is 2+2?"}]}])"));
  EXPECT_EQ(body["max_completion_tokens"], 16);
  EXPECT_FALSE(body.contains("max_tokens"));
  EXPECT_FALSE(body.contains("ignore_eos"));
  EXPECT_FALSE(body.contains("repetition_penalty"));
  EXPECT_FALSE(body.contains("logprobs"));
  EXPECT_EQ(body["seed"], 1);
  EXPECT_EQ(defaultEndpointPath(options.api), "/v1/chat/completions");
}

TEST(RequestBody, BadBackendNameAndExtraBodyAreUserErrors) {
  EXPECT_EQ(parseBackendName("openai"), ApiKind::Completions);
  try {
    parseBackendName("tgi");
    FAIL() << "no error";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("'tgi'"), std::string::npos);
  }
  RequestBodyOptions options;
  options.extraBody = nlohmann::json::array({1});
  EXPECT_THROW(buildRequestBody(options, "p", 1), Error);
}

}  // namespace
}  // namespace ayar
