#include "core/report/comparison_report.h"

#include <set>

#include "core/metrics/speedup_interval.h"
#include "core/report/text_block.h"

namespace ayar {

namespace {

std::string text(ReportText id, ReportLanguage language) {
  return std::string(reportText(id, language));
}

// A setting of one run: its value, or nothing when the run leaves it to the engine (no default known)
// or did not record it.
struct SettingValue {
  std::optional<std::string> value;
  bool isDefault = false;  // the value is the engine's default, not one the run gave
};

bool operator==(const SettingValue& a, const SettingValue& b) {
  return a.value == b.value;
}

SettingValue flagValue(const RunSetup& setup, const std::string& flag) {
  if (const auto given = setup.flags.find(flag); given != setup.flags.end()) return {given->second, false};
  if (const auto fallback = setup.flagDefaults.find(flag); fallback != setup.flagDefaults.end())
    return {fallback->second, true};
  return {};
}

SettingValue mapValue(const std::map<std::string, std::string>& values, const std::string& key) {
  if (const auto found = values.find(key); found != values.end()) return {found->second, false};
  return {};
}

// The "what differs" section: a table with a column per run, or a sentence when nothing differs.
void addDifferences(ReportDocument& document, const ComparisonReportRun& baseline,
                    const std::vector<ComparisonReportRun>& candidates, ReportLanguage language) {
  std::vector<const RunSetup*> setups;
  for (const auto& candidate : candidates)
    setups.push_back(&candidate.setup);
  SetupDifferences differences = setupDifferences(baseline.setup, setups, language);
  if (!differences.compared) return;
  ReportSection& section = document.addSection(text(ReportText::ComparisonDifferences, language));
  document.data["differences"] = std::move(differences.data);
  if (differences.rows.empty()) {
    section.blocks.push_back(ReportBlock::paragraph(text(ReportText::ComparisonSameSetup, language)));
    return;
  }
  section.blocks.push_back(ReportBlock::paragraph(text(ReportText::ComparisonDifferencesNote, language)));
  std::vector<std::string> header{text(ReportText::ColumnSetting, language), baseline.name};
  for (const auto& candidate : candidates)
    header.push_back(candidate.name);
  section.blocks.push_back(ReportBlock::table("", std::move(header), std::move(differences.rows)));
}

nlohmann::json intervalJson(const std::optional<SpeedupInterval>& interval) {
  if (!interval) return nullptr;
  return {{"low", interval->low},
          {"high", interval->high},
          {"level", interval->level},
          {"resamples", interval->resamples},
          {"clear", interval->clear()}};
}

}  // namespace

SetupDifferences setupDifferences(const RunSetup& baseline, const std::vector<const RunSetup*>& candidates,
                                  ReportLanguage language) {
  SetupDifferences out;
  if (!baseline.recorded) return out;
  out.compared = true;
  std::vector<const RunSetup*> runs{&baseline};
  runs.insert(runs.end(), candidates.begin(), candidates.end());
  const std::string notRecorded = text(ReportText::SettingNotRecorded, language);
  const std::string engineDecides = text(ReportText::SettingEngineDecides, language);
  // One row when a recorded candidate's value differs from the baseline's.
  const auto addRow = [&](const std::string& setting, const auto& valueOf) {
    const SettingValue base = valueOf(baseline);
    bool differs = false;
    for (const RunSetup* candidate : candidates)
      differs = differs || (candidate->recorded && !(valueOf(*candidate) == base));
    if (!differs) return;
    std::vector<std::string> row{setting};
    nlohmann::json entry{{"setting", setting}, {"candidates", nlohmann::json::array()}};
    for (const RunSetup* run : runs) {
      std::string cell = notRecorded;
      nlohmann::json value;
      if (run->recorded) {
        const SettingValue v = valueOf(*run);
        cell = !v.value           ? engineDecides
               : v.isDefault      ? formatReportText(ReportText::SettingDefault, language, {*v.value})
               : v.value->empty() ? text(ReportText::SettingSwitchOn, language)
                                  : *v.value;
        if (v.value) value = *v.value;
      }
      row.push_back(std::move(cell));
      if (run == &baseline) {
        entry["baseline"] = std::move(value);
      } else {
        entry["candidates"].push_back(std::move(value));
      }
    }
    out.rows.push_back(std::move(row));
    out.data.push_back(std::move(entry));
  };
  addRow(text(ReportText::SettingEngine, language), [](const RunSetup& s) { return SettingValue{s.engine}; });
  addRow(text(ReportText::SettingModel, language), [](const RunSetup& s) { return SettingValue{s.model}; });
  addRow(text(ReportText::SettingDevice, language), [](const RunSetup& s) { return SettingValue{s.device}; });
  std::set<std::string> flags, fields;
  for (const RunSetup* run : runs) {
    for (const auto& [flag, value] : run->flags)
      flags.insert(flag);
    for (const auto& [field, value] : run->profile)
      fields.insert(field);
  }
  for (const std::string& flag : flags)
    addRow(flag, [&](const RunSetup& s) { return flagValue(s, flag); });
  for (const std::string& field : fields)
    addRow(field, [&](const RunSetup& s) { return mapValue(s.profile, field); });
  return out;
}

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
  addDifferences(document, baseline, candidates, language);

  document.data["baseline"] = baseline.name;
  document.data["candidates"] = nlohmann::json::array();
  const BootstrapOptions bootstrap;
  ReportSection& tables = document.addSection(text(ReportText::ColumnComparison, language));
  tables.blocks.push_back(ReportBlock::paragraph(text(ReportText::ComparisonRatioNote, language)));
  bool anyInterval = false;
  for (const auto& candidate : candidates) {
    std::vector<std::vector<std::string>> rows;
    nlohmann::json figuresJson = nlohmann::json::object();
    bool intervals = false;
    for (RunFigure figure : figures) {
      const auto b = runFigureValue(baseline.summary, figure);
      const auto c = runFigureValue(candidate.summary, figure);
      if (!b && !c) continue;
      // The ratio as text and JSON at once: GCC 12 misreads a std::optional<double> copy here as
      // uninitialised.
      std::string ratioText = noValue;
      std::string intervalText = noValue;
      nlohmann::json ratioJson;
      std::optional<SpeedupInterval> interval;
      if (b && c) {
        if (const auto ratio = speedup(*b, *c, runFigureBetter(figure))) {
          ratioText = formatSpeedup(*ratio, locale);
          ratioJson = *ratio;
          interval =
              figureSpeedupInterval(baseline.requestValuesMs, candidate.requestValuesMs, figure, bootstrap);
          if (interval) {
            // The table's ratio is the summary's figure; the interval is the resamples' spread around it.
            interval->speedup = *ratio;
            intervalText = formatIntervalRange(*interval, locale);
            if (!interval->clear())
              ratioText = formatReportText(ReportText::NoClearDifference, language, {ratioText});
            intervals = true;
          }
        }
      }
      rows.push_back({std::string(runFigureLabel(figure, language)) + " (" +
                          std::string(runFigureUnit(figure, language)) + ")",
                      b ? locale.number(*b) : noValue, c ? locale.number(*c) : noValue, ratioText,
                      intervalText});
      nlohmann::json entry = nlohmann::json::object();
      entry["baseline"] = b ? nlohmann::json(*b) : nlohmann::json();
      entry["candidate"] = c ? nlohmann::json(*c) : nlohmann::json();
      entry["speedup"] = std::move(ratioJson);
      entry["interval"] = intervalJson(interval);
      figuresJson[std::string(runFigureKey(figure))] = std::move(entry);
    }
    std::vector<std::string> header{
        text(ReportText::ColumnScenario, language), text(ReportText::ColumnBaseline, language),
        text(ReportText::ColumnCandidate, language), text(ReportText::ColumnRatio, language)};
    std::vector<std::size_t> numeric{1, 2, 3};
    // The interval column only where a ratio has one: runs without their requests keep the seeds' table.
    if (intervals) {
      header.push_back(formatIntervalColumn(bootstrap, locale));
      numeric.push_back(4);
    } else {
      for (auto& row : rows)
        row.pop_back();
    }
    anyInterval = anyInterval || intervals;
    ReportBlock table = ReportBlock::table(
        formatReportText(ReportText::ComparisonTableCaption, language, {baseline.name, candidate.name}),
        std::move(header), std::move(rows), std::move(numeric));
    // "1.04x faster: no clear difference" may break after its ratio; a page holds the table then.
    if (intervals) table.wrappingColumns = {3};
    tables.blocks.push_back(std::move(table));
    document.data["candidates"].push_back({{"name", candidate.name}, {"figures", std::move(figuresJson)}});
  }
  if (anyInterval)
    tables.blocks.insert(tables.blocks.begin() + 1,
                         ReportBlock::paragraph(formatIntervalNote(bootstrap, locale)));

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
