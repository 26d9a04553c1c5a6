#include "core/store/run_rows.h"

#include "core/store/chunk_times.h"
#include "core/store/json_text.h"
#include "core/store/secret_scrubber.h"

namespace ayar::run_rows {

namespace {

std::string scrubbedObjectText(const nlohmann::json& value) {
  return toJsonText(scrubSecrets(value.is_null() ? nlohmann::json::object() : value));
}

void bindJsonOrNull(sqlite::Statement& statement, int index, const nlohmann::json& value) {
  if (value.is_null()) {
    statement.bindNull(index);
  } else {
    statement.bind(index, toJsonText(scrubSecrets(value)));
  }
}

}  // namespace

std::int64_t insertRun(sqlite::Connection& connection, std::string_view uuid, const RunInfo& info,
                       RunStatus status, const Origin& origin) {
  auto insert = connection.prepare(R"sql(
INSERT INTO runs (uuid, study_id, created_at, status, kind, label, backend, base_url, endpoint, model,
                  served_model_name, tokenizer, dataset, pid, hostname, heartbeat_at, notes,
                  profile_json, engine_json, config_json)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20))sql");
  insert.bind(1, uuid);
  if (info.studyId) {
    insert.bind(2, *info.studyId);
  } else {
    insert.bindNull(2);
  }
  insert.bind(3, origin.createdAt)
      .bind(4, toString(status))
      .bind(5, toString(info.kind))
      .bind(6, info.label)
      .bind(7, info.backend)
      .bind(8, scrubSecretsInText(info.baseUrl))
      .bind(9, info.endpoint)
      .bind(10, info.model)
      .bind(11, info.servedModelName)
      .bind(12, info.tokenizer)
      .bind(13, info.dataset)
      .bind(14, origin.pid)
      .bind(15, origin.hostname);
  if (origin.heartbeatAt) {
    insert.bind(16, *origin.heartbeatAt);
  } else {
    insert.bindNull(16);
  }
  insert.bind(17, info.notes)
      .bind(18, scrubbedObjectText(info.profile))
      .bind(19, scrubbedObjectText(info.engine))
      .bind(20, scrubbedObjectText(info.config));
  insert.run();
  return connection.lastInsertRowId();
}

sqlite::Statement prepareInsertRequest(sqlite::Connection& connection) {
  return connection.prepare(R"sql(
INSERT OR REPLACE INTO requests (run_id, idx, scheduled_s, slot_wait_s, start_s, prompt_tokens,
                                 output_tokens, output_from_usage, expected_output_tokens, success,
                                 http_status, error, chunk_times, generated_text)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14))sql");
}

void insertRequest(sqlite::Statement& statement, std::int64_t runId, const RequestRecord& record) {
  const std::vector<std::byte> chunkTimes = encodeChunkTimes(record.chunkTimesS);
  statement.bind(1, runId)
      .bind(2, record.index)
      .bind(3, record.scheduledS)
      .bind(4, record.slotWaitS)
      .bind(5, record.startS)
      .bind(6, record.promptTokens)
      .bind(7, record.outputTokens)
      .bind(8, record.outputTokensFromUsage)
      .bind(9, record.expectedOutputTokens)
      .bind(10, record.success)
      .bind(11, record.httpStatus)
      .bind(12, record.error)
      .bindBlob(13, chunkTimes)
      .bind(14, record.generatedText);
  statement.run();
}

sqlite::Statement prepareInsertSample(sqlite::Connection& connection) {
  return connection.prepare("INSERT INTO samples (run_id, t_s, name, value) VALUES (?1, ?2, ?3, ?4)");
}

void insertSample(sqlite::Statement& statement, std::int64_t runId, const Sample& sample) {
  statement.bind(1, runId).bind(2, sample.tS).bind(3, sample.name).bind(4, sample.value);
  statement.run();
}

sqlite::Statement prepareFinishRun(sqlite::Connection& connection) {
  return connection.prepare(R"sql(
UPDATE runs SET status = ?1, finished_at = ?2, heartbeat_at = ?2, summary_json = ?3, result_json = ?4
WHERE id = ?5)sql");
}

void finishRun(sqlite::Statement& statement, std::int64_t runId, RunStatus status, double finishedAt,
               const nlohmann::json& summary, const nlohmann::json& result) {
  statement.bind(1, toString(status)).bind(2, finishedAt);
  bindJsonOrNull(statement, 3, summary);
  bindJsonOrNull(statement, 4, result);
  statement.bind(5, runId);
  statement.run();
}

}  // namespace ayar::run_rows
