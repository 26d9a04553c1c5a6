#include "core/report/report_text.h"

#include <gtest/gtest.h>

#include <clocale>
#include <set>
#include <string>

#include "core/error.h"

namespace ayar {
namespace {

constexpr ReportLanguage kLanguages[] = {ReportLanguage::English, ReportLanguage::Turkish};

TEST(ReportText, EveryPhraseHasBothLanguages) {
  for (int i = 0; i < static_cast<int>(ReportText::Count_); ++i) {
    const auto id = static_cast<ReportText>(i);
    for (ReportLanguage language : kLanguages)
      EXPECT_FALSE(reportText(id, language).empty())
          << "phrase " << i << " in " << reportLanguageCode(language);
  }
}

TEST(ReportText, FigureLabelsAreDistinctWithinALanguage) {
  for (ReportLanguage language : kLanguages) {
    std::set<std::string_view> labels;
    for (RunFigure figure : kAllRunFigures)
      EXPECT_TRUE(labels.insert(runFigureLabel(figure, language)).second)
          << runFigureLabel(figure, language) << " twice in " << reportLanguageCode(language);
  }
  EXPECT_EQ(runFigureLabel(RunFigure::MeanE2el, ReportLanguage::English), "Mean latency");
  EXPECT_EQ(runFigureLabel(RunFigure::MeanE2el, ReportLanguage::Turkish), "Ortalama gecikme");
  EXPECT_EQ(runFigureUnit(RunFigure::P99Ttft, ReportLanguage::Turkish), "ms");
  EXPECT_EQ(runFigureUnit(RunFigure::RequestThroughput, ReportLanguage::English), "req/s");
  EXPECT_EQ(runFigureUnit(RunFigure::TotalTokenThroughput, ReportLanguage::Turkish), "token/sn");
}

TEST(ReportText, SpeedupReadsFasterAboveOneAndSlowerBelowInBothLanguages) {
  // The seeds' wording: 2.09 s -> 1.65 s and 2.62 s -> 2.69 s.
  EXPECT_EQ(formatSpeedup(2.09 / 1.65, ReportLanguage::English), "1.27x faster");
  EXPECT_EQ(formatSpeedup(1.26, ReportLanguage::English), "1.26x faster");
  EXPECT_EQ(formatSpeedup(1.26, ReportLanguage::Turkish), "1.26x daha hızlı");
  EXPECT_EQ(formatSpeedup(2.62 / 2.69, ReportLanguage::English), "1.03x slower");
  EXPECT_EQ(formatSpeedup(1.0 / 1.05, ReportLanguage::Turkish), "1.05x daha yavaş");
  EXPECT_EQ(formatSpeedup(1.0, ReportLanguage::English), "1.00x faster");
  EXPECT_EQ(formatSpeedup(1.58, ReportLanguage::English, true), "1.58x higher");
  EXPECT_EQ(formatSpeedup(0.5, ReportLanguage::Turkish, true), "2.00x daha düşük");
}

TEST(ReportText, NumbersUseAPointWhateverTheProcessLocale) {
  // A Turkish desktop sets LC_NUMERIC to a decimal comma; reports are files and keep the point.
  const std::string saved = std::setlocale(LC_NUMERIC, nullptr);
  const bool turkish = std::setlocale(LC_NUMERIC, "tr_TR.UTF-8") != nullptr;
  const std::string faster = formatSpeedup(1.26, ReportLanguage::Turkish);
  const std::string change = formatRelativeChange(0.5808);
  std::setlocale(LC_NUMERIC, saved.c_str());
  EXPECT_EQ(faster, "1.26x daha hızlı");
  EXPECT_EQ(change, "+58.1%");
  if (!turkish) GTEST_LOG_(INFO) << "tr_TR.UTF-8 is not installed; checked in the C locale only";
}

TEST(ReportText, RelativeChangeHasOneDecimalAndASign) {
  EXPECT_EQ(formatRelativeChange(0.5808), "+58.1%");
  EXPECT_EQ(formatRelativeChange(1.913), "+191.3%");
  EXPECT_EQ(formatRelativeChange(-0.03), "-3.0%");
  EXPECT_EQ(formatRelativeChange(0.0), "+0.0%");
  EXPECT_EQ(formatRelativeChange(-0.00001), "+0.0%");
}

TEST(ReportText, FormatPutsArgumentsWhereThePlaceholdersAre) {
  EXPECT_EQ(formatReportText(ReportText::TimesFaster, ReportLanguage::Turkish, {"3.10"}), "3.10x daha hızlı");
}

TEST(ReportText, LanguageCodesParseAndUnknownOnesAreNamed) {
  EXPECT_EQ(parseReportLanguage("tr"), ReportLanguage::Turkish);
  EXPECT_EQ(parseReportLanguage("TR"), ReportLanguage::Turkish);
  EXPECT_EQ(parseReportLanguage("Türkçe"), ReportLanguage::Turkish);
  EXPECT_EQ(parseReportLanguage("en"), ReportLanguage::English);
  EXPECT_EQ(parseReportLanguage("English"), ReportLanguage::English);
  EXPECT_EQ(reportLanguageCode(ReportLanguage::Turkish), "tr");
  try {
    parseReportLanguage("de");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'de'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ayar
