#include "core/tokenizer/byte_level.h"

#include <gtest/gtest.h>

#include <set>

#include "core/tokenizer/utf8.h"

namespace ayar {
namespace {

TEST(ByteLevel, EveryByteMapsToADistinctCharacterAndBack) {
  std::set<char32_t> seen;
  for (int b = 0; b < 256; ++b) {
    const char32_t c = byte_level::byteToChar(static_cast<unsigned char>(b));
    EXPECT_TRUE(seen.insert(c).second) << "byte " << b;
    EXPECT_EQ(byte_level::charToByte(c), b);
  }
}

TEST(ByteLevel, PrintableBytesMapToThemselvesAndOthersAreShiftedPast255) {
  EXPECT_EQ(byte_level::byteToChar('A'), U'A');
  EXPECT_EQ(byte_level::byteToChar('~'), U'~');
  EXPECT_EQ(byte_level::byteToChar(0xE9), U'\u00E9');
  EXPECT_EQ(byte_level::byteToChar(' '), U'\u0120');   // "Ġ"
  EXPECT_EQ(byte_level::byteToChar('\n'), U'\u010A');  // "Ċ"
  EXPECT_EQ(byte_level::byteToChar(0), U'\u0100');
  EXPECT_EQ(byte_level::byteToChar(0xAD), U'\u0143');  // the last one shifted
  EXPECT_EQ(byte_level::charToByte(U'\u0144'), -1);
  EXPECT_EQ(byte_level::charToByte(U'\u4F60'), -1);
}

TEST(ByteLevel, ArbitraryBytesRoundTripThroughTheMappedForm) {
  std::string all;
  for (int b = 0; b < 256; ++b)
    all.push_back(static_cast<char>(b));
  const std::string mapped = byte_level::fromBytes(all);
  EXPECT_TRUE(utf8::isValid(mapped));
  EXPECT_EQ(byte_level::toBytes(mapped), all);
  EXPECT_EQ(byte_level::toBytes("\xC4\xA0the"), " the");
  EXPECT_EQ(byte_level::toBytes("\xE4\xBD\xA0"), std::nullopt);  // 你 is not a mapped character
  EXPECT_EQ(byte_level::toBytes("\xFF"), std::nullopt);
}

TEST(Utf8, InvalidSequencesBecomeOneReplacementPerMaximalSubpartLikePython) {
  const std::string r = "\xEF\xBF\xBD";
  EXPECT_EQ(utf8::replaceInvalid("ok"), "ok");
  EXPECT_EQ(utf8::replaceInvalid("\xE2\x82"), r);                      // truncated 3-byte
  EXPECT_EQ(utf8::replaceInvalid("\xE2\x82("), r + "(");               // interrupted
  EXPECT_EQ(utf8::replaceInvalid("\xF0\x80\x80"), r + r + r);          // overlong: no valid prefix
  EXPECT_EQ(utf8::replaceInvalid("\xED\xA0\x80"), r + r + r);          // surrogate
  EXPECT_EQ(utf8::replaceInvalid("\xC0\xAF"), r + r);                  // overlong 2-byte
  EXPECT_EQ(utf8::replaceInvalid("\xF4\x90\x80\x80"), r + r + r + r);  // above U+10FFFF
  EXPECT_EQ(utf8::replaceInvalid("\xF0\x9F\x98"), r);
  EXPECT_EQ(utf8::replaceInvalid("a\x80\xBF"
                                 "b"),
            "a" + r + r + "b");
  EXPECT_EQ(utf8::replaceInvalid(std::string("\0\xFF", 2)), std::string("\0", 1) + r);
}

TEST(Utf8, CompletePrefixHoldsBackOnlyATruncatedButValidCharacter) {
  EXPECT_EQ(utf8::completePrefixLength("abc"), 3u);
  EXPECT_EQ(utf8::completePrefixLength("ab\xC5"), 2u);
  EXPECT_EQ(utf8::completePrefixLength("ab\xF0\x9F\x98"), 2u);
  EXPECT_EQ(utf8::completePrefixLength("ab\xF0\x9F\x98\x80"), 6u);
  EXPECT_EQ(utf8::completePrefixLength("ab\xFF"), 3u);      // never valid: emit now
  EXPECT_EQ(utf8::completePrefixLength("ab\xE0\x80"), 4u);  // E0 80 can never complete
  EXPECT_EQ(utf8::completePrefixLength("\x80\x80\x80"), 3u);
}

}  // namespace
}  // namespace ayar
