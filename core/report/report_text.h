#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

#include "core/metrics/run_figure.h"
#include "core/metrics/run_summary.h"
#include "core/metrics/speedup_interval.h"
#include "core/report/report_locale.h"

namespace ayar {

// "en" or "tr".
std::string_view reportLanguageCode(ReportLanguage language);
// Accepts "en"/"english" and "tr"/"turkish"/"türkçe" in any ASCII case; throws ayar::Error naming the
// text and the accepted codes.
ReportLanguage parseReportLanguage(std::string_view code);

// Every phrase a report says, written once here in both languages, so that ayar-cli and the GUI say
// the same. "{0}", "{1}", ... mark where formatReportText puts its arguments. To add a phrase: add the
// id here (anywhere) and its row to the table in report_text.cpp (in the same order; a static_assert
// checks it).
enum class ReportText {
  // Ratios between a candidate and its baseline.
  TimesFaster,  // {0}: the ratio with two decimals, in the report's numbers
  TimesSlower,
  TimesHigher,
  TimesLower,
  // {0}: a ratio as worded above; {1}: the level in percent; {2}-{3}: the interval's ends.
  RatioWithInterval,
  NoClearDifference,  // {0}: the ratio with its interval
  RatioWithinNoise,   // {0}: a ratio as worded above, marked as no clear difference where space is short
  NoiseLegend,        // {0}: the level in percent; what the mark above means
  // Per-run figures (see runFigureLabel).
  FigureMeanLatency,
  FigureMedianLatency,
  FigureP99Latency,
  FigureMeanTtft,
  FigureMedianTtft,
  FigureP99Ttft,
  FigureMeanTpot,
  FigureMedianTpot,
  FigureP99Tpot,
  FigureMeanItl,
  FigureMedianItl,
  FigureP99Itl,
  FigureRequestThroughput,
  FigureRequestGoodput,
  FigureOutputThroughput,
  FigureTotalTokenThroughput,
  FigurePeakOutputThroughput,
  // Comparison tables.
  ColumnScenario,
  ColumnBaseline,
  ColumnCandidate,
  ColumnOptimised,
  ColumnRatio,
  ColumnInterval,  // {0}: the level in percent ("95% CI")
  ColumnComparison,
  ColumnOption,
  ColumnRun,
  ColumnFigure,
  // Units as a report prints them after a value.
  UnitMilliseconds,
  UnitSeconds,
  UnitPerSecondRequests,
  UnitPerSecondTokens,
  // Notes every report may carry.
  NoteSimulated,  // results of ayar-engine's timing simulator
  NoteNoValue,    // a figure a run does not have
  // Report documents and study reports (see core/study/study_report.h).
  ColumnSection,
  ColumnGroup,
  ColumnConfiguration,
  ColumnProfile,
  ColumnStatus,
  StudyConclusion,
  StudyRecommendedFor,
  StudyServingCommand,
  StudyBeforeAfter,
  StudyBaselineColumn,
  StudyBaselineStays,
  StudyIncomplete,
  StudyRecommendedWhy,
  StudyNotes,
  StudyNoteLocalOptimum,
  StudyNoteStartingPoint,
  StudyNoteHardware,
  StudyGoal,
  StudySetup,
  StudyModel,
  StudyHardware,
  StudyHardwareNotRecorded,
  StudyEngineVersions,
  StudyDataset,
  StudyMethod,
  StudyMethodDeciding,
  StudyMethodSlo,
  StudyMethodWarmup,
  StudyMethodOrder,
  StudyMeasured,
  StudyResults,
  StudyProfileLine,
  StudyFlagsLine,
  StudyNoFlags,
  StudyResultBlock,
  StudyFailedToStart,
  StudyCellFailed,
  StudyNotRun,
  StudyOptionsSummary,
  StudyOtherScenarios,
  StudyOtherScenariosIntro,
  StudyBaselineCommand,
  StudyOptimisedCommand,
  StudyBaselineResult,
  StudyOptimisedResult,
  StudyCellsDone,
  // Flag and capacity searches (see core/study/search.h).
  ColumnValue,
  ColumnStep,
  ColumnSloAttainment,
  ColumnSuccessRate,
  ColumnWithinLimits,
  ColumnRate,
  ColumnGoodput,
  WordYes,
  WordNo,
  SearchProbes,
  SearchStepTernary,
  SearchStepLast,
  SearchStepGrow,
  SearchStepShrink,
  SearchStepInterpolate,
  SearchNotStarted,
  SearchLimits,
  SearchNoSlo,
  TuneTitle,
  TuneBest,
  TuneNoneWithinLimits,
  CapacityTitle,
  CapacityFound,
  CapacityNone,
  CapacityChart,
  // Comparison reports (the workbench's Compare area; one block, kept together).
  ComparisonTitle,
  ComparisonRuns,
  ComparisonRatioNote,
  ComparisonIntervalNote,  // {0}: the level in percent; {1}: the number of resamples
  ComparisonTableCaption,  // {0}: baseline name, {1}: candidate name
  ComparisonResultOf,      // {0}: a run's name
  ComparisonCharts,
  ComparisonCdfCaption,  // {0}: the latency figure ("TTFT")
  ComparisonBoxCaption,  // {0}: the latency figure
  // What differs between the runs compared.
  ComparisonDifferences,
  ComparisonDifferencesNote,
  ComparisonSameSetup,
  ColumnSetting,
  SettingEngine,
  SettingModel,
  SettingDevice,
  SettingDefault,        // {0}: the engine's default value
  SettingEngineDecides,  // unset, and the engine chooses at start
  SettingNotRecorded,    // a run that did not record its set-up (an import)
  SettingSwitchOn,       // a flag given without a value
  // Charts drawn into reports (PDF, HTML).
  ChartLatencyTtft,
  ChartLatencyTpot,
  ChartLatencyItl,
  ChartLatencyE2el,
  ChartCumulativeShare,  // the CDF's percent axis
  PageOf,                // a PDF page's footer; {0}: this page, {1}: the page count
  // A load profile as a report describes it (see describeProfile in core/study/study_report.h).
  ProfileShareGpt,
  ProfileRandom,
  ProfileSynthetic,
  ProfilePrefixRepetition,
  ProfileRequests,    // {0}: the count
  ProfileLengths,     // {0}: input tokens, {1}: output tokens
  ProfilePrefixes,    // {0}: prefixes, {1}: their tokens, {2}: more input tokens, {3}: output tokens
  ProfileRate,        // {0}: requests per second
  ProfilePoisson,     // burstiness 1
  ProfileEvenly,      // burstiness inf
  ProfileBurstiness,  // {0}: the burstiness
  ProfileAllAtOnce,   // rate inf
  ProfileRampLinear,  // {0}: from, {1}: to (requests per second)
  ProfileRampExponential,
  ProfileConcurrent,  // {0}: streams
  ProfileThroughput,
  ProfileSweep,           // {0}: rates
  ProfileMaxConcurrency,  // {0}: the cap
  Count_
};

std::string_view reportText(ReportText id, ReportLanguage language);
// The phrase with "{i}" replaced by args[i]. A placeholder without an argument is a bug (assert).
std::string formatReportText(ReportText id, ReportLanguage language,
                             std::initializer_list<std::string_view> args);

// "Mean latency" / "Ortalama gecikme", "Total token throughput" / "Toplam token işlem hacmi", ...: a
// figure as a column, row or label names it.
std::string_view runFigureLabel(RunFigure figure, ReportLanguage language);
// The same figure inside a sentence, where it is not capitalised: "mean latency" / "ortalama gecikme".
std::string_view runFigureInText(RunFigure figure, ReportLanguage language);
// A latency distribution as a chart names it: "TTFT", "TPOT", "ITL", "End-to-end latency" /
// "Uçtan uca gecikme".
std::string_view latencyMetricLabel(LatencyMetric metric, ReportLanguage language);
// "ms" for latencies, "req/s" / "tok/s" for rates (the same in both languages).
std::string_view runFigureUnit(RunFigure figure, ReportLanguage language);

// The seeds' wording of a speedup (see speedup() in run_figure.h): at or above 1 "1.26x faster" /
// "1,26x daha hızlı"; below 1 the inverse, "1.05x slower" / "1,05x daha yavaş". For throughputs
// `higherLower` words it as "higher"/"lower" (daha yüksek / daha düşük) instead. Two decimals in the
// locale's numbers (a ReportLanguage alone: its people's, so "1.26x daha hızlı" only in a CSV).
std::string formatSpeedup(double speedup, const ReportLocale& locale, bool higherLower = false);
// A speedup with its confidence interval (bootstrapSpeedup), worded as formatSpeedup with the interval
// in the same sense: "1.26x faster (95% CI 1.18-1.33)"; "1.05x slower (95% CI 1.01-1.09)"; and when the
// interval holds 1, "1.04x faster (95% CI 0.98-1.10): no clear difference" / "1,04x daha hızlı (%95
// güven aralığı 0,98-1,10): belirgin bir fark yok".
std::string formatSpeedupInterval(const SpeedupInterval& interval, const ReportLocale& locale,
                                  bool higherLower = false);
// The interval's ends alone, in the sense formatSpeedup words its ratio: "1.18-1.33" beside "1.26x
// faster", "1.01-1.09" beside "1.05x slower" (the inverted interval), "1,18-1,33" in Turkish.
std::string formatIntervalRange(const SpeedupInterval& interval, const ReportLocale& locale);
// An interval column's header ("95% CI" / "%95 güven aralığı") and the note that states the method,
// for intervals drawn with `options`.
std::string formatIntervalColumn(const BootstrapOptions& options, const ReportLocale& locale);
std::string formatIntervalNote(const BootstrapOptions& options, const ReportLocale& locale);
// The seeds' "+58.1%" / "-3.0%" (Turkish "+%58,1"): a relative change (0.581 is +58.1%), one decimal,
// always signed, in the locale's numbers.
std::string formatRelativeChange(double change, const ReportLocale& locale = {});

}  // namespace ayar
