#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace ayar::engine {

// A fixed set of threads that split a loop's range between them; the calling thread takes a share too.
// The CPU backend uses it to run matmul rows and attention heads on every core. Not reentrant: one
// parallelFor at a time.
class WorkerPool {
 public:
  // numThreads counts the caller; 0 means one per hardware thread.
  explicit WorkerPool(int numThreads = 0);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  int size() const { return static_cast<int>(m_workers.size()) + 1; }

  // Calls body(begin, end) on contiguous pieces covering [0, count), one piece per thread, and returns
  // when all are done. Pieces hold at least minPerThread items, so small loops stay on the caller.
  // body must not throw.
  void parallelFor(std::int64_t count, std::int64_t minPerThread,
                   const std::function<void(std::int64_t begin, std::int64_t end)>& body);

 private:
  void workerMain(int index);

  std::vector<std::thread> m_workers;
  std::mutex m_mutex;
  std::condition_variable m_wake;
  std::condition_variable m_done;
  std::uint64_t m_generation = 0;  // bumped for every parallelFor that uses the workers
  int m_pending = 0;               // workers still running the current loop
  int m_pieces = 0;                // pieces of the current loop (workers with index >= m_pieces - 1 sit out)
  std::int64_t m_count = 0;
  const std::function<void(std::int64_t, std::int64_t)>* m_body = nullptr;
  bool m_stopping = false;
};

}  // namespace ayar::engine
