#include "engine/backend/cpu/worker_pool.h"

#include <algorithm>

namespace ayar::engine {

namespace {

std::int64_t pieceBegin(std::int64_t count, int pieces, int piece) {
  return count * piece / pieces;
}

}  // namespace

WorkerPool::WorkerPool(int numThreads) {
  if (numThreads <= 0) numThreads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  for (int i = 1; i < numThreads; ++i)
    m_workers.emplace_back([this, i] { workerMain(i); });
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard lock(m_mutex);
    m_stopping = true;
  }
  m_wake.notify_all();
  for (std::thread& worker : m_workers)
    worker.join();
}

void WorkerPool::parallelFor(std::int64_t count, std::int64_t minPerThread,
                             const std::function<void(std::int64_t, std::int64_t)>& body) {
  if (count <= 0) return;
  const std::int64_t byWork = count / std::max<std::int64_t>(1, minPerThread);
  const int pieces = static_cast<int>(std::clamp<std::int64_t>(byWork, 1, size()));
  if (pieces == 1) {
    body(0, count);
    return;
  }
  {
    std::lock_guard lock(m_mutex);
    m_body = &body;
    m_count = count;
    m_pieces = pieces;
    m_pending = pieces - 1;
    ++m_generation;
  }
  m_wake.notify_all();
  body(0, pieceBegin(count, pieces, 1));
  std::unique_lock lock(m_mutex);
  m_done.wait(lock, [this] { return m_pending == 0; });
  m_body = nullptr;
}

void WorkerPool::workerMain(int index) {
  std::uint64_t seen = 0;
  std::unique_lock lock(m_mutex);
  while (true) {
    m_wake.wait(lock, [&] { return m_stopping || m_generation != seen; });
    if (m_stopping) return;
    seen = m_generation;
    if (index >= m_pieces) continue;  // this loop is split into fewer pieces than there are threads
    const auto* body = m_body;
    const std::int64_t begin = pieceBegin(m_count, m_pieces, index);
    const std::int64_t end = pieceBegin(m_count, m_pieces, index + 1);
    lock.unlock();
    (*body)(begin, end);
    lock.lock();
    if (--m_pending == 0) m_done.notify_one();
  }
}

}  // namespace ayar::engine
