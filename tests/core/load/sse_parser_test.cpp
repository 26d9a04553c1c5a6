#include "core/load/sse_parser.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ayar {
namespace {

std::vector<std::string> parseWhole(std::string_view stream) {
  std::vector<std::string> events;
  SseParser parser;
  parser.feed(stream, [&](std::string_view data) { events.emplace_back(data); });
  return events;
}

std::vector<std::string> parseInPieces(std::string_view stream, const std::vector<std::size_t>& cuts) {
  std::vector<std::string> events;
  SseParser parser;
  std::size_t begin = 0;
  for (std::size_t cut : cuts) {
    // A fresh copy per piece, destroyed after feed(): the parser must not keep views into it.
    const std::string piece(stream.substr(begin, cut - begin));
    parser.feed(piece, [&](std::string_view data) { events.emplace_back(data); });
    begin = cut;
  }
  const std::string rest(stream.substr(begin));
  parser.feed(rest, [&](std::string_view data) { events.emplace_back(data); });
  return events;
}

// An OpenAI-like stream that uses every feature the parser has to handle.
const std::string kMixedStream =
    "\xEF\xBB\xBF: keep-alive comment\r\n"
    "\r\n"
    "event: message\n"
    "id: 7\n"
    "retry: 100\n"
    "data: {\"choices\":[{\"text\":\"a\"}]}\n"
    "\n"
    "data:no-space\r\rdata:  two spaces\r\n\r\n"
    "data: first\n"
    "data\n"
    "data: third\n"
    ": comment inside an event\n"
    "\n"
    "data\n\n"
    "id: only an id, no data: no event\n\n"
    "data: [DONE]\r\n\r\n"
    "data: unterminated";

const std::vector<std::string> kMixedEvents = {
    "{\"choices\":[{\"text\":\"a\"}]}", "no-space", " two spaces", "first\n\nthird", "", "[DONE]"};

TEST(SseParser, ParsesEveryFeatureOfAMixedStream) {
  EXPECT_EQ(parseWhole(kMixedStream), kMixedEvents);
}

TEST(SseParser, SameEventsWhenSplitAtEveryBytePosition) {
  for (std::size_t cut = 0; cut <= kMixedStream.size(); ++cut) {
    EXPECT_EQ(parseInPieces(kMixedStream, {cut}), kMixedEvents) << "split at byte " << cut;
  }
}

TEST(SseParser, SameEventsWhenSplitAtEveryPairOfPositions) {
  for (std::size_t first = 0; first <= kMixedStream.size(); ++first) {
    for (std::size_t second = first; second <= kMixedStream.size(); ++second) {
      ASSERT_EQ(parseInPieces(kMixedStream, {first, second}), kMixedEvents)
          << "split at bytes " << first << " and " << second;
    }
  }
}

TEST(SseParser, SameEventsWhenFedOneByteAtATime) {
  std::vector<std::size_t> cuts;
  for (std::size_t i = 1; i < kMixedStream.size(); ++i)
    cuts.push_back(i);
  EXPECT_EQ(parseInPieces(kMixedStream, cuts), kMixedEvents);
}

TEST(SseParser, JoinsMultiLineDataWithNewlines) {
  EXPECT_EQ(parseWhole("data: a\ndata: b\ndata:c\n\n"), std::vector<std::string>{"a\nb\nc"});
}

TEST(SseParser, AcceptsCrLfAndCrLineEnds) {
  EXPECT_EQ(parseWhole("data: x\r\n\r\ndata: y\r\rdata: z\n\n"), (std::vector<std::string>{"x", "y", "z"}));
}

TEST(SseParser, CrLfSplitBetweenFeedsEndsOneLineOnly) {
  // "data: a\r" then "\n\r\n": the LF belongs to the CR before it, so exactly one blank line follows.
  EXPECT_EQ(parseInPieces("data: a\r\n\r\ndata: b\r\n\r\n", {8}), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(parseInPieces("data: a\r\ndata: b\r\n\r\n", {8}), std::vector<std::string>{"a\nb"});
}

TEST(SseParser, IgnoresCommentsAndOtherFields) {
  EXPECT_EQ(parseWhole(": ping\n\nevent: x\nid: 1\nretry: 5\n\nfoo: bar\ndata: kept\n\n"),
            std::vector<std::string>{"kept"});
}

TEST(SseParser, RemovesOnlyOneSpaceAfterTheColon) {
  EXPECT_EQ(parseWhole("data:   padded\n\n"), std::vector<std::string>{"  padded"});
}

TEST(SseParser, DispatchesOnlyOnABlankLine) {
  SseParser parser;
  std::vector<std::string> events;
  auto collect = [&](std::string_view data) { events.emplace_back(data); };
  parser.feed("data: [DONE]\n", collect);
  EXPECT_TRUE(events.empty());
  parser.feed("\n", collect);
  EXPECT_EQ(events, std::vector<std::string>{"[DONE]"});
}

TEST(SseParser, EventSpanningFeedsSurvivesTheCallersBufferBeingReused) {
  SseParser parser;
  std::vector<std::string> events;
  auto collect = [&](std::string_view data) { events.emplace_back(data); };
  std::string buffer = "data: first line\n";
  parser.feed(buffer, collect);
  buffer.assign(buffer.size(), 'X');  // libcurl reuses its receive buffer the same way
  buffer = "data: second\n\n";
  parser.feed(buffer, collect);
  EXPECT_EQ(events, std::vector<std::string>{"first line\nsecond"});
}

TEST(SseParser, FlagsAnEventLargerThanTheLimitInsteadOfGrowing) {
  SseParser parser;
  int events = 0;
  const std::string megabyte(1 << 20, 'x');
  parser.feed("data: ", [&](std::string_view) { ++events; });
  for (std::size_t i = 0; i <= (SseParser::kMaxEventBytes >> 20) && !parser.overflowed(); ++i) {
    parser.feed(megabyte, [&](std::string_view) { ++events; });
  }
  EXPECT_TRUE(parser.overflowed());
  parser.feed("\n\n", [&](std::string_view) { ++events; });
  EXPECT_EQ(events, 0);
}

TEST(SseParser, ResetStartsANewStream) {
  SseParser parser;
  std::vector<std::string> events;
  auto collect = [&](std::string_view data) { events.emplace_back(data); };
  parser.feed("data: half", collect);
  parser.reset();
  parser.feed("data: whole\n\n", collect);
  EXPECT_EQ(events, std::vector<std::string>{"whole"});
}

}  // namespace
}  // namespace ayar
