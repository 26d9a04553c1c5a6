#include "core/report/comparison_report.h"

#include <gtest/gtest.h>

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
    EXPECT_EQ(table->rows[0][1], "126.00");  // C locale in files, whatever the language
    const bool english = language == ReportLanguage::English;
    EXPECT_EQ(table->rows[0][3], english ? "1.26x faster" : "1.26x daha hızlı");
    EXPECT_EQ(table->rows[1][3], english ? "1.05x slower" : "1.05x daha yavaş");
    EXPECT_NE(table->caption.find("#1 baseline"), std::string::npos);
    EXPECT_NE(table->caption.find("#2 candidate"), std::string::npos);
    EXPECT_NEAR(document.data["candidates"][0]["figures"]["mean_ttft_ms"]["speedup"].get<double>(), 1.26,
                1e-9);
  }
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
