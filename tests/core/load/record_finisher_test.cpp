#include "core/load/record_finisher.h"

#include <gtest/gtest.h>

#include <string>

namespace ayar {
namespace {

// A reader that has read `sse` (the body of a 2xx answer) as it arrived at one instant each line.
OpenAiStreamReader readerOf(const std::string& sse) {
  OpenAiStreamReader reader;
  double at = 0.01;
  std::size_t begin = 0;
  while (begin < sse.size()) {
    const std::size_t end = sse.find("\n\n", begin);
    const std::size_t stop = end == std::string::npos ? sse.size() : end + 2;
    reader.feed(std::string_view(sse).substr(begin, stop - begin), at);
    at += 0.01;
    begin = stop;
  }
  return reader;
}

const std::string kTwoChunksWithUsage =
    "data: {\"choices\":[{\"text\":\"Merhaba\"}]}\n\n"
    "data: {\"choices\":[{\"text\":\" dünya\"}]}\n\n"
    "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":2}}\n\n"
    "data: [DONE]\n\n";

const std::string kTwoChunksNoUsage =
    "data: {\"choices\":[{\"text\":\"one\"}]}\n\n"
    "data: {\"choices\":[{\"text\":\" two three\"}]}\n\n"
    "data: [DONE]\n\n";

RequestRecord asked(std::int64_t maxTokens = 0) {
  RequestRecord record;
  record.index = 7;
  record.promptTokens = 10;  // the client's count, kept when the server sends no usage
  record.maxTokens = maxTokens;
  return record;
}

TEST(RecordFinisher, AStreamWithUsageSucceedsWithTheServersCounts) {
  OpenAiStreamReader reader = readerOf(kTwoChunksWithUsage);
  const RequestRecord record = finishRecord(asked(), {200, "", std::nullopt}, reader, {});
  EXPECT_TRUE(record.success) << record.error;
  EXPECT_EQ(record.error, "");
  EXPECT_EQ(record.index, 7);
  EXPECT_EQ(record.httpStatus, 200);
  EXPECT_EQ(record.chunkTimesS.size(), 2u);
  EXPECT_EQ(record.generatedText, "Merhaba dünya");
  EXPECT_EQ(record.outputTokens, 2);
  EXPECT_TRUE(record.outputTokensFromUsage);
  EXPECT_EQ(record.promptTokens, 12);
}

TEST(RecordFinisher, WithoutUsageTheCounterCountsTheTextAndThePromptCountStays) {
  OpenAiStreamReader reader = readerOf(kTwoChunksNoUsage);
  const TokenCounter words = [](std::string_view text) {
    int count = 0;
    bool inWord = false;
    for (char c : text) {
      if (c != ' ' && !inWord) ++count;
      inWord = c != ' ';
    }
    return count;
  };
  const RequestRecord record = finishRecord(asked(), {200, "", std::nullopt}, reader, words);
  EXPECT_TRUE(record.success) << record.error;
  EXPECT_EQ(record.outputTokens, 3);
  EXPECT_FALSE(record.outputTokensFromUsage);
  EXPECT_EQ(record.promptTokens, 10);

  OpenAiStreamReader again = readerOf(kTwoChunksNoUsage);
  EXPECT_EQ(finishRecord(asked(), {200, "", std::nullopt}, again, {}).outputTokens, 2)
      << "without a counter, the chunks with choices stand in";
}

TEST(RecordFinisher, AnErrorStatusFailsWithTheServersMessage) {
  OpenAiStreamReader reader;
  const RequestRecord record = finishRecord(
      asked(), {400, R"({"error":{"message":"max_tokens is too large","type":"invalid"}})", std::nullopt},
      reader, {});
  EXPECT_FALSE(record.success);
  EXPECT_EQ(record.httpStatus, 400);
  EXPECT_EQ(record.error, "HTTP 400: max_tokens is too large");

  OpenAiStreamReader empty;
  EXPECT_EQ(finishRecord(asked(), {503, "", std::nullopt}, empty, {}).error, "HTTP 503 with an empty body");
  OpenAiStreamReader detail;
  EXPECT_EQ(finishRecord(asked(), {422, R"({"detail":"Not Found"})", std::nullopt}, detail, {}).error,
            "HTTP 422: Not Found");
}

TEST(RecordFinisher, TheTransportsFailureWinsOverWhatTheStreamHad) {
  OpenAiStreamReader reader = readerOf(kTwoChunksWithUsage);
  const RequestRecord record = finishRecord(
      asked(), {200, "", std::string("the connection broke mid-stream after 2 chunks")}, reader, {});
  EXPECT_FALSE(record.success);
  EXPECT_EQ(record.error, "the connection broke mid-stream after 2 chunks");
  EXPECT_EQ(record.chunkTimesS.size(), 2u) << "what arrived is kept with the failure";
}

TEST(RecordFinisher, AStreamWithoutAChunkWithChoicesFails) {
  OpenAiStreamReader reader = readerOf("data: [DONE]\n\n");
  const RequestRecord record = finishRecord(asked(), {200, "", std::nullopt}, reader, {});
  EXPECT_FALSE(record.success);
  EXPECT_EQ(record.error, "stream ended early: no chunk with choices (1 events)");
}

TEST(RecordFinisher, MoreTokensThanTheRequestAllowedIsAProtocolError) {
  OpenAiStreamReader reader = readerOf(kTwoChunksWithUsage);
  const RequestRecord record = finishRecord(asked(/*maxTokens=*/1), {200, "", std::nullopt}, reader, {});
  EXPECT_FALSE(record.success);
  EXPECT_EQ(record.error, "protocol error: the server sent 2 output tokens where the request's limit was 1");

  OpenAiStreamReader noUsage = readerOf(kTwoChunksNoUsage);
  EXPECT_EQ(
      finishRecord(asked(1), {200, "", std::nullopt}, noUsage, {}).error,
      "protocol error: the server sent 2 output tokens (counting chunks) where the request's limit was 1");

  OpenAiStreamReader withinLimit = readerOf(kTwoChunksWithUsage);
  EXPECT_TRUE(finishRecord(asked(2), {200, "", std::nullopt}, withinLimit, {}).success);
}

TEST(RecordFinisher, AnErrorEventInTheStreamFailsTheRequest) {
  OpenAiStreamReader reader = readerOf(
      "data: {\"choices\":[{\"text\":\"a\"}]}\n\ndata: {\"error\":{\"message\":\"engine dead\"}}\n\n");
  const RequestRecord record = finishRecord(asked(), {200, "", std::nullopt}, reader, {});
  EXPECT_FALSE(record.success);
  EXPECT_NE(record.error.find("engine dead"), std::string::npos) << record.error;
}

TEST(ErrorBodyMessage, ReadsEachServersFormAndCutsLongOnes) {
  EXPECT_EQ(errorBodyMessage(R"({"error":"plain"})"), "plain");
  EXPECT_EQ(errorBodyMessage(R"({"object":"error","message":"older vLLM"})"), "older vLLM");
  EXPECT_EQ(errorBodyMessage(R"({"detail":[{"loc":["body"]}]})"), R"([{"loc":["body"]}])");
  EXPECT_EQ(errorBodyMessage("  <html>Bad Gateway</html>\n"), "<html>Bad Gateway</html>");
  const std::string longText(2000, 'x');
  EXPECT_EQ(errorBodyMessage(R"({"error":{"message":")" + longText + R"("}})"),
            std::string(1000, 'x') + "...");
  EXPECT_EQ(errorBodyMessage(longText), std::string(300, 'x') + "...");
}

}  // namespace
}  // namespace ayar
