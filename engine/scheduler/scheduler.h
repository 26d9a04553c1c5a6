#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <span>
#include <unordered_map>
#include <vector>

#include "engine/backend/backend.h"
#include "engine/scheduler/block_manager.h"
#include "engine/scheduler/generation_types.h"

namespace ayar::engine {

// One request inside the scheduler: its tokens so far and where its KV cache stands.
struct Sequence {
  std::uint64_t id = 0;
  std::vector<std::int32_t> tokens;  // the prompt, then the generated tokens
  int numPromptTokens = 0;
  int numComputedTokens = 0;      // leading tokens whose KV is in the cache (or computed this step)
  int numCachedPromptTokens = 0;  // prompt tokens found in the prefix cache at first admission
  bool admitted = false;          // has run at least once (a preempted sequence has)
  bool finished = false;
  int maxTokens = 16;
  int minTokens = 0;
  bool ignoreEos = false;
  std::vector<std::int32_t> stopTokenIds;
  SamplingParams sampling;
  Clock::time_point arrival{};
  Clock::time_point readyAt{};           // not scheduled before this (its last token is not yet released)
  Clock::time_point firstScheduledAt{};  // when it first entered a batch (the end of its queue time)
  BlockTable blockTable;

  int numGenerated() const { return static_cast<int>(tokens.size()) - numPromptTokens; }
};

// What became of a sequence that sampled a token in the last step.
struct SequenceUpdate {
  std::uint64_t seqId = 0;
  std::int32_t token = 0;
  FinishReason finish = FinishReason::kNone;
  int numGenerated = 0;  // including `token`
  int numPromptTokens = 0;
  int numCachedPromptTokens = 0;
  Clock::time_point releaseAt{};  // when the backend says the token may be released (else: now)
  bool hasReleaseAt = false;
  Clock::time_point firstScheduledAt{};
};

struct SchedulerCounters {
  std::uint64_t prefixCacheQueries = 0;  // prompt tokens looked up at first admission
  std::uint64_t prefixCacheHits = 0;     // of which found in the cache
  std::uint64_t preemptions = 0;
};

// Continuous batching over a paged KV cache, one step at a time. Each step: running sequences that
// decode (one token each), then prefill chunks of running sequences, then waiting sequences admitted in
// FIFO order, all within maxNumBatchedTokens and maxNumSeqs. A prompt's blocks are taken at admission;
// when a decode finds no free block the newest running sequence is preempted by recompute (its blocks
// freed, itself put back at the front of the queue with its generated tokens). Not thread-safe and
// backend-independent: schedule(), run the batch, update().
class Scheduler {
 public:
  explicit Scheduler(const SchedulerConfig& config);

  // Throws ayar::Error naming the field when the configuration cannot work.
  static void validate(const SchedulerConfig& config);
  // Whether a request of this shape can ever run: within maxModelLen and within the whole KV pool.
  static bool fits(const SchedulerConfig& config, std::size_t numPromptTokens, int maxTokens);

  // Queues a request (its promptTokens are moved in). Precondition: fits() and a non-empty prompt.
  void add(std::uint64_t seqId, GenerationRequest&& request);
  // Drops a waiting or running sequence and frees its blocks. False for an unknown id.
  bool abort(std::uint64_t seqId);

  // The next step's batch: decodes first, then prefill chunks. Empty when nothing can run at `now`.
  // The spans inside point into the scheduler and stay valid until update().
  std::span<const SeqStep> schedule(Clock::time_point now = Clock::now());
  // Takes the step's sampled tokens (one per SeqStep with sample, in order), appends them, finishes
  // sequences on a stop token or at maxTokens (their blocks are freed) and reports each one in `updates`.
  // Throws std::logic_error, changing nothing, when the output does not match the batch.
  void update(const StepOutput& output, std::vector<SequenceUpdate>& updates);
  // Gives up the last schedule()'s batch when the step failed: returns its sequence ids (abort them).
  std::vector<std::uint64_t> abandonBatch();

  int numRunning() const { return static_cast<int>(m_running.size()); }
  int numWaiting() const { return static_cast<int>(m_waiting.size()); }
  bool empty() const { return m_sequences.empty(); }
  const Sequence* find(std::uint64_t seqId) const;
  const BlockManager& blockManager() const { return m_blocks; }
  const SchedulerCounters& counters() const { return m_counters; }
  const SchedulerConfig& config() const { return m_config; }

 private:
  void addToBatch(Sequence& seq, int numTokens);
  bool admit(Sequence& seq,
             Clock::time_point now);  // takes blocks for a waiting sequence; false when short of blocks
  void preempt(Sequence& seq);
  FinishReason finishReason(const Sequence& seq) const;

  SchedulerConfig m_config;
  BlockManager m_blocks;
  std::unordered_map<std::uint64_t, std::unique_ptr<Sequence>> m_sequences;
  std::deque<Sequence*> m_waiting;
  std::vector<Sequence*> m_running;  // in admission order: the back is the newest
  SchedulerCounters m_counters;

  // The batch of the last schedule(), consumed by update().
  std::vector<SeqStep> m_batch;
  std::vector<Sequence*> m_batchSequences;
  std::vector<int> m_batchHashedBefore;  // each table's numHashedBlocks before this step
};

}  // namespace ayar::engine
