#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

#include "core/engines/engine_catalogue.h"
#include "core/metrics/run_summary.h"
#include "core/report/comparison_report.h"
#include "core/report/report_document.h"
#include "core/store/result_store.h"
#include "core/study/profile_spec.h"

namespace ayar {

// The report of a stored study in the seed documents' shape, in `locale`'s language and numbers (the
// result blocks stay vLLM's, in the C locale):
//   - the conclusion: the recommended configuration and its serving command, and the before/after
//     table per profile (baseline vs recommended on the deciding figure, "1.26x faster");
//   - the notes, the goal and the setup (model, hardware, engine versions, profiles, method, and
//     whether the engine was simulated);
//   - one section per option with its flags, serving command and result block per profile (the log
//     of an engine that did not start in its place);
//   - the options summary table (option | optimised | baseline | comparison);
//   - the follow-up profiles with the baseline's and the recommended configuration's results.
// Every phrase comes from the report catalogue. Throws ayar::Error naming the study when the store
// has no such study.
ReportDocument buildStudyReport(const std::filesystem::path& storePath, std::int64_t studyId,
                                const ReportLocale& locale);

// A load profile as a report describes it, in `locale`'s language and numbers: "random prompts, 20
// requests, 32 input and 8 output tokens, 10 requests per second, evenly spaced" / "rastgele
// istemler, 20 istek, 32 giriş ve 8 çıkış token'ı, saniyede 10 istek, eşit aralıklı".
std::string describeProfile(const ProfileSpec& profile, const ReportLocale& locale);

// A stored run's summary rebuilt from its stored requests with its own duration (so the text block
// has every percentile); `slo` adds goodput.
RunSummary storedRunSummary(ResultStore& store, const StoredRun& run, const GoodputSlo& slo = {});

// What a stored run recorded of its set-up (its engine record and load profile), for a comparison's
// "what differs": flags in one form and the engine's defaults from `catalogue` (none when it lacks the
// engine). A run whose engine record is missing or malformed (an import) is not `recorded`.
RunSetup storedRunSetup(const StoredRun& run, const EngineCatalogue* catalogue);
// The same with the installed catalogue (resources/engines), read once; without it (a broken install)
// the flags a run set are still listed, an unset one as the engine's default without its value.
RunSetup storedRunSetup(const StoredRun& run);

// Stored runs side by side (`ayar-cli report RUN_IDS...`): the first is the baseline, the others its
// candidates, as buildComparisonReport words them (figures rebuilt from the stored requests), listing
// `figures`. Throws ayar::Error naming an id the store does not have.
ReportDocument buildRunsReport(const std::filesystem::path& storePath,
                               const std::vector<std::int64_t>& runIds, const ReportLocale& locale,
                               const std::vector<RunFigure>& figures = defaultComparisonFigures());

}  // namespace ayar
