#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/backend/backend.h"
#include "engine/scheduler/generation_types.h"

namespace ayar::engine {

// What the loop tells a request's owner. Normally one new token per event; the last event has
// finish != kNone. Counts are cumulative for the request.
struct GenerationEvent {
  std::vector<std::int32_t> tokens;
  FinishReason finish = FinishReason::kNone;
  int promptTokens = 0;
  int cachedPromptTokens = 0;  // prompt tokens whose KV came from the prefix cache
  int completionTokens = 0;
  // When the request first entered a batch (the end of its queue time); set on token events.
  Clock::time_point firstScheduledAt{};
};

// Called on the loop's thread; must be quick and must not call back into the loop synchronously
// (post the work to your own thread instead).
using GenerationSink = std::function<void(GenerationEvent&&)>;

struct EngineStats {
  int running = 0;
  int waiting = 0;
  int numBlocks = 0;
  int freeBlocks = 0;
  double kvCacheUsage = 0.0;  // used / total blocks, 0..1
  std::uint64_t promptTokensTotal = 0;
  std::uint64_t generationTokensTotal = 0;
  std::uint64_t prefixCacheQueries = 0;  // prompt tokens looked up in the prefix cache
  std::uint64_t prefixCacheHits = 0;     // of which found
  std::uint64_t preemptionsTotal = 0;
  std::uint64_t stepsTotal = 0;
};

// Continuous batching over one backend on a thread of its own.
class EngineLoop {
 public:
  // With a stepLogPath the loop writes one CSV line per step to that file (created, or emptied): when it
  // started (ms since the loop was made), how long the backend took, the batch's sequences, decodes,
  // prefill chunks, new and context tokens, how many sequences got their first token and the longest
  // of their waits since arrival, and the requests left waiting. Throws ayar::Error if the file cannot
  // be created.
  EngineLoop(std::unique_ptr<Backend> backend, const SchedulerConfig& config,
             const std::string& stepLogPath = {});
  ~EngineLoop();  // stops the thread; unfinished requests get a final kAbort event
  EngineLoop(const EngineLoop&) = delete;
  EngineLoop& operator=(const EngineLoop&) = delete;

  enum class SubmitResult { kAccepted, kQueueFull, kTooLong };
  // Thread-safe. The sink receives every event of the request, the last with finish set.
  SubmitResult submit(GenerationRequest request, GenerationSink sink);
  // Thread-safe; a no-op for unknown or finished ids. The sink receives a final kAbort event and the
  // request's KV blocks return to the pool.
  void abort(const std::string& requestId);
  EngineStats stats() const;  // thread-safe snapshot
  const SchedulerConfig& config() const;
  const Backend& backend() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

}  // namespace ayar::engine
