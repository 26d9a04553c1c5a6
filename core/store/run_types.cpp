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

}  // namespace ayar
