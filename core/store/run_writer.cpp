#include "core/store/run_writer.h"

#include <cassert>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

#include "core/error.h"
#include "core/report/message_text.h"
#include "core/store/process_identity.h"
#include "core/store/run_rows.h"
#include "core/store/sqlite_connection.h"

namespace ayar {

namespace {

using Clock = std::chrono::steady_clock;

struct FinalRow {
  RunStatus status;
  const nlohmann::json* summary;
  const nlohmann::json* result;
};

}  // namespace

struct RunWriter::Impl {
  Impl(const std::filesystem::path& storePath, const RunInfo& info, RunWriterOptions writerOptions);

  void writerLoop();
  // Writes records, samples and either a heartbeat or the final row in one transaction. Throws
  // ayar::Error and leaves the store as it was when anything fails.
  void commit(const std::vector<RequestRecord>& records, const std::vector<Sample>& samples,
              const FinalRow* finalRow);
  void stopThread();
  void notifyCommitted(const std::vector<RequestRecord>& records);
  void requeue(std::vector<RequestRecord> records, std::vector<Sample> samples);
  bool nothingPending() const { return pendingRecords.empty() && pendingSamples.empty(); }

  RunWriterOptions options;
  sqlite::Connection connection;
  std::int64_t runId = 0;
  std::string uuid;
  // Used only by the thread that owns the connection at the time: the writer thread while it runs,
  // then the thread in finish() or the destructor.
  std::optional<sqlite::Statement> insertRequest;
  std::optional<sqlite::Statement> insertSample;
  std::optional<sqlite::Statement> updateHeartbeat;
  std::optional<sqlite::Statement> updateFinal;
  Clock::time_point lastHeartbeat;

  mutable std::mutex mutex;
  std::condition_variable wakeWriter;
  std::condition_variable commitProgress;
  std::vector<RequestRecord> pendingRecords;
  std::vector<Sample> pendingSamples;
  std::uint64_t addedItems = 0;
  std::uint64_t committedItems = 0;
  std::uint64_t failedCommits = 0;
  std::uint64_t flushTarget = 0;
  bool stopping = false;
  bool isFinished = false;
  MessageArgument lastError{""};  // the last failed commit, in each language; empty when none
  std::thread writerThread;
};

RunWriter::Impl::Impl(const std::filesystem::path& storePath, const RunInfo& info,
                      RunWriterOptions writerOptions)
    : options(std::move(writerOptions)), connection(storePath, options.busyTimeout), uuid(newUuid()) {
  if (info.studyId) {
    auto study = connection.prepare("SELECT 1 FROM studies WHERE id = ?1");
    study.bind(1, *info.studyId);
    if (!study.step()) {
      throw MessageError(
          {MessageText::StoreNoStudy, {connection.path().string(), std::to_string(*info.studyId)}});
    }
  }
  const double now = unixTimeNowS();
  const std::string host = currentHostName();
  runId = run_rows::insertRun(
      connection, uuid, info, RunStatus::Running,
      {.pid = currentProcessId(), .hostname = host, .createdAt = now, .heartbeatAt = now});
  lastHeartbeat = Clock::now();

  insertRequest.emplace(run_rows::prepareInsertRequest(connection));
  insertSample.emplace(run_rows::prepareInsertSample(connection));
  // A sweep may have marked a live run interrupted (a suspended laptop, a stalled disk); the next
  // heartbeat brings it back. SET expressions all see the old row, so finished_at tests the old status.
  updateHeartbeat.emplace(connection.prepare(R"sql(
UPDATE runs SET heartbeat_at = ?1,
                finished_at = CASE WHEN status = 'interrupted' THEN NULL ELSE finished_at END,
                status = CASE WHEN status = 'interrupted' THEN 'running' ELSE status END
WHERE id = ?2)sql"));
  updateFinal.emplace(run_rows::prepareFinishRun(connection));
}

void RunWriter::Impl::commit(const std::vector<RequestRecord>& records, const std::vector<Sample>& samples,
                             const FinalRow* finalRow) {
  sqlite::Transaction transaction(connection);
  for (const RequestRecord& record : records)
    run_rows::insertRequest(*insertRequest, runId, record);
  for (const Sample& sample : samples)
    run_rows::insertSample(*insertSample, runId, sample);
  const double now = unixTimeNowS();
  if (finalRow != nullptr) {
    run_rows::finishRun(*updateFinal, runId, finalRow->status, now, *finalRow->summary, *finalRow->result);
  } else {
    updateHeartbeat->bind(1, now).bind(2, runId);
    updateHeartbeat->run();
  }
  transaction.commit();
  lastHeartbeat = Clock::now();
}

void RunWriter::Impl::notifyCommitted(const std::vector<RequestRecord>& records) {
  if (!options.onCommitted || records.empty()) return;
  std::vector<std::int64_t> indices;
  indices.reserve(records.size());
  for (const RequestRecord& record : records)
    indices.push_back(record.index);
  options.onCommitted(indices);
}

void RunWriter::Impl::requeue(std::vector<RequestRecord> records, std::vector<Sample> samples) {
  // Keep arrival order: the failed batch goes before whatever came in meanwhile.
  records.insert(records.end(), std::make_move_iterator(pendingRecords.begin()),
                 std::make_move_iterator(pendingRecords.end()));
  samples.insert(samples.end(), std::make_move_iterator(pendingSamples.begin()),
                 std::make_move_iterator(pendingSamples.end()));
  pendingRecords = std::move(records);
  pendingSamples = std::move(samples);
}

void RunWriter::Impl::writerLoop() {
  std::unique_lock lock(mutex);
  Clock::time_point nextCommit = Clock::now() + options.commitInterval;
  while (true) {
    const bool woken = wakeWriter.wait_until(
        lock, nextCommit, [&] { return stopping || (flushTarget > committedItems && !nothingPending()); });
    const Clock::time_point now = Clock::now();
    if (!woken && now < nextCommit) continue;  // woke early without a reason
    nextCommit = now + options.commitInterval;
    const bool heartbeatDue = now - lastHeartbeat >= options.heartbeatInterval;
    const bool stopAfter = stopping;
    if (nothingPending() && !heartbeatDue) {
      if (stopAfter) break;
      continue;
    }
    std::vector<RequestRecord> records = std::exchange(pendingRecords, {});
    std::vector<Sample> samples = std::exchange(pendingSamples, {});
    const std::uint64_t items = records.size() + samples.size();

    lock.unlock();
    MessageArgument error("");
    try {
      commit(records, samples, nullptr);
    } catch (const std::exception& e) {
      error = errorArgument(e);
    }
    lock.lock();

    if (error.english.empty()) {
      committedItems += items;
      lastError = MessageArgument("");
      commitProgress.notify_all();
      lock.unlock();
      notifyCommitted(records);
      lock.lock();
    } else {
      requeue(std::move(records), std::move(samples));
      lastError = std::move(error);
      ++failedCommits;
      flushTarget = committedItems;  // waiting flushes get the error; retry on the next interval
      commitProgress.notify_all();
    }
    if (stopAfter) break;  // what is left is committed by finish() or the destructor
  }
}

void RunWriter::Impl::stopThread() {
  {
    std::lock_guard lock(mutex);
    stopping = true;
  }
  wakeWriter.notify_all();
  if (writerThread.joinable()) writerThread.join();
}

RunWriter::RunWriter(const std::filesystem::path& storePath, const RunInfo& info, RunWriterOptions options)
    : m_impl(std::make_unique<Impl>(storePath, info, std::move(options))) {
  m_impl->writerThread = std::thread([impl = m_impl.get()] { impl->writerLoop(); });
}

RunWriter::~RunWriter() {
  if (m_impl->isFinished) return;
  m_impl->stopThread();
  // A run that ends without finish() is one that did not complete: keep what it has, say so.
  try {
    const nlohmann::json none;
    const FinalRow finalRow{RunStatus::Interrupted, &none, &none};
    m_impl->commit(m_impl->pendingRecords, m_impl->pendingSamples, &finalRow);
  } catch (const std::exception&) {
    // Nothing to tell anyone from a destructor; the heartbeat stops and a later sweep marks it.
  }
}

std::int64_t RunWriter::runId() const {
  return m_impl->runId;
}

const std::string& RunWriter::runUuid() const {
  return m_impl->uuid;
}

void RunWriter::addRecords(std::vector<RequestRecord> records) {
  if (records.empty()) return;
  std::lock_guard lock(m_impl->mutex);
  assert(!m_impl->isFinished && "RunWriter: records added after finish()");
  if (m_impl->isFinished) return;
  m_impl->addedItems += records.size();
  if (m_impl->pendingRecords.empty()) {
    m_impl->pendingRecords = std::move(records);
  } else {
    m_impl->pendingRecords.insert(m_impl->pendingRecords.end(), std::make_move_iterator(records.begin()),
                                  std::make_move_iterator(records.end()));
  }
}

void RunWriter::addRecord(RequestRecord record) {
  std::lock_guard lock(m_impl->mutex);
  assert(!m_impl->isFinished && "RunWriter: a record added after finish()");
  if (m_impl->isFinished) return;
  ++m_impl->addedItems;
  m_impl->pendingRecords.push_back(std::move(record));
}

void RunWriter::addSamples(std::vector<Sample> samples) {
  if (samples.empty()) return;
  std::lock_guard lock(m_impl->mutex);
  assert(!m_impl->isFinished && "RunWriter: samples added after finish()");
  if (m_impl->isFinished) return;
  m_impl->addedItems += samples.size();
  m_impl->pendingSamples.insert(m_impl->pendingSamples.end(), std::make_move_iterator(samples.begin()),
                                std::make_move_iterator(samples.end()));
}

void RunWriter::addSample(Sample sample) {
  std::lock_guard lock(m_impl->mutex);
  assert(!m_impl->isFinished && "RunWriter: a sample added after finish()");
  if (m_impl->isFinished) return;
  ++m_impl->addedItems;
  m_impl->pendingSamples.push_back(std::move(sample));
}

void RunWriter::flush() {
  assert(std::this_thread::get_id() != m_impl->writerThread.get_id() && "flush() from onCommitted");
  std::unique_lock lock(m_impl->mutex);
  const std::uint64_t target = m_impl->addedItems;
  const std::uint64_t failuresBefore = m_impl->failedCommits;
  if (m_impl->committedItems >= target) return;
  if (m_impl->stopping) {  // set before the thread is joined, under the lock
    throw MessageError(
        {MessageText::StoreWriterStopped,
         {m_impl->connection.path().string(), m_impl->lastError.english.empty()
                                                  ? Message{MessageText::StoreFinishAgain, {}}.asArgument()
                                                  : m_impl->lastError}});
  }
  m_impl->flushTarget = std::max(m_impl->flushTarget, target);
  m_impl->wakeWriter.notify_all();
  m_impl->commitProgress.wait(
      lock, [&] { return m_impl->committedItems >= target || m_impl->failedCommits > failuresBefore; });
  if (m_impl->committedItems < target) throw MessageError({MessageText::StageLines, {m_impl->lastError}});
}

void RunWriter::finish(RunStatus status, const nlohmann::json& summary, const nlohmann::json& result) {
  assert(status != RunStatus::Running && "finish() needs a final status");
  assert(std::this_thread::get_id() != m_impl->writerThread.get_id() && "finish() from onCommitted");
  m_impl->stopThread();
  // The writer thread is gone: this thread owns the connection and the queue now.
  std::vector<RequestRecord> records;
  std::vector<Sample> samples;
  {
    std::lock_guard lock(m_impl->mutex);
    if (m_impl->isFinished) return;
    records = std::exchange(m_impl->pendingRecords, {});
    samples = std::exchange(m_impl->pendingSamples, {});
  }
  const FinalRow finalRow{status, &summary, &result};
  try {
    m_impl->commit(records, samples, &finalRow);
  } catch (const std::exception& e) {
    std::lock_guard lock(m_impl->mutex);
    m_impl->requeue(std::move(records), std::move(samples));
    m_impl->lastError = errorArgument(e);
    if (dynamic_cast<const Error*>(&e) != nullptr) throw;
    throw Error(e.what());
  }
  {
    std::lock_guard lock(m_impl->mutex);
    m_impl->committedItems += records.size() + samples.size();
    m_impl->lastError = MessageArgument("");
    m_impl->isFinished = true;
  }
  m_impl->notifyCommitted(records);
}

bool RunWriter::finished() const {
  std::lock_guard lock(m_impl->mutex);
  return m_impl->isFinished;
}

std::string RunWriter::lastError() const {
  std::lock_guard lock(m_impl->mutex);
  return m_impl->lastError.english;
}

}  // namespace ayar
