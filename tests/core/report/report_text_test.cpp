#include "core/report/report_text.h"

#include <gtest/gtest.h>

#include <clocale>
#include <cmath>
#include <limits>
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
  EXPECT_EQ(formatSpeedup(1.26, ReportLanguage::Turkish), "1,26x daha hızlı");
  EXPECT_EQ(formatSpeedup(2.62 / 2.69, ReportLanguage::English), "1.03x slower");
  EXPECT_EQ(formatSpeedup(1.0 / 1.05, ReportLanguage::Turkish), "1,05x daha yavaş");
  EXPECT_EQ(formatSpeedup(1.0, ReportLanguage::English), "1.00x faster");
  EXPECT_EQ(formatSpeedup(1.58, ReportLanguage::English, true), "1.58x higher");
  EXPECT_EQ(formatSpeedup(0.5, ReportLanguage::Turkish, true), "2,00x daha düşük");
  EXPECT_EQ(formatSpeedup(1234.5, ReportLanguage::Turkish), "1.234,50x daha hızlı");
  // A machine file (CSV, JSON) keeps the C locale's number in the Turkish words.
  EXPECT_EQ(formatSpeedup(1.26, ReportLocale(ReportLanguage::Turkish, NumberStyle::C)), "1.26x daha hızlı");
}

// A ratio with its confidence interval, in the ratio's own sense; within noise it says so.
TEST(ReportText, SpeedupWithItsIntervalSaysWhenItIsNoClearDifference) {
  SpeedupInterval clear{.speedup = 1.26, .low = 1.18, .high = 1.33, .level = 0.95, .resamples = 1000};
  EXPECT_EQ(formatSpeedupInterval(clear, ReportLanguage::English), "1.26x faster (95% CI 1.18-1.33)");
  EXPECT_EQ(formatSpeedupInterval(clear, ReportLanguage::Turkish),
            "1,26x daha hızlı (%95 güven aralığı 1,18-1,33)");
  const SpeedupInterval noise{.speedup = 1.04, .low = 0.98, .high = 1.10, .level = 0.95, .resamples = 1000};
  EXPECT_EQ(formatSpeedupInterval(noise, ReportLanguage::English),
            "1.04x faster (95% CI 0.98-1.10): no clear difference");
  EXPECT_EQ(formatSpeedupInterval(noise, ReportLanguage::Turkish),
            "1,04x daha hızlı (%95 güven aralığı 0,98-1,10): belirgin bir fark yok");
  // Slower: the ratio and the interval are both inverted, the ends swapped.
  const SpeedupInterval slower{
      .speedup = 1.0 / 1.05, .low = 1.0 / 1.09, .high = 1.0 / 1.01, .level = 0.95, .resamples = 1000};
  EXPECT_EQ(formatSpeedupInterval(slower, ReportLanguage::English), "1.05x slower (95% CI 1.01-1.09)");
  const SpeedupInterval throughput{
      .speedup = 0.97, .low = 0.93, .high = 1.02, .level = 0.9, .resamples = 500};
  EXPECT_EQ(formatSpeedupInterval(throughput, ReportLanguage::English, true),
            "1.03x lower (90% CI 0.98-1.08): no clear difference");
  // The ends alone, for a table's interval column, in the same sense as the ratio beside them.
  EXPECT_EQ(formatIntervalRange(clear, ReportLanguage::English), "1.18-1.33");
  EXPECT_EQ(formatIntervalRange(clear, ReportLanguage::Turkish), "1,18-1,33");
  EXPECT_EQ(formatIntervalRange(slower, ReportLanguage::English), "1.01-1.09");
  EXPECT_EQ(formatIntervalRange(clear, ReportLocale(ReportLanguage::Turkish, NumberStyle::C)), "1.18-1.33");
}

TEST(ReportLocale, TurkishUsesADecimalCommaAndDotThousandsAsTheWorkbenchShowsThem) {
  const ReportLocale turkish(ReportLanguage::Turkish);
  EXPECT_EQ(turkish.number(6073.75), "6.073,75");
  EXPECT_EQ(turkish.number(13.4249), "13,42");
  EXPECT_EQ(turkish.number(1234567.891), "1.234.567,89");
  EXPECT_EQ(turkish.number(999.5), "999,50");
  EXPECT_EQ(turkish.number(1000.0), "1.000,00");
  EXPECT_EQ(turkish.number(-12.5), "-12,50");
  EXPECT_EQ(turkish.number(2.5, 0), "2");  // round half to even, as the C library rounds
  EXPECT_EQ(turkish.number(-0.004), "0,00");
  EXPECT_EQ(turkish.integer(1000), "1.000");
  EXPECT_EQ(turkish.integer(-12345), "-12.345");
  EXPECT_EQ(turkish.percent(95.0), "%95,0");
  EXPECT_EQ(turkish.signedPercent(58.08), "+%58,1");
  EXPECT_EQ(turkish.signedPercent(-3.0), "-%3,0");
}

TEST(ReportLocale, EnglishGroupsThousandsWithCommasAndTheCLocaleDoesNotGroup) {
  const ReportLocale english(ReportLanguage::English);
  EXPECT_EQ(english.number(6073.75), "6,073.75");
  EXPECT_EQ(english.number(999.5), "999.50");
  EXPECT_EQ(english.integer(1234567), "1,234,567");
  EXPECT_EQ(english.percent(95.0, 2), "95.00%");
  for (ReportLanguage language : kLanguages) {
    const ReportLocale c(language, NumberStyle::C);
    EXPECT_EQ(c.number(6073.75), "6073.75");
    EXPECT_EQ(c.number(1234567.891, 3), "1234567.891");
    EXPECT_EQ(c.integer(1000), "1000");
    EXPECT_EQ(c.percent(95.0), "95.0%");
  }
  EXPECT_EQ(english.number(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(english.number(std::nan("")), "nan");
}

TEST(ReportLocale, NumbersAreTheSameWhateverTheProcessLocale) {
  // A Turkish desktop sets LC_NUMERIC to a decimal comma; what a report writes does not follow it.
  const std::string saved = std::setlocale(LC_NUMERIC, nullptr);
  const bool turkish = std::setlocale(LC_NUMERIC, "tr_TR.UTF-8") != nullptr;
  const std::string faster = formatSpeedup(1.26, ReportLanguage::English);
  const std::string machine = ReportLocale(ReportLanguage::Turkish, NumberStyle::C).number(6073.75);
  const std::string people = ReportLocale(ReportLanguage::Turkish).number(6073.75);
  const std::string change = formatRelativeChange(0.5808);
  std::setlocale(LC_NUMERIC, saved.c_str());
  EXPECT_EQ(faster, "1.26x faster");
  EXPECT_EQ(machine, "6073.75");
  EXPECT_EQ(people, "6.073,75");
  EXPECT_EQ(change, "+58.1%");
  if (!turkish) GTEST_LOG_(INFO) << "tr_TR.UTF-8 is not installed; checked in the C locale only";
}

TEST(ReportText, RelativeChangeHasOneDecimalAndASign) {
  EXPECT_EQ(formatRelativeChange(0.5808), "+58.1%");
  EXPECT_EQ(formatRelativeChange(1.913), "+191.3%");
  EXPECT_EQ(formatRelativeChange(-0.03), "-3.0%");
  EXPECT_EQ(formatRelativeChange(0.0), "+0.0%");
  EXPECT_EQ(formatRelativeChange(-0.00001), "+0.0%");
  EXPECT_EQ(formatRelativeChange(0.5808, ReportLanguage::Turkish), "+%58,1");
}

// Phrases that take a figure's name mid-sentence get it in lower case; a title a study file gives
// (capitalised, "Daha hızlı süreler") opens the sentence or stands in quotes.
TEST(ReportText, FiguresInsideSentencesAreNotCapitalised) {
  for (ReportLanguage language : kLanguages) {
    for (RunFigure figure : kAllRunFigures) {
      const std::string_view name = runFigureInText(figure, language);
      ASSERT_FALSE(name.empty());
      // No capital letter first (ASCII or Turkish: Ç Ğ İ Ö Ş Ü), but for an acronym (P99, SLO).
      const bool acronym = name.starts_with("P99") || name.starts_with("SLO");
      bool capital = name[0] >= 'A' && name[0] <= 'Z';
      for (std::string_view upper : {"Ç", "Ğ", "İ", "Ö", "Ş", "Ü"})
        capital = capital || name.starts_with(upper);
      EXPECT_TRUE(acronym || !capital) << name;
    }
  }
  EXPECT_EQ(runFigureInText(RunFigure::MeanE2el, ReportLanguage::Turkish), "ortalama gecikme");
  EXPECT_EQ(
      formatReportText(ReportText::StudyRecommendedWhy, ReportLanguage::Turkish,
                       {"Daha hızlı süreler", runFigureInText(RunFigure::MeanE2el, ReportLanguage::Turkish),
                        "Rastgele 32/8", "1,25x daha hızlı"}),
      "Daha hızlı süreler, “Rastgele 32/8” profilinde ortalama gecikme açısından en iyi yapılandırmadır: "
      "1,25x daha hızlı.");
  EXPECT_EQ(formatReportText(ReportText::StudyBaselineStays, ReportLanguage::Turkish,
                             {runFigureInText(RunFigure::MeanE2el, ReportLanguage::Turkish)}),
            "Hiçbir seçenek ortalama gecikme açısından temel yapılandırmayı geçemedi; önerilen yapılandırma "
            "yine temel yapılandırmadır.");
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
