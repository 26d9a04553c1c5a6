#include "core/report/message_text.h"

#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <string>

namespace ayar {
namespace {

std::set<std::string> placeholders(std::string_view text) {
  std::set<std::string> found;
  const std::string s(text);
  const std::regex placeholder(R"(\{[0-9]+\})");
  for (auto it = std::sregex_iterator(s.begin(), s.end(), placeholder); it != std::sregex_iterator(); ++it)
    found.insert(it->str());
  return found;
}

// Every message is written in both languages, and both say the same arguments.
TEST(MessageText, EveryMessageHasBothLanguagesWithTheSameArguments) {
  for (int i = 0; i < static_cast<int>(MessageText::Count_); ++i) {
    const auto id = static_cast<MessageText>(i);
    const auto en = messageText(id, ReportLanguage::English);
    const auto tr = messageText(id, ReportLanguage::Turkish);
    EXPECT_FALSE(en.empty()) << i;
    EXPECT_FALSE(tr.empty()) << i;
    EXPECT_EQ(placeholders(en), placeholders(tr)) << en << " / " << tr;
  }
}

// A row with words of its own (not only placeholders, punctuation and quoted names such as "value")
// is written anew in Turkish, not copied from the English.
TEST(MessageText, EveryRowWithWordsIsWrittenInTurkish) {
  const std::regex notWords(R"(\{[0-9]+\}|"[^"]*"|'[^']*'|[^A-Za-z])");
  for (int i = 0; i < static_cast<int>(MessageText::Count_); ++i) {
    const auto id = static_cast<MessageText>(i);
    const std::string en(messageText(id, ReportLanguage::English));
    const std::string tr(messageText(id, ReportLanguage::Turkish));
    if (std::regex_replace(en, notWords, "").empty()) continue;
    EXPECT_NE(en, tr) << "row " << i << " is English in both languages: " << en;
  }
}

// The check above would pass a table that skipped the rule for every row; it must see rows with
// words, and some rows without them (which say only what their arguments say).
TEST(MessageText, TheWordCheckSeesBothKindsOfRow) {
  const std::regex notWords(R"(\{[0-9]+\}|"[^"]*"|'[^']*'|[^A-Za-z])");
  int withWords = 0;
  int withoutWords = 0;
  for (int i = 0; i < static_cast<int>(MessageText::Count_); ++i) {
    const std::string en(messageText(static_cast<MessageText>(i), ReportLanguage::English));
    (std::regex_replace(en, notWords, "").empty() ? withoutWords : withWords)++;
  }
  EXPECT_GT(withWords, 200);
  EXPECT_GE(withoutWords, 3);  // StageLines, FieldProblem, StoreDetails, ...
}

TEST(MessageText, PlaceholdersAreFilledAndOtherBracesStay) {
  EXPECT_EQ(fillPlaceholders("{0} needs {\"a\": {1}} not {0}", {"x", "2"}), "x needs {\"a\": 2} not x");
  EXPECT_EQ(fillPlaceholders("{} and {x} stay", {}), "{} and {x} stay");
}

TEST(MessageText, AMessageSaysItsArgumentsInTheReadersLanguage) {
  const Message rate{MessageText::LoadRate, {numberArgument(2.5)}};
  EXPECT_EQ(rate.in(ReportLanguage::English), "rate 2.5 req/s");
  EXPECT_EQ(rate.in(ReportLanguage::Turkish), "saniyede 2,5 istek");
  const Message running{MessageText::StageRunning,
                        {rate.asArgument(), std::string("4"), std::string("http://h/v1")}};
  EXPECT_EQ(running.in(ReportLanguage::English), "running rate 2.5 req/s: 4 requests to http://h/v1");
  EXPECT_EQ(running.in(ReportLanguage::Turkish),
            "yük uygulanıyor, saniyede 2,5 istek: http://h/v1 adresine 4 istek");
}

TEST(MessageText, AMessageErrorIsEnglishToWhatAndItsLanguageToErrorText) {
  try {
    throw MessageError({MessageText::StageNotReady, {std::string("HTTP 503")}});
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "the endpoint is not ready (HTTP 503); trying again in 5 s");
    EXPECT_EQ(errorText(e, ReportLanguage::Turkish),
              "uç nokta hazır değil (HTTP 503); 5 sn sonra yeniden denenecek");
  }
  EXPECT_EQ(errorText(Error("plain"), ReportLanguage::Turkish), "plain");
}

TEST(MessageText, AnErrorWrappedInAnotherKeepsItsTurkish) {
  const MessageError inner({MessageText::ProfileTopP, {}});
  const MessageError outer({MessageText::ProfileFileProblem, {std::string("p.json"), errorArgument(inner)}});
  EXPECT_STREQ(outer.what(), "in the profile file p.json: --top-p must be in (0, 1]");
  EXPECT_EQ(errorText(outer, ReportLanguage::Turkish),
            "p.json profil dosyasında: --top-p (0, 1] aralığında olmalı");
  EXPECT_EQ(errorArgument(Error("plain")).turkish, "plain");
  EXPECT_EQ(decimalArgument("0.500000").turkish, "0,500000");
}

}  // namespace
}  // namespace ayar
