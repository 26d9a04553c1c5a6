#include <gtest/gtest.h>

#include "core/tokenizer/byte_level.h"
#include "core/tokenizer/utf8.h"
#include "tests/core/tokenizer/qwen3.h"

namespace ayar {
namespace {

using test::qwen3;

// The id of the one-byte token for `byte`.
TokenId byteToken(unsigned char byte) {
  std::string mapped;
  utf8::append(mapped, byte_level::byteToChar(byte));
  return qwen3().tokenToId(mapped).value();
}

std::vector<TokenId> byteTokens(std::string_view bytes) {
  std::vector<TokenId> ids;
  for (char b : bytes)
    ids.push_back(byteToken(static_cast<unsigned char>(b)));
  return ids;
}

TEST(IncrementalDecoder, NeverEmitsPartOfACharacterAndAddsUpToTheFullDecode) {
  for (const std::string text : {
           "Türkçe: ığüşöç İIıi ĞÜŞÖÇ, Iğdır'ın şehri.",
           "中文解码测试：大型语言模型的推理服务。日本語のテキストも。",
           "Emoji 👨‍👩‍👧‍👦 and 👍🏽 and 🏳️‍🌈 and 🇹🇷 end",
           "mixed ascii and 한국어 and العربية and עברית and हिन्दी",
       }) {
    const std::vector<TokenId> ids = qwen3().encode(text);
    IncrementalDecoder decoder(qwen3());
    std::string streamed;
    for (TokenId id : ids) {
      const std::string piece = decoder.push(id);
      EXPECT_TRUE(utf8::isValid(piece))
          << "partial UTF-8 emitted after id " << id << " in \"" << text << "\"";
      streamed += piece;
    }
    streamed += decoder.flush();
    EXPECT_EQ(streamed, qwen3().decode(ids));
    EXPECT_EQ(streamed, text);
  }
}

TEST(IncrementalDecoder, HoldsAMultiByteCharacterUntilItsLastByteArrives) {
  IncrementalDecoder decoder(qwen3());
  // "ş" is C5 9F; "中" is E4 B8 AD; "😀" is F0 9F 98 80, each fed one byte token at a time.
  EXPECT_EQ(decoder.push(byteToken(0xC5)), "");
  EXPECT_EQ(decoder.push(byteToken(0x9F)), "ş");
  EXPECT_EQ(decoder.push(byteToken(0xE4)), "");
  EXPECT_EQ(decoder.push(byteToken(0xB8)), "");
  EXPECT_EQ(decoder.push(byteToken(0xAD)), "中");
  std::string emoji;
  for (TokenId id : byteTokens("\xF0\x9F\x98\x80"))
    emoji += decoder.push(id);
  EXPECT_EQ(emoji, "😀");
  EXPECT_EQ(decoder.flush(), "");
}

TEST(IncrementalDecoder, InvalidBytesAreReplacedAtOnceNotHeld) {
  IncrementalDecoder decoder(qwen3());
  EXPECT_EQ(decoder.push(byteToken(0xFF)), "\xEF\xBF\xBD");
  EXPECT_EQ(decoder.push(byteToken(0xE4)), "");
  EXPECT_EQ(decoder.push(byteToken('a')),
            "\xEF\xBF\xBD"
            "a");
}

TEST(IncrementalDecoder, FlushReplacesAnUnfinishedCharacter) {
  IncrementalDecoder decoder(qwen3());
  EXPECT_EQ(decoder.push(byteToken('x')), "x");
  EXPECT_EQ(decoder.push(byteToken(0xF0)), "");
  EXPECT_EQ(decoder.push(byteToken(0x9F)), "");
  EXPECT_EQ(decoder.flush(), "\xEF\xBF\xBD");
  EXPECT_EQ(decoder.flush(), "");
}

TEST(IncrementalDecoder, SkipsSpecialTokensOnlyWhenAsked) {
  const std::vector<TokenId> ids =
      qwen3().encode("<|im_start|>assistant\n<think>\nok\n</think>\n\nHi<|im_end|>");
  auto stream = [&](bool skip) {
    IncrementalDecoder decoder(qwen3(), skip);
    std::string text;
    for (TokenId id : ids)
      text += decoder.push(id);
    return text + decoder.flush();
  };
  EXPECT_EQ(stream(false), "<|im_start|>assistant\n<think>\nok\n</think>\n\nHi<|im_end|>");
  EXPECT_EQ(stream(true), "assistant\n<think>\nok\n</think>\n\nHi");  // <think> is added, not special
}

TEST(IncrementalDecoder, RejectsAnIdOutsideTheVocabulary) {
  IncrementalDecoder decoder(qwen3());
  EXPECT_THROW(decoder.push(static_cast<TokenId>(qwen3().vocabSize())), Error);
  EXPECT_THROW(decoder.push(-1), Error);
}

}  // namespace
}  // namespace ayar
