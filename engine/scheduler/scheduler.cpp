#include "engine/scheduler/scheduler.h"

#include <algorithm>
#include <cassert>
#include <stdexcept>
#include <string>

#include "core/error.h"

namespace ayar::engine {

namespace {

void require(bool ok, const std::string& flag, int value, const std::string& rule) {
  if (!ok) throw Error("--" + flag + " " + std::to_string(value) + ": " + rule);
}

}  // namespace

void Scheduler::validate(const SchedulerConfig& config) {
  require(config.maxNumSeqs >= 1, "max-num-seqs", config.maxNumSeqs, "must be at least 1");
  require(config.maxNumBatchedTokens >= config.maxNumSeqs, "max-num-batched-tokens",
          config.maxNumBatchedTokens,
          "must be at least --max-num-seqs (" + std::to_string(config.maxNumSeqs) +
              ") so that every running sequence can decode each step");
  require(config.blockSize >= 1, "block-size", config.blockSize, "must be at least 1 (16 is usual)");
  if (config.numBlocks < 1) {
    throw Error(
        "no memory is left for the KV cache (0 blocks): raise --gpu-memory-utilization, lower "
        "--max-model-len or pick a smaller model");
  }
  require(config.maxModelLen >= 2, "max-model-len", config.maxModelLen, "must be at least 2");
  require(config.maxWaiting >= 1, "max-waiting", config.maxWaiting, "must be at least 1");
}

bool Scheduler::fits(const SchedulerConfig& config, std::size_t numPromptTokens, int maxTokens) {
  if (numPromptTokens == 0 || maxTokens < 1) return false;
  const std::int64_t total = static_cast<std::int64_t>(numPromptTokens) + maxTokens;
  if (total > config.maxModelLen) return false;
  // The last sampled token never needs a KV slot.
  const std::int64_t blocks = (total - 1 + config.blockSize - 1) / config.blockSize;
  return blocks <= config.numBlocks;
}

Scheduler::Scheduler(const SchedulerConfig& config)
    : m_config((validate(config), config)),
      m_blocks(config.numBlocks, config.blockSize, config.enablePrefixCaching) {}

void Scheduler::add(std::uint64_t seqId, GenerationRequest&& request) {
  assert(fits(m_config, request.promptTokens.size(), request.maxTokens));
  assert(!m_sequences.contains(seqId));
  auto seq = std::make_unique<Sequence>();
  seq->id = seqId;
  seq->numPromptTokens = static_cast<int>(request.promptTokens.size());
  seq->tokens = std::move(request.promptTokens);
  seq->maxTokens = request.maxTokens;
  seq->minTokens = request.minTokens;
  seq->ignoreEos = request.ignoreEos;
  seq->stopTokenIds = std::move(request.stopTokenIds);
  seq->sampling = request.sampling;
  seq->arrival = request.arrival;
  m_waiting.push_back(seq.get());
  m_sequences.emplace(seqId, std::move(seq));
}

bool Scheduler::abort(std::uint64_t seqId) {
  assert(m_batch.empty() && "abort between schedule() and update()");
  const auto found = m_sequences.find(seqId);
  if (found == m_sequences.end()) return false;
  Sequence* seq = found->second.get();
  if (const auto running = std::find(m_running.begin(), m_running.end(), seq); running != m_running.end()) {
    m_running.erase(running);
  } else {
    m_waiting.erase(std::find(m_waiting.begin(), m_waiting.end(), seq));
  }
  m_blocks.free(seq->blockTable);
  m_sequences.erase(found);
  return true;
}

const Sequence* Scheduler::find(std::uint64_t seqId) const {
  const auto found = m_sequences.find(seqId);
  return found == m_sequences.end() ? nullptr : found->second.get();
}

std::span<const SeqStep> Scheduler::schedule(Clock::time_point now) {
  m_batch.clear();
  m_batchSequences.clear();
  m_batchHashedBefore.clear();
  int budget = m_config.maxNumBatchedTokens;
  bool preempted = false;

  // Decodes first: one token each, oldest first. Out of blocks, the newest running sequence gives
  // its blocks up, down to this one itself.
  for (std::size_t i = 0; i < m_running.size() && budget > 0;) {
    Sequence& seq = *m_running[i];
    if (seq.tokens.size() - static_cast<std::size_t>(seq.numComputedTokens) != 1 || seq.readyAt > now) {
      ++i;
      continue;
    }
    bool preemptedItself = false;
    while (!m_blocks.appendSlots(seq.blockTable, seq.numComputedTokens + 1)) {
      Sequence* victim = m_running.back();
      m_running.pop_back();
      preempt(*victim);
      preempted = true;
      if (victim == &seq) {
        preemptedItself = true;
        break;
      }
    }
    if (preemptedItself) break;
    addToBatch(seq, 1);
    --budget;
    ++i;
  }

  // Then the rest of the prompts already admitted (chunked prefill).
  for (Sequence* seq : m_running) {
    if (budget == 0) break;
    const int remaining = static_cast<int>(seq->tokens.size()) - seq->numComputedTokens;
    if (remaining <= 1 || seq->readyAt > now) continue;
    const int chunk = std::min(remaining, budget);
    addToBatch(*seq, chunk);
    budget -= chunk;
  }

  // Then new admissions in arrival order; none right after a preemption made room, or the sequence
  // just preempted would come straight back and be preempted again.
  if (!(preempted && !m_batch.empty())) {
    while (!m_waiting.empty() && budget > 0 && static_cast<int>(m_running.size()) < m_config.maxNumSeqs) {
      Sequence& seq = *m_waiting.front();
      if (seq.readyAt > now || !admit(seq, now)) break;
      m_waiting.pop_front();
      m_running.push_back(&seq);
      const int chunk = std::min(static_cast<int>(seq.tokens.size()) - seq.numComputedTokens, budget);
      addToBatch(seq, chunk);
      budget -= chunk;
    }
  }
  return m_batch;
}

void Scheduler::addToBatch(Sequence& seq, int numTokens) {
  SeqStep step;
  step.seqId = seq.id;
  step.position = seq.numComputedTokens;
  step.tokens =
      std::span<const std::int32_t>(seq.tokens)
          .subspan(static_cast<std::size_t>(seq.numComputedTokens), static_cast<std::size_t>(numTokens));
  seq.numComputedTokens += numTokens;
  step.blockTable = std::span<const std::int32_t>(seq.blockTable.blocks)
                        .first(static_cast<std::size_t>(m_blocks.blocksFor(seq.numComputedTokens)));
  step.sample = seq.numComputedTokens == static_cast<int>(seq.tokens.size());
  step.sampling = step.sample ? &seq.sampling : nullptr;
  step.generatedSoFar = seq.numGenerated();
  step.arrival = seq.arrival;
  m_batchHashedBefore.push_back(seq.blockTable.numHashedBlocks);
  // Entered now rather than after the step: a sequence scheduled later in this same batch may reuse
  // these blocks, which backends allow because they write a step's KV in batch order before reading it.
  m_blocks.cacheFullBlocks(seq.blockTable, seq.tokens, seq.numComputedTokens);
  m_batch.push_back(step);
  m_batchSequences.push_back(&seq);
}

bool Scheduler::admit(Sequence& seq, Clock::time_point now) {
  const std::optional<int> cached = m_blocks.allocate(seq.blockTable, seq.tokens);
  if (!cached) return false;
  seq.numComputedTokens = *cached;
  if (!seq.admitted) {
    seq.admitted = true;
    seq.firstScheduledAt = now;
    seq.numCachedPromptTokens = *cached;
    m_counters.prefixCacheQueries += static_cast<std::uint64_t>(seq.numPromptTokens);
    m_counters.prefixCacheHits += static_cast<std::uint64_t>(*cached);
  }
  return true;
}

void Scheduler::preempt(Sequence& seq) {
  // Recompute: the KV goes, the tokens stay; the next admission prefills prompt + generated (its full
  // blocks are likely still in the prefix cache).
  m_blocks.free(seq.blockTable);
  seq.numComputedTokens = 0;
  m_waiting.push_front(&seq);
  ++m_counters.preemptions;
}

std::vector<std::uint64_t> Scheduler::abandonBatch() {
  std::vector<std::uint64_t> seqIds;
  for (std::size_t i = 0; i < m_batch.size(); ++i) {
    seqIds.push_back(m_batch[i].seqId);
    m_blocks.uncacheBlocks(m_batchSequences[i]->blockTable, m_batchHashedBefore[i]);
  }
  m_batch.clear();
  m_batchSequences.clear();
  m_batchHashedBefore.clear();
  return seqIds;
}

FinishReason Scheduler::finishReason(const Sequence& seq) const {
  const int generated = seq.numGenerated();
  if (!seq.ignoreEos && generated >= seq.minTokens &&
      std::find(seq.stopTokenIds.begin(), seq.stopTokenIds.end(), seq.tokens.back()) !=
          seq.stopTokenIds.end()) {
    return FinishReason::kStop;
  }
  if (generated >= seq.maxTokens || static_cast<int>(seq.tokens.size()) >= m_config.maxModelLen) {
    return FinishReason::kLength;
  }
  return FinishReason::kNone;
}

void Scheduler::update(const StepOutput& output, std::vector<SequenceUpdate>& updates) {
  const auto numSamples = static_cast<std::size_t>(
      std::count_if(m_batch.begin(), m_batch.end(), [](const SeqStep& step) { return step.sample; }));
  if (output.sampled.size() != numSamples ||
      (!output.releaseAt.empty() && output.releaseAt.size() != numSamples)) {
    throw std::logic_error("backend returned " + std::to_string(output.sampled.size()) + " tokens and " +
                           std::to_string(output.releaseAt.size()) + " release times for " +
                           std::to_string(numSamples) + " sampling sequences");
  }
  const std::size_t firstUpdate = updates.size();
  std::size_t sampleIndex = 0;
  bool anyFinished = false;
  for (std::size_t i = 0; i < m_batch.size(); ++i) {
    if (!m_batch[i].sample) continue;
    Sequence& seq = *m_batchSequences[i];
    SequenceUpdate update;
    update.seqId = seq.id;
    update.token = output.sampled[sampleIndex];
    seq.tokens.push_back(update.token);
    if (!output.releaseAt.empty()) {
      update.releaseAt = output.releaseAt[sampleIndex];
      update.hasReleaseAt = true;
      seq.readyAt = update.releaseAt;
    }
    ++sampleIndex;
    update.numGenerated = seq.numGenerated();
    update.numPromptTokens = seq.numPromptTokens;
    update.numCachedPromptTokens = seq.numCachedPromptTokens;
    update.firstScheduledAt = seq.firstScheduledAt;
    update.finish = finishReason(seq);
    if (update.finish != FinishReason::kNone) {
      m_blocks.free(seq.blockTable);
      seq.finished = true;
      anyFinished = true;
    }
    updates.push_back(update);
  }
  assert(sampleIndex == output.sampled.size());
  m_batch.clear();
  m_batchSequences.clear();
  m_batchHashedBefore.clear();
  if (!anyFinished) return;
  std::erase_if(m_running, [](const Sequence* seq) { return seq->finished; });
  for (std::size_t u = firstUpdate; u < updates.size(); ++u) {
    if (updates[u].finish != FinishReason::kNone) m_sequences.erase(updates[u].seqId);
  }
}

}  // namespace ayar::engine
