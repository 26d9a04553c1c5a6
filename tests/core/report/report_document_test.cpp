#include "core/report/report_document.h"

#include <gtest/gtest.h>

#include <clocale>
#include <nlohmann/json.hpp>

#include "core/error.h"

namespace ayar {
namespace {

ReportDocument sampleDocument(ReportLanguage language) {
  ReportDocument document;
  document.language = language;
  document.title = "Qwen3 <latency> & \"study\"";
  ReportSection& section = document.addSection("Sonuç | özet");
  section.blocks.push_back(ReportBlock::paragraph("Önerilen yapılandırma: <script>alert(1)</script>"));
  section.blocks.push_back(
      ReportBlock::code("Model sunum komutu", "ayar-engine serve qwen3-8b --max-num-seqs 64"));
  section.blocks.push_back(ReportBlock::table(
      "", {"Senaryo", "Temel", "Optimize"},
      {{"Rate 1", "2.09 s", "1.65 s (1.26x daha hızlı)"}, {"a|b", "x,y", "\"q\""}, {"short"}}));
  ReportSection& results = document.addSection("Deney sonuçları", 3);
  results.blocks.push_back(ReportBlock::result("Benchmark sonucu", "=== Result ===\n```nested```\n"));
  results.blocks.push_back(ReportBlock::list({"bir", "iki"}));
  document.data = {{"ratio", 1.26}};
  return document;
}

TEST(ReportDocument, MarkdownHasHeadingsPipeTablesAndFencedBlocks) {
  const std::string md = renderMarkdown(sampleDocument(ReportLanguage::Turkish));
  EXPECT_EQ(md.rfind("# Qwen3 <latency> & \"study\"\n", 0), 0u) << md;
  EXPECT_NE(md.find("\n## Sonuç | özet\n"), std::string::npos);
  EXPECT_NE(md.find("\n### Deney sonuçları\n"), std::string::npos);
  EXPECT_NE(md.find("| Senaryo | Temel | Optimize |\n| --- | --- | --- |\n"), std::string::npos) << md;
  EXPECT_NE(md.find("| Rate 1 | 2.09 s | 1.65 s (1.26x daha hızlı) |"), std::string::npos);
  EXPECT_NE(md.find("| a\\|b | x,y | \"q\" |"), std::string::npos) << md;
  EXPECT_NE(md.find("| short |  |  |"), std::string::npos) << md;  // short rows are padded
  EXPECT_NE(md.find("```bash\nayar-engine serve qwen3-8b --max-num-seqs 64\n```"), std::string::npos);
  // A fence longer than the backticks inside the block.
  EXPECT_NE(md.find("````text\n=== Result ===\n```nested```\n````"), std::string::npos) << md;
  EXPECT_NE(md.find("- bir\n- iki\n"), std::string::npos);
}

TEST(ReportDocument, HtmlIsSelfContainedAndEscapesEveryText) {
  const std::string html = renderHtml(sampleDocument(ReportLanguage::Turkish));
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("<html lang=\"tr\">"), std::string::npos);
  EXPECT_NE(html.find("<meta charset=\"utf-8\">"), std::string::npos);
  EXPECT_EQ(html.find("<script>"), std::string::npos) << "unescaped text";
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(html.find("<title>Qwen3 &lt;latency&gt; &amp; &quot;study&quot;</title>"), std::string::npos);
  EXPECT_NE(html.find("<td>1.65 s (1.26x daha hızlı)</td>"), std::string::npos);
  EXPECT_NE(html.find("<h3>Deney sonuçları</h3>"), std::string::npos);
  // Nothing loaded from elsewhere.
  EXPECT_EQ(html.find("http://"), std::string::npos);
  EXPECT_EQ(html.find("https://"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
}

TEST(ReportDocument, CsvListsEveryTableWithRfc4180Quoting) {
  const std::string csv = renderCsv(sampleDocument(ReportLanguage::Turkish));
  EXPECT_EQ(csv,
            "Bölüm,Senaryo,Temel,Optimize\r\n"
            "Sonuç | özet,Rate 1,2.09 s,1.65 s (1.26x daha hızlı)\r\n"
            "Sonuç | özet,a|b,\"x,y\",\"\"\"q\"\"\"\r\n"
            "Sonuç | özet,short,,\r\n");
  EXPECT_EQ(renderCsv(sampleDocument(ReportLanguage::English)).rfind("Section,", 0), 0u);
}

TEST(ReportDocument, JsonCarriesTheStructureAndTheData) {
  const auto json = nlohmann::json::parse(renderJson(sampleDocument(ReportLanguage::English)));
  EXPECT_EQ(json["language"], "en");
  ASSERT_EQ(json["sections"].size(), 2u);
  EXPECT_EQ(json["sections"][0]["blocks"][2]["type"], "table");
  EXPECT_EQ(json["sections"][0]["blocks"][2]["rows"][0][2], "1.65 s (1.26x daha hızlı)");
  EXPECT_EQ(json["sections"][1]["blocks"][0]["type"], "result");
  EXPECT_EQ(json["sections"][1]["level"], 3);
  EXPECT_DOUBLE_EQ(json["data"]["ratio"].get<double>(), 1.26);
}

TEST(ReportDocument, OutputDoesNotDependOnTheProcessLocale) {
  const std::string before = renderJson(sampleDocument(ReportLanguage::Turkish)) +
                             renderCsv(sampleDocument(ReportLanguage::Turkish));
  const char* set = std::setlocale(LC_ALL, "tr_TR.UTF-8");
  if (set == nullptr) set = std::setlocale(LC_ALL, "de_DE.UTF-8");
  const std::string after = renderJson(sampleDocument(ReportLanguage::Turkish)) +
                            renderCsv(sampleDocument(ReportLanguage::Turkish));
  std::setlocale(LC_ALL, "C");
  EXPECT_EQ(before, after);
}

// Numbers line up on the right in every rendering that has columns; Qt's rich text engine (the PDF,
// the workbench's report view) gets its padding, borders and alignment as table attributes.
TEST(ReportDocument, NumberColumnsAreAlignedRightAndQtTablesArePadded) {
  ReportDocument document;
  document.language = ReportLanguage::Turkish;
  document.title = "T";
  document.addSection("S").blocks.push_back(ReportBlock::table(
      "", {"Senaryo", "Temel yapılandırma", "Aday"}, {{"Ortalama TTFT (ms)", "6.073,75", "31,77"}}, {1, 2}));
  EXPECT_NE(renderMarkdown(document).find("| Senaryo | Temel yapılandırma | Aday |\n| --- | ---: | ---: |\n"),
            std::string::npos)
      << renderMarkdown(document);
  const std::string browser = renderHtml(document);
  EXPECT_NE(browser.find("<th>Senaryo</th><th class=\"num\">Temel yapılandırma</th>"), std::string::npos)
      << browser;
  EXPECT_NE(browser.find("<td class=\"num\">6.073,75</td>"), std::string::npos);
  EXPECT_NE(browser.find("td.num { text-align: right;"), std::string::npos);
  const std::string qt = renderHtml(document, HtmlDialect::QtRichText);
  EXPECT_NE(qt.find("<table border=\"1\" cellspacing=\"0\" cellpadding=\"5\">"), std::string::npos) << qt;
  EXPECT_NE(qt.find("<td align=\"left\">Ortalama TTFT (ms)</td><td align=\"right\" style=\"white-space: "
                    "nowrap\">6.073,75</td>"),
            std::string::npos)
      << qt;
  EXPECT_EQ(qt.find("rem"), std::string::npos) << "Qt's rich text engine ignores rem";

  // A wrapping column (a ratio and its verdict) may break on Qt's page; a browser keeps it whole.
  document.sections[0].blocks[0].wrappingColumns = {2};
  const std::string wrapping = renderHtml(document, HtmlDialect::QtRichText);
  EXPECT_NE(wrapping.find("nowrap\">6.073,75</td><td align=\"right\">31,77</td>"), std::string::npos)
      << wrapping;
  EXPECT_NE(renderHtml(document).find("<td class=\"num\">31,77</td>"), std::string::npos);
}

TEST(ReportDocument, PeopleGetTheLanguagesNumbersAndMachineFilesTheCLocales) {
  EXPECT_EQ(numberStyleFor(ReportFormat::Markdown), NumberStyle::Language);
  EXPECT_EQ(numberStyleFor(ReportFormat::Html), NumberStyle::Language);
  EXPECT_EQ(numberStyleFor(ReportFormat::Csv), NumberStyle::C);
  EXPECT_EQ(numberStyleFor(ReportFormat::Json), NumberStyle::C);
  EXPECT_EQ(reportLocaleFor(ReportLanguage::Turkish, ReportFormat::Markdown).number(13.42), "13,42");
  EXPECT_EQ(reportLocaleFor(ReportLanguage::Turkish, ReportFormat::Csv).number(13.42), "13.42");
}

TEST(ReportDocument, FormatNamesAreParsedAndBadOnesNamed) {
  EXPECT_EQ(parseReportFormat("md"), ReportFormat::Markdown);
  EXPECT_EQ(parseReportFormat("markdown"), ReportFormat::Markdown);
  EXPECT_EQ(parseReportFormat("html"), ReportFormat::Html);
  EXPECT_EQ(parseReportFormat("csv"), ReportFormat::Csv);
  EXPECT_EQ(parseReportFormat("json"), ReportFormat::Json);
  try {
    parseReportFormat("pdf");
    FAIL() << "accepted pdf";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("'pdf'"), std::string::npos);
  }
}

}  // namespace
}  // namespace ayar
