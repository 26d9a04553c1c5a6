#include "core/store/run_types.h"

#include <array>
#include <utility>

#include "core/error.h"
#include "core/report/message_text.h"

namespace ayar {

namespace {

constexpr std::array<std::pair<RunStatus, std::string_view>, 5> kStatusNames{{
    {RunStatus::Running, "running"},
    {RunStatus::Completed, "completed"},
    {RunStatus::Interrupted, "interrupted"},
    {RunStatus::Failed, "failed"},
    {RunStatus::Cancelled, "cancelled"},
}};

constexpr std::array<std::pair<RunKind, std::string_view>, 2> kKindNames{{
    {RunKind::Bench, "bench"},
    {RunKind::StudyPart, "study-part"},
}};

constexpr std::array<std::pair<CellStatus, std::string_view>, 5> kCellStatusNames{{
    {CellStatus::Pending, "pending"},
    {CellStatus::Running, "running"},
    {CellStatus::Done, "done"},
    {CellStatus::FailedToStart, "failed-to-start"},
    {CellStatus::Failed, "failed"},
}};

template <typename Enum, std::size_t N>
Enum parseName(const std::array<std::pair<Enum, std::string_view>, N>& names, std::string_view text,
               MessageText what) {
  std::string valid;
  for (const auto& [value, name] : names) {
    if (name == text) return value;
    valid += valid.empty() ? "" : ", ";
    valid += name;
  }
  throw MessageError(
      {MessageText::StoreUnknownName, {Message{what, {}}.asArgument(), std::string(text), valid}});
}

}  // namespace

std::string_view toString(RunStatus status) {
  for (const auto& [value, name] : kStatusNames) {
    if (value == status) return name;
  }
  return "running";
}

std::string_view toString(RunKind kind) {
  for (const auto& [value, name] : kKindNames) {
    if (value == kind) return name;
  }
  return "bench";
}

RunStatus parseRunStatus(std::string_view text) {
  return parseName(kStatusNames, text, MessageText::StoreNameRunStatus);
}

RunKind parseRunKind(std::string_view text) {
  return parseName(kKindNames, text, MessageText::StoreNameRunKind);
}

std::string_view toString(CellStatus status) {
  for (const auto& [value, name] : kCellStatusNames) {
    if (value == status) return name;
  }
  return "pending";
}

CellStatus parseCellStatus(std::string_view text) {
  return parseName(kCellStatusNames, text, MessageText::StoreNameCellStatus);
}

namespace {

template <typename Json>
RunFacts factsOf(const Json& result) {
  RunFacts facts;
  if (!result.is_object()) return facts;
  const auto ayar = result.find("ayar");
  if (ayar == result.end() || !ayar->is_object()) return facts;
  if (const auto simulated = ayar->find("simulated"); simulated != ayar->end() && simulated->is_boolean())
    facts.simulated = simulated->template get<bool>();
  if (const auto dataset = ayar->find("dataset"); dataset != ayar->end() && dataset->is_object()) {
    if (const auto synthetic = dataset->find("synthetic");
        synthetic != dataset->end() && synthetic->is_boolean())
      facts.syntheticDataset = synthetic->template get<bool>();
  }
  return facts;
}

}  // namespace

RunFacts runFactsOfResult(const nlohmann::json& result) {
  return factsOf(result);
}

RunFacts runFactsOfResult(const nlohmann::ordered_json& result) {
  return factsOf(result);
}

namespace {

// The import mark's list under `key` in each language (`key` + "_tr" for Turkish; English where a run
// was stored without it).
void appendBothLanguages(const nlohmann::json& mark, const char* key, std::vector<MessageArgument>& out) {
  const auto english = mark.find(key);
  if (english == mark.end() || !english->is_array()) return;
  const auto turkish = mark.find(std::string(key) + "_tr");
  const bool translated = turkish != mark.end() && turkish->is_array() && turkish->size() == english->size();
  for (std::size_t i = 0; i < english->size(); ++i) {
    if (!(*english)[i].is_string()) continue;
    const std::string text = (*english)[i].get<std::string>();
    const nlohmann::json* other = translated ? &(*turkish)[i] : nullptr;
    out.emplace_back(text, other && other->is_string() ? other->get<std::string>() : text);
  }
}

}  // namespace

RunNotes runNotes(const StoredRun& run) {
  RunNotes notes;
  const nlohmann::json& config = run.info.config;
  if (auto imported = runImportFacts(run.info)) {
    notes.notes = std::move(imported->notes);
    notes.notes.insert(notes.notes.end(), imported->differences.begin(), imported->differences.end());
  }
  if (run.status == RunStatus::Failed && !run.info.notes.empty()) {
    std::string turkish = run.info.notes;
    if (config.is_object()) {
      const auto tr = config.find("error_tr");
      if (tr != config.end() && tr->is_string()) turkish = tr->get<std::string>();
    }
    notes.failure = MessageArgument(run.info.notes, std::move(turkish));
  }
  return notes;
}

RunFacts runFacts(const StoredRun& run) {
  RunFacts facts;
  for (const nlohmann::json* result : {&run.summary, &run.result}) {
    const RunFacts recorded = runFactsOfResult(*result);
    facts.simulated = facts.simulated || recorded.simulated;
    facts.syntheticDataset = facts.syntheticDataset || recorded.syntheticDataset;
  }
  if (run.info.engine.is_object()) {
    if (const auto simulated = run.info.engine.find("simulated");
        simulated != run.info.engine.end() && simulated->is_boolean())
      facts.simulated = facts.simulated || simulated->template get<bool>();
  }
  // The dataset that was built: "synthetic-sharegpt" asked for, or standing in for a missing file.
  facts.syntheticDataset = facts.syntheticDataset || run.info.dataset == "synthetic-sharegpt";
  return facts;
}

namespace {

std::string stringAt(const nlohmann::json& object, const char* key) {
  if (!object.is_object()) return {};
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

RunEngineFacts runEngineFacts(const StoredRun& run) {
  const nlohmann::json& engine = run.info.engine;
  RunEngineFacts facts;
  facts.kind = stringAt(engine, "kind");
  facts.engine = stringAt(engine, "engine");
  facts.device = stringAt(engine, "device");
  facts.baseUrl = stringAt(engine, "base_url");
  facts.command = stringAt(engine, "command");
  facts.logPath = stringAt(engine, "log");
  if (engine.is_object()) {
    const auto flags = engine.find("flags");
    if (flags != engine.end() && flags->is_array()) {
      for (const auto& flag : *flags) {
        if (!flag.is_object()) continue;
        const auto value = flag.find("value");
        facts.flags.emplace_back(stringAt(flag, "name"),
                                 value != flag.end() && value->is_string()
                                     ? std::optional<std::string>(value->get<std::string>())
                                     : std::nullopt);
      }
    }
  }
  return facts;
}

std::optional<RunImportFacts> runImportFacts(const RunInfo& info) {
  if (!info.config.is_object()) return std::nullopt;
  const auto mark = info.config.find("imported");
  if (mark == info.config.end() || !mark->is_object()) return std::nullopt;
  RunImportFacts facts;
  facts.tool = stringAt(*mark, "tool");
  facts.version = stringAt(*mark, "version");
  facts.file = stringAt(*mark, "file");
  facts.requestsFile = stringAt(*mark, "requests_file");
  const auto recomputed = mark->find("recomputed");
  facts.recomputed = recomputed != mark->end() && recomputed->is_boolean() && recomputed->get<bool>();
  appendBothLanguages(*mark, "notes", facts.notes);
  appendBothLanguages(*mark, "differences", facts.differences);
  return facts;
}

RunProfileName runProfileName(const StoredRun& run) {
  return {stringAt(run.info.profile, "name"), stringAt(run.info.profile, "edited_from")};
}

}  // namespace ayar
