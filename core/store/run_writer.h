#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "core/record/request_record.h"
#include "core/store/run_types.h"

namespace ayar {

struct RunWriterOptions {
  // How often the writer thread commits what it was handed. A finished request is durable within
  // this interval plus one commit (well under a second), so SIGKILL loses less than that.
  std::chrono::milliseconds commitInterval{200};
  // How often the run's heartbeat is refreshed when nothing else is written; every commit refreshes
  // it too. Keep it far below StoreOptions::staleHeartbeatAfter.
  std::chrono::milliseconds heartbeatInterval{2000};
  std::chrono::milliseconds busyTimeout{10000};
  // Called after each commit with the indices of the records it made durable, on the writer thread
  // (or on the thread calling finish() for the last one). Keep it short; it must not call flush()
  // or finish().
  std::function<void(std::span<const std::int64_t> committedIndices)> onCommitted;
};

// Writes one run into the store while it goes. The constructor creates the run's row (status
// running, with this process's pid and host name and a fresh heartbeat) on the calling thread;
// records and samples handed over later are committed in batches by the writer's own thread on its
// own connection, and finish() writes the final row.
//
// Thread-safety: addRecords/addRecord/addSamples/addSample may be called from any thread at once
// and never wait for the disk. flush() and finish() may be called from any thread except the
// onCommitted callback. Destroying a writer that was not finished commits what it holds and marks
// the run interrupted.
class RunWriter {
 public:
  // Throws ayar::Error naming the path when the store cannot be opened or written (see ResultStore).
  RunWriter(const std::filesystem::path& storePath, const RunInfo& info, RunWriterOptions options = {});
  ~RunWriter();
  RunWriter(const RunWriter&) = delete;
  RunWriter& operator=(const RunWriter&) = delete;

  std::int64_t runId() const;
  const std::string& runUuid() const;

  void addRecords(std::vector<RequestRecord> records);
  void addRecord(RequestRecord record);
  void addSamples(std::vector<Sample> samples);
  void addSample(Sample sample);

  // Blocks until everything handed over before the call is committed. Throws ayar::Error when a
  // commit failed (disk full, store locked too long); the data stays queued and is tried again.
  void flush();

  // Commits everything handed over, then writes the final status, finish time, summary and result
  // in the same transaction. Adding after finish is a bug. Throws ayar::Error when the final commit
  // fails; finish may then be called again.
  void finish(RunStatus status, const nlohmann::json& summary, const nlohmann::json& result);
  bool finished() const;

  // The last commit error, empty when the last commit succeeded.
  std::string lastError() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

}  // namespace ayar
