#include "engine/scheduler/scheduler.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <vector>

#include "core/error.h"

namespace ayar::engine {
namespace {

using Tokens = std::vector<std::int32_t>;
// The "model": the next token as a deterministic function of the whole sequence so far, so that a
// recompute after preemption must reproduce exactly what the first computation would have.
using NextToken = std::function<std::int32_t(std::span<const std::int32_t>)>;

std::int32_t hashNextToken(std::span<const std::int32_t> tokens) {
  std::uint64_t hash = 1469598103934665603ULL;
  for (std::int32_t token : tokens)
    hash = (hash ^ static_cast<std::uint32_t>(token)) * 1099511628211ULL;
  return static_cast<std::int32_t>((hash >> 29) % 64);
}

Tokens iota(int count, std::int32_t first) {
  Tokens tokens(static_cast<std::size_t>(count));
  std::iota(tokens.begin(), tokens.end(), first);
  return tokens;
}

Tokens concat(Tokens a, const Tokens& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

GenerationRequest request(Tokens prompt, int maxTokens, bool ignoreEos = true) {
  GenerationRequest r;
  r.promptTokens = std::move(prompt);
  r.maxTokens = maxTokens;
  r.ignoreEos = ignoreEos;
  return r;
}

SchedulerConfig config(int numBlocks, int blockSize, int maxNumSeqs, int maxNumBatchedTokens) {
  SchedulerConfig c;
  c.numBlocks = numBlocks;
  c.blockSize = blockSize;
  c.maxNumSeqs = maxNumSeqs;
  c.maxNumBatchedTokens = maxNumBatchedTokens;
  c.maxModelLen = 4096;
  return c;
}

// What the request would produce run alone: the reference for every schedule.
Tokens referenceOutput(const GenerationRequest& r, const NextToken& next, FinishReason* reason = nullptr) {
  Tokens sequence = r.promptTokens;
  Tokens output;
  for (;;) {
    output.push_back(next(sequence));
    sequence.push_back(output.back());
    const int generated = static_cast<int>(output.size());
    const bool stop = !r.ignoreEos && generated >= r.minTokens &&
                      std::count(r.stopTokenIds.begin(), r.stopTokenIds.end(), output.back()) > 0;
    if (stop || generated >= r.maxTokens) {
      if (reason != nullptr) *reason = stop ? FinishReason::kStop : FinishReason::kLength;
      return output;
    }
  }
}

struct BatchEntry {
  std::uint64_t seqId;
  int position;
  int numTokens;
  bool sample;
};

// Runs a Scheduler against a NextToken function and checks its invariants after every step.
class Driver {
 public:
  explicit Driver(const SchedulerConfig& c, NextToken next = hashNextToken)
      : scheduler(c), m_next(std::move(next)) {}

  void add(std::uint64_t seqId, GenerationRequest r) {
    live.insert(seqId);
    scheduler.add(seqId, std::move(r));
  }

  bool abort(std::uint64_t seqId) {
    live.erase(seqId);
    return scheduler.abort(seqId);
  }

  // One step; false when the scheduler had nothing to run.
  bool step() {
    const std::span<const SeqStep> batch = scheduler.schedule();
    if (batch.empty()) return false;
    checkBatch(batch);
    StepOutput output;
    std::vector<BatchEntry> entries;
    for (const SeqStep& seq : batch) {
      entries.push_back({seq.seqId, seq.position, static_cast<int>(seq.tokens.size()), seq.sample});
      if (seq.sample) output.sampled.push_back(m_next(scheduler.find(seq.seqId)->tokens));
    }
    history.push_back(std::move(entries));
    std::vector<SequenceUpdate> updates;
    scheduler.update(output, updates);
    for (const SequenceUpdate& update : updates) {
      outputs[update.seqId].push_back(update.token);
      cachedPromptTokens[update.seqId] = update.numCachedPromptTokens;
      EXPECT_EQ(update.numGenerated, static_cast<int>(outputs[update.seqId].size()));
      if (update.finish != FinishReason::kNone) {
        finish[update.seqId] = update.finish;
        live.erase(update.seqId);
        EXPECT_EQ(scheduler.find(update.seqId), nullptr);
      }
    }
    checkBlocks();
    return true;
  }

  void runToEnd(int maxSteps = 100000) {
    for (int i = 0; i < maxSteps && !scheduler.empty(); ++i) {
      ASSERT_TRUE(step()) << "nothing schedulable with " << scheduler.numWaiting() << " waiting";
    }
    ASSERT_TRUE(scheduler.empty()) << "requests starved";
    EXPECT_EQ(scheduler.blockManager().numFreeBlocks(), scheduler.blockManager().numBlocks());
  }

  // The first step in which each sequence ran, in order of those steps.
  std::vector<std::uint64_t> admissionOrder() const {
    std::vector<std::uint64_t> order;
    std::set<std::uint64_t> seen;
    for (const auto& entries : history) {
      for (const BatchEntry& entry : entries) {
        if (seen.insert(entry.seqId).second) order.push_back(entry.seqId);
      }
    }
    return order;
  }

  Scheduler scheduler;
  std::set<std::uint64_t> live;
  std::map<std::uint64_t, Tokens> outputs;
  std::map<std::uint64_t, FinishReason> finish;
  std::map<std::uint64_t, int> cachedPromptTokens;
  std::vector<std::vector<BatchEntry>> history;

 private:
  void checkBatch(std::span<const SeqStep> batch) {
    const SchedulerConfig& c = scheduler.config();
    const BlockManager& blocks = scheduler.blockManager();
    int numTokens = 0;
    std::set<std::uint64_t> ids;
    for (const SeqStep& seq : batch) {
      numTokens += static_cast<int>(seq.tokens.size());
      EXPECT_TRUE(ids.insert(seq.seqId).second) << "sequence " << seq.seqId << " twice in one batch";
      const Sequence* s = scheduler.find(seq.seqId);
      ASSERT_NE(s, nullptr);
      const int end = seq.position + static_cast<int>(seq.tokens.size());
      EXPECT_GE(seq.tokens.size(), 1u);
      EXPECT_EQ(end, s->numComputedTokens);
      EXPECT_EQ(static_cast<int>(seq.blockTable.size()), blocks.blocksFor(end));
      EXPECT_TRUE(std::equal(seq.tokens.begin(), seq.tokens.end(), s->tokens.begin() + seq.position));
      EXPECT_EQ(seq.sample, end == static_cast<int>(s->tokens.size()));
      EXPECT_EQ(seq.sample, seq.sampling != nullptr);
      EXPECT_EQ(seq.generatedSoFar, s->numGenerated());
    }
    EXPECT_LE(numTokens, c.maxNumBatchedTokens);
    EXPECT_LE(static_cast<int>(batch.size()), c.maxNumSeqs);
    EXPECT_LE(scheduler.numRunning(), c.maxNumSeqs);
  }

  // Every block is either referenced exactly as often as the live tables hold it, or free.
  void checkBlocks() {
    const BlockManager& blocks = scheduler.blockManager();
    std::vector<int> references(static_cast<std::size_t>(blocks.numBlocks()), 0);
    for (std::uint64_t seqId : live) {
      const Sequence* s = scheduler.find(seqId);
      ASSERT_NE(s, nullptr);
      for (std::int32_t block : s->blockTable.blocks)
        ++references[static_cast<std::size_t>(block)];
    }
    int unreferenced = 0;
    for (std::int32_t block = 0; block < blocks.numBlocks(); ++block) {
      ASSERT_EQ(blocks.refCount(block), references[static_cast<std::size_t>(block)]) << "block " << block;
      if (references[static_cast<std::size_t>(block)] == 0) ++unreferenced;
    }
    EXPECT_EQ(blocks.numFreeBlocks(), unreferenced);
  }

  NextToken m_next;
};

TEST(Scheduler, DecodesFirstThenFillsTheTokenBudgetWithPrefillChunks) {
  Driver driver(config(256, 4, 4, 64));
  driver.add(1, request(iota(10, 1), 50));
  ASSERT_TRUE(driver.step());
  ASSERT_TRUE(driver.step());
  driver.add(2, request(iota(200, 1000), 5));
  for (int chunk = 0; chunk < 3; ++chunk) {
    ASSERT_TRUE(driver.step());
    const auto& batch = driver.history.back();
    ASSERT_EQ(batch.size(), 2u);
    EXPECT_EQ(batch[0].seqId, 1u);
    EXPECT_EQ(batch[0].numTokens, 1);
    EXPECT_EQ(batch[1].seqId, 2u);
    EXPECT_EQ(batch[1].position, 63 * chunk);
    EXPECT_EQ(batch[1].numTokens, 63);
    EXPECT_FALSE(batch[1].sample);
  }
  ASSERT_TRUE(driver.step());
  EXPECT_EQ(driver.history.back()[1].position, 189);
  EXPECT_EQ(driver.history.back()[1].numTokens, 11);
  EXPECT_TRUE(driver.history.back()[1].sample);
  driver.runToEnd();
}

TEST(Scheduler, ChunkedPrefillSpreadsALongPromptOverSeveralSteps) {
  Driver driver(config(512, 16, 8, 256));
  const GenerationRequest r = request(iota(1000, 3), 4);
  driver.add(1, r);
  driver.runToEnd();
  ASSERT_EQ(driver.history.size(), 4u + 3u);  // 4 prefill chunks, then 3 decodes
  const int expected[] = {256, 256, 256, 232};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(driver.history[static_cast<std::size_t>(i)][0].position, 256 * i);
    EXPECT_EQ(driver.history[static_cast<std::size_t>(i)][0].numTokens, expected[i]);
    EXPECT_EQ(driver.history[static_cast<std::size_t>(i)][0].sample, i == 3);
  }
  EXPECT_EQ(driver.outputs[1], referenceOutput(r, hashNextToken));
}

TEST(Scheduler, AdmitsInArrivalOrderAndNeverRunsMoreThanMaxNumSeqs) {
  Driver driver(config(1024, 4, 3, 32));
  std::map<std::uint64_t, GenerationRequest> requests;
  for (std::uint64_t id = 1; id <= 10; ++id) {
    requests[id] = request(iota(5 + static_cast<int>(id * 7 % 36), static_cast<std::int32_t>(id * 100)),
                           5 + static_cast<int>(id * 3 % 16));
    driver.add(id, requests[id]);
  }
  driver.runToEnd();
  const auto order = driver.admissionOrder();
  EXPECT_TRUE(std::is_sorted(order.begin(), order.end()));
  EXPECT_EQ(order.size(), 10u);
  for (const auto& [id, r] : requests) {
    EXPECT_EQ(driver.outputs[id], referenceOutput(r, hashNextToken)) << "request " << id;
    EXPECT_EQ(driver.finish[id], FinishReason::kLength);
  }
}

TEST(Scheduler, RequestsWithACommonPrefixShareItsBlocksAndReleaseThemAtTheEnd) {
  Driver driver(config(256, 4, 8, 512));
  const Tokens prefix = iota(32, 500);
  driver.add(1, request(concat(prefix, {1, 2, 3, 4, 5}), 20));
  ASSERT_TRUE(driver.step());  // the first request's prompt is computed and cached
  for (std::uint64_t id = 2; id <= 4; ++id) {
    driver.add(
        id, request(concat(prefix, iota(3 + static_cast<int>(id), static_cast<std::int32_t>(id * 10))), 20));
  }
  ASSERT_TRUE(driver.step());
  for (const BatchEntry& entry : driver.history.back()) {
    if (entry.seqId != 1) {
      EXPECT_EQ(entry.position, 32) << "request " << entry.seqId;
    }
  }
  const std::vector<std::int32_t> shared(driver.scheduler.find(1)->blockTable.blocks.begin(),
                                         driver.scheduler.find(1)->blockTable.blocks.begin() + 8);
  for (std::uint64_t id = 2; id <= 4; ++id) {
    const auto& blocks = driver.scheduler.find(id)->blockTable.blocks;
    EXPECT_TRUE(std::equal(shared.begin(), shared.end(), blocks.begin())) << "request " << id;
  }
  for (std::int32_t block : shared)
    EXPECT_EQ(driver.scheduler.blockManager().refCount(block), 4);
  const SchedulerCounters& counters = driver.scheduler.counters();
  EXPECT_EQ(counters.prefixCacheQueries, 37u + 37u + 38u + 39u);
  EXPECT_EQ(counters.prefixCacheHits, 3u * 32u);

  driver.runToEnd();
  EXPECT_EQ(driver.cachedPromptTokens[1], 0);
  for (std::uint64_t id = 2; id <= 4; ++id)
    EXPECT_EQ(driver.cachedPromptTokens[id], 32);
  for (std::int32_t block : shared) {
    EXPECT_EQ(driver.scheduler.blockManager().refCount(block), 0);
    EXPECT_TRUE(driver.scheduler.blockManager().isCached(block));
  }
}

TEST(Scheduler, RequestsAdmittedInOneStepShareThePrefixTheFirstOneComputes) {
  Driver driver(config(256, 4, 8, 512));
  const Tokens prefix = iota(16, 500);
  driver.add(1, request(concat(prefix, {1, 2}), 3));
  driver.add(2, request(concat(prefix, {3, 4}), 3));
  ASSERT_TRUE(driver.step());
  ASSERT_EQ(driver.history[0].size(), 2u);
  EXPECT_EQ(driver.history[0][0].position, 0);
  EXPECT_EQ(driver.history[0][1].position, 16);
  driver.runToEnd();
}

TEST(Scheduler, PreemptsTheNewestRunningSequenceAndRequeuesItAtTheFront) {
  Driver driver(config(4, 4, 2, 64));  // 16 KV slots: not enough for both to reach 11 tokens
  const GenerationRequest first = request(iota(4, 100), 7);
  const GenerationRequest second = request(iota(4, 200), 7);
  const GenerationRequest third = request(iota(4, 300), 2);
  driver.add(1, first);
  driver.add(2, second);
  ASSERT_TRUE(driver.step());
  driver.add(3, third);  // waits: maxNumSeqs is 2
  while (driver.scheduler.counters().preemptions == 0)
    ASSERT_TRUE(driver.step());
  const Sequence* preempted = driver.scheduler.find(2);
  ASSERT_NE(preempted, nullptr);
  EXPECT_EQ(preempted->numComputedTokens, 0);
  EXPECT_TRUE(preempted->blockTable.blocks.empty());
  EXPECT_EQ(driver.scheduler.numRunning(), 1);
  EXPECT_EQ(driver.scheduler.numWaiting(), 2);
  ASSERT_EQ(driver.history.back().size(), 1u);
  EXPECT_EQ(driver.history.back()[0].seqId, 1u);

  const std::size_t preemptedAt = driver.history.size();
  driver.runToEnd();
  // Back in first: request 2 runs again before request 3 runs at all.
  std::vector<std::uint64_t> afterPreemption;
  for (std::size_t s = preemptedAt; s < driver.history.size(); ++s) {
    for (const BatchEntry& entry : driver.history[s])
      afterPreemption.push_back(entry.seqId);
  }
  const auto secondBack = std::find(afterPreemption.begin(), afterPreemption.end(), 2u);
  const auto thirdFirst = std::find(afterPreemption.begin(), afterPreemption.end(), 3u);
  ASSERT_NE(thirdFirst, afterPreemption.end());
  EXPECT_LT(secondBack, thirdFirst);
  EXPECT_EQ(driver.outputs[1], referenceOutput(first, hashNextToken));
  EXPECT_EQ(driver.outputs[2], referenceOutput(second, hashNextToken));
  EXPECT_EQ(driver.outputs[3], referenceOutput(third, hashNextToken));
}

std::map<std::uint64_t, Tokens> runWorkload(const std::vector<GenerationRequest>& requests,
                                            const SchedulerConfig& c, std::uint64_t* preemptions) {
  Driver driver(c);
  for (std::size_t i = 0; i < requests.size(); ++i)
    driver.add(i + 1, requests[i]);
  driver.runToEnd();
  *preemptions = driver.scheduler.counters().preemptions;
  return driver.outputs;
}

TEST(Scheduler, PreemptedRequestsFinishWithExactlyTheTokensOfAnUncontendedRun) {
  std::vector<GenerationRequest> requests;
  const Tokens prefix = iota(16, 900);
  int largestBlocks = 0;
  for (int i = 0; i < 16; ++i) {
    Tokens prompt = iota(8 + (i * 5) % 25, 40 * i);
    if (i % 2 == 0) prompt = concat(prefix, prompt);
    requests.push_back(request(prompt, 10 + (i * 13) % 50));
    largestBlocks =
        std::max(largestBlocks, (static_cast<int>(prompt.size()) + requests.back().maxTokens - 1 + 3) / 4);
  }
  for (bool prefixCaching : {true, false}) {
    SchedulerConfig big = config(4096, 4, 16, 256);
    big.enablePrefixCaching = prefixCaching;
    SchedulerConfig tiny = big;
    tiny.numBlocks = largestBlocks + 2;
    std::uint64_t bigPreemptions = 0;
    std::uint64_t tinyPreemptions = 0;
    const auto expected = runWorkload(requests, big, &bigPreemptions);
    const auto actual = runWorkload(requests, tiny, &tinyPreemptions);
    EXPECT_EQ(bigPreemptions, 0u);
    EXPECT_GT(tinyPreemptions, 10u);
    EXPECT_EQ(actual, expected) << "prefix caching " << prefixCaching;
  }
}

TEST(Scheduler, RefusesRequestsLongerThanMaxModelLen) {
  SchedulerConfig c = config(1000, 16, 8, 64);
  c.maxModelLen = 100;
  EXPECT_TRUE(Scheduler::fits(c, 90, 10));
  EXPECT_FALSE(Scheduler::fits(c, 90, 11));
  EXPECT_FALSE(Scheduler::fits(c, 101, 1));
  EXPECT_FALSE(Scheduler::fits(c, 0, 10));
  EXPECT_FALSE(Scheduler::fits(c, 10, 0));
}

TEST(Scheduler, RefusesRequestsThatCouldNeverFitTheKvPool) {
  const SchedulerConfig c = config(4, 4, 8, 64);  // 16 KV slots; the last sampled token needs none
  EXPECT_TRUE(Scheduler::fits(c, 10, 7));
  EXPECT_FALSE(Scheduler::fits(c, 10, 8));
}

TEST(Scheduler, RejectsConfigurationsThatCannotWorkNamingTheFlag) {
  SchedulerConfig c = config(100, 16, 256, 128);
  try {
    Scheduler scheduler(c);
    FAIL() << "accepted max-num-batched-tokens below max-num-seqs";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("--max-num-batched-tokens"), std::string::npos);
  }
  c = config(0, 16, 8, 128);
  EXPECT_THROW(Scheduler{c}, Error);
  c = config(10, 0, 8, 128);
  EXPECT_THROW(Scheduler{c}, Error);
}

TEST(Scheduler, AbortFreesTheBlocksOfRunningAndWaitingRequests) {
  Driver driver(config(64, 4, 1, 64));
  driver.add(1, request(iota(30, 1), 10));
  driver.add(2, request(iota(30, 100), 10));
  ASSERT_TRUE(driver.step());
  EXPECT_EQ(driver.scheduler.numRunning(), 1);
  EXPECT_EQ(driver.scheduler.numWaiting(), 1);
  EXPECT_LT(driver.scheduler.blockManager().numFreeBlocks(), 64);
  EXPECT_TRUE(driver.abort(1));
  EXPECT_EQ(driver.scheduler.blockManager().numFreeBlocks(), 64);
  EXPECT_TRUE(driver.abort(2));
  EXPECT_FALSE(driver.abort(2));
  EXPECT_FALSE(driver.abort(3));
  EXPECT_TRUE(driver.scheduler.empty());
  EXPECT_TRUE(driver.scheduler.schedule().empty());
}

// A model that emits a fixed script of tokens after the prompt.
NextToken scripted(int promptLength, Tokens script) {
  return [promptLength, script = std::move(script)](std::span<const std::int32_t> tokens) {
    return script.at(tokens.size() - static_cast<std::size_t>(promptLength));
  };
}

struct StopCase {
  Tokens script;
  int minTokens;
  bool ignoreEos;
  Tokens expected;
  FinishReason reason;
};

TEST(Scheduler, StopTokensMinTokensAndIgnoreEosDecideWhereARequestEnds) {
  const StopCase cases[] = {
      {{5, 6, 7, 8, 9}, 0, false, {5, 6, 7}, FinishReason::kStop},     // the stop token is counted
      {{7, 7, 3, 7, 9}, 3, false, {7, 7, 3, 7}, FinishReason::kStop},  // ignored below minTokens
      {{7, 7, 3, 7, 9}, 2, false, {7, 7}, FinishReason::kStop},
      {{7, 7, 7, 7, 7}, 0, true, {7, 7, 7, 7, 7}, FinishReason::kLength},
      {{1, 2, 3, 4, 5}, 0, false, {1, 2, 3, 4, 5}, FinishReason::kLength},
  };
  for (const StopCase& stopCase : cases) {
    Driver driver(config(64, 4, 4, 64), scripted(6, stopCase.script));
    GenerationRequest r = request(iota(6, 1), 5, stopCase.ignoreEos);
    r.minTokens = stopCase.minTokens;
    r.stopTokenIds = {7, 151645};
    driver.add(1, std::move(r));
    driver.runToEnd();
    EXPECT_EQ(driver.outputs[1], stopCase.expected);
    EXPECT_EQ(driver.finish[1], stopCase.reason);
  }
}

TEST(Scheduler, HoldsASequenceUntilItsLastTokenIsReleased) {
  Scheduler scheduler(config(64, 4, 4, 64));
  scheduler.add(1, request(iota(5, 1), 3));
  const Clock::time_point t0 = Clock::now();
  ASSERT_EQ(scheduler.schedule(t0).size(), 1u);
  StepOutput output;
  output.sampled = {42};
  output.releaseAt = {t0 + std::chrono::milliseconds(10)};
  std::vector<SequenceUpdate> updates;
  scheduler.update(output, updates);
  ASSERT_EQ(updates.size(), 1u);
  EXPECT_TRUE(updates[0].hasReleaseAt);
  EXPECT_TRUE(scheduler.schedule(t0 + std::chrono::milliseconds(9)).empty());
  EXPECT_EQ(scheduler.schedule(t0 + std::chrono::milliseconds(10)).size(), 1u);
}

TEST(Scheduler, BadBackendOutputIsRefusedAndAnAbandonedStepLeavesNothingCached) {
  Scheduler scheduler(config(64, 4, 4, 64));
  scheduler.add(1, request(iota(33, 1), 3));
  ASSERT_EQ(scheduler.schedule().size(), 1u);
  StepOutput output;  // no token for a sampling sequence
  std::vector<SequenceUpdate> updates;
  EXPECT_THROW(scheduler.update(output, updates), std::logic_error);
  EXPECT_TRUE(updates.empty());
  EXPECT_EQ(scheduler.abandonBatch(), std::vector<std::uint64_t>{1});
  EXPECT_TRUE(scheduler.abort(1));
  EXPECT_EQ(scheduler.blockManager().numFreeBlocks(), 64);
  EXPECT_EQ(scheduler.blockManager().numCachedBlocks(), 0);  // their KV was never written
  scheduler.add(2, request(iota(33, 1), 3));
  const auto batch = scheduler.schedule();
  ASSERT_EQ(batch.size(), 1u);
  EXPECT_EQ(batch[0].position, 0);
}

TEST(Scheduler, RandomWorkloadsKeepEveryInvariantAndReproduceTheReferenceOutputs) {
  std::mt19937 rng(20240611);
  const auto uniform = [&rng](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  std::uint64_t totalPreemptions = 0;
  for (int workload = 0; workload < 250; ++workload) {
    SCOPED_TRACE("workload " + std::to_string(workload));
    const int blockSizes[] = {1, 2, 4, 16};
    SchedulerConfig c;
    c.blockSize = blockSizes[uniform(0, 3)];
    c.maxNumSeqs = uniform(1, 8);
    c.maxNumBatchedTokens = c.maxNumSeqs + uniform(0, 64);
    c.enablePrefixCaching = uniform(0, 1) == 1;
    c.maxModelLen = 200;

    const Tokens bases[] = {iota(60, 0), iota(60, 20), Tokens(60, 9)};
    const int numRequests = uniform(1, 24);
    std::vector<GenerationRequest> requests;
    std::vector<int> arrivalStep;
    std::vector<int> abortStep;  // -1: never
    int largestBlocks = 1;
    for (int i = 0; i < numRequests; ++i) {
      const Tokens& base = bases[uniform(0, 2)];
      Tokens prompt(base.begin(), base.begin() + uniform(0, 50));
      const int suffix = uniform(prompt.empty() ? 1 : 0, 30);
      for (int t = 0; t < suffix; ++t)
        prompt.push_back(uniform(0, 63));
      GenerationRequest r = request(prompt, uniform(1, 40), uniform(0, 4) == 0);
      r.minTokens = uniform(0, 5);
      if (uniform(0, 3) > 0) r.stopTokenIds = {7, 13};
      largestBlocks = std::max(
          largestBlocks, (static_cast<int>(prompt.size()) + r.maxTokens - 1 + c.blockSize - 1) / c.blockSize);
      requests.push_back(std::move(r));
      arrivalStep.push_back(uniform(0, 40));
      abortStep.push_back(uniform(0, 9) == 0 ? uniform(0, 80) : -1);
    }
    c.numBlocks = largestBlocks + uniform(0, 2 * largestBlocks);

    Driver driver(c);
    std::set<std::uint64_t> aborted;
    for (int step = 0; step < 100000; ++step) {
      for (int i = 0; i < numRequests; ++i) {
        if (arrivalStep[static_cast<std::size_t>(i)] == step) {
          ASSERT_TRUE(Scheduler::fits(c, requests[static_cast<std::size_t>(i)].promptTokens.size(),
                                      requests[static_cast<std::size_t>(i)].maxTokens));
          driver.add(static_cast<std::uint64_t>(i + 1), requests[static_cast<std::size_t>(i)]);
        }
        if (abortStep[static_cast<std::size_t>(i)] == step && driver.live.contains(i + 1)) {
          ASSERT_TRUE(driver.abort(static_cast<std::uint64_t>(i + 1)));
          aborted.insert(static_cast<std::uint64_t>(i + 1));
        }
      }
      const bool ran = driver.step();
      if (::testing::Test::HasFatalFailure()) return;
      if (!ran && step > 40) break;
    }
    ASSERT_TRUE(driver.scheduler.empty()) << "requests starved";
    EXPECT_EQ(driver.scheduler.blockManager().numFreeBlocks(), c.numBlocks);
    totalPreemptions += driver.scheduler.counters().preemptions;

    const auto order = driver.admissionOrder();
    for (std::size_t k = 1; k < order.size(); ++k) {
      const int previous = arrivalStep[order[k - 1] - 1];
      const int current = arrivalStep[order[k] - 1];
      EXPECT_TRUE(previous < current || (previous == current && order[k - 1] < order[k]))
          << "admission out of arrival order";
    }
    for (int i = 0; i < numRequests; ++i) {
      const auto id = static_cast<std::uint64_t>(i + 1);
      FinishReason reason = FinishReason::kNone;
      const Tokens expected = referenceOutput(requests[static_cast<std::size_t>(i)], hashNextToken, &reason);
      const Tokens& actual = driver.outputs[id];
      if (aborted.contains(id)) {
        EXPECT_TRUE(std::equal(actual.begin(), actual.end(), expected.begin())) << "request " << id;
      } else {
        EXPECT_EQ(actual, expected) << "request " << id;
        EXPECT_EQ(driver.finish[id], reason) << "request " << id;
      }
    }
  }
  EXPECT_GT(totalPreemptions, 100u);  // the workloads did exercise preemption
}

}  // namespace
}  // namespace ayar::engine
