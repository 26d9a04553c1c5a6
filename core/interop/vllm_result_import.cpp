#include "core/interop/vllm_result_import.h"

#include "core/error.h"
#include "core/interop/import_summary.h"
#include "core/report/json_input.h"
#include "core/store/secret_scrubber.h"

namespace ayar {

namespace {

// vLLM 0.11 and later keep the client's wait for a --max-concurrency slot per request
// ("queue_times", seconds); it is Ayar's slot wait.
void readQueueTimes(const nlohmann::ordered_json& root, std::vector<RequestRecord>& records,
                    const std::string& source) {
  const auto it = root.find("queue_times");
  if (it == root.end() || !it->is_array() || it->size() != records.size()) return;
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (!(*it)[i].is_number()) continue;
    records[i].slotWaitS = json_input::requireNonNegative((*it)[i].get<double>(), source,
                                                          "queue_times[" + std::to_string(i) + "]");
    records[i].scheduledS = records[i].startS - records[i].slotWaitS;
  }
}

bool hasList(const nlohmann::ordered_json& root, const char* key) {
  const auto it = root.find(key);
  return it != root.end() && it->is_array();
}

// The object's own bytes can be kept only when nothing in them is a secret: the store never writes
// one, so a file that holds one is kept redacted, as an object.
bool holdsNoSecret(const nlohmann::ordered_json& root, std::string_view text) {
  for (const auto& [key, value] : root.items()) {
    if (isSecretName(key) && !value.is_null() &&
        !(value.is_string() && value.get_ref<const std::string&>().empty()))
      return false;
  }
  return scrubSecretsInText(text) == text;
}

ImportedRun importOne(const std::filesystem::path& file, const nlohmann::ordered_json& root,
                      std::string_view text, std::size_t index, std::size_t count) {
  const std::string source = count > 1 ? file.string() + " (result " + std::to_string(index + 1) + " of " +
                                             std::to_string(count) + ")"
                                       : file.string();
  ResultFile parsed = readResultObject(root, source);
  ImportedRun run;
  const bool byAyar = parsed.ayar.is_object();
  run.tool = byAyar ? "ayar" : "vllm";
  for (const auto& [key, value] : parsed.setup.metadata) {
    if (key == "vllm_version" || (key == "version" && !byAyar)) run.toolVersion = value;
  }
  if (byAyar) run.toolVersion = parsed.ayar.value("version", std::string());
  run.source = file;
  run.format = std::string(byAyar ? "Ayar result file" : "vllm bench serve --save-result") +
               (parsed.records.empty() ? "" : " (detailed)");
  if (count > 1) run.title = "result " + std::to_string(index + 1) + " of " + std::to_string(count);
  run.startedAtS = import_summary::parseLocalTime(parsed.setup.date, "%Y%m%d-%H%M%S");
  run.setup = parsed.setup;
  if (byAyar) {
    run.original = root;  // exported without its "ayar" object, as vLLM's file
  } else {
    if (holdsNoSecret(root, text)) {
      run.originalText = std::string(text);
    } else {
      run.original = root;
      run.notes.push_back({MessageText::ImportNoteSecret, {}});
    }
    readQueueTimes(root, parsed.records, source);
  }
  run.records = std::move(parsed.records);

  const RunSummary& written = parsed.summary;
  if (run.records.empty()) {
    run.summary = written;
    run.notes.push_back({MessageText::ImportNoteNoDetails, {}});
    return run;
  }
  std::vector<LatencyMetric> metrics = written.percentileMetrics;
  if (metrics.empty()) metrics = {LatencyMetric::Ttft, LatencyMetric::Tpot, LatencyMetric::Itl};
  std::vector<double> percentiles = written.percentiles;
  if (percentiles.empty()) percentiles = {99.0};
  run.summary = import_summary::recompute(run.records, metrics, percentiles, run.setup.maxConcurrency,
                                          written.durationS);
  // Without when each request started (or when its tokens came) the peaks cannot be computed: the
  // requests would all seem to start at once. They are left out rather than made up.
  if (!hasList(root, "start_times")) {
    run.startTimesKnown = false;
    run.summary.maxOutputTokensPerS.reset();
    run.summary.maxConcurrentRequests.reset();
    run.notes.push_back({MessageText::ImportNoteNoStartTimes, {}});
  } else if (!hasList(root, "itls")) {
    run.summary.maxOutputTokensPerS.reset();
    run.notes.push_back({MessageText::ImportNoteNoItls, {}});
  }
  // The goodput SLOs are not in the file; the written goodput is the only one there is.
  run.summary.requestGoodput = written.requestGoodput;
  run.recomputed = true;
  run.notes.push_back(
      {MessageText::ImportNoteVllmRecomputed, {countArgument(static_cast<long long>(run.records.size()))}});
  if (written.requestGoodput) run.notes.push_back({MessageText::ImportNoteGoodput, {}});
  if (!byAyar) run.notes.push_back({MessageText::ImportNoteVllmNoDue, {}});
  run.differences = import_summary::differences(written, run.summary, import_summary::keysOf(root));
  return run;
}

}  // namespace

std::vector<ImportedRun> importVllmResults(const std::filesystem::path& file,
                                           const std::vector<nlohmann::ordered_json>& objects,
                                           const std::vector<std::string_view>& texts) {
  std::vector<ImportedRun> runs;
  for (std::size_t i = 0; i < objects.size(); ++i)
    runs.push_back(importOne(file, objects[i],
                             i < texts.size() && texts.size() == objects.size() ? texts[i] : "", i,
                             objects.size()));
  return runs;
}

}  // namespace ayar
