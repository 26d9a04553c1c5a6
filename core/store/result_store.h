#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/record/request_record.h"
#include "core/store/run_types.h"

namespace ayar {

struct StoreOptions {
  // A running run whose heartbeat is older than this is taken as interrupted, whatever host wrote
  // it. On the writer's own host a dead pid says so at once.
  std::chrono::seconds staleHeartbeatAfter{30};
  // How long a call waits for another process (the GUI, the CLI, a run's writer) holding the lock.
  std::chrono::milliseconds busyTimeout{10000};
};

// The results store: one SQLite file (WAL journal, so readers never block the writer) holding runs,
// their requests and samples, and studies. Runs are written by RunWriter; this class reads, lists,
// edits and deletes them. Any number of processes may open the same file at once.
//
// Opening creates the parent folder and the file when missing and migrates an older schema
// (PRAGMA user_version). Errors throw ayar::Error naming the path and what to do: a location that is
// not writable, a file that is not a SQLite database (or is another program's), a schema newer than
// this build.
//
// Thread-safety: every method may be called from any thread; calls are serialised on the store's
// one connection. Use a RunWriter (its own connection and thread) for writing while a run goes.
//
// Runs left `running` by a process that died are found whenever runs are listed or read (pid no
// longer alive on this host, or heartbeat older than staleHeartbeatAfter) and marked `interrupted`
// in the file, with their last heartbeat as the finish time.
class ResultStore {
 public:
  explicit ResultStore(std::filesystem::path path, StoreOptions options = {});
  ~ResultStore();
  ResultStore(const ResultStore&) = delete;
  ResultStore& operator=(const ResultStore&) = delete;

  const std::filesystem::path& path() const;
  int schemaVersion() const;

  // Newest first (by creation time, then id).
  std::vector<StoredRun> listRuns(const RunFilter& filter = {});
  // One run with its summary and result, without requests; nullopt when there is no such run.
  std::optional<StoredRun> findRun(std::int64_t id);
  std::optional<StoredRun> findRunByUuid(std::string_view uuid);
  // One run with all its requests and samples.
  std::optional<RunDetail> loadRun(std::int64_t id);
  std::vector<RequestRecord> loadRequests(std::int64_t runId);
  std::vector<Sample> loadSamples(std::int64_t runId);

  // Adds a run that finished elsewhere: its row (with its own times and status, no writing
  // process), requests and samples in one transaction. Returns its id. `run.status` must be final.
  std::int64_t addFinishedRun(const FinishedRun& run);

  // Removes the run with its requests and samples. False when there was no such run.
  bool deleteRun(std::int64_t id);
  bool setLabel(std::int64_t id, std::string_view label);
  bool setNotes(std::int64_t id, std::string_view notes);
  // A failed run's error: its English as the notes (what `ayar-cli runs show` prints), both languages
  // in its config ("error", "error_tr"), so the workbench says it in its own (runNotes).
  bool setFailure(std::int64_t id, const MessageArgument& error);

  // Marks runs whose writer died as interrupted; returns how many. Listing and reading do it too.
  int markInterruptedRuns();

  // Studies: the place for the study feature; runs point at them through RunInfo::studyId.
  std::int64_t createStudy(std::string_view name, const nlohmann::json& spec);
  std::vector<StoredStudy> listStudies();
  bool setStudyStatus(std::int64_t id, RunStatus status);
  // The runner's heartbeat (setStudyStatus(Running) made this process the runner): a study whose
  // heartbeat is older than StoreOptions::staleHeartbeatAfter lists as interrupted, on any host. A beat
  // after that brings it back. False when this process is not the study's runner.
  bool beatStudy(std::int64_t id);
  bool deleteStudy(std::int64_t id);  // its runs stay, without the link
  std::optional<StoredStudy> findStudy(std::int64_t id);
  // Adds the cells whose index the study does not have yet (the follow-up cells come once the
  // recommended configuration is known); existing cells are left as they are.
  void addStudyCells(std::int64_t studyId, const std::vector<StudyCell>& cells);
  std::vector<StudyCell> listStudyCells(std::int64_t studyId);
  // Writes a cell's status, run, error and engine log. False when there is no such cell.
  bool updateStudyCell(std::int64_t studyId, const StudyCell& cell);

 private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

}  // namespace ayar
