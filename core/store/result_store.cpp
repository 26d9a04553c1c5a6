#include "core/store/result_store.h"

#include <cassert>
#include <mutex>
#include <utility>

#include "core/error.h"
#include "core/store/chunk_times.h"
#include "core/store/json_text.h"
#include "core/store/process_identity.h"
#include "core/store/run_rows.h"
#include "core/store/secret_scrubber.h"
#include "core/store/sqlite_connection.h"

namespace ayar {

namespace {

// Column order read by readRun(). The request count uses the (run_id, idx) key alone.
constexpr std::string_view kRunColumns = R"sql(
  id, uuid, study_id, created_at, finished_at, status, kind, label, backend, base_url, endpoint, model,
  served_model_name, tokenizer, dataset, pid, hostname, heartbeat_at, notes, profile_json, engine_json,
  config_json, summary_json, (SELECT count(*) FROM requests WHERE requests.run_id = runs.id))sql";

std::optional<double> optionalDouble(const sqlite::Statement& row, int column) {
  if (row.isNull(column)) return std::nullopt;
  return row.columnDouble(column);
}

nlohmann::json jsonObjectOr(const nlohmann::json& value) {
  return value.is_null() ? nlohmann::json::object() : value;
}

StoredRun readRun(const sqlite::Statement& row, bool withResult) {
  StoredRun run;
  run.id = row.columnInt(0);
  run.uuid = row.columnText(1);
  if (!row.isNull(2)) run.info.studyId = row.columnInt(2);
  run.createdAt = row.columnDouble(3);
  run.finishedAt = optionalDouble(row, 4);
  run.status = parseRunStatus(row.columnText(5));
  run.info.kind = parseRunKind(row.columnText(6));
  run.info.label = row.columnText(7);
  run.info.backend = row.columnText(8);
  run.info.baseUrl = row.columnText(9);
  run.info.endpoint = row.columnText(10);
  run.info.model = row.columnText(11);
  run.info.servedModelName = row.columnText(12);
  run.info.tokenizer = row.columnText(13);
  run.info.dataset = row.columnText(14);
  run.pid = row.columnInt(15);
  run.hostname = row.columnText(16);
  run.heartbeatAt = optionalDouble(row, 17);
  run.info.notes = row.columnText(18);
  run.info.profile = jsonObjectOr(fromJsonText(row.columnText(19)));
  run.info.engine = jsonObjectOr(fromJsonText(row.columnText(20)));
  run.info.config = jsonObjectOr(fromJsonText(row.columnText(21)));
  run.summary = fromJsonText(row.columnText(22));
  run.storedRequests = row.columnInt(23);
  if (withResult) run.result = fromJsonText(row.columnText(24));
  return run;
}

std::string runQuery(bool withResult, std::string_view where) {
  std::string sql = "SELECT ";
  sql += kRunColumns;
  sql += withResult ? ", result_json" : ", NULL";
  sql += " FROM runs ";
  sql += where;
  return sql;
}

}  // namespace

struct ResultStore::Impl {
  Impl(std::filesystem::path storePath, StoreOptions storeOptions)
      : options(storeOptions), connection(std::move(storePath), storeOptions.busyTimeout) {}

  int markInterrupted();
  void markStudiesInterrupted(const std::string& host);
  std::optional<StoredRun> findOne(std::string_view where, const auto& bindKey);
  std::vector<RequestRecord> requestsOf(std::int64_t runId);
  std::vector<Sample> samplesOf(std::int64_t runId);
  bool updateText(std::string_view sql, std::int64_t id, std::string_view text);

  StoreOptions options;
  std::mutex mutex;
  sqlite::Connection connection;
};

void ResultStore::Impl::markStudiesInterrupted(const std::string& host) {
  // A runner known dead (this host, its process gone), or silent for longer than staleHeartbeatAfter
  // (any host; a study without a heartbeat predates it and is judged by its process only).
  const double now = unixTimeNowS();
  const double staleAfter = static_cast<double>(options.staleHeartbeatAfter.count());
  std::vector<std::int64_t> dead;
  {
    auto running =
        connection.prepare("SELECT id, pid, hostname, heartbeat_at FROM studies WHERE status = 'running'");
    while (running.step()) {
      const bool runnerGone = running.columnText(2) == host && !processAlive(running.columnInt(1));
      const std::optional<double> heartbeat = optionalDouble(running, 3);
      const bool silent = heartbeat && now - *heartbeat > staleAfter;
      if (runnerGone || silent) dead.push_back(running.columnInt(0));
    }
  }
  try {
    auto mark =
        connection.prepare("UPDATE studies SET status = 'interrupted' WHERE id = ?1 AND status = 'running'");
    for (const std::int64_t id : dead) {
      mark.bind(1, id);
      mark.run();
    }
  } catch (const Error&) {
    // A read-only copy still lists; the next writer marks them.
  }
}

int ResultStore::Impl::markInterrupted() {
  struct Candidate {
    std::int64_t id;
    std::optional<double> heartbeatAt;
  };
  std::vector<Candidate> dead;
  const std::string host = currentHostName();
  const double now = unixTimeNowS();
  const double staleAfter = static_cast<double>(options.staleHeartbeatAfter.count());
  {
    auto running =
        connection.prepare("SELECT id, pid, hostname, heartbeat_at FROM runs WHERE status = 'running'");
    while (running.step()) {
      const std::optional<double> heartbeat = optionalDouble(running, 3);
      const bool writerGone = running.columnText(2) == host && !processAlive(running.columnInt(1));
      const bool silent = !heartbeat || now - *heartbeat > staleAfter;
      if (writerGone || silent) dead.push_back({running.columnInt(0), heartbeat});
    }
  }
  markStudiesInterrupted(host);
  if (dead.empty()) return 0;
  // Only if nothing changed since the look: the writer may have finished or beaten its heart.
  auto mark = connection.prepare(R"sql(
UPDATE runs SET status = 'interrupted', finished_at = coalesce(heartbeat_at, created_at)
WHERE id = ?1 AND status = 'running' AND heartbeat_at IS ?2)sql");
  int marked = 0;
  try {
    for (const Candidate& run : dead) {
      mark.bind(1, run.id);
      if (run.heartbeatAt) {
        mark.bind(2, *run.heartbeatAt);
      } else {
        mark.bindNull(2);
      }
      mark.run();
      marked += connection.changes();
    }
  } catch (const Error&) {
    // A store opened from a read-only copy still lists; the runs are marked by the next writer.
  }
  return marked;
}

std::optional<StoredRun> ResultStore::Impl::findOne(std::string_view where, const auto& bindKey) {
  auto query = connection.prepare(runQuery(true, where));
  bindKey(query);
  if (!query.step()) return std::nullopt;
  return readRun(query, true);
}

std::vector<RequestRecord> ResultStore::Impl::requestsOf(std::int64_t runId) {
  auto query = connection.prepare(R"sql(
SELECT idx, scheduled_s, slot_wait_s, start_s, prompt_tokens, output_tokens, output_from_usage,
       expected_output_tokens, success, http_status, error, chunk_times, generated_text
FROM requests WHERE run_id = ?1 ORDER BY idx)sql");
  query.bind(1, runId);
  std::vector<RequestRecord> records;
  while (query.step()) {
    RequestRecord& record = records.emplace_back();
    record.index = query.columnInt(0);
    record.scheduledS = query.columnDouble(1);
    record.slotWaitS = query.columnDouble(2);
    record.startS = query.columnDouble(3);
    record.promptTokens = static_cast<int>(query.columnInt(4));
    record.outputTokens = static_cast<int>(query.columnInt(5));
    record.outputTokensFromUsage = query.columnInt(6) != 0;
    record.expectedOutputTokens = static_cast<int>(query.columnInt(7));
    record.success = query.columnInt(8) != 0;
    record.httpStatus = static_cast<int>(query.columnInt(9));
    record.error = query.columnText(10);
    record.chunkTimesS = decodeChunkTimes(
        query.columnBlob(11), "results store \"" + connection.path().string() + "\", run " +
                                  std::to_string(runId) + ", request " + std::to_string(record.index));
    record.generatedText = query.columnText(12);
  }
  return records;
}

std::vector<Sample> ResultStore::Impl::samplesOf(std::int64_t runId) {
  auto query =
      connection.prepare("SELECT t_s, name, value FROM samples WHERE run_id = ?1 ORDER BY name, t_s, rowid");
  query.bind(1, runId);
  std::vector<Sample> samples;
  while (query.step())
    samples.push_back({query.columnDouble(0), query.columnText(1), query.columnDouble(2)});
  return samples;
}

bool ResultStore::Impl::updateText(std::string_view sql, std::int64_t id, std::string_view text) {
  auto update = connection.prepare(sql);
  update.bind(1, text).bind(2, id);
  update.run();
  return connection.changes() > 0;
}

ResultStore::ResultStore(std::filesystem::path path, StoreOptions options)
    : m_impl(std::make_unique<Impl>(std::move(path), options)) {}

ResultStore::~ResultStore() = default;

const std::filesystem::path& ResultStore::path() const {
  return m_impl->connection.path();
}

int ResultStore::schemaVersion() const {
  std::lock_guard lock(m_impl->mutex);
  return m_impl->connection.schemaVersion();
}

std::vector<StoredRun> ResultStore::listRuns(const RunFilter& filter) {
  std::lock_guard lock(m_impl->mutex);
  m_impl->markInterrupted();
  std::string where = "WHERE 1";
  if (filter.label) where += " AND label = ?1";
  if (filter.model) where += " AND (model = ?2 OR served_model_name = ?2)";
  if (filter.status) where += " AND status = ?3";
  if (filter.studyId) where += " AND study_id = ?4";
  where += " ORDER BY created_at DESC, id DESC";
  if (filter.limit > 0) where += " LIMIT ?5";
  auto query = m_impl->connection.prepare(runQuery(filter.withResult, where));
  if (filter.label) query.bind(1, *filter.label);
  if (filter.model) query.bind(2, *filter.model);
  if (filter.status) query.bind(3, toString(*filter.status));
  if (filter.studyId) query.bind(4, *filter.studyId);
  if (filter.limit > 0) query.bind(5, filter.limit);
  std::vector<StoredRun> runs;
  while (query.step())
    runs.push_back(readRun(query, filter.withResult));
  return runs;
}

std::optional<StoredRun> ResultStore::findRun(std::int64_t id) {
  std::lock_guard lock(m_impl->mutex);
  m_impl->markInterrupted();
  return m_impl->findOne("WHERE id = ?1", [&](sqlite::Statement& query) { query.bind(1, id); });
}

std::optional<StoredRun> ResultStore::findRunByUuid(std::string_view uuid) {
  std::lock_guard lock(m_impl->mutex);
  m_impl->markInterrupted();
  return m_impl->findOne("WHERE uuid = ?1", [&](sqlite::Statement& query) { query.bind(1, uuid); });
}

std::optional<RunDetail> ResultStore::loadRun(std::int64_t id) {
  std::lock_guard lock(m_impl->mutex);
  m_impl->markInterrupted();
  // One read transaction: the run row, its requests and samples from the same moment, even while
  // its writer commits.
  m_impl->connection.exec("BEGIN");
  try {
    std::optional<RunDetail> detail;
    if (auto run = m_impl->findOne("WHERE id = ?1", [&](sqlite::Statement& query) { query.bind(1, id); })) {
      detail.emplace();
      detail->run = std::move(*run);
      detail->requests = m_impl->requestsOf(id);
      detail->samples = m_impl->samplesOf(id);
    }
    m_impl->connection.exec("COMMIT");
    return detail;
  } catch (...) {
    m_impl->connection.exec("ROLLBACK");
    throw;
  }
}

std::vector<RequestRecord> ResultStore::loadRequests(std::int64_t runId) {
  std::lock_guard lock(m_impl->mutex);
  return m_impl->requestsOf(runId);
}

std::vector<Sample> ResultStore::loadSamples(std::int64_t runId) {
  std::lock_guard lock(m_impl->mutex);
  return m_impl->samplesOf(runId);
}

std::int64_t ResultStore::addFinishedRun(const FinishedRun& run) {
  assert(run.status != RunStatus::Running && "addFinishedRun() needs a final status");
  std::lock_guard lock(m_impl->mutex);
  sqlite::Connection& connection = m_impl->connection;
  sqlite::Transaction transaction(connection);
  const std::int64_t runId = run_rows::insertRun(
      connection, newUuid(), run.info, run.status,
      {.pid = 0, .hostname = "", .createdAt = run.createdAt, .heartbeatAt = std::nullopt});
  auto insertRequest = run_rows::prepareInsertRequest(connection);
  for (const RequestRecord& record : run.requests)
    run_rows::insertRequest(insertRequest, runId, record);
  auto insertSample = run_rows::prepareInsertSample(connection);
  for (const Sample& sample : run.samples)
    run_rows::insertSample(insertSample, runId, sample);
  auto finish = run_rows::prepareFinishRun(connection);
  run_rows::finishRun(finish, runId, run.status, run.finishedAt, run.summary, run.result);
  transaction.commit();
  return runId;
}

bool ResultStore::deleteRun(std::int64_t id) {
  std::lock_guard lock(m_impl->mutex);
  auto remove = m_impl->connection.prepare("DELETE FROM runs WHERE id = ?1");
  remove.bind(1, id);
  remove.run();  // requests and samples go with it (ON DELETE CASCADE)
  return m_impl->connection.changes() > 0;
}

bool ResultStore::setLabel(std::int64_t id, std::string_view label) {
  std::lock_guard lock(m_impl->mutex);
  return m_impl->updateText("UPDATE runs SET label = ?1 WHERE id = ?2", id, label);
}

bool ResultStore::setNotes(std::int64_t id, std::string_view notes) {
  std::lock_guard lock(m_impl->mutex);
  return m_impl->updateText("UPDATE runs SET notes = ?1 WHERE id = ?2", id, notes);
}

bool ResultStore::setFailure(std::int64_t id, const MessageArgument& error) {
  std::lock_guard lock(m_impl->mutex);
  auto update = m_impl->connection.prepare(
      "UPDATE runs SET notes = ?1, config_json = json_set(config_json, '$.error', ?1, '$.error_tr', ?2) "
      "WHERE id = ?3");
  update.bind(1, error.english).bind(2, error.turkish).bind(3, id);
  update.run();
  return m_impl->connection.changes() > 0;
}

int ResultStore::markInterruptedRuns() {
  std::lock_guard lock(m_impl->mutex);
  return m_impl->markInterrupted();
}

std::int64_t ResultStore::createStudy(std::string_view name, const nlohmann::json& spec) {
  std::lock_guard lock(m_impl->mutex);
  auto insert = m_impl->connection.prepare(
      "INSERT INTO studies (uuid, name, created_at, status, spec_json, pid, hostname) "
      "VALUES (?1, ?2, ?3, 'running', ?4, ?5, ?6)");
  insert.bind(1, newUuid())
      .bind(2, name)
      .bind(3, unixTimeNowS())
      .bind(4, toJsonText(scrubSecrets(spec.is_null() ? nlohmann::json::object() : spec)))
      .bind(5, currentProcessId())
      .bind(6, currentHostName());
  insert.run();
  return m_impl->connection.lastInsertRowId();
}

std::vector<StoredStudy> ResultStore::listStudies() {
  std::lock_guard lock(m_impl->mutex);
  m_impl->markInterrupted();
  auto query = m_impl->connection.prepare(
      "SELECT id, uuid, name, created_at, status, spec_json FROM studies ORDER BY created_at DESC, id DESC");
  std::vector<StoredStudy> studies;
  while (query.step()) {
    StoredStudy& study = studies.emplace_back();
    study.id = query.columnInt(0);
    study.uuid = query.columnText(1);
    study.name = query.columnText(2);
    study.createdAt = query.columnDouble(3);
    study.status = parseRunStatus(query.columnText(4));
    study.spec = jsonObjectOr(fromJsonText(query.columnText(5)));
  }
  return studies;
}

bool ResultStore::setStudyStatus(std::int64_t id, RunStatus status) {
  std::lock_guard lock(m_impl->mutex);
  if (status != RunStatus::Running) {
    return m_impl->updateText("UPDATE studies SET status = ?1 WHERE id = ?2", id, toString(status));
  }
  // Running (again, on resume): this process is now the one to watch.
  auto update = m_impl->connection.prepare(
      "UPDATE studies SET status = 'running', pid = ?1, hostname = ?2, heartbeat_at = ?3 WHERE id = ?4");
  update.bind(1, currentProcessId()).bind(2, currentHostName()).bind(3, unixTimeNowS()).bind(4, id);
  update.run();
  return m_impl->connection.changes() > 0;
}

bool ResultStore::beatStudy(std::int64_t id) {
  std::lock_guard lock(m_impl->mutex);
  // Also brings back a study marked interrupted while its runner was only slow (a suspended machine).
  auto beat = m_impl->connection.prepare(
      "UPDATE studies SET heartbeat_at = ?1, status = 'running' WHERE id = ?2 AND status IN ('running', "
      "'interrupted') AND pid = ?3 AND hostname = ?4");
  beat.bind(1, unixTimeNowS()).bind(2, id).bind(3, currentProcessId()).bind(4, currentHostName());
  beat.run();
  return m_impl->connection.changes() > 0;
}

bool ResultStore::deleteStudy(std::int64_t id) {
  std::lock_guard lock(m_impl->mutex);
  auto remove = m_impl->connection.prepare("DELETE FROM studies WHERE id = ?1");
  remove.bind(1, id);
  remove.run();
  return m_impl->connection.changes() > 0;
}

std::optional<StoredStudy> ResultStore::findStudy(std::int64_t id) {
  for (StoredStudy& study : listStudies()) {
    if (study.id == id) return std::move(study);
  }
  return std::nullopt;
}

void ResultStore::addStudyCells(std::int64_t studyId, const std::vector<StudyCell>& cells) {
  std::lock_guard lock(m_impl->mutex);
  sqlite::Transaction transaction(m_impl->connection);
  auto insert = m_impl->connection.prepare(R"sql(
INSERT OR IGNORE INTO study_cells (study_id, idx, configuration, profile, phase, status, updated_at)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7))sql");
  for (const StudyCell& cell : cells) {
    insert.bind(1, studyId)
        .bind(2, cell.index)
        .bind(3, cell.configuration)
        .bind(4, cell.profile)
        .bind(5, cell.phase)
        .bind(6, toString(cell.status))
        .bind(7, unixTimeNowS());
    insert.run();
  }
  transaction.commit();
}

std::vector<StudyCell> ResultStore::listStudyCells(std::int64_t studyId) {
  std::lock_guard lock(m_impl->mutex);
  auto query = m_impl->connection.prepare(R"sql(
SELECT idx, configuration, profile, phase, status, run_id, error, engine_log FROM study_cells
WHERE study_id = ?1 ORDER BY idx)sql");
  query.bind(1, studyId);
  std::vector<StudyCell> cells;
  while (query.step()) {
    StudyCell& cell = cells.emplace_back();
    cell.index = static_cast<int>(query.columnInt(0));
    cell.configuration = query.columnText(1);
    cell.profile = query.columnText(2);
    cell.phase = query.columnText(3);
    cell.status = parseCellStatus(query.columnText(4));
    if (!query.isNull(5)) cell.runId = query.columnInt(5);
    cell.error = query.columnText(6);
    cell.engineLog = query.columnText(7);
  }
  return cells;
}

bool ResultStore::updateStudyCell(std::int64_t studyId, const StudyCell& cell) {
  std::lock_guard lock(m_impl->mutex);
  auto update = m_impl->connection.prepare(R"sql(
UPDATE study_cells SET status = ?3, run_id = ?4, error = ?5, engine_log = ?6, updated_at = ?7
WHERE study_id = ?1 AND idx = ?2)sql");
  update.bind(1, studyId).bind(2, cell.index).bind(3, toString(cell.status));
  if (cell.runId) {
    update.bind(4, *cell.runId);
  } else {
    update.bindNull(4);
  }
  update.bind(5, cell.error).bind(6, cell.engineLog).bind(7, unixTimeNowS());
  update.run();
  return m_impl->connection.changes() > 0;
}

}  // namespace ayar
