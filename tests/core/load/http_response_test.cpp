#include "core/load/http_response.h"

#include <gtest/gtest.h>

#include <string>

namespace ayar {
namespace {

struct Collect final : HttpBodySink {
  std::string body;
  int calls = 0;
  void onBody(std::string_view bytes) override {
    body.append(bytes);
    ++calls;
  }
};

struct Parsed {
  bool done = false;
  bool failed = false;
  std::string error;
  int status = 0;
  bool keepAlive = false;
  std::string body;
  std::size_t consumed = 0;  // bytes the response used of those fed
};

// Feeds `wire` in one piece, or split at `cut` into two fresh copies (the parser must keep no views).
Parsed parse(std::string_view wire, std::size_t cut = std::string_view::npos, bool closeAtEnd = false) {
  HttpResponseParser parser;
  Collect sink;
  Parsed out;
  if (cut == std::string_view::npos || cut > wire.size()) {
    out.consumed = parser.feed(wire, sink);
  } else {
    const std::string first(wire.substr(0, cut));
    out.consumed = parser.feed(first, sink);
    if (!parser.done() && !parser.failed()) {
      const std::string second(wire.substr(cut));
      out.consumed += parser.feed(second, sink);
    }
  }
  if (closeAtEnd) parser.finishAtClose();
  out.done = parser.done();
  out.failed = parser.failed();
  out.error = parser.error();
  out.status = parser.status();
  out.keepAlive = parser.keepAlive();
  out.body = sink.body;
  return out;
}

const std::string kChunked =
    "HTTP/1.1 200 OK\r\n"
    "content-type: text/event-stream\r\n"
    "Transfer-Encoding: chunked\r\n"
    "\r\n"
    "e\r\ndata: {\"a\":1}\n\r\n"
    "18;ext=\"x\"\r\ndata: {\"text\":\"hello\"}\n\n\r\n"
    "e\r\ndata: [DONE]\n\n\r\n"
    "0\r\n"
    "X-Trailer: yes\r\n"
    "\r\n";
const std::string kChunkedBody = "data: {\"a\":1}\ndata: {\"text\":\"hello\"}\n\ndata: [DONE]\n\n";

TEST(HttpResponseParser, ChunkedBodySplitAtEveryByteIsTheSame) {
  for (std::size_t cut = 0; cut <= kChunked.size(); ++cut) {
    SCOPED_TRACE("cut at " + std::to_string(cut));
    const Parsed parsed = parse(kChunked, cut);
    ASSERT_TRUE(parsed.done) << parsed.error;
    EXPECT_EQ(parsed.status, 200);
    EXPECT_TRUE(parsed.keepAlive);
    EXPECT_EQ(parsed.body, kChunkedBody);
    EXPECT_EQ(parsed.consumed, kChunked.size());
  }
}

TEST(HttpResponseParser, ChunkedBodyFedByteByByte) {
  HttpResponseParser parser;
  Collect sink;
  for (char c : kChunked) {
    const std::string one(1, c);
    ASSERT_FALSE(parser.done());
    EXPECT_EQ(parser.feed(one, sink), 1u);
  }
  EXPECT_TRUE(parser.done());
  EXPECT_EQ(sink.body, kChunkedBody);
  EXPECT_EQ(parser.bytesReceived(), kChunked.size());
}

TEST(HttpResponseParser, BodyBytesArePassedOnInOnePiecePerFeed) {
  // The hot path: one read holding a whole SSE event in one HTTP chunk is one call, no copy.
  const std::string head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
  HttpResponseParser parser;
  Collect sink;
  parser.feed(head, sink);
  EXPECT_TRUE(parser.headersDone());
  EXPECT_EQ(sink.calls, 0);
  parser.feed("18\r\ndata: {\"text\":\"hello\"}\n\n\r\n", sink);
  EXPECT_EQ(sink.calls, 1);
  EXPECT_EQ(sink.body, "data: {\"text\":\"hello\"}\n\n");
}

TEST(HttpResponseParser, ContentLengthDelimitsTheBodyAndLeavesWhatFollows) {
  const std::string wire = "HTTP/1.1 404 Not Found\r\nContent-Length: 5\r\n\r\nhelloEXTRA";
  for (std::size_t cut = 0; cut <= wire.size(); ++cut) {
    const Parsed parsed = parse(wire, cut);
    ASSERT_TRUE(parsed.done) << cut;
    EXPECT_EQ(parsed.status, 404);
    EXPECT_EQ(parsed.body, "hello");
    EXPECT_EQ(parsed.consumed, wire.size() - 5) << "the extra bytes are not this response's";
  }
}

TEST(HttpResponseParser, EmptyBodies) {
  EXPECT_TRUE(parse("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n").done);
  EXPECT_TRUE(parse("HTTP/1.1 204 No Content\r\n\r\n").done);
  EXPECT_TRUE(parse("HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\n").done);
}

TEST(HttpResponseParser, BodyUntilCloseWhenNeitherLengthNorChunked) {
  const std::string wire = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\ndata: x\n\n";
  const Parsed open = parse(wire);
  EXPECT_FALSE(open.done);
  EXPECT_EQ(open.body, "data: x\n\n");
  const Parsed closed = parse(wire, std::string_view::npos, /*closeAtEnd=*/true);
  EXPECT_TRUE(closed.done);
  EXPECT_FALSE(closed.keepAlive) << "a close-delimited body uses the connection up";
}

TEST(HttpResponseParser, CloseBeforeTheEndIsABrokenResponse) {
  HttpResponseParser parser;
  Collect sink;
  parser.feed("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab", sink);
  EXPECT_FALSE(parser.finishAtClose());
  HttpResponseParser lengthParser;
  lengthParser.feed("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", sink);
  EXPECT_FALSE(lengthParser.finishAtClose());
  HttpResponseParser nothing;
  EXPECT_FALSE(nothing.finishAtClose());
  EXPECT_EQ(nothing.bytesReceived(), 0u);
}

TEST(HttpResponseParser, InterimResponsesAreSkipped) {
  const std::string wire =
      "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n"
      "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
  for (std::size_t cut = 0; cut <= wire.size(); ++cut) {
    const Parsed parsed = parse(wire, cut);
    ASSERT_TRUE(parsed.done) << cut;
    EXPECT_EQ(parsed.status, 200);
    EXPECT_EQ(parsed.body, "ok");
  }
}

TEST(HttpResponseParser, KeepAliveFollowsVersionAndConnectionHeader) {
  EXPECT_TRUE(parse("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n").keepAlive);
  EXPECT_FALSE(parse("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n").keepAlive);
  EXPECT_FALSE(parse("HTTP/1.1 200 OK\r\nConnection: Upgrade, Close\r\nContent-Length: 0\r\n\r\n").keepAlive);
  EXPECT_FALSE(parse("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n").keepAlive);
  EXPECT_TRUE(parse("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n").keepAlive);
}

TEST(HttpResponseParser, HeaderNamesAreCaseInsensitiveAndLfAloneEndsLines) {
  const Parsed parsed = parse("HTTP/1.1 200 OK\nCONTENT-LENGTH:   3  \n\nabc");
  ASSERT_TRUE(parsed.done) << parsed.error;
  EXPECT_EQ(parsed.body, "abc");
}

TEST(HttpResponseParser, TransferEncodingWinsOverContentLength) {
  const Parsed parsed = parse(
      "HTTP/1.1 200 OK\r\nContent-Length: 100\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n");
  ASSERT_TRUE(parsed.done) << parsed.error;
  EXPECT_EQ(parsed.body, "ok");
}

TEST(HttpResponseParser, MalformedResponsesFailWithAReason) {
  struct Case {
    std::string wire;
    std::string errorPart;
  };
  const Case cases[] = {
      {"SSH-2.0-OpenSSH_9.2\r\n", "did not answer with HTTP/1.x"},
      {"HTTP/2 200\r\n\r\n", "did not answer with HTTP/1.x"},
      {"HTTP/1.1 2x0 OK\r\n\r\n", "status line is not valid"},
      {"HTTP/1.1 200 OK\r\nno colon here\r\n\r\n", "not 'name: value'"},
      {"HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", "Content-Length is not valid"},
      {"HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n", "Content-Length is not valid"},
      {"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "chunk size"},
      {"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nokXX\r\n", "no line end after a chunk"},
      {"HTTP/1.1 200 OK\r\nX: " + std::string(HttpResponseParser::kMaxLineBytes + 10, 'a'), "longer than"},
  };
  for (const Case& c : cases) {
    const Parsed parsed = parse(c.wire);
    EXPECT_TRUE(parsed.failed) << c.wire.substr(0, 60);
    EXPECT_NE(parsed.error.find(c.errorPart), std::string::npos) << parsed.error;
  }
  // Headers that never end are cut off instead of buffered without bound.
  HttpResponseParser parser;
  Collect sink;
  parser.feed("HTTP/1.1 200 OK\r\n", sink);
  const std::string header = "X-Filler: " + std::string(1000, 'b') + "\r\n";
  for (int i = 0; i < 100 && !parser.failed(); ++i)
    parser.feed(header, sink);
  EXPECT_TRUE(parser.failed());
  EXPECT_NE(parser.error().find("headers are larger than"), std::string::npos) << parser.error();
}

TEST(HttpResponseParser, ResetReadiesItForTheNextResponseOnTheConnection) {
  HttpResponseParser parser;
  Collect sink;
  parser.feed("HTTP/1.1 500 Internal Server Error\r\nContent-Length: 2\r\n\r\nno", sink);
  ASSERT_TRUE(parser.done());
  parser.reset();
  EXPECT_EQ(parser.status(), 0);
  EXPECT_FALSE(parser.done());
  parser.feed(kChunked, sink);
  EXPECT_TRUE(parser.done());
  EXPECT_EQ(parser.status(), 200);
}

}  // namespace
}  // namespace ayar
