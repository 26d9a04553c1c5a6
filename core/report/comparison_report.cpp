#include "core/report/comparison_report.h"

#include "core/report/text_block.h"

namespace ayar {

namespace {

std::string text(ReportText id, ReportLanguage language) {
  return std::string(reportText(id, language));
}

}  // namespace

std::vector<RunFigure> defaultComparisonFigures() {
  return {RunFigure::MeanE2el,         RunFigure::MeanTtft,
          RunFigure::P99Ttft,          RunFigure::MeanTpot,
          RunFigure::P99Tpot,          RunFigure::RequestThroughput,
          RunFigure::OutputThroughput, RunFigure::TotalTokenThroughput};
}

ReportDocument buildComparisonReport(const ComparisonReportRun& baseline,
                                     const std::vector<ComparisonReportRun>& candidates,
                                     const ReportLocale& locale, const std::vector<RunFigure>& figures) {
  const ReportLanguage language = locale.language();
  ReportDocument document;
  document.language = language;
  document.title = text(ReportText::ComparisonTitle, language);
  const std::string noValue = text(ReportText::NoteNoValue, language);

  ReportSection& runs = document.addSection(text(ReportText::ComparisonRuns, language));
  std::vector<std::string> names{text(ReportText::ColumnBaseline, language) + ": " + baseline.name};
  for (const auto& candidate : candidates)
    names.push_back(text(ReportText::ColumnCandidate, language) + ": " + candidate.name);
  runs.blocks.push_back(ReportBlock::list(std::move(names)));
  bool simulated = baseline.simulated;
  for (const auto& candidate : candidates)
    simulated = simulated || candidate.simulated;
  if (simulated) runs.blocks.push_back(ReportBlock::paragraph(text(ReportText::NoteSimulated, language)));

  document.data["baseline"] = baseline.name;
  document.data["candidates"] = nlohmann::json::array();
  const std::vector<std::string> header{
      text(ReportText::ColumnScenario, language), text(ReportText::ColumnBaseline, language),
      text(ReportText::ColumnCandidate, language), text(ReportText::ColumnRatio, language)};
  ReportSection& tables = document.addSection(text(ReportText::ColumnComparison, language));
  tables.blocks.push_back(ReportBlock::paragraph(text(ReportText::ComparisonRatioNote, language)));
  for (const auto& candidate : candidates) {
    std::vector<std::vector<std::string>> rows;
    nlohmann::json figuresJson = nlohmann::json::object();
    for (RunFigure figure : figures) {
      const auto b = runFigureValue(baseline.summary, figure);
      const auto c = runFigureValue(candidate.summary, figure);
      if (!b && !c) continue;
      // The ratio as text and JSON at once: GCC 12 misreads a std::optional<double> copy here as
      // uninitialised.
      std::string ratioText = noValue;
      nlohmann::json ratioJson;
      if (b && c) {
        if (const auto ratio = speedup(*b, *c, runFigureBetter(figure))) {
          ratioText = formatSpeedup(*ratio, locale);
          ratioJson = *ratio;
        }
      }
      rows.push_back({std::string(runFigureLabel(figure, language)) + " (" +
                          std::string(runFigureUnit(figure, language)) + ")",
                      b ? locale.number(*b) : noValue, c ? locale.number(*c) : noValue, ratioText});
      nlohmann::json entry = nlohmann::json::object();
      entry["baseline"] = b ? nlohmann::json(*b) : nlohmann::json();
      entry["candidate"] = c ? nlohmann::json(*c) : nlohmann::json();
      entry["speedup"] = std::move(ratioJson);
      figuresJson[std::string(runFigureKey(figure))] = std::move(entry);
    }
    tables.blocks.push_back(ReportBlock::table(
        formatReportText(ReportText::ComparisonTableCaption, language, {baseline.name, candidate.name}),
        header, std::move(rows), {1, 2, 3}));
    document.data["candidates"].push_back({{"name", candidate.name}, {"figures", std::move(figuresJson)}});
  }

  // The charts (PDF, HTML) follow the tables they illustrate; the result blocks close the report.
  document.chartsBeforeSection = document.sections.size();
  ReportSection& results = document.addSection(text(ReportText::StudyResultBlock, language));
  auto addResult = [&](const ComparisonReportRun& run) {
    TextBlockOptions options;
    options.requestRate = run.requestRate;
    options.syntheticDataset = run.syntheticDataset;
    results.blocks.push_back(
        ReportBlock::result(formatReportText(ReportText::ComparisonResultOf, language, {run.name}),
                            formatServingBenchmarkResult(run.summary, options)));
  };
  addResult(baseline);
  for (const auto& candidate : candidates)
    addResult(candidate);
  return document;
}

}  // namespace ayar
