#include "engine/server/json_text.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace ayar::engine {
namespace {

TEST(JsonText, EscapedTextParsesBackToTheSameBytes) {
  const std::string text = "quote \" backslash \\ newline \n tab \t bell \a nul " + std::string(1, '\0') +
                           " unicode ğüş 漢字 🙂 del \x7f";
  std::string json;
  appendJsonString(json, text);
  EXPECT_EQ(nlohmann::json::parse(json).get<std::string>(), text);
  EXPECT_NE(json.find("\\u0007"), std::string::npos);
  EXPECT_NE(json.find("\\u0000"), std::string::npos);
  EXPECT_NE(json.find("\\n"), std::string::npos);
}

TEST(JsonText, PlainTextIsCopiedUnchanged) {
  std::string json = "prefix:";
  appendJsonEscaped(json, "Hello, world");
  EXPECT_EQ(json, "prefix:Hello, world");
}

TEST(JsonText, FindsTheFirstInvalidUtf8Byte) {
  EXPECT_EQ(findInvalidUtf8("plain ascii"), std::nullopt);
  EXPECT_EQ(findInvalidUtf8("ğüş 漢字 🙂"), std::nullopt);
  EXPECT_EQ(findInvalidUtf8("ab\xff"), 2u);
  EXPECT_EQ(findInvalidUtf8("a\xc3"), 1u);             // truncated
  EXPECT_EQ(findInvalidUtf8("\xc0\xaf"), 0u);          // overlong '/'
  EXPECT_EQ(findInvalidUtf8("x\xed\xa0\x80"), 1u);     // UTF-16 surrogate
  EXPECT_EQ(findInvalidUtf8("\xf4\x90\x80\x80"), 0u);  // above U+10FFFF
  EXPECT_EQ(findInvalidUtf8("\xe6\xbc"), 0u);          // half a CJK character
}

TEST(JsonText, Utf8BoundaryNeverCutsACharacter) {
  const std::string text = "a漢b";  // 'a', 3 bytes, 'b'
  EXPECT_EQ(utf8BoundaryAtOrBefore(text, 1), 1u);
  EXPECT_EQ(utf8BoundaryAtOrBefore(text, 2), 1u);
  EXPECT_EQ(utf8BoundaryAtOrBefore(text, 3), 1u);
  EXPECT_EQ(utf8BoundaryAtOrBefore(text, 4), 4u);
  EXPECT_EQ(utf8BoundaryAtOrBefore(text, 99), text.size());
}

}  // namespace
}  // namespace ayar::engine
