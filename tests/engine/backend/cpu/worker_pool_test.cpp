#include "engine/backend/cpu/worker_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <set>
#include <thread>

namespace ayar::engine {
namespace {

TEST(WorkerPool, CoversEveryIndexExactlyOnceOverItsThreads) {
  WorkerPool pool(3);
  EXPECT_EQ(pool.size(), 3);
  std::vector<std::atomic<int>> visits(1000);
  std::mutex mutex;
  std::set<std::thread::id> threads;
  pool.parallelFor(1000, 1, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t i = begin; i < end; ++i)
      ++visits[static_cast<std::size_t>(i)];
    std::lock_guard lock(mutex);
    threads.insert(std::this_thread::get_id());
  });
  for (const auto& v : visits)
    ASSERT_EQ(v.load(), 1);
  EXPECT_EQ(threads.size(), 3u);  // one piece per thread, the caller included
}

TEST(WorkerPool, SmallLoopsRunOnTheCallerInOnePiece) {
  WorkerPool pool(2);
  int calls = 0;
  std::thread::id where;
  pool.parallelFor(10, 100, [&](std::int64_t begin, std::int64_t end) {
    ++calls;
    where = std::this_thread::get_id();
    EXPECT_EQ(begin, 0);
    EXPECT_EQ(end, 10);
  });
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(where, std::this_thread::get_id());
}

TEST(WorkerPool, ManyShortLoopsInARowAllComplete) {
  WorkerPool pool(4);
  std::atomic<std::int64_t> total{0};
  for (int loop = 0; loop < 1000; ++loop) {
    // Alternate between using every thread and only some, so idle workers must skip loops cleanly.
    const std::int64_t count = loop % 2 ? 8 : 2;
    pool.parallelFor(count, 1, [&](std::int64_t begin, std::int64_t end) { total += end - begin; });
  }
  EXPECT_EQ(total.load(), 500 * 8 + 500 * 2);
}

}  // namespace
}  // namespace ayar::engine
