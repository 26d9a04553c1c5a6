#include "core/study/search.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

#include "core/engines/engine_catalogue.h"
#include "core/error.h"
#include "core/report/message_text.h"
#include "core/report/result_json.h"
#include "core/report/text_block.h"
#include "core/study/benchmark_run.h"
#include "core/study/study_report.h"
#include "core/study/study_runner.h"

namespace ayar {

namespace {

std::filesystem::path logFile(const SearchSetup& setup, const std::string& name) {
  std::filesystem::path dir = setup.logDir;
  if (dir.empty() && !setup.storePath.empty()) dir = setup.storePath.parent_path() / "logs";
  if (dir.empty()) return {};
  std::string safe;
  for (const char c : name)
    safe += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.') ? c : '_';
  return dir / (safe + "-" + formatResultDate(std::chrono::system_clock::now()) + "-" +
                std::to_string(::getpid()) + ".log");
}

// The engine with `flag` set to `value` (replacing the flag where the spec has it).
EngineSpec withFlag(EngineSpec engine, const std::string& flag, const std::string& value) {
  auto same = std::find_if(engine.flags.begin(), engine.flags.end(),
                           [&](const EngineFlag& f) { return !f.raw && f.name == flag; });
  if (same != engine.flags.end()) {
    *same = EngineFlag::option(flag, value);
  } else {
    engine.flags.push_back(EngineFlag::option(flag, value));
  }
  return engine;
}

// Runs the profile once against a started engine and fills in the probe's figures.
void measure(const SearchSetup& setup, EngineSession& session, const ProfileSpec& profile,
             const std::string& label, RunFigure figure, SearchProbe& probe,
             const std::atomic<bool>* cancelled) {
  RunSpec spec;
  spec.engine = session.launcher().spec();
  spec.tokenizer = setup.tokenizer;
  spec.profile = profile;
  spec.summary.goodput = setup.slo;
  spec.label = label;
  spec.numWarmups = setup.warmupRequests;
  spec.storePath = setup.storePath;
  spec.startedEngine = &session.launcher();
  if (cancelled && *cancelled) return;
  BenchmarkRun run(spec);
  try {
    const std::vector<RunOutcome> outcomes = run.run();
    if (outcomes.empty()) {
      probe.error = "the run produced no result";
      return;
    }
    const RunSummary& summary = outcomes.back().summary;
    probe.runId = outcomes.back().storeRunId;
    const int total = summary.completed + summary.failed;
    probe.successRate = total > 0 ? static_cast<double>(summary.completed) / total : 0.0;
    probe.sloAttainment = 1.0;
    if (setup.slo.any()) {
      probe.sloAttainment = summary.requestThroughput > 0.0 && summary.requestGoodput
                                ? std::min(1.0, *summary.requestGoodput / summary.requestThroughput)
                                : 0.0;
    }
    probe.figure = runFigureValue(summary, figure);
    probe.withinLimits = probe.successRate >= setup.successRateFloor &&
                         probe.sloAttainment >= setup.sloAttainment && summary.completed > 0;
    if (!summary.errors.empty()) probe.error = summary.errors.front().message;
  } catch (const Error& error) {
    probe.error = error.what();
  }
}

std::string percent(double share, const ReportLocale& locale) {
  return locale.percent(share * 100.0, 2);
}

std::string formatValue(double value) {
  if (value == std::floor(value) && std::fabs(value) < 1e15)
    return std::to_string(static_cast<long long>(value));
  return formatFixed2(value);
}

std::string sloText(const GoodputSlo& slo, const ReportLocale& locale) {
  std::string text;
  const auto add = [&](const char* name, const std::optional<double>& ms) {
    if (ms) text += (text.empty() ? "" : ", ") + std::string(name) + " ≤ " + locale.number(*ms) + " ms";
  };
  add("TTFT", slo.ttftMs);
  add("TPOT", slo.tpotMs);
  add("E2EL", slo.e2elMs);
  return text.empty() ? std::string(reportText(ReportText::SearchNoSlo, locale.language())) : text;
}

std::string stepWord(const std::string& step, ReportLanguage language) {
  if (step == "ternary") return std::string(reportText(ReportText::SearchStepTernary, language));
  if (step == "last") return std::string(reportText(ReportText::SearchStepLast, language));
  if (step == "grow") return std::string(reportText(ReportText::SearchStepGrow, language));
  if (step == "shrink") return std::string(reportText(ReportText::SearchStepShrink, language));
  if (step == "interpolate") return std::string(reportText(ReportText::SearchStepInterpolate, language));
  return step;
}

// The command that serves `engine`, without the host and port Ayar picks.
std::string servingCommand(const EngineSpec& engine) {
  return servingCommandLine(engine, EngineCatalogue::loadDefault());
}

// A tune probe's value is a flag's value, written as it is typed on a command line; a capacity
// probe's value is a request rate, a number in the report's style.
std::vector<std::string> probeRow(const SearchProbe& probe, const ReportLocale& locale, bool capacity) {
  const ReportLanguage language = locale.language();
  const std::string yes(reportText(ReportText::WordYes, language));
  const std::string no(reportText(ReportText::WordNo, language));
  std::string figure = probe.figure ? locale.number(*probe.figure)
                                    : std::string(reportText(ReportText::NoteNoValue, language));
  if (!probe.started)
    figure = formatReportText(ReportText::SearchNotStarted, language,
                              {probe.error.substr(0, probe.error.find('\n'))});
  return {capacity ? locale.number(probe.value) : formatValue(probe.value),
          stepWord(probe.step, language),
          figure,
          probe.started ? percent(probe.sloAttainment, locale) : "-",
          probe.started ? percent(probe.successRate, locale) : "-",
          probe.withinLimits ? yes : no,
          probe.runId ? std::to_string(*probe.runId) : "-"};
}

void addSetup(ReportDocument& document, const ReportLocale& locale, const SearchSetup& setup,
              const std::string& decidingLine) {
  ReportSection& section =
      document.addSection(std::string(reportText(ReportText::StudySetup, document.language)));
  std::vector<std::string> items{
      formatReportText(
          ReportText::StudyProfileLine, document.language,
          {(setup.profile.name.empty() && setup.profile.title.empty()
                ? std::string()
                : localized(setup.profile.title, std::string(reportLanguageCode(document.language)),
                            setup.profile.name) +
                      ": ") +
           describeProfile(setup.profile, locale)}),
      formatReportText(ReportText::SearchLimits, document.language,
                       {percent(setup.sloAttainment, locale), sloText(setup.slo, locale),
                        percent(setup.successRateFloor, locale)})};
  if (!decidingLine.empty()) items.insert(items.begin(), decidingLine);
  section.blocks.push_back(ReportBlock::list(items));
}

nlohmann::json probesJson(const std::vector<SearchProbe>& probes) {
  nlohmann::json out = nlohmann::json::array();
  for (const SearchProbe& probe : probes) {
    nlohmann::json item = {{"value", probe.value},
                           {"step", probe.step},
                           {"started", probe.started},
                           {"slo_attainment", probe.sloAttainment},
                           {"success_rate", probe.successRate},
                           {"within_limits", probe.withinLimits}};
    if (probe.figure) item["figure"] = *probe.figure;
    if (probe.runId) item["run_id"] = *probe.runId;
    if (!probe.error.empty()) item["error"] = probe.error;
    out.push_back(item);
  }
  return out;
}

}  // namespace

TuneResult runTune(const TuneSpec& spec, const std::function<void(const SearchProbe&)>& onProbe,
                   const std::atomic<bool>* cancelled) {
  if (spec.setup.engine.kind == EngineKind::Remote) throw MessageError({MessageText::TuneRemote, {}});
  if (spec.flag.empty() || spec.flag.front() != '-') throw MessageError({MessageText::TuneNoFlag, {}});
  if (spec.values.empty()) throw MessageError({MessageText::TuneNoValues, {}});
  if (!std::is_sorted(spec.values.begin(), spec.values.end()) ||
      std::adjacent_find(spec.values.begin(), spec.values.end()) != spec.values.end())
    throw MessageError({MessageText::TuneValuesOrder, {}});
  spec.setup.profile.validate();
  // Flags are checked against the catalogue before any engine starts.
  EngineCatalogue catalogue = EngineCatalogue::loadDefault();
  for (long long value : {spec.values.front(), spec.values.back()})
    EngineLauncher(withFlag(spec.setup.engine, spec.flag, std::to_string(value)), catalogue);

  TuneResult result;
  std::map<std::size_t, SearchProbe> probed;
  const Better better = runFigureBetter(spec.figure);
  const auto probe = [&](std::size_t index, const char* step) -> const SearchProbe& {
    if (auto found = probed.find(index); found != probed.end()) return found->second;
    SearchProbe p;
    p.value = static_cast<double>(spec.values[index]);
    p.step = step;
    const std::string value = std::to_string(spec.values[index]);
    const EngineSpec engine = withFlag(spec.setup.engine, spec.flag, value);
    if (!(cancelled && *cancelled)) {
      EngineSession session(engine, logFile(spec.setup, "tune" + spec.flag + "-" + value),
                            spec.setup.bundledEngine, spec.setup.tokenizer);
      try {
        session.start();
      } catch (const Error& error) {
        p.started = false;
        p.error = error.what();
      }
      if (p.started)
        measure(spec.setup, session, spec.setup.profile, "tune " + spec.flag + "=" + value, spec.figure, p,
                cancelled);
      session.stop();
    }
    result.probes.push_back(p);
    if (onProbe) onProbe(p);
    return probed.emplace(index, p).first->second;
  };
  // a ranks above b: within the limits first; then the better figure; outside the limits, the
  // higher share of requests meeting them.
  const auto above = [&](const SearchProbe& a, const SearchProbe& b) {
    if (a.withinLimits != b.withinLimits) return a.withinLimits;
    if (a.withinLimits) {
      if (!a.figure || !b.figure) return a.figure.has_value() && !b.figure.has_value();
      return better == Better::Higher ? *a.figure > *b.figure : *a.figure < *b.figure;
    }
    return a.sloAttainment * a.successRate > b.sloAttainment * b.successRate;
  };
  const auto onPlateau = [&](const SearchProbe& a, const SearchProbe& b) {
    if (!a.withinLimits || !b.withinLimits || !a.figure || !b.figure) return false;
    const double scale = std::max(std::fabs(*a.figure), std::fabs(*b.figure));
    return scale > 0.0 && std::fabs(*a.figure - *b.figure) <= spec.plateau * scale;
  };

  std::size_t lo = 0;
  std::size_t hi = spec.values.size() - 1;
  while (hi - lo + 1 > 3 && !(cancelled && *cancelled)) {
    const std::size_t third = (hi - lo) / 3;
    const std::size_t m1 = lo + third;
    const std::size_t m2 = hi - third;
    const SearchProbe& a = probe(m1, "ternary");
    const SearchProbe& b = probe(m2, "ternary");
    if (onPlateau(a, b)) {
      // Flat between the two: the optimum of a unimodal figure lies between them.
      lo = m1;
      hi = m2;
      continue;
    }
    if (above(b, a)) {
      lo = m1 + 1;
    } else {
      hi = m2 - 1;
    }
  }
  for (std::size_t i = lo; i <= hi && !(cancelled && *cancelled); ++i)
    probe(i, "last");

  const SearchProbe* best = nullptr;
  for (const auto& [index, p] : probed) {
    if (p.withinLimits && (!best || above(p, *best))) best = &p;
  }
  if (best) {
    result.best = static_cast<long long>(best->value);
    result.bestFigure = best->figure;
    result.bestEngine = withFlag(spec.setup.engine, spec.flag, std::to_string(*result.best));
  }
  return result;
}

CapacityResult runCapacity(const CapacitySpec& spec, const std::function<void(const SearchProbe&)>& onProbe,
                           const std::atomic<bool>* cancelled) {
  if (!spec.setup.slo.any()) throw MessageError({MessageText::CapacityNeedsSlo, {}});
  if (!(spec.startRate > 0.0) || !std::isfinite(spec.startRate))
    throw MessageError({MessageText::CapacityStartRate, {}});
  if (!(spec.maxRate >= spec.startRate)) throw MessageError({MessageText::CapacityMaxRate, {}});
  spec.setup.profile.validate();
  EngineSession session(spec.setup.engine, logFile(spec.setup, "capacity"), spec.setup.bundledEngine,
                        spec.setup.tokenizer);
  session.start();

  CapacityResult result;
  const auto probe = [&](double rate, const char* step) -> SearchProbe {
    SearchProbe p;
    p.value = rate;
    p.step = step;
    ProfileSpec profile = spec.setup.profile;
    profile.loadMode = LoadMode::Rate;
    profile.requestRate = rate;
    profile.rampUpStrategy.clear();
    measure(spec.setup, session, profile, "capacity rate " + formatFixed2(rate), RunFigure::RequestGoodput, p,
            cancelled);
    result.probes.push_back(p);
    if (onProbe) onProbe(p);
    return p;
  };

  std::optional<SearchProbe> good;
  std::optional<SearchProbe> bad;
  double rate = spec.startRate;
  const char* step = "grow";
  for (int count = 0; count < spec.maxProbes && !(cancelled && *cancelled); ++count) {
    const SearchProbe p = probe(rate, step);
    if (p.withinLimits) {
      if (!good || p.value > good->value) good = p;
    } else if (!bad || p.value < bad->value) {
      bad = p;
    }
    if (good && bad) {
      if (bad->value / good->value - 1.0 <= spec.tolerance) break;
      // Where the SLO attainment crosses its floor, on the line between the two probes.
      const double floorGap = good->sloAttainment - bad->sloAttainment;
      double t = floorGap > 1e-9 ? (good->sloAttainment - spec.setup.sloAttainment) / floorGap : 0.5;
      t = std::clamp(t, 0.25, 0.75);
      rate = good->value + t * (bad->value - good->value);
      step = "interpolate";
    } else if (good) {
      if (good->value >= spec.maxRate) break;
      rate = std::min(good->value * 2.0, spec.maxRate);
      step = "grow";
    } else {
      rate = bad->value / 2.0;
      step = "shrink";
      if (rate < spec.startRate / 64.0) break;
    }
  }
  session.stop();
  if (good) result.capacity = good->value;
  if (bad) result.firstFailing = bad->value;
  return result;
}

ReportDocument tuneReport(const TuneSpec& spec, const TuneResult& result, const ReportLocale& locale) {
  const ReportLanguage language = locale.language();
  ReportDocument document;
  document.language = language;
  document.title = formatReportText(ReportText::TuneTitle, language, {spec.flag});
  ReportSection& conclusion =
      document.addSection(std::string(reportText(ReportText::StudyConclusion, language)));
  if (result.best) {
    const std::string figure = std::string(runFigureLabel(spec.figure, language)) + " " +
                               (result.bestFigure ? locale.number(*result.bestFigure) : std::string("-")) +
                               " " + std::string(runFigureUnit(spec.figure, language));
    conclusion.blocks.push_back(ReportBlock::paragraph(
        formatReportText(ReportText::TuneBest, language, {spec.flag, std::to_string(*result.best), figure})));
    conclusion.blocks.push_back(
        ReportBlock::code(std::string(reportText(ReportText::StudyServingCommand, language)),
                          servingCommand(result.bestEngine)));
  } else {
    conclusion.blocks.push_back(
        ReportBlock::paragraph(std::string(reportText(ReportText::TuneNoneWithinLimits, language))));
  }
  addSetup(
      document, locale, spec.setup,
      formatReportText(ReportText::StudyMethodDeciding, language, {runFigureLabel(spec.figure, language)}));
  ReportSection& probes = document.addSection(std::string(reportText(ReportText::SearchProbes, language)));
  std::vector<std::vector<std::string>> rows;
  for (const SearchProbe& probe : result.probes)
    rows.push_back(probeRow(probe, locale, false));
  probes.blocks.push_back(
      ReportBlock::table("",
                         {spec.flag, std::string(reportText(ReportText::ColumnStep, language)),
                          std::string(runFigureLabel(spec.figure, language)) + " (" +
                              std::string(runFigureUnit(spec.figure, language)) + ")",
                          std::string(reportText(ReportText::ColumnSloAttainment, language)),
                          std::string(reportText(ReportText::ColumnSuccessRate, language)),
                          std::string(reportText(ReportText::ColumnWithinLimits, language)),
                          std::string(reportText(ReportText::ColumnRun, language))},
                         rows, {2, 3, 4}));
  document.data = {{"flag", spec.flag},
                   {"figure", std::string(runFigureKey(spec.figure))},
                   {"probes", probesJson(result.probes)}};
  if (result.best) document.data["best"] = *result.best;
  return document;
}

ReportDocument capacityReport(const CapacitySpec& spec, const CapacityResult& result,
                              const ReportLocale& locale) {
  const ReportLanguage language = locale.language();
  ReportDocument document;
  document.language = language;
  const std::string engine = servingCommand(spec.setup.engine);
  document.title = formatReportText(ReportText::CapacityTitle, language, {spec.setup.engine.model});
  ReportSection& conclusion =
      document.addSection(std::string(reportText(ReportText::StudyConclusion, language)));
  if (result.capacity) {
    conclusion.blocks.push_back(ReportBlock::paragraph(formatReportText(
        ReportText::CapacityFound, language,
        {locale.number(*result.capacity),
         result.firstFailing ? locale.number(*result.firstFailing) + " " +
                                   std::string(reportText(ReportText::UnitPerSecondRequests, language))
                             : std::string(reportText(ReportText::NoteNoValue, language))})));
  } else {
    conclusion.blocks.push_back(
        ReportBlock::paragraph(std::string(reportText(ReportText::CapacityNone, language))));
  }
  conclusion.blocks.push_back(
      ReportBlock::code(std::string(reportText(ReportText::StudyServingCommand, language)), engine));
  addSetup(document, locale, spec.setup, "");
  ReportSection& probes = document.addSection(std::string(reportText(ReportText::SearchProbes, language)));
  std::vector<std::vector<std::string>> rows;
  for (const SearchProbe& probe : result.probes)
    rows.push_back(probeRow(probe, locale, true));
  probes.blocks.push_back(
      ReportBlock::table("",
                         {std::string(reportText(ReportText::ColumnRate, language)),
                          std::string(reportText(ReportText::ColumnStep, language)),
                          std::string(reportText(ReportText::ColumnGoodput, language)),
                          std::string(reportText(ReportText::ColumnSloAttainment, language)),
                          std::string(reportText(ReportText::ColumnSuccessRate, language)),
                          std::string(reportText(ReportText::ColumnWithinLimits, language)),
                          std::string(reportText(ReportText::ColumnRun, language))},
                         rows, {0, 2, 3, 4}));
  // Goodput against rate as text bars, in ascending rate.
  std::vector<const SearchProbe*> sorted;
  double peak = 0.0;
  for (const SearchProbe& probe : result.probes) {
    sorted.push_back(&probe);
    peak = std::max(peak, probe.figure.value_or(0.0));
  }
  std::sort(sorted.begin(), sorted.end(), [](const auto* a, const auto* b) { return a->value < b->value; });
  std::string chart;
  for (const SearchProbe* probe : sorted) {
    const double goodput = probe->figure.value_or(0.0);
    const int width = peak > 0.0 ? static_cast<int>(std::lround(40.0 * goodput / peak)) : 0;
    std::string rate = locale.number(probe->value);
    chart += std::string(rate.size() < 10 ? 10 - rate.size() : 0, ' ') + rate + " | " +
             std::string(static_cast<std::size_t>(width), '#') + " " + locale.number(goodput) +
             (probe->withinLimits ? "" : " x") + "\n";
  }
  probes.blocks.push_back(
      ReportBlock::result(std::string(reportText(ReportText::CapacityChart, language)), chart));
  document.data = {{"probes", probesJson(result.probes)}};
  if (result.capacity) document.data["capacity"] = *result.capacity;
  if (result.firstFailing) document.data["first_failing"] = *result.firstFailing;
  return document;
}

}  // namespace ayar
