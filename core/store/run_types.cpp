#include "core/store/run_types.h"

#include <array>
#include <utility>

#include "core/error.h"

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
               std::string_view what) {
  std::string valid;
  for (const auto& [value, name] : names) {
    if (name == text) return value;
    valid += valid.empty() ? "" : ", ";
    valid += name;
  }
  throw Error("unknown " + std::string(what) + " \"" + std::string(text) + "\"; use one of: " + valid);
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
  return parseName(kStatusNames, text, "run status");
}

RunKind parseRunKind(std::string_view text) {
  return parseName(kKindNames, text, "run kind");
}

std::string_view toString(CellStatus status) {
  for (const auto& [value, name] : kCellStatusNames) {
    if (value == status) return name;
  }
  return "pending";
}

CellStatus parseCellStatus(std::string_view text) {
  return parseName(kCellStatusNames, text, "study cell status");
}

}  // namespace ayar
