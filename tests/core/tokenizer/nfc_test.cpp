#include "core/tokenizer/nfc.h"

#include <gtest/gtest.h>

#include <random>

#include "core/tokenizer/utf8.h"
#include "tests/core/tokenizer/qwen3.h"

namespace ayar {
namespace {

TEST(Nfc, QuickCheckPassesAsciiAndComposedTextAndFlagsTheRest) {
  EXPECT_TRUE(nfc::isQuickCheckYes(""));
  EXPECT_TRUE(nfc::isQuickCheckYes("plain ASCII text, 123"));
  EXPECT_TRUE(nfc::isQuickCheckYes("café İstanbul ışık 中文 한국어 😀"));
  EXPECT_FALSE(nfc::isQuickCheckYes("cafe\u0301"));     // Maybe: a mark that may compose
  EXPECT_FALSE(nfc::isQuickCheckYes("\u212B"));         // No: ANGSTROM SIGN never survives NFC
  EXPECT_FALSE(nfc::isQuickCheckYes("a\u0301\u0323"));  // marks out of canonical order
  EXPECT_TRUE(nfc::isQuickCheckYes("x\u0316\u0317"));   // ordered marks that compose with nothing
}

TEST(Nfc, ComposesDecomposesAndReordersAsUnicodeSpecifies) {
  EXPECT_EQ(nfc::normalize("e\u0301"), "\u00e9");
  EXPECT_EQ(nfc::normalize("\u212B"), "\u00c5");               // singleton to A with ring
  EXPECT_EQ(nfc::normalize("\u2126"), "\u03a9");               // OHM SIGN -> OMEGA
  EXPECT_EQ(nfc::normalize("a\u0301\u0323"), "\u1ea1\u0301");  // dot below first, then compose
  EXPECT_EQ(nfc::normalize("\u1e0b\u0323"), "\u1e0d\u0307");   // recomposition after reordering
  EXPECT_EQ(nfc::normalize("\u0958"), "\u0915\u093c");         // composition exclusion
  EXPECT_EQ(nfc::normalize("\u0344"), "\u0308\u0301");         // non-starter decomposition
  EXPECT_EQ(nfc::normalize("\u1100\u1161"), "\uac00");         // Hangul LV
  EXPECT_EQ(nfc::normalize("\u1100\u1161\u11a8"), "\uac01");   // Hangul LVT
  EXPECT_EQ(nfc::normalize("\uac00\u11a8"), "\uac01");         // LV syllable + T
  EXPECT_EQ(nfc::normalize("\uac00\u11a7"), "\uac00\u11a7");   // U+11A7 is not a trailing consonant
  EXPECT_EQ(nfc::normalize("a\u0308\u0301"), "\u00e4\u0301");  // same class blocks the second
  EXPECT_EQ(nfc::normalize("\u0301e"), "\u0301e");             // a leading mark has no starter
  EXPECT_EQ(nfc::normalize("\ufb01\u00bd"), "\ufb01\u00bd");   // compatibility forms stay
}

// Every code point whose NFD or NFC differs from itself, against ICU (Node's normalize, written by
// make_fixtures.mjs): both NFC(c) and NFC(NFD(c)) must equal ICU's NFC(c).
TEST(Nfc, AgreesWithIcuOnEveryCodePointThatNormalizationChanges) {
  const nlohmann::json fixture =
      test::readJson(test::tokenizerTestDataDir() / "fixtures" / "nfc_code_points.json");
  std::size_t checked = 0;
  for (const nlohmann::json& entry : fixture["codePoints"]) {
    std::string c;
    utf8::append(c, entry[0].get<char32_t>());
    const std::string nfd = entry[1].get<std::string>();
    const std::string nfc = entry[2].get<std::string>();
    EXPECT_EQ(nfc::normalize(c), nfc) << "U+" << std::hex << entry[0].get<std::uint32_t>();
    EXPECT_EQ(nfc::normalize(nfd), nfc) << "NFD of U+" << std::hex << entry[0].get<std::uint32_t>();
    ++checked;
  }
  EXPECT_GT(checked, 2000u);
}

TEST(Nfc, NormalizingTwiceChangesNothing) {
  std::mt19937 random(7);
  const char32_t pool[] = {U'a',      U'e',      U'o',      U'A',      U'\u0300', U'\u0301',
                           U'\u0308', U'\u0323', U'\u0327', U'\u031b', U'\u0345', U'\u1100',
                           U'\u1161', U'\u11a8', U'\uac00', U'\u212b', U'\u0915', U'\u093c',
                           U'\u05e9', U'\u05c1', U'\u05bc', U' '};
  for (int round = 0; round < 2000; ++round) {
    std::string text;
    const int length = 1 + static_cast<int>(random() % 12);
    for (int i = 0; i < length; ++i)
      utf8::append(text, pool[random() % std::size(pool)]);
    const std::string once = nfc::normalize(text);
    EXPECT_EQ(nfc::normalize(once), once) << text;
  }
}

}  // namespace
}  // namespace ayar
