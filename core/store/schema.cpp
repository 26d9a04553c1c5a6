#include "core/store/schema.h"

#include <string>

#include "core/error.h"
#include "core/report/message_text.h"
#include "core/store/sqlite_connection.h"

namespace ayar {

namespace {

// Each step takes the schema from version - 1 to version. Steps are never edited once released:
// a change is a new step, so every older file can be brought forward.
struct Migration {
  int version;
  const char* sql;
};

// Times are seconds since the Unix epoch (UTC) as REAL. `requests.chunk_times` is a BLOB of
// little-endian IEEE-754 float64 values, 8 bytes per chunk with non-empty `choices`, in arrival
// order, each the seconds after start_s (see core/store/chunk_times.h). Small columns come before
// the large ones so that reading them never has to follow a row's overflow pages.
constexpr Migration kMigrations[] = {
    {1, R"sql(
CREATE TABLE studies (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid        TEXT NOT NULL UNIQUE,
  name        TEXT NOT NULL,
  created_at  REAL NOT NULL,
  status      TEXT NOT NULL DEFAULT 'running'
              CHECK (status IN ('running', 'completed', 'interrupted', 'failed', 'cancelled')),
  spec_json   TEXT NOT NULL DEFAULT '{}'
);

CREATE TABLE runs (
  id                 INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid               TEXT NOT NULL UNIQUE,
  study_id           INTEGER REFERENCES studies(id) ON DELETE SET NULL,
  created_at         REAL NOT NULL,
  finished_at        REAL,
  status             TEXT NOT NULL
                     CHECK (status IN ('running', 'completed', 'interrupted', 'failed', 'cancelled')),
  kind               TEXT NOT NULL DEFAULT 'bench' CHECK (kind IN ('bench', 'study-part')),
  label              TEXT NOT NULL DEFAULT '',
  backend            TEXT NOT NULL DEFAULT '',
  base_url           TEXT NOT NULL DEFAULT '',
  endpoint           TEXT NOT NULL DEFAULT '',
  model              TEXT NOT NULL DEFAULT '',
  served_model_name  TEXT NOT NULL DEFAULT '',
  tokenizer          TEXT NOT NULL DEFAULT '',
  dataset            TEXT NOT NULL DEFAULT '',
  pid                INTEGER NOT NULL DEFAULT 0,
  hostname           TEXT NOT NULL DEFAULT '',
  heartbeat_at       REAL,
  notes              TEXT NOT NULL DEFAULT '',
  profile_json       TEXT NOT NULL DEFAULT '{}',
  engine_json        TEXT NOT NULL DEFAULT '{}',
  config_json        TEXT NOT NULL DEFAULT '{}',
  summary_json       TEXT,
  result_json        TEXT
);
CREATE INDEX runs_by_created ON runs(created_at);
CREATE INDEX runs_by_label ON runs(label, created_at);
CREATE INDEX runs_by_model ON runs(model, created_at);
CREATE INDEX runs_by_status ON runs(status, created_at);
CREATE INDEX runs_by_study ON runs(study_id);

CREATE TABLE requests (
  run_id                  INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  idx                     INTEGER NOT NULL,
  scheduled_s             REAL,
  slot_wait_s             REAL,
  start_s                 REAL,
  prompt_tokens           INTEGER NOT NULL,
  output_tokens           INTEGER NOT NULL,
  output_from_usage       INTEGER NOT NULL,
  expected_output_tokens  INTEGER NOT NULL,
  success                 INTEGER NOT NULL,
  http_status             INTEGER NOT NULL,
  error                   TEXT NOT NULL DEFAULT '',
  chunk_times             BLOB NOT NULL,
  generated_text          TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (run_id, idx)
);

CREATE TABLE samples (
  run_id  INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  t_s     REAL,
  name    TEXT NOT NULL,
  value   REAL
);
CREATE INDEX samples_by_run ON samples(run_id, name, t_s);
)sql"},
    // A study's cells (configuration x profile) in the order they run, each with its state, so that a
    // killed study resumes where it stopped. `engine_log` keeps the end of the log of an engine that did
    // not start.
    {2, R"sql(
CREATE TABLE study_cells (
  study_id       INTEGER NOT NULL REFERENCES studies(id) ON DELETE CASCADE,
  idx            INTEGER NOT NULL,
  configuration  TEXT NOT NULL,
  profile        TEXT NOT NULL,
  phase          TEXT NOT NULL DEFAULT 'options' CHECK (phase IN ('options', 'follow-up')),
  status         TEXT NOT NULL DEFAULT 'pending'
                 CHECK (status IN ('pending', 'running', 'done', 'failed-to-start', 'failed')),
  run_id         INTEGER REFERENCES runs(id) ON DELETE SET NULL,
  updated_at     REAL,
  error          TEXT NOT NULL DEFAULT '',
  engine_log     TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (study_id, idx)
);
)sql"},
    // The process running a study, so that a study whose runner died lists as interrupted.
    {3, R"sql(
ALTER TABLE studies ADD COLUMN pid INTEGER NOT NULL DEFAULT 0;
ALTER TABLE studies ADD COLUMN hostname TEXT NOT NULL DEFAULT '';
)sql"},
    // The runner's heartbeat, so that a study run from another host (a shared store) whose runner went
    // silent lists as interrupted too.
    {4, R"sql(
ALTER TABLE studies ADD COLUMN heartbeat_at REAL;
)sql"},
};

}  // namespace

int latestSchemaVersion() {
  return std::end(kMigrations)[-1].version;
}

void migrateToLatest(sqlite::Connection& connection) {
  const std::string path = connection.path().string();
  const auto refuseNewer = [&](int version) {
    if (version <= latestSchemaVersion()) return;
    throw MessageError({MessageText::StoreNewerSchema,
                        {path, std::to_string(version), std::to_string(latestSchemaVersion())}});
  };
  // Cheap check first: an up-to-date file needs no write lock.
  int version = connection.schemaVersion();
  refuseNewer(version);
  if (version == latestSchemaVersion()) return;

  sqlite::Transaction transaction(connection);
  version = connection.schemaVersion();  // another process may have migrated meanwhile
  refuseNewer(version);
  if (version == 0) {
    auto tables = connection.prepare(
        "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'");
    tables.step();
    if (tables.columnInt(0) > 0) {
      throw MessageError({MessageText::StoreForeignDatabase, {path}});
    }
  }
  for (const Migration& migration : kMigrations) {
    if (migration.version <= version) continue;
    connection.exec(migration.sql);
    connection.exec("PRAGMA user_version = " + std::to_string(migration.version));
  }
  transaction.commit();
}

}  // namespace ayar
