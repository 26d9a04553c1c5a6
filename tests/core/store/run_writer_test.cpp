#include "core/store/run_writer.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <fstream>
#include <iterator>
#include <mutex>
#include <set>
#include <thread>

#include "core/error.h"
#include "core/store/result_store.h"
#include "tests/core/store/expect_same_record.h"
#include "tests/core/store/raw_sqlite.h"
#include "tests/core/store/store_test_records.h"
#include "tests/support/test_env.h"

namespace ayar {
namespace {

std::string fileBytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(RunWriter, CommitsAFinishedRequestWithinOneSecondWithoutBeingAsked) {
  test::TempDir dir;
  const auto path = dir / "ayar.db";
  std::mutex mutex;
  std::condition_variable committed;
  std::set<std::int64_t> durable;
  RunWriterOptions options;
  options.onCommitted = [&](std::span<const std::int64_t> indices) {
    std::lock_guard lock(mutex);
    durable.insert(indices.begin(), indices.end());
    committed.notify_all();
  };
  RunWriter writer(path, RunInfo{}, options);

  const auto handedOver = std::chrono::steady_clock::now();
  writer.addRecord(test::makeStoreTestRecord(7));
  {
    std::unique_lock lock(mutex);
    ASSERT_TRUE(committed.wait_for(lock, std::chrono::seconds(10), [&] { return durable.count(7) == 1; }))
        << "record 7 was never reported committed";
  }
  const auto elapsed = std::chrono::steady_clock::now() - handedOver;
  EXPECT_LT(elapsed, std::chrono::seconds(1));

  // Durable means another connection sees it, before finish().
  ResultStore reader(path);
  const auto records = reader.loadRequests(writer.runId());
  ASSERT_EQ(records.size(), 1u);
  test::expectSameRecord(records[0], test::makeStoreTestRecord(7));
  writer.finish(RunStatus::Completed, nullptr, nullptr);
}

TEST(RunWriter, FlushMakesEverythingHandedOverVisibleToOtherConnections) {
  test::TempDir dir;
  const auto path = dir / "ayar.db";
  RunWriter writer(path, RunInfo{});
  for (int i = 0; i < 100; ++i)
    writer.addRecord(test::makeStoreTestRecord(i));
  writer.addSample({0.25, "client.in_flight", 5});
  writer.flush();
  ResultStore reader(path);
  EXPECT_EQ(reader.loadRequests(writer.runId()).size(), 100u);
  EXPECT_EQ(reader.loadSamples(writer.runId()).size(), 1u);
  const auto run = reader.findRun(writer.runId());
  ASSERT_TRUE(run);
  EXPECT_EQ(run->status, RunStatus::Running) << "a live writer in this process is not interrupted";
  writer.finish(RunStatus::Completed, nullptr, nullptr);
}

TEST(RunWriter, TakesRecordsFromManyThreadsAtOnce) {
  test::TempDir dir;
  const auto path = dir / "ayar.db";
  RunWriter writer(path, RunInfo{});
  constexpr int kThreads = 4;
  constexpr int kPerThread = 250;
  std::vector<std::thread> producers;
  for (int t = 0; t < kThreads; ++t) {
    producers.emplace_back([&writer, t] {
      for (int i = 0; i < kPerThread; ++i) {
        const std::int64_t index = static_cast<std::int64_t>(t) * kPerThread + i;
        if (i % 2 == 0) {
          writer.addRecord(test::makeStoreTestRecord(index));
        } else {
          writer.addRecords({test::makeStoreTestRecord(index)});
        }
        writer.addSample({static_cast<double>(index), "thread." + std::to_string(t), 1.0});
      }
    });
  }
  for (auto& producer : producers)
    producer.join();
  writer.finish(RunStatus::Completed, nullptr, nullptr);

  ResultStore store(path);
  const auto detail = store.loadRun(writer.runId());
  ASSERT_TRUE(detail);
  ASSERT_EQ(detail->requests.size(), static_cast<std::size_t>(kThreads * kPerThread));
  for (std::size_t i = 0; i < detail->requests.size(); ++i) {
    ASSERT_EQ(detail->requests[i].index, static_cast<std::int64_t>(i));
  }
  test::expectSameRecord(detail->requests[613], test::makeStoreTestRecord(613));
  EXPECT_EQ(detail->samples.size(), static_cast<std::size_t>(kThreads * kPerThread));
}

TEST(RunWriter, AReaderSeesWholeCommittedBatchesWhileTheRunIsWritten) {
  test::TempDir dir;
  const auto path = dir / "ayar.db";
  constexpr int kBatches = 40;
  constexpr int kBatchSize = 25;
  RunWriter writer(path, RunInfo{});
  ResultStore reader(path);  // its own connection, opened before the writing starts
  std::atomic<int> flushedBatches{0};
  std::atomic<bool> producerFailed{false};

  std::thread producer([&] {
    try {
      for (int b = 0; b < kBatches; ++b) {
        std::vector<RequestRecord> batch;
        for (int i = 0; i < kBatchSize; ++i)
          batch.push_back(test::makeStoreTestRecord(b * kBatchSize + i));
        writer.addRecords(std::move(batch));
        writer.flush();
        flushedBatches.store(b + 1);
      }
    } catch (const std::exception&) {
      producerFailed = true;
      flushedBatches.store(kBatches);
    }
  });

  int reads = 0;
  std::size_t seen = 0;
  while (seen < static_cast<std::size_t>(kBatches * kBatchSize)) {
    const int flushedBefore = flushedBatches.load();
    const auto records = reader.loadRequests(writer.runId());
    ++reads;
    ASSERT_GE(records.size(), static_cast<std::size_t>(flushedBefore * kBatchSize))
        << "a flushed batch is missing";
    ASSERT_EQ(records.size() % kBatchSize, 0u) << "a batch was visible half-written";
    ASSERT_GE(records.size(), seen) << "records disappeared";
    if (!records.empty())
      test::expectSameRecord(records.back(), test::makeStoreTestRecord(records.back().index));
    seen = records.size();
    if (producerFailed) break;
  }
  producer.join();
  ASSERT_FALSE(producerFailed);
  EXPECT_GE(reads, 1);
  writer.finish(RunStatus::Completed, nullptr, nullptr);
  EXPECT_EQ(reader.findRun(writer.runId())->status, RunStatus::Completed);
}

TEST(RunWriter, AWriterDestroyedWithoutFinishLeavesAnInterruptedRunWithItsRecords) {
  test::TempDir dir;
  const auto path = dir / "ayar.db";
  std::int64_t id = 0;
  {
    RunWriter writer(path, RunInfo{});
    id = writer.runId();
    for (int i = 0; i < 10; ++i)
      writer.addRecord(test::makeStoreTestRecord(i));
  }
  ResultStore store(path);
  const auto run = store.findRun(id);
  ASSERT_TRUE(run);
  EXPECT_EQ(run->status, RunStatus::Interrupted);
  EXPECT_TRUE(run->finishedAt);
  EXPECT_EQ(run->storedRequests, 10);
}

TEST(RunWriter, ARunWhoseHeartbeatStoppedListsAsInterruptedAndIsMarkedSoInTheFile) {
  test::TempDir dir;
  const auto path = dir / "ayar.db";
  StoreOptions options;
  options.staleHeartbeatAfter = std::chrono::seconds(30);
  RunWriterOptions quiet;  // no heartbeat of its own while the test edits the row
  quiet.heartbeatInterval = std::chrono::hours(1);
  RunWriter writer(path, RunInfo{}, quiet);
  ResultStore store(path, options);
  test::RawSqlite raw(path);
  const std::string id = std::to_string(writer.runId());

  // Written on another host, heard from recently: its pid means nothing here, so it is running.
  raw.exec(
      "UPDATE runs SET hostname = 'elsewhere.invalid', pid = 1, heartbeat_at = unixepoch('now') - 5 "
      "WHERE id = " +
      id);
  EXPECT_EQ(store.listRuns()[0].status, RunStatus::Running);

  // Silent for an hour: interrupted, in the listing and in the file, finished at its last heartbeat.
  raw.exec("UPDATE runs SET heartbeat_at = unixepoch('now') - 3600 WHERE id = " + id);
  const auto runs = store.listRuns();
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].status, RunStatus::Interrupted);
  EXPECT_EQ(raw.text("SELECT status FROM runs WHERE id = " + id), "interrupted");
  EXPECT_EQ(raw.integer("SELECT finished_at = heartbeat_at FROM runs WHERE id = " + id), 1);

  // The writer was only slow (a suspended machine): its next commit brings the run back.
  writer.addRecord(test::makeStoreTestRecord(0));
  writer.flush();
  EXPECT_EQ(raw.text("SELECT status FROM runs WHERE id = " + id), "running");
  EXPECT_EQ(raw.integer("SELECT finished_at IS NULL FROM runs WHERE id = " + id), 1);
  writer.finish(RunStatus::Completed, nullptr, nullptr);
  EXPECT_EQ(store.findRun(writer.runId())->status, RunStatus::Completed);
}

TEST(RunWriter, ARunOfADeadProcessOnThisHostIsInterruptedAtOnce) {
  test::TempDir dir;
  const auto path = dir / "ayar.db";
  RunWriterOptions quiet;  // no heartbeat of its own while the test edits the row
  quiet.heartbeatInterval = std::chrono::hours(1);
  RunWriter writer(path, RunInfo{}, quiet);
  // A child that has exited and been reaped: its pid is free.
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) ::_exit(0);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  {
    test::RawSqlite raw(path);
    raw.exec("UPDATE runs SET pid = " + std::to_string(child) +
             " WHERE id = " + std::to_string(writer.runId()));
  }
  ResultStore store(path);
  EXPECT_EQ(store.markInterruptedRuns(), 1);
  EXPECT_EQ(store.findRun(writer.runId())->status, RunStatus::Interrupted);
  writer.finish(RunStatus::Completed, nullptr, nullptr);
}

TEST(RunWriter, NeverWritesAnApiKeyIntoTheFile) {
  test::TempDir dir;
  const auto path = dir / "ayar.db";
  RunInfo info;
  info.baseUrl = "https://user:sk-secret-1@api.example.com/v1";
  info.engine = {{"kind", "vllm"},
                 {"flags", {"--max-num-seqs", "256", "--api-key", "sk-secret-2", "--api-key=sk-secret-3"}},
                 {"api_key", "sk-secret-4"},
                 {"command", "vllm serve Qwen/Qwen3-8B --api-key sk-secret-5"},
                 {"env", {{"OPENAI_API_KEY", "sk-secret-6"}}}};
  info.config = {{"headers", {{"Authorization", "Bearer sk-secret-7"}}}, {"apiKey", "sk-secret-8"}};
  info.profile = {{"hf_token", "sk-secret-9"}, {"dataset", "random"}};
  const nlohmann::json result = {{"ayar", {{"engine", {{"api_key", "sk-secret-10"}}}}}, {"completed", 1}};
  std::int64_t id = 0;
  {
    RunWriter writer(path, info);
    id = writer.runId();
    writer.finish(RunStatus::Completed, {{"api_key", "sk-secret-11"}}, result);
  }
  {
    ResultStore store(path);
    const auto run = store.findRun(id);
    ASSERT_TRUE(run);
    EXPECT_EQ(run->info.engine["flags"],
              (nlohmann::json{"--max-num-seqs", "256", "--api-key", "[redacted]", "--api-key=[redacted]"}));
    EXPECT_EQ(run->info.engine["api_key"], "[redacted]");
    EXPECT_EQ(run->info.engine["kind"], "vllm");
    EXPECT_EQ(run->info.baseUrl, "https://[redacted]@api.example.com/v1");
    EXPECT_EQ(run->result["completed"], 1);
    EXPECT_EQ(run->info.profile["dataset"], "random");
  }
  // Nowhere in the file or its journal, in any column.
  std::string bytes = fileBytes(path);
  if (std::filesystem::exists(path.string() + "-wal")) bytes += fileBytes(path.string() + "-wal");
  EXPECT_GT(bytes.size(), 0u);
  EXPECT_EQ(bytes.find("sk-secret"), std::string::npos);
}

}  // namespace
}  // namespace ayar
