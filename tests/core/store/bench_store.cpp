// bench_store [REQUESTS]: how fast the results store takes requests of 500 chunk times each.
//  1. bulk: REQUESTS records handed over as fast as possible, then flushed (insert throughput);
//  2. paced: 1000 requests/s for 3 s, as a heavy run would send them (commit latency);
//  3. read back: the whole run loaded as `runs show` / `runs export` do.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include "core/store/result_store.h"
#include "core/store/run_writer.h"

namespace {

using Clock = std::chrono::steady_clock;

constexpr int kChunks = 500;

ayar::RequestRecord makeRecord(std::int64_t index) {
  ayar::RequestRecord record;
  record.index = index;
  record.scheduledS = 0.001 * static_cast<double>(index);
  record.startS = record.scheduledS + 1e-5;
  double t = 0.05;
  for (int k = 0; k < kChunks; ++k) {
    record.chunkTimesS.push_back(t);
    t += 0.0073 + 1e-7 * (k % 13);
  }
  record.promptTokens = 342;
  record.outputTokens = kChunks;
  record.expectedOutputTokens = kChunks;
  record.success = true;
  record.httpStatus = 200;
  record.generatedText.assign(static_cast<std::size_t>(kChunks) * 4, 'x');  // ~4 bytes a token
  return record;
}

double seconds(Clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

}  // namespace

int main(int argc, char** argv) {
  const int requests = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5000;
  const auto dir =
      std::filesystem::temp_directory_path() / ("ayar-bench-store-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = dir / "ayar.db";
  std::vector<ayar::RequestRecord> records;
  records.reserve(static_cast<std::size_t>(requests));
  for (int i = 0; i < requests; ++i)
    records.push_back(makeRecord(i));
  const double mb = static_cast<double>(requests) * (kChunks * 8.0 + kChunks * 4.0) / 1e6;

  std::int64_t bulkRun = 0;
  {
    ayar::RunWriter writer(path, ayar::RunInfo{});
    bulkRun = writer.runId();
    // Batches are made before the clock starts: the load generator hands over finished records by
    // move, so copying them is not the store's cost.
    std::vector<std::vector<ayar::RequestRecord>> batches;
    for (int i = 0; i < requests; i += 100) {
      batches.emplace_back(records.begin() + i, records.begin() + std::min(requests, i + 100));
    }
    const auto start = Clock::now();
    for (auto& batch : batches)
      writer.addRecords(std::move(batch));
    writer.flush();
    const double elapsed = seconds(Clock::now() - start);
    writer.finish(ayar::RunStatus::Completed, nullptr, nullptr);
    std::printf(
        "bulk insert: %d requests x %d chunk times in %.3f s = %.0f requests/s (%.1f MB/s of chunk "
        "times + text)\n",
        requests, kChunks, elapsed, requests / elapsed, mb / elapsed);
  }

  {
    constexpr int kRate = 1000;
    constexpr int kSeconds = 3;
    std::mutex mutex;
    std::vector<Clock::time_point> handedOver(kRate * kSeconds);
    std::vector<double> latencies;
    ayar::RunWriterOptions options;
    options.onCommitted = [&](std::span<const std::int64_t> indices) {
      const auto now = Clock::now();
      std::lock_guard lock(mutex);
      for (const auto index : indices)
        latencies.push_back(seconds(now - handedOver[static_cast<std::size_t>(index)]));
    };
    ayar::RunWriter writer(path, ayar::RunInfo{}, options);
    const auto start = Clock::now();
    for (int tick = 0; tick < kRate * kSeconds / 10; ++tick) {
      std::this_thread::sleep_until(start + std::chrono::milliseconds(10 * tick));  // pacing, 10 per 10 ms
      std::vector<ayar::RequestRecord> batch;
      {
        std::lock_guard lock(mutex);
        for (int i = 0; i < 10; ++i) {
          const int index = tick * 10 + i;
          handedOver[static_cast<std::size_t>(index)] = Clock::now();
          batch.push_back(records[static_cast<std::size_t>(index) % records.size()]);
          batch.back().index = index;
        }
      }
      writer.addRecords(std::move(batch));
    }
    writer.finish(ayar::RunStatus::Completed, nullptr, nullptr);
    std::sort(latencies.begin(), latencies.end());
    const double mean =
        latencies.empty() ? 0.0 : std::accumulate(latencies.begin(), latencies.end(), 0.0) / latencies.size();
    std::printf(
        "paced 1000 requests/s for 3 s: handed over -> committed mean %.0f ms, p99 %.0f ms, max %.0f ms "
        "(%zu records)\n",
        mean * 1e3, latencies.empty() ? 0.0 : latencies[latencies.size() * 99 / 100] * 1e3,
        latencies.empty() ? 0.0 : latencies.back() * 1e3, latencies.size());
  }

  {
    ayar::ResultStore store(path);
    const auto start = Clock::now();
    const auto detail = store.loadRun(bulkRun);
    const double elapsed = seconds(Clock::now() - start);
    std::printf("read back: %zu requests in %.3f s = %.0f requests/s\n", detail ? detail->requests.size() : 0,
                elapsed, (detail ? detail->requests.size() : 0) / elapsed);
  }
  std::printf("file: %.1f MB for %d requests\n", static_cast<double>(std::filesystem::file_size(path)) / 1e6,
              requests + 3000);
  std::filesystem::remove_all(dir);
  return 0;
}
