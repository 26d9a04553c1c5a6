#include "app/gui/stored_run.h"

#include <cmath>

#include "app/gui/history_model.h"
#include "core/error.h"
#include "core/report/message_text.h"
#include "core/report/result_json.h"

namespace ayar {

LoadedRun loadStoredRun(ResultStore& store, std::int64_t id) {
  auto detail = store.loadRun(id);
  if (!detail) throw MessageError({MessageText::ReportNoRun, {std::to_string(id), store.path().string()}});
  LoadedRun loaded;
  loaded.run = std::move(detail->run);
  loaded.records = std::move(detail->requests);
  loaded.samples = std::move(detail->samples);
  loaded.name = HistoryModel::runName(loaded.run);
  loaded.shortName = QStringLiteral("#%1").arg(loaded.run.id);
  if (!loaded.run.info.label.empty())
    loaded.shortName += QLatin1Char(' ') + QString::fromStdString(loaded.run.info.label);
  bool fromFile = false;
  for (const nlohmann::json* source : {&loaded.run.result, &loaded.run.summary}) {
    if (fromFile || !source->is_object() || source->empty()) continue;
    try {
      const ResultFile file =
          readResultObject(nlohmann::ordered_json::parse(source->dump()), "stored result");
      loaded.summary = file.summary;
      if (std::isfinite(file.setup.requestRate)) loaded.requestRate = file.setup.requestRate;
      fromFile = true;
    } catch (const Error&) {
      // Not a result object (an older or partial row): recompute below.
    }
  }
  if (!fromFile || (loaded.run.status == RunStatus::Interrupted && !loaded.records.empty()))
    loaded.summary = computeRunSummary(loaded.records);
  // A result written without some latency (vLLM's default leaves out end-to-end latency) gets it
  // from the requests, so that no view shows 0 for a figure the run has.
  fillMissingLatencies(loaded.summary, loaded.records);
  loaded.facts = runFacts(loaded.run);
  loaded.notes = runNotes(loaded.run);
  return loaded;
}

}  // namespace ayar
