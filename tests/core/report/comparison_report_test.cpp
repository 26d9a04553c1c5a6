#include "core/report/comparison_report.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <regex>

#include "core/metrics/speedup_interval.h"
#include "core/metrics/statistics.h"

namespace ayar {
namespace {

ComparisonReportRun run(std::string name, double meanTtftMs, double outputThroughput) {
  ComparisonReportRun r;
  r.name = std::move(name);
  r.summary.completed = 10;
  r.summary.ttft.meanMs = meanTtftMs;
  r.summary.ttft.samples = 10;
  r.summary.outputThroughput = outputThroughput;
  return r;
}

const ReportBlock* firstTable(const ReportDocument& document) {
  for (const auto& section : document.sections) {
    for (const auto& block : section.blocks) {
      if (block.kind == ReportBlock::Kind::Table) return &block;
    }
  }
  return nullptr;
}

TEST(ComparisonReport, TheSeedTableWordsRatiosInTheReportLanguage) {
  const auto baseline = run("#1 baseline", 126.0, 100.0);
  const auto candidate = run("#2 candidate", 100.0, 95.238);
  const std::vector<RunFigure> figures{RunFigure::MeanTtft, RunFigure::OutputThroughput};
  for (ReportLanguage language : {ReportLanguage::English, ReportLanguage::Turkish}) {
    const ReportDocument document = buildComparisonReport(baseline, {candidate}, language, figures);
    const ReportBlock* table = firstTable(document);
    ASSERT_NE(table, nullptr);
    ASSERT_EQ(table->rows.size(), 2u);
    EXPECT_EQ(table->header.front(), reportText(ReportText::ColumnScenario, language));
    const bool english = language == ReportLanguage::English;
    EXPECT_EQ(table->rows[0][1], english ? "126.00" : "126,00");
    EXPECT_EQ(table->rows[0][3], english ? "1.26x faster" : "1,26x daha hızlı");
    EXPECT_EQ(table->rows[1][3], english ? "1.05x slower" : "1,05x daha yavaş");
    // The numbers and the ratio line up on the right; the scenario reads from the left.
    EXPECT_FALSE(table->isNumericColumn(0));
    EXPECT_TRUE(table->isNumericColumn(1) && table->isNumericColumn(2) && table->isNumericColumn(3));
    EXPECT_NE(table->caption.find("#1 baseline"), std::string::npos);
    EXPECT_NE(table->caption.find("#2 candidate"), std::string::npos);
    EXPECT_NEAR(document.data["candidates"][0]["figures"]["mean_ttft_ms"]["speedup"].get<double>(), 1.26,
                1e-9);
  }
}

// The row: "6.073,75" beside "191.18x daha yavaş". A number and the ratio beside it are
// written alike, in the language for people and in the C locale for machine files.
TEST(ComparisonReport, NumbersAndRatiosFollowTheLanguageForPeopleAndTheCLocaleForMachines) {
  const auto baseline = run("#1 baseline", 31.77, 100.0);
  const auto candidate = run("#2 candidate", 6073.75, 1234.5);
  const std::vector<RunFigure> figures{RunFigure::MeanTtft};
  const auto row = [&](const ReportLocale& locale) {
    return firstTable(buildComparisonReport(baseline, {candidate}, locale, figures))->rows.at(0);
  };
  EXPECT_EQ(row(ReportLanguage::Turkish)[2], "6.073,75");
  EXPECT_EQ(row(ReportLanguage::Turkish)[3], "191,18x daha yavaş");
  EXPECT_EQ(row(ReportLanguage::English)[2], "6,073.75");
  EXPECT_EQ(row(ReportLanguage::English)[3], "191.18x slower");
  for (ReportLanguage language : {ReportLanguage::English, ReportLanguage::Turkish}) {
    for (ReportFormat format : {ReportFormat::Csv, ReportFormat::Json}) {
      const auto machine = row(reportLocaleFor(language, format));
      EXPECT_EQ(machine[1], "31.77");
      EXPECT_EQ(machine[2], "6073.75");
      EXPECT_EQ(machine[3], language == ReportLanguage::English ? "191.18x slower" : "191.18x daha yavaş");
    }
  }
  // The result blocks stay vLLM's, in the C locale, in a Turkish report too.
  const std::string markdown =
      renderMarkdown(buildComparisonReport(baseline, {candidate}, ReportLanguage::Turkish, figures));
  EXPECT_NE(markdown.find("Output token throughput (tok/s):         1234.50"), std::string::npos) << markdown;
  EXPECT_NE(markdown.find("| Ortalama TTFT (ms) | 31,77 | 6.073,75 | 191,18x daha yavaş |"),
            std::string::npos)
      << markdown;
  EXPECT_NE(markdown.find("| --- | ---: | ---: | ---: |"), std::string::npos) << markdown;
}

// A run with its requests' TTFTs (log-normal, as serving latencies are) behind its mean.
ComparisonReportRun runWithRequests(std::string name, std::uint64_t seed, double medianMs) {
  std::mt19937_64 random(seed);
  std::lognormal_distribution<double> draw(std::log(medianMs), 0.5);
  std::vector<double> ttfts(500);
  for (double& value : ttfts)
    value = draw(random);
  ComparisonReportRun r = run(std::move(name), mean(ttfts), 100.0);
  r.requestValuesMs[LatencyMetric::Ttft] = std::move(ttfts);
  return r;
}

// The wording, in a table: a ratio within the runs' own spread says so, its interval beside it;
// a clear one is worded as before; a throughput (one figure a run) has no interval; the method is
// written above the tables, and the data carries each interval.
TEST(ComparisonReport, EachLatencyRatioCarriesItsIntervalAndSaysWhenItIsNoise) {
  const std::vector<RunFigure> figures{RunFigure::MeanTtft, RunFigure::OutputThroughput};
  const auto baseline = runWithRequests("#1 baseline", 1, 40.0);
  const auto same = runWithRequests("#2 same", 2, 40.0);
  const auto faster = runWithRequests("#3 faster", 3, 30.0);
  for (ReportLanguage language : {ReportLanguage::English, ReportLanguage::Turkish}) {
    const bool english = language == ReportLanguage::English;
    const ReportDocument document = buildComparisonReport(baseline, {same, faster}, language, figures);
    std::vector<const ReportBlock*> tables;
    std::string paragraphs;
    for (const auto& section : document.sections) {
      for (const auto& block : section.blocks) {
        if (block.kind == ReportBlock::Kind::Table) tables.push_back(&block);
        if (block.kind == ReportBlock::Kind::Paragraph) paragraphs += block.text + "\n";
      }
    }
    ASSERT_EQ(tables.size(), 2u);
    EXPECT_EQ(tables[0]->header.at(4), english ? "95% CI" : "%95 güven aralığı");
    EXPECT_TRUE(tables[0]->isNumericColumn(4));
    const std::regex range(english ? "[0-9]\\.[0-9]{2}-[0-9]\\.[0-9]{2}" : "[0-9],[0-9]{2}-[0-9],[0-9]{2}");
    const std::string noise = english ? ": no clear difference" : ": belirgin bir fark yok";

    const auto& sameTtft = tables[0]->rows.at(0);
    EXPECT_NE(sameTtft[3].find(noise), std::string::npos) << sameTtft[3];
    EXPECT_TRUE(std::regex_match(sameTtft[4], range)) << sameTtft[4];
    const auto& fasterTtft = tables[1]->rows.at(0);
    EXPECT_NE(fasterTtft[3].find(english ? "x faster" : "x daha hızlı"), std::string::npos) << fasterTtft[3];
    EXPECT_EQ(fasterTtft[3].find(noise), std::string::npos) << fasterTtft[3];
    EXPECT_TRUE(std::regex_match(fasterTtft[4], range)) << fasterTtft[4];
    const std::string noValue(reportText(ReportText::NoteNoValue, language));
    EXPECT_EQ(tables[1]->rows.at(1)[4], noValue);

    EXPECT_NE(paragraphs.find(english ? "percentile bootstrap" : "yüzdelik bootstrap"), std::string::npos)
        << paragraphs;
    EXPECT_NE(paragraphs.find(english ? "1,000 resamples" : "1.000 yeniden örnekleme"), std::string::npos)
        << paragraphs;

    const auto& fasterData = document.data["candidates"][1]["figures"];
    EXPECT_TRUE(fasterData["mean_ttft_ms"]["interval"]["clear"].get<bool>());
    EXPECT_GT(fasterData["mean_ttft_ms"]["interval"]["low"].get<double>(), 1.0);
    EXPECT_EQ(fasterData["mean_ttft_ms"]["interval"]["level"].get<double>(), 0.95);
    EXPECT_FALSE(document.data["candidates"][0]["figures"]["mean_ttft_ms"]["interval"]["clear"].get<bool>());
    EXPECT_TRUE(fasterData["output_throughput"]["interval"].is_null());
  }
  // Runs without their requests keep the seeds' four columns and no note.
  const ReportDocument plain = buildComparisonReport(run("#1", 126.0, 100.0), {run("#2", 100.0, 110.0)},
                                                     ReportLanguage::English, figures);
  EXPECT_EQ(firstTable(plain)->header.size(), 4u);
  EXPECT_EQ(renderMarkdown(plain).find("bootstrap"), std::string::npos);
}

RunSetup setup(std::map<std::string, std::string> flags, std::string requestRate) {
  RunSetup s;
  s.recorded = true;
  s.engine = "ayar";
  s.model = "qwen3-8b";
  s.device = "sim";
  s.flags = std::move(flags);
  s.flagDefaults = {{"--max-num-batched-tokens", "8192"}, {"--enable-prefix-caching", "true"}};
  s.profile = {{"num_prompts", "200"}, {"request_rate", std::move(requestRate)}};
  return s;
}

// What differs, a column per run: a flag given on one side reads as the engine's default (named where
// the catalogue has it) on the other; a profile field and the device; nothing that is the same; a run
// that recorded no set-up says so; runs set up alike say that instead of a table.
TEST(ComparisonReport, OpensWithWhatDiffersFromTheBaselineAColumnPerCandidate) {
  auto baseline = run("#1 baseline", 40.0, 100.0);
  baseline.setup = setup({{"--sim-profile", "fixed:40,4"}}, "inf");
  auto seqs = run("#2 seqs", 30.0, 110.0);
  seqs.setup = setup({{"--sim-profile", "fixed:40,4"}, {"--max-num-seqs", "64"}}, "inf");
  auto batched = run("#3 batched", 35.0, 105.0);
  batched.setup = setup({{"--sim-profile", "fixed:40,4"}, {"--max-num-batched-tokens", "2048"}}, "20");
  batched.setup.device = "cpu";
  auto imported = run("#4 imported", 38.0, 101.0);
  for (ReportLanguage language : {ReportLanguage::English, ReportLanguage::Turkish}) {
    const bool english = language == ReportLanguage::English;
    const ReportDocument document = buildComparisonReport(baseline, {seqs, batched, imported}, language);
    const ReportBlock* table = firstTable(document);
    ASSERT_NE(table, nullptr);
    EXPECT_EQ(table->header, (std::vector<std::string>{english ? "Setting" : "Ayar", "#1 baseline", "#2 seqs",
                                                       "#3 batched", "#4 imported"}));
    std::map<std::string, std::vector<std::string>> rows;
    for (const auto& row : table->rows)
      rows[row.at(0)] = row;
    const std::string device = english ? "Device" : "Aygıt";
    const std::string engineDefault = english ? "engine default" : "motor varsayılanı";
    const std::string notRecorded = english ? "not recorded" : "kaydedilmemiş";
    ASSERT_EQ(rows.size(), 4u) << renderMarkdown(document);
    EXPECT_EQ(rows[device], (std::vector<std::string>{device, "sim", "sim", "cpu", notRecorded}));
    EXPECT_EQ(rows["--max-num-seqs"],
              (std::vector<std::string>{"--max-num-seqs", engineDefault, "64", engineDefault, notRecorded}));
    EXPECT_EQ(rows["--max-num-batched-tokens"][1], english ? "default (8192)" : "varsayılan (8192)");
    EXPECT_EQ(rows["--max-num-batched-tokens"][3], "2048");
    EXPECT_EQ(rows["request_rate"],
              (std::vector<std::string>{"request_rate", "inf", "inf", "20", notRecorded}));
    EXPECT_EQ(rows.count("--sim-profile"), 0u);
    const auto& data = document.data["differences"];
    ASSERT_EQ(data.size(), 4u);
    for (const auto& entry : data) {
      if (entry["setting"] != "--max-num-seqs") continue;
      EXPECT_TRUE(entry["baseline"].is_null());
      EXPECT_EQ(entry["candidates"], nlohmann::json({"64", nullptr, nullptr}));
    }
  }
  // Set up alike (a flag given as its default counts as the default): a sentence, no table.
  auto same = run("#5 same", 39.0, 100.0);
  same.setup = setup({{"--sim-profile", "fixed:40,4"}, {"--max-num-batched-tokens", "8192"}}, "inf");
  const ReportDocument alike = buildComparisonReport(baseline, {same}, ReportLanguage::English);
  EXPECT_NE(renderMarkdown(alike).find(
                std::string(reportText(ReportText::ComparisonSameSetup, ReportLanguage::English))),
            std::string::npos);
  EXPECT_NE(firstTable(alike)->header.front(), "Setting");
  EXPECT_TRUE(alike.data["differences"].empty());
}

TEST(ComparisonReport, RendersToEveryFormatWithBothRunsNamed) {
  const ReportDocument document = buildComparisonReport(
      run("#1 baseline", 126.0, 100.0), {run("#2 candidate", 100.0, 110.0)}, ReportLanguage::Turkish);
  for (ReportFormat format :
       {ReportFormat::Markdown, ReportFormat::Html, ReportFormat::Csv, ReportFormat::Json}) {
    const std::string out = renderReport(document, format);
    EXPECT_NE(out.find("#1 baseline"), std::string::npos);
    EXPECT_NE(out.find("#2 candidate"), std::string::npos);
  }
  const auto json = nlohmann::json::parse(renderReport(document, ReportFormat::Json));
  EXPECT_EQ(json["language"], "tr");
  EXPECT_EQ(json["data"]["baseline"], "#1 baseline");
}

}  // namespace
}  // namespace ayar
