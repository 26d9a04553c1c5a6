#include "engine/server/completion_request.h"

#include <gtest/gtest.h>

#include "engine/server/api_error.h"

namespace ayar::engine {
namespace {

ApiError refusal(ApiRoute route, const std::string& body) {
  try {
    parseCompletionRequest(route, body);
  } catch (const ApiError& error) {
    return error;
  }
  ADD_FAILURE() << "accepted: " << body;
  return {};
}

TEST(CompletionRequest, ParsesEveryFieldOfACompletion) {
  const auto request = parseCompletionRequest(
      ApiRoute::kCompletions,
      R"({"model":"m","prompt":"Hi","stream":true,"stream_options":{"include_usage":true},"max_tokens":7,
          "min_tokens":2,"temperature":0.5,"top_p":0.9,"top_k":40,"seed":11,"stop":["a","bc"],"ignore_eos":true,
          "n":1,"stop_token_ids":[5]})");
  EXPECT_EQ(request.model, "m");
  EXPECT_EQ(request.promptText, "Hi");
  EXPECT_TRUE(request.stream);
  EXPECT_TRUE(request.includeUsage);
  EXPECT_EQ(request.maxTokens, 7);
  EXPECT_EQ(request.minTokens, 2);
  EXPECT_FLOAT_EQ(request.sampling.temperature, 0.5f);
  EXPECT_FLOAT_EQ(request.sampling.topP, 0.9f);
  EXPECT_EQ(request.sampling.topK, 40);
  EXPECT_TRUE(request.sampling.hasSeed);
  EXPECT_EQ(request.sampling.seed, 11u);
  EXPECT_EQ(request.stop, (std::vector<std::string>{"a", "bc"}));
  EXPECT_TRUE(request.ignoreEos);
  EXPECT_EQ(request.stopTokenIds, std::vector<TokenId>{5});
}

TEST(CompletionRequest, AcceptsTokenIdPromptsAndOneElementLists) {
  EXPECT_EQ(parseCompletionRequest(ApiRoute::kCompletions, R"({"prompt":[1,2,3]})").promptTokenIds,
            (std::vector<TokenId>{1, 2, 3}));
  EXPECT_EQ(parseCompletionRequest(ApiRoute::kCompletions, R"({"prompt":[[4,5]]})").promptTokenIds,
            (std::vector<TokenId>{4, 5}));
  EXPECT_EQ(parseCompletionRequest(ApiRoute::kCompletions, R"({"prompt":["text"]})").promptText, "text");
}

TEST(CompletionRequest, ChatTakesMaxCompletionTokensTextPartsAndThinkingSwitch) {
  const auto request = parseCompletionRequest(ApiRoute::kChatCompletions,
                                              R"({"messages":[{"role":"system","content":"Be brief."},
                      {"role":"user","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}],
          "max_tokens":9,"max_completion_tokens":4,"chat_template_kwargs":{"enable_thinking":false}})");
  ASSERT_EQ(request.messages.size(), 2u);
  EXPECT_EQ(request.messages[1].content, "a\nb");
  EXPECT_EQ(request.maxTokens, 4);
  EXPECT_FALSE(request.enableThinking);
}

TEST(CompletionRequest, RefusesBadInputNamingTheField) {
  struct Case {
    ApiRoute route;
    const char* body;
    const char* param;
  };
  const Case cases[] = {
      {ApiRoute::kCompletions, R"({"prompt":"x","max_tokens":-1})", "max_tokens"},
      {ApiRoute::kCompletions, R"({"prompt":"x","max_tokens":0})", "max_tokens"},
      {ApiRoute::kCompletions, R"({"prompt":"x","max_tokens":"12"})", "max_tokens"},
      {ApiRoute::kCompletions, R"({"prompt":"x","max_tokens":1e30})", "max_tokens"},
      {ApiRoute::kCompletions, R"({"prompt":""})", "prompt"},
      {ApiRoute::kCompletions, R"({"prompt":[]})", "prompt"},
      {ApiRoute::kCompletions, R"({"prompt":["a","b"]})", "prompt"},
      {ApiRoute::kCompletions, R"({"prompt":12})", "prompt"},
      {ApiRoute::kCompletions, R"({"prompt":[1,-2]})", "prompt"},
      {ApiRoute::kCompletions, R"({})", "prompt"},
      {ApiRoute::kCompletions, R"({"prompt":"x","n":2})", "n"},
      {ApiRoute::kCompletions, R"({"prompt":"x","stream":"yes"})", "stream"},
      {ApiRoute::kCompletions, R"({"prompt":"x","stream_options":{"include_usage":true}})", "stream_options"},
      {ApiRoute::kCompletions, R"({"prompt":"x","temperature":-1})", "temperature"},
      {ApiRoute::kCompletions, R"({"prompt":"x","top_p":0})", "top_p"},
      {ApiRoute::kCompletions, R"({"prompt":"x","top_k":-5})", "top_k"},
      {ApiRoute::kCompletions, R"({"prompt":"x","stop":[1]})", "stop"},
      {ApiRoute::kCompletions, R"({"prompt":"x","stop":""})", "stop"},
      {ApiRoute::kCompletions, R"({"prompt":"x","min_tokens":5,"max_tokens":2})", "min_tokens"},
      {ApiRoute::kCompletions, R"({"prompt":"x","logprobs":3})", "logprobs"},
      {ApiRoute::kCompletions, R"({"prompt":"x","model":7})", "model"},
      {ApiRoute::kChatCompletions, R"({"messages":[]})", "messages"},
      {ApiRoute::kChatCompletions, R"({"messages":"hi"})", "messages"},
      {ApiRoute::kChatCompletions, R"({"messages":[{"role":"wizard","content":"x"}]})", "messages[0].role"},
      {ApiRoute::kChatCompletions, R"({"messages":[{"content":"x"}]})", "messages[0].role"},
  };
  for (const Case& c : cases) {
    const ApiError error = refusal(c.route, c.body);
    EXPECT_EQ(error.status, 400) << c.body;
    EXPECT_EQ(error.param, c.param) << c.body << " -> " << error.message;
    EXPECT_FALSE(error.message.empty());
  }
}

TEST(CompletionRequest, RefusesNumbersBeyondADoubleOrAFloatNamingTheField) {
  struct Case {
    ApiRoute route;
    const char* body;
    const char* param;
  };
  const Case cases[] = {
      {ApiRoute::kCompletions, R"({"prompt":"x","top_p":1e999})", "top_p"},
      {ApiRoute::kCompletions, R"({"prompt":"x","n":1E400})", "n"},
      {ApiRoute::kCompletions, R"({"prompt":[[5,6,-1e999]]})", "prompt[0][2]"},
      {ApiRoute::kChatCompletions,
       R"({"messages":[{"role":"user","content":"a"},{"role":"user","content":[{"type":"text","n":1e999}]}]})",
       "messages[1].content[0].n"},
      {ApiRoute::kCompletions, R"({"prompt":"x","temperature":1e39})", "temperature"},
      {ApiRoute::kCompletions, R"({"prompt":"x","temperature":3.5e38})", "temperature"},
      {ApiRoute::kCompletions, R"({"prompt":"x","top_p":1e-50})", "top_p"},
      {ApiRoute::kCompletions, R"({"prompt":"x","max_tokens":1e19})", "max_tokens"},
  };
  for (const Case& c : cases) {
    const ApiError error = refusal(c.route, c.body);
    EXPECT_EQ(error.status, 400) << c.body;
    EXPECT_EQ(error.param, c.param) << c.body << " -> " << error.message;
  }
  // The largest float and the smallest positive one are values the sampler can hold.
  const auto largest =
      parseCompletionRequest(ApiRoute::kCompletions, R"({"prompt":"x","temperature":3.4e38})");
  EXPECT_FLOAT_EQ(largest.sampling.temperature, 3.4e38f);
  const auto smallest = parseCompletionRequest(ApiRoute::kCompletions, R"({"prompt":"x","top_p":1e-45})");
  EXPECT_GT(smallest.sampling.topP, 0.0f);
}

TEST(CompletionRequest, RefusesMalformedJsonAndInvalidUtf8) {
  EXPECT_NE(refusal(ApiRoute::kCompletions, R"({"prompt": "x",)").message.find("not valid JSON"),
            std::string::npos);
  EXPECT_NE(refusal(ApiRoute::kCompletions, "[1,2]").message.find("JSON object"), std::string::npos);
  EXPECT_NE(refusal(ApiRoute::kCompletions, "{\"prompt\": \"\xff\xfe\"}").message.find("UTF-8"),
            std::string::npos);
}

TEST(ApiError, BodyHasVllmsShape) {
  const std::string json = ApiError::badRequest("bad \"thing\"", "max_tokens").toJson();
  EXPECT_EQ(
      json,
      R"({"error":{"message":"bad \"thing\"","type":"BadRequestError","param":"max_tokens","code":400}})");
  EXPECT_EQ(ApiError::notFound("x").toJson(),
            R"({"error":{"message":"x","type":"NotFoundError","param":null,"code":404}})");
}

}  // namespace
}  // namespace ayar::engine
