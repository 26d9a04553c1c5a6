#pragma once

#include <QString>
#include <optional>
#include <vector>

#include "core/record/request_record.h"
#include "core/metrics/run_summary.h"
#include "core/store/result_store.h"

namespace ayar {

// A run from the store with what the workbench shows of it: its requests and its summary (from its
// result when it finished, recomputed from the requests when it was interrupted, or as an imported
// file gave it when the file had no requests).
struct LoadedRun {
  StoredRun run;
  std::vector<RequestRecord> records;
  std::vector<Sample> samples;
  RunSummary summary;
  std::optional<double> requestRate;  // the configured rate, when finite
  RunFacts facts;                     // simulated, synthetic dataset
  RunNotes notes;                     // an import's notes, a failure's error, in both languages
  QString name;                       // "#12 baseline (qwen3-0.6b)"
  QString shortName;                  // "#12 baseline"
};

// Throws ayar::Error when the run is not in the store.
LoadedRun loadStoredRun(ResultStore& store, std::int64_t id);

}  // namespace ayar
