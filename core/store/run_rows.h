#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

#include "core/record/request_record.h"
#include "core/store/run_types.h"
#include "core/store/sqlite_connection.h"

// The rows of one run, written the same way by RunWriter (a run as it goes) and by
// ResultStore::addFinishedRun (a run that ended elsewhere). Internal to the store.
namespace ayar::run_rows {

// Who wrote the run and when: the writing process for a live run; for a finished one added later,
// pid 0 and no host, so that no sweep ever takes it for a live run.
struct Origin {
  std::int64_t pid = 0;
  std::string_view hostname;
  double createdAt = 0.0;
  std::optional<double> heartbeatAt;
};

// Inserts the run's row with `status` and returns its id. The JSON fields are scrubbed of secrets.
std::int64_t insertRun(sqlite::Connection& connection, std::string_view uuid, const RunInfo& info,
                       RunStatus status, const Origin& origin);

sqlite::Statement prepareInsertRequest(sqlite::Connection& connection);
void insertRequest(sqlite::Statement& statement, std::int64_t runId, const RequestRecord& record);

sqlite::Statement prepareInsertSample(sqlite::Connection& connection);
void insertSample(sqlite::Statement& statement, std::int64_t runId, const Sample& sample);

// The final status, finish time, summary and result (null JSON: SQL NULL).
sqlite::Statement prepareFinishRun(sqlite::Connection& connection);
void finishRun(sqlite::Statement& statement, std::int64_t runId, RunStatus status, double finishedAt,
               const nlohmann::json& summary, const nlohmann::json& result);

}  // namespace ayar::run_rows
