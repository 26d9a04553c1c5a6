#pragma once

// What a request asks of the engine and how the scheduler is sized: shared by the scheduler and the
// loop that runs it, so that the scheduler need not include the loop above it.

#include <cstdint>
#include <string>
#include <vector>

#include "engine/backend/backend.h"

namespace ayar::engine {

struct SchedulerConfig {
  int maxNumSeqs = 256;
  int maxNumBatchedTokens = 8192;
  int blockSize = 16;
  int numBlocks = 0;  // KV pages; computed from the memory budget by the caller
  bool enablePrefixCaching = true;
  int maxModelLen = 40960;
  int maxWaiting = 4096;  // requests queued beyond this are refused (the server answers 503)
};

struct GenerationRequest {
  std::string requestId;
  std::vector<std::int32_t> promptTokens;  // non-empty; promptTokens.size() + maxTokens <= maxModelLen
  int maxTokens = 16;
  int minTokens = 0;  // stop tokens are ignored before this many
  bool ignoreEos = false;
  std::vector<std::int32_t> stopTokenIds;  // ends the request (and is counted) unless ignoreEos
  SamplingParams sampling;
  Clock::time_point arrival = Clock::now();
};

enum class FinishReason { kNone, kLength, kStop, kAbort };

}  // namespace ayar::engine
