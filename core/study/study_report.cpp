#include "core/study/study_report.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include "core/engines/engine_catalogue.h"
#include "core/error.h"
#include "core/report/comparison_report.h"
#include "core/report/message_text.h"
#include "core/report/text_block.h"
#include "core/store/result_store.h"
#include "core/study/study_runner.h"

namespace ayar {

namespace {

using Lang = ReportLanguage;

struct CellView {
  const StudyCell* cell = nullptr;
  const StoredRun* run = nullptr;  // null when not run or its engine did not start
};

class StudyReportBuilder {
 public:
  StudyReportBuilder(const std::filesystem::path& storePath, std::int64_t studyId, const ReportLocale& locale)
      : m_store(storePath),
        m_locale(locale),
        m_language(locale.language()),
        m_code(reportLanguageCode(locale.language())) {
    m_study = StudyRunner::loadStored(storePath, studyId);
    m_configurations = m_study.configurations();
    m_cells = m_store.listStudyCells(studyId);
    RunFilter filter;
    filter.studyId = studyId;
    m_runs = m_store.listRuns(filter);
    for (const StoredRun& run : m_runs)
      m_runById[run.id] = &run;
    m_recommendation = StudyRunner::recommend(m_study, m_cells, m_runs);
  }

  ReportDocument build() {
    ReportDocument document;
    document.language = m_language;
    document.title = localized(m_study.title, m_code, m_study.name);
    conclusion(document);
    if (!m_study.goal.empty()) {
      document.addSection(text(ReportText::StudyGoal))
          .blocks.push_back(ReportBlock::paragraph(localized(m_study.goal, m_code, "")));
    }
    setup(document);
    results(document);
    optionsSummary(document);
    // The charts (PDF, HTML) compare the configurations on the option profiles: after their summary.
    document.chartsBeforeSection = document.sections.size();
    followUps(document);
    document.data = data();
    return document;
  }

 private:
  std::string text(ReportText id) const { return std::string(reportText(id, m_language)); }
  std::string format(ReportText id, std::initializer_list<std::string_view> args) const {
    return formatReportText(id, m_language, args);
  }

  std::string title(const StudyConfiguration& configuration) const {
    return localized(configuration.title, m_code, configuration.name);
  }
  std::string groupTitle(const StudyConfiguration& configuration) const {
    return localized(configuration.groupTitle, m_code, configuration.group);
  }
  std::string profileTitle(const ProfileSpec& profile) const {
    return localized(profile.title, m_code, profile.name);
  }

  const StudyConfiguration* configuration(const std::string& name) const {
    for (const auto& c : m_configurations)
      if (c.name == name) return &c;
    return nullptr;
  }

  CellView cell(const std::string& configurationName, const std::string& profile,
                const std::string& phase) const {
    CellView view;
    for (const StudyCell& c : m_cells) {
      if (c.configuration != configurationName || c.profile != profile || c.phase != phase) continue;
      view.cell = &c;
      if (c.runId && c.status == CellStatus::Done) {
        const auto run = m_runById.find(*c.runId);
        if (run != m_runById.end()) view.run = run->second;
      }
    }
    return view;
  }
  // The cell of a configuration on a profile, options phase first, else the follow-up one.
  CellView anyCell(const std::string& configurationName, const std::string& profile) const {
    CellView view = cell(configurationName, profile, "options");
    return view.run ? view : cell(configurationName, profile, "follow-up");
  }

  std::optional<double> figure(const CellView& view) const {
    if (!view.run) return std::nullopt;
    return storedFigure(*view.run, m_study.decidingFigure);
  }

  std::string value(std::optional<double> v) const {
    return v ? m_locale.number(*v) : text(ReportText::NoteNoValue);
  }

  // "Mean latency (ms)": the deciding figure as a table's caption names it.
  std::string decidingCaption() const {
    return std::string(runFigureLabel(m_study.decidingFigure, m_language)) + " (" +
           std::string(runFigureUnit(m_study.decidingFigure, m_language)) + ")";
  }

  std::string ratio(std::optional<double> baseline, std::optional<double> candidate) const {
    if (!baseline || !candidate) return text(ReportText::NoteNoValue);
    const auto s = speedup(*baseline, *candidate, runFigureBetter(m_study.decidingFigure));
    if (!s) return text(ReportText::NoteNoValue);
    return formatSpeedup(*s, m_locale, !runFigureIsLatency(m_study.decidingFigure));
  }

  // The command that serves a configuration, as a user would type it: the program's name, the
  // engine's own arguments and flags, without the host and port Ayar picked for the study.
  std::string servingCommand(const EngineSpec& engine) const {
    return servingCommandLine(engine, m_catalogue);
  }

  std::string commandOf(const std::string& configurationName) const {
    const StudyConfiguration* found = configuration(configurationName);
    return found ? servingCommand(found->engine) : std::string();
  }

  std::string flagsLine(const EngineSpec& engine) const {
    const std::string line = flagListText(engine.flags);
    return line.empty() ? text(ReportText::StudyNoFlags) : line;
  }

  std::string resultBlock(const StoredRun& run) const {
    TextBlockOptions block;
    block.style = TextBlockStyle::GpuStack;
    block.ayarLines = false;
    return formatServingBenchmarkResult(storedRunSummary(m_store, run, m_study.slo), block);
  }

  void addCellBlocks(ReportSection& section, const CellView& view, const std::string& caption) const {
    if (view.run) {
      section.blocks.push_back(ReportBlock::result(caption, resultBlock(*view.run)));
      return;
    }
    if (view.cell && view.cell->status == CellStatus::FailedToStart) {
      section.blocks.push_back(ReportBlock::paragraph(text(ReportText::StudyFailedToStart)));
      section.blocks.push_back(
          ReportBlock::result("", view.cell->engineLog.empty() ? view.cell->error : view.cell->engineLog));
    } else if (view.cell && view.cell->status == CellStatus::Failed) {
      section.blocks.push_back(
          ReportBlock::paragraph(format(ReportText::StudyCellFailed, {view.cell->error})));
    } else {
      section.blocks.push_back(ReportBlock::paragraph(text(ReportText::StudyNotRun)));
    }
  }

  bool anySimulated() const {
    for (const StoredRun& run : m_runs) {
      if (run.info.engine.value("simulated", false)) return true;
    }
    return false;
  }

  void conclusion(ReportDocument& document) const {
    ReportSection& section = document.addSection(text(ReportText::StudyConclusion));
    const auto unfinished = std::count_if(m_cells.begin(), m_cells.end(), [](const StudyCell& c) {
      return c.status == CellStatus::Pending || c.status == CellStatus::Running;
    });
    if (unfinished > 0) {
      const auto measured = std::count_if(m_cells.begin(), m_cells.end(),
                                          [](const StudyCell& c) { return c.status == CellStatus::Done; });
      section.blocks.push_back(ReportBlock::paragraph(
          format(ReportText::StudyIncomplete,
                 {m_locale.integer(measured), m_locale.integer(static_cast<long long>(m_cells.size()))})));
    }
    const std::string model = m_study.baseline.model.empty() ? m_study.name : m_study.baseline.model;
    section.blocks.push_back(ReportBlock::paragraph(format(ReportText::StudyRecommendedFor, {model})));
    const StudyConfiguration* recommended = configuration(m_recommendation.configuration);
    const std::string line = commandOf(m_recommendation.configuration);
    section.blocks.push_back(
        ReportBlock::code(text(ReportText::StudyServingCommand),
                          line.empty() && recommended ? flagsLine(recommended->engine) : line));
    if (m_recommendation.configuration == m_study.baselineName && unfinished == 0) {
      section.blocks.push_back(ReportBlock::paragraph(
          format(ReportText::StudyBaselineStays, {runFigureInText(m_study.decidingFigure, m_language)})));
    } else if (recommended) {
      section.blocks.push_back(ReportBlock::paragraph(format(
          ReportText::StudyRecommendedWhy,
          {title(*recommended), runFigureInText(m_study.decidingFigure, m_language),
           profileTitle(m_study.profiles.front()),
           formatSpeedup(m_recommendation.speedup, m_locale, !runFigureIsLatency(m_study.decidingFigure))})));
    }
    section.blocks.push_back(ReportBlock::paragraph(text(ReportText::StudyBeforeAfter)));
    std::vector<std::vector<std::string>> rows;
    std::vector<const ProfileSpec*> profiles;
    for (const auto& p : m_study.profiles)
      profiles.push_back(&p);
    for (const auto& p : m_study.followUpProfiles)
      profiles.push_back(&p);
    std::set<std::string> seen;
    for (const ProfileSpec* profile : profiles) {
      if (!seen.insert(profile->name).second) continue;
      const auto base = figure(anyCell(m_study.baselineName, profile->name));
      const auto best = figure(anyCell(m_recommendation.configuration, profile->name));
      if (!base && !best) continue;
      rows.push_back({profileTitle(*profile), value(base), value(best), ratio(base, best)});
    }
    const std::string baselineHeader = m_study.baselineTitle.empty()
                                           ? format(ReportText::StudyBaselineColumn, {m_study.baselineName})
                                           : localized(m_study.baselineTitle, m_code, m_study.baselineName);
    section.blocks.push_back(
        ReportBlock::table(decidingCaption(),
                           {text(ReportText::ColumnScenario), baselineHeader,
                            text(ReportText::ColumnOptimised), text(ReportText::ColumnComparison)},
                           rows, {1, 2, 3}));
    ReportSection& notes = document.addSection(text(ReportText::StudyNotes), 3);
    std::vector<std::string> items{text(ReportText::StudyNoteLocalOptimum),
                                   text(ReportText::StudyNoteStartingPoint),
                                   text(ReportText::StudyNoteHardware)};
    if (anySimulated()) items.push_back(text(ReportText::NoteSimulated));
    notes.blocks.push_back(ReportBlock::list(items));
  }

  void setup(ReportDocument& document) const {
    document.addSection(text(ReportText::StudySetup));
    ReportSection& model = document.addSection(text(ReportText::StudyModel), 3);
    std::set<std::string> models;
    for (const auto& c : m_configurations)
      models.insert(c.engine.model.empty() ? c.engine.baseUrl : c.engine.model);
    model.blocks.push_back(ReportBlock::list({models.begin(), models.end()}));

    ReportSection& hardware = document.addSection(text(ReportText::StudyHardware), 3);
    std::set<std::string> hardwareLines;
    if (!m_study.hardware.empty()) hardwareLines.insert(m_study.hardware);
    std::set<std::string> simProfiles;
    bool simulated = false;
    for (const StoredRun& run : m_runs) {
      if (!run.info.engine.value("simulated", false)) continue;
      simulated = true;
      if (run.summary.is_object() && run.summary.contains("sim_profile") &&
          run.summary["sim_profile"].is_string())
        simProfiles.insert(run.summary["sim_profile"].get<std::string>());
    }
    if (simulated) {
      std::string profiles;
      for (const std::string& profile : simProfiles)
        profiles += (profiles.empty() ? "" : ", ") + profile;
      hardwareLines.insert(text(ReportText::NoteSimulated) + (profiles.empty() ? "" : " (" + profiles + ")"));
    }
    if (hardwareLines.empty()) hardwareLines.insert(text(ReportText::StudyHardwareNotRecorded));
    hardware.blocks.push_back(ReportBlock::list({hardwareLines.begin(), hardwareLines.end()}));

    ReportSection& versions = document.addSection(text(ReportText::StudyEngineVersions), 3);
    std::set<std::string> versionLines;
    for (const StoredRun& run : m_runs) {
      const std::string engine = run.info.engine.value("engine", std::string());
      std::string version;
      if (run.summary.is_object() && run.summary.contains("engine_version") &&
          run.summary["engine_version"].is_string())
        version = run.summary["engine_version"].get<std::string>();
      versionLines.insert(engine + " " +
                          (version.empty() ? text(ReportText::StudyHardwareNotRecorded) : version));
    }
    if (versionLines.empty()) versionLines.insert(text(ReportText::StudyHardwareNotRecorded));
    versions.blocks.push_back(ReportBlock::list({versionLines.begin(), versionLines.end()}));

    ReportSection& dataset = document.addSection(text(ReportText::StudyDataset), 3);
    std::vector<std::string> profileLines;
    std::set<std::string> seen;
    for (const auto* list : {&m_study.profiles, &m_study.followUpProfiles}) {
      for (const ProfileSpec& profile : *list) {
        if (!seen.insert(profile.name).second) continue;
        profileLines.push_back(profileTitle(profile) + ": " + describeProfile(profile, m_locale));
      }
    }
    dataset.blocks.push_back(ReportBlock::list(profileLines));

    ReportSection& method = document.addSection(text(ReportText::StudyMethod), 3);
    std::vector<std::string> methodLines{
        format(ReportText::StudyMethodDeciding, {runFigureLabel(m_study.decidingFigure, m_language)}),
        text(ReportText::StudyMethodOrder)};
    if (m_study.slo.any()) {
      std::string slo;
      const auto add = [&](const char* name, const std::optional<double>& ms) {
        if (!ms) return;
        slo += (slo.empty() ? "" : ", ") + std::string(name) + " ≤ " + m_locale.number(*ms) + " ms";
      };
      add("TTFT", m_study.slo.ttftMs);
      add("TPOT", m_study.slo.tpotMs);
      add("E2EL", m_study.slo.e2elMs);
      methodLines.push_back(format(ReportText::StudyMethodSlo, {slo}));
    }
    if (m_study.warmupRequests > 0)
      methodLines.push_back(
          format(ReportText::StudyMethodWarmup, {m_locale.integer(m_study.warmupRequests)}));
    methodLines.push_back(anySimulated() ? text(ReportText::NoteSimulated) : text(ReportText::StudyMeasured));
    method.blocks.push_back(ReportBlock::list(methodLines));
  }

  void results(ReportDocument& document) const {
    document.addSection(text(ReportText::StudyResults));
    std::vector<std::string> groups;
    for (const auto& c : m_configurations) {
      if (std::find(groups.begin(), groups.end(), c.group) == groups.end()) groups.push_back(c.group);
    }
    for (const std::string& group : groups) {
      std::vector<const StudyConfiguration*> members;
      for (const auto& c : m_configurations)
        if (c.group == group) members.push_back(&c);
      ReportSection* groupSection = &document.addSection(groupTitle(*members.front()), 3);
      for (const StudyConfiguration* member : members) {
        ReportSection* section = groupSection;
        if (members.size() > 1 || title(*member) != groupTitle(*member))
          section = &document.addSection(title(*member), 4);
        section->blocks.push_back(
            ReportBlock::list({format(ReportText::StudyFlagsLine, {flagsLine(member->engine)})}));
        const std::string line = commandOf(member->name);
        if (!line.empty())
          section->blocks.push_back(ReportBlock::code(text(ReportText::StudyServingCommand), line));
        for (const ProfileSpec& profile : m_study.profiles) {
          section->blocks.push_back(
              ReportBlock::paragraph(format(ReportText::StudyProfileLine, {profileTitle(profile)})));
          addCellBlocks(*section, cell(member->name, profile.name, "options"),
                        text(ReportText::StudyResultBlock));
        }
      }
    }
  }

  void optionsSummary(ReportDocument& document) const {
    ReportSection& section = document.addSection(text(ReportText::StudyOptionsSummary));
    std::vector<std::vector<std::string>> rows;
    for (const ProfileSpec& profile : m_study.profiles) {
      const auto base = figure(cell(m_study.baselineName, profile.name, "options"));
      for (const auto& c : m_configurations) {
        if (c.baseline) continue;
        const auto mine = figure(cell(c.name, profile.name, "options"));
        const std::string name = groupTitle(c) == title(c) ? title(c) : groupTitle(c) + ": " + title(c);
        rows.push_back({profileTitle(profile), name, value(mine), value(base), ratio(base, mine)});
      }
    }
    section.blocks.push_back(ReportBlock::table(
        decidingCaption(),
        {text(ReportText::ColumnScenario), text(ReportText::ColumnOption), text(ReportText::ColumnOptimised),
         text(ReportText::ColumnBaseline), text(ReportText::ColumnComparison)},
        rows, {2, 3, 4}));
  }

  void followUps(ReportDocument& document) const {
    if (m_study.followUpProfiles.empty()) return;
    ReportSection& section = document.addSection(text(ReportText::StudyOtherScenarios));
    section.blocks.push_back(ReportBlock::paragraph(text(ReportText::StudyOtherScenariosIntro)));
    for (const ProfileSpec& profile : m_study.followUpProfiles) {
      ReportSection& part = document.addSection(profileTitle(profile), 3);
      const CellView base = cell(m_study.baselineName, profile.name, "follow-up");
      const CellView best = cell(m_recommendation.configuration, profile.name, "follow-up");
      part.blocks.push_back(
          ReportBlock::code(text(ReportText::StudyBaselineCommand), commandOf(m_study.baselineName)));
      addCellBlocks(part, base, text(ReportText::StudyBaselineResult));
      if (m_recommendation.configuration == m_study.baselineName) continue;
      part.blocks.push_back(ReportBlock::code(text(ReportText::StudyOptimisedCommand),
                                              commandOf(m_recommendation.configuration)));
      addCellBlocks(part, best, text(ReportText::StudyOptimisedResult));
    }
  }

  nlohmann::json data() const {
    nlohmann::json cells = nlohmann::json::array();
    for (const StudyCell& c : m_cells) {
      nlohmann::json item = {{"index", c.index},
                             {"configuration", c.configuration},
                             {"profile", c.profile},
                             {"phase", c.phase},
                             {"status", toString(c.status)}};
      if (c.runId) item["run_id"] = *c.runId;
      if (const auto v = figure(cell(c.configuration, c.profile, c.phase))) item["figure"] = *v;
      if (!c.error.empty()) item["error"] = c.error;
      cells.push_back(item);
    }
    return {{"study", m_study.name},
            {"deciding_figure", std::string(runFigureKey(m_study.decidingFigure))},
            {"recommended", m_recommendation.configuration},
            {"speedup", m_recommendation.speedup},
            {"cells", cells}};
  }

  mutable ResultStore m_store;
  EngineCatalogue m_catalogue = EngineCatalogue::loadDefault();
  ReportLocale m_locale;
  Lang m_language;
  std::string m_code;
  StudySpec m_study;
  std::vector<StudyConfiguration> m_configurations;
  std::vector<StudyCell> m_cells;
  std::vector<StoredRun> m_runs;
  std::map<std::int64_t, const StoredRun*> m_runById;
  StudyRecommendation m_recommendation;
};

}  // namespace

std::string describeProfile(const ProfileSpec& profile, const ReportLocale& locale) {
  const ReportLanguage language = locale.language();
  const auto text = [&](ReportText id) { return std::string(reportText(id, language)); };
  const auto format = [&](ReportText id, std::initializer_list<std::string_view> args) {
    return formatReportText(id, language, args);
  };
  // As few decimals as the value needs, up to two: 10, 2,5, 0,25.
  const auto number = [&](double v) {
    const int decimals = v == std::floor(v) ? 0 : v * 10 == std::floor(v * 10) ? 1 : 2;
    return locale.number(v, decimals);
  };
  std::vector<std::string> parts;
  if (profile.datasetName == "sharegpt") {
    parts.push_back(text(ReportText::ProfileShareGpt));
  } else if (profile.datasetName == "synthetic-sharegpt") {
    parts.push_back(text(ReportText::ProfileSynthetic));
  } else if (profile.datasetName == "prefix-repetition") {
    parts.push_back(text(ReportText::ProfilePrefixRepetition));
  } else if (profile.datasetName == "random") {
    parts.push_back(text(ReportText::ProfileRandom));
  } else {
    parts.push_back(profile.datasetName);
  }
  parts.push_back(format(ReportText::ProfileRequests, {locale.integer(profile.numPrompts)}));
  if (profile.datasetName == "random") {
    parts.push_back(format(ReportText::ProfileLengths, {locale.integer(profile.randomInputLen),
                                                        locale.integer(profile.randomOutputLen)}));
  } else if (profile.datasetName == "prefix-repetition") {
    parts.push_back(format(ReportText::ProfilePrefixes, {locale.integer(profile.prefixRepetitionNumPrefixes),
                                                         locale.integer(profile.prefixRepetitionPrefixLen),
                                                         locale.integer(profile.prefixRepetitionSuffixLen),
                                                         locale.integer(profile.prefixRepetitionOutputLen)}));
  }
  switch (profile.loadMode) {
    case LoadMode::Rate:
      if (!profile.rampUpStrategy.empty()) {
        parts.push_back(
            format(profile.rampUpStrategy == "exponential" ? ReportText::ProfileRampExponential
                                                           : ReportText::ProfileRampLinear,
                   {locale.integer(profile.rampUpStartRps), locale.integer(profile.rampUpEndRps)}));
      } else if (std::isinf(profile.requestRate)) {
        parts.push_back(text(ReportText::ProfileAllAtOnce));
      } else {
        parts.push_back(format(ReportText::ProfileRate, {number(profile.requestRate)}));
        if (std::isinf(profile.burstiness)) {
          parts.push_back(text(ReportText::ProfileEvenly));
        } else if (profile.burstiness == 1.0) {
          parts.push_back(text(ReportText::ProfilePoisson));
        } else {
          parts.push_back(format(ReportText::ProfileBurstiness, {number(profile.burstiness)}));
        }
      }
      break;
    case LoadMode::Concurrent:
      parts.push_back(format(ReportText::ProfileConcurrent, {locale.integer(profile.concurrency)}));
      break;
    case LoadMode::Throughput:
      parts.push_back(text(ReportText::ProfileThroughput));
      break;
    case LoadMode::Sweep:
      parts.push_back(format(ReportText::ProfileSweep, {locale.integer(profile.sweepPoints)}));
      break;
  }
  if (profile.maxConcurrency)
    parts.push_back(format(ReportText::ProfileMaxConcurrency, {locale.integer(*profile.maxConcurrency)}));
  std::string out;
  for (const std::string& part : parts)
    out += (out.empty() ? "" : ", ") + part;
  return out;
}

ReportDocument buildStudyReport(const std::filesystem::path& storePath, std::int64_t studyId,
                                const ReportLocale& locale) {
  return StudyReportBuilder(storePath, studyId, locale).build();
}

namespace {

SummaryOptions storedSummaryOptions(const StoredRun& run, const GoodputSlo& slo) {
  SummaryOptions options;
  options.goodput = slo;
  if (run.summary.is_object() && run.summary.contains("duration") && run.summary["duration"].is_number())
    options.durationS = run.summary["duration"].get<double>();
  if (run.summary.is_object() && run.summary.contains("max_concurrency") &&
      run.summary["max_concurrency"].is_number_integer())
    options.maxConcurrency = run.summary["max_concurrency"].get<int>();
  return options;
}

}  // namespace

RunSummary storedRunSummary(ResultStore& store, const StoredRun& run, const GoodputSlo& slo) {
  return computeRunSummary(store.loadRequests(run.id), storedSummaryOptions(run, slo));
}

RunSetup storedRunSetup(const StoredRun& run, const EngineCatalogue* catalogue) {
  RunSetup setup;
  const nlohmann::json& engine = run.info.engine;
  if (!engine.is_object() || !engine.contains("engine") || !engine["engine"].is_string()) return setup;
  std::vector<EngineFlag> flags;
  try {
    if (engine.contains("flags")) flags = engine.at("flags").get<std::vector<EngineFlag>>();
  } catch (const std::exception&) {
    return setup;  // a record this version cannot read says nothing of the flags
  }
  const auto text = [](const nlohmann::json& value) {
    return value.is_string() ? value.get<std::string>() : value.dump();
  };
  setup.recorded = true;
  setup.engine = engine["engine"].get<std::string>();
  setup.model = engine.contains("model") ? text(engine["model"]) : run.info.model;
  if (engine.contains("device")) setup.device = text(engine["device"]);
  const EngineTemplate* found = catalogue ? catalogue->find(setup.engine) : nullptr;
  if (found) {
    // One form for every spelling; the defaults are what effectiveFlags fills in for no flags.
    const auto effective = effectiveFlags(*found, flags);
    setup.flagDefaults = effectiveFlags(*found, {});
    for (const EngineFlag& flag : flags) {
      const FlagSpec* spec = flag.raw ? nullptr : found->findFlag(flag.name);
      const std::string name = spec ? spec->name : flag.name;
      setup.flags[name] = effective.at(name);
    }
  } else {
    for (const EngineFlag& flag : flags)
      setup.flags[flag.name] = flag.value.value_or("");
  }
  if (run.info.profile.is_object()) {
    for (const auto& [field, value] : run.info.profile.items())
      setup.profile[field] = text(value);
  }
  return setup;
}

RunSetup storedRunSetup(const StoredRun& run) {
  static const std::optional<EngineCatalogue> installed = []() -> std::optional<EngineCatalogue> {
    try {
      return EngineCatalogue::loadDefault();
    } catch (const Error&) {
      return std::nullopt;
    }
  }();
  return storedRunSetup(run, installed ? &*installed : nullptr);
}

ReportDocument buildRunsReport(const std::filesystem::path& storePath,
                               const std::vector<std::int64_t>& runIds, const ReportLocale& locale,
                               const std::vector<RunFigure>& figures) {
  if (runIds.empty()) throw MessageError({MessageText::ReportNoRunIds, {}});
  ResultStore store(storePath);
  std::vector<ComparisonReportRun> runs;
  for (const std::int64_t id : runIds) {
    const auto run = store.findRun(id);
    if (!run) throw MessageError({MessageText::ReportNoRun, {std::to_string(id), storePath.string()}});
    ComparisonReportRun entry;
    entry.name = "#" + std::to_string(run->id) + (run->info.label.empty() ? "" : " " + run->info.label) +
                 (run->info.model.empty() ? "" : " (" + run->info.model + ")");
    const std::vector<RequestRecord> records = store.loadRequests(run->id);
    entry.summary = computeRunSummary(records, storedSummaryOptions(*run, {}));
    entry.requestValuesMs = latencyValuesByMetric(records);
    entry.setup = storedRunSetup(*run);
    entry.simulated = run->info.engine.value("simulated", false);
    if (run->summary.is_object() && run->summary.contains("request_rate") &&
        run->summary["request_rate"].is_number())
      entry.requestRate = run->summary["request_rate"].get<double>();
    runs.push_back(std::move(entry));
  }
  const ComparisonReportRun baseline = runs.front();
  runs.erase(runs.begin());
  return buildComparisonReport(baseline, runs, locale, figures);
}

}  // namespace ayar
