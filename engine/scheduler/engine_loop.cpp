#include "engine/scheduler/engine_loop.h"

#include <algorithm>
#include <cassert>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <exception>
#include <mutex>
#include <queue>
#include <span>
#include <thread>
#include <unordered_map>
#include <utility>

#include "core/error.h"
#include "engine/scheduler/scheduler.h"

namespace ayar::engine {

// One CSV line per step, written by the loop thread (see EngineLoop's constructor).
class StepLog {
 public:
  explicit StepLog(const std::string& path) : m_start(Clock::now()) {
    if (path.empty()) return;
    m_file = std::fopen(path.c_str(), "w");
    if (!m_file) {
      throw Error("--step-log " + path + ": cannot create the file (" + std::strerror(errno) +
                  "); give a path in a writable folder");
    }
    std::fputs(
        "start_ms,duration_ms,sequences,decodes,prefill_sequences,new_tokens,context_tokens,"
        "first_tokens,first_token_wait_ms,waiting\n",
        m_file);
    std::fflush(m_file);
  }
  ~StepLog() {
    if (m_file) std::fclose(m_file);
  }
  StepLog(const StepLog&) = delete;
  StepLog& operator=(const StepLog&) = delete;

  bool enabled() const { return m_file != nullptr; }

  // Flushed line by line, so that a killed engine leaves every finished step in the file.
  void write(std::span<const SeqStep> batch, Clock::time_point start, Clock::time_point end, int waiting) {
    int decodes = 0, prefills = 0, firstTokens = 0;
    std::int64_t newTokens = 0, contextTokens = 0;
    double firstTokenWaitMs = 0.0;
    for (const SeqStep& seq : batch) {
      const auto size = static_cast<std::int64_t>(seq.tokens.size());
      (size == 1 ? decodes : prefills) += 1;
      newTokens += size;
      contextTokens += seq.position + size;
      if (seq.sample && seq.generatedSoFar == 0) {
        ++firstTokens;
        firstTokenWaitMs = std::max(firstTokenWaitMs, milliseconds(seq.arrival, start));
      }
    }
    std::fprintf(m_file, "%.3f,%.3f,%zu,%d,%d,%lld,%lld,%d,%.3f,%d\n", milliseconds(m_start, start),
                 milliseconds(start, end), batch.size(), decodes, prefills, static_cast<long long>(newTokens),
                 static_cast<long long>(contextTokens), firstTokens, firstTokenWaitMs, waiting);
    std::fflush(m_file);
  }

 private:
  static double milliseconds(Clock::time_point from, Clock::time_point to) {
    return std::chrono::duration<double, std::milli>(to - from).count();
  }

  std::FILE* m_file = nullptr;
  Clock::time_point m_start;
};

struct EngineLoop::Impl {
  Impl(std::unique_ptr<Backend> backendIn, const SchedulerConfig& configIn, const std::string& stepLogPath);
  void run();

  struct Submission {
    std::uint64_t seqId = 0;
    GenerationRequest request;
    GenerationSink sink;
  };
  // A request as its owner sees it; lives on the loop thread from submission to its final event.
  struct Request {
    std::string id;
    GenerationSink sink;
    int promptTokens = 0;
    int cachedPromptTokens = 0;
    int deliveredTokens = 0;
    bool inScheduler = true;  // holds a place (and maybe blocks) in the scheduler
    bool closed = false;      // its final event is on the way; later ones are dropped
  };
  struct Event {
    std::uint64_t seqId = 0;
    GenerationEvent event;
  };
  // A token the backend wants released later (the sim's fixed timing).
  struct PendingEvent {
    Clock::time_point at;
    std::uint64_t order = 0;  // ties keep submission order
    Event event;
  };
  struct Later {
    bool operator()(const PendingEvent& a, const PendingEvent& b) const {
      return a.at != b.at ? a.at > b.at : a.order > b.order;
    }
  };

  void registerRequest(Submission& submission);
  void abortByName(const std::string& requestId);
  void abortRequest(std::uint64_t seqId);
  void onUpdate(const SequenceUpdate& update, Clock::time_point now);
  void makeDue(Event&& event);
  void takeDuePending(Clock::time_point now);
  void publishStats();
  void deliverDue();

  const std::unique_ptr<Backend> backend;
  const SchedulerConfig config;

  // Shared with submitting threads.
  std::mutex mutex;
  std::condition_variable wake;
  std::vector<Submission> inbox;
  std::vector<std::string> abortInbox;
  int schedulerWaiting = 0;  // accepted requests the loop holds that are not running yet
  std::uint64_t nextSeqId = 1;
  bool stopping = false;
  EngineStats stats;

  // Loop thread only.
  Scheduler scheduler;
  std::unordered_map<std::uint64_t, Request> requests;
  std::unordered_multimap<std::string, std::uint64_t> seqIdsByRequestId;
  std::priority_queue<PendingEvent, std::vector<PendingEvent>, Later> pending;
  std::uint64_t pendingOrder = 0;
  std::vector<Event> due;
  std::vector<std::uint64_t> brokenSinks;
  std::uint64_t promptTokensTotal = 0;
  std::uint64_t generationTokensTotal = 0;
  std::uint64_t stepsTotal = 0;
  StepLog stepLog;

  std::thread thread;  // last: starts once everything above exists
};

EngineLoop::Impl::Impl(std::unique_ptr<Backend> backendIn, const SchedulerConfig& configIn,
                       const std::string& stepLogPath)
    : backend(std::move(backendIn)), config(configIn), scheduler(configIn), stepLog(stepLogPath) {
  assert(backend);
  backend->allocateKvCache(config.numBlocks, config.blockSize);
  backend->warmUp(std::max(config.maxNumBatchedTokens, config.maxNumSeqs), config.maxNumSeqs);
  stats.numBlocks = config.numBlocks;
  stats.freeBlocks = config.numBlocks;
  thread = std::thread([this] { run(); });
}

void EngineLoop::Impl::run() {
  std::vector<Submission> submissions;
  std::vector<std::string> aborts;
  std::vector<SequenceUpdate> updates;
  StepOutput output;
  bool idle = false;
  for (;;) {
    {
      std::unique_lock lock(mutex);
      if (idle) {
        // Nothing can run until a request comes in, an abort, or the next token release is due.
        const auto hasMail = [this] { return stopping || !inbox.empty() || !abortInbox.empty(); };
        if (pending.empty()) {
          wake.wait(lock, hasMail);
        } else {
          wake.wait_until(lock, pending.top().at, hasMail);
        }
      }
      submissions.swap(inbox);
      aborts.swap(abortInbox);
      schedulerWaiting += static_cast<int>(submissions.size());
      if (stopping) break;
    }
    for (Submission& submission : submissions) {
      registerRequest(submission);
      scheduler.add(submission.seqId, std::move(submission.request));
    }
    submissions.clear();
    for (const std::string& requestId : aborts)
      abortByName(requestId);
    aborts.clear();
    for (std::uint64_t seqId : brokenSinks)
      abortRequest(seqId);
    brokenSinks.clear();

    // One clock reading for both: a sequence that becomes ready now has its pending token taken first.
    const Clock::time_point now = Clock::now();
    takeDuePending(now);
    const std::span<const SeqStep> batch = scheduler.schedule(now);
    idle = batch.empty();
    if (!idle) {
      output.sampled.clear();
      output.releaseAt.clear();
      try {
        backend->step(batch, output);
        // Before update: the batch's token spans point into sequences that update extends.
        if (stepLog.enabled()) stepLog.write(batch, now, Clock::now(), scheduler.numWaiting());
        scheduler.update(output, updates);
      } catch (const std::exception& error) {
        // A failing device fails the requests of the step, not the server.
        std::fprintf(stderr, "ayar-engine: %s step failed: %s\n", std::string(backend->name()).c_str(),
                     error.what());
        for (std::uint64_t seqId : scheduler.abandonBatch())
          abortRequest(seqId);
      }
      ++stepsTotal;
      const Clock::time_point stepEnd = Clock::now();
      for (const SequenceUpdate& update : updates)
        onUpdate(update, stepEnd);
      updates.clear();
    }
    publishStats();
    deliverDue();
  }

  // Stopping: every request not yet finished gets its final kAbort, accepted-but-undrained ones too.
  for (Submission& submission : submissions) {
    registerRequest(submission);
    requests.at(submission.seqId).inScheduler = false;
  }
  due.clear();
  for (auto& [seqId, request] : requests) {
    if (request.closed) continue;
    request.closed = true;
    GenerationEvent event;
    event.finish = FinishReason::kAbort;
    event.promptTokens = request.promptTokens;
    event.cachedPromptTokens = request.cachedPromptTokens;
    event.completionTokens = request.deliveredTokens;
    due.push_back({seqId, std::move(event)});
  }
  deliverDue();
}

void EngineLoop::Impl::registerRequest(Submission& submission) {
  Request request;
  request.id = submission.request.requestId;
  request.sink = std::move(submission.sink);
  request.promptTokens = static_cast<int>(submission.request.promptTokens.size());
  seqIdsByRequestId.emplace(request.id, submission.seqId);
  requests.emplace(submission.seqId, std::move(request));
}

void EngineLoop::Impl::abortByName(const std::string& requestId) {
  const auto [first, last] = seqIdsByRequestId.equal_range(requestId);
  std::vector<std::uint64_t> seqIds;
  for (auto it = first; it != last; ++it)
    seqIds.push_back(it->second);
  for (std::uint64_t seqId : seqIds)
    abortRequest(seqId);
}

void EngineLoop::Impl::abortRequest(std::uint64_t seqId) {
  const auto found = requests.find(seqId);
  if (found == requests.end() || found->second.closed) return;
  Request& request = found->second;
  if (request.inScheduler) {
    scheduler.abort(seqId);  // its blocks are free from here on
    request.inScheduler = false;
  }
  GenerationEvent event;
  event.finish = FinishReason::kAbort;
  event.promptTokens = request.promptTokens;
  event.cachedPromptTokens = request.cachedPromptTokens;
  event.completionTokens = request.deliveredTokens;
  makeDue({seqId, std::move(event)});
}

void EngineLoop::Impl::onUpdate(const SequenceUpdate& update, Clock::time_point now) {
  Request& request = requests.at(update.seqId);
  request.cachedPromptTokens = update.numCachedPromptTokens;
  if (update.finish != FinishReason::kNone) request.inScheduler = false;
  Event event{update.seqId, {}};
  event.event.tokens.push_back(update.token);
  event.event.finish = update.finish;
  event.event.promptTokens = update.numPromptTokens;
  event.event.cachedPromptTokens = update.numCachedPromptTokens;
  event.event.completionTokens = update.numGenerated;
  event.event.firstScheduledAt = update.firstScheduledAt;
  if (update.hasReleaseAt && update.releaseAt > now) {
    pending.push({update.releaseAt, pendingOrder++, std::move(event)});
  } else {
    makeDue(std::move(event));
  }
}

void EngineLoop::Impl::makeDue(Event&& event) {
  const auto found = requests.find(event.seqId);
  if (found == requests.end() || found->second.closed) return;  // aborted while its token waited
  Request& request = found->second;
  if (!event.event.tokens.empty()) {
    // Counted when released to the client, so that the totals agree with what clients saw.
    if (request.deliveredTokens == 0) promptTokensTotal += static_cast<std::uint64_t>(request.promptTokens);
    request.deliveredTokens += static_cast<int>(event.event.tokens.size());
    generationTokensTotal += event.event.tokens.size();
  }
  if (event.event.finish != FinishReason::kNone) request.closed = true;
  due.push_back(std::move(event));
}

void EngineLoop::Impl::takeDuePending(Clock::time_point now) {
  while (!pending.empty() && pending.top().at <= now) {
    // priority_queue::top is const; the event is copied out (one token) before the pop.
    Event event = pending.top().event;
    pending.pop();
    makeDue(std::move(event));
  }
}

void EngineLoop::Impl::publishStats() {
  const BlockManager& blocks = scheduler.blockManager();
  const SchedulerCounters& counters = scheduler.counters();
  std::lock_guard lock(mutex);
  stats.running = scheduler.numRunning();
  stats.waiting = scheduler.numWaiting() + static_cast<int>(inbox.size());
  stats.numBlocks = blocks.numBlocks();
  stats.freeBlocks = blocks.numFreeBlocks();
  stats.kvCacheUsage = 1.0 - static_cast<double>(stats.freeBlocks) / stats.numBlocks;
  stats.promptTokensTotal = promptTokensTotal;
  stats.generationTokensTotal = generationTokensTotal;
  stats.prefixCacheQueries = counters.prefixCacheQueries;
  stats.prefixCacheHits = counters.prefixCacheHits;
  stats.preemptionsTotal = counters.preemptions;
  stats.stepsTotal = stepsTotal;
  schedulerWaiting = scheduler.numWaiting();
}

void EngineLoop::Impl::deliverDue() {
  for (Event& event : due) {
    const auto found = requests.find(event.seqId);
    assert(found != requests.end());
    Request& request = found->second;
    const bool last = event.event.finish != FinishReason::kNone;
    try {
      request.sink(std::move(event.event));
    } catch (...) {
      // The owner cannot take events any more: treat it as a disconnect.
      if (!last) brokenSinks.push_back(event.seqId);
    }
    if (last) {
      const auto [first, end] = seqIdsByRequestId.equal_range(request.id);
      for (auto it = first; it != end; ++it) {
        if (it->second == event.seqId) {
          seqIdsByRequestId.erase(it);
          break;
        }
      }
      requests.erase(found);
    }
  }
  due.clear();
}

EngineLoop::EngineLoop(std::unique_ptr<Backend> backend, const SchedulerConfig& config,
                       const std::string& stepLogPath)
    : m_impl(std::make_unique<Impl>(std::move(backend), config, stepLogPath)) {}

EngineLoop::~EngineLoop() {
  {
    std::lock_guard lock(m_impl->mutex);
    m_impl->stopping = true;
  }
  m_impl->wake.notify_one();
  m_impl->thread.join();
}

EngineLoop::SubmitResult EngineLoop::submit(GenerationRequest request, GenerationSink sink) {
  if (request.promptTokens.empty()) {
    throw Error("request '" + request.requestId + "': the prompt has no tokens; send at least one");
  }
  if (request.maxTokens < 1) {
    throw Error("request '" + request.requestId + "': max_tokens " + std::to_string(request.maxTokens) +
                " asks for nothing; ask for at least 1 token");
  }
  assert(sink);
  if (!Scheduler::fits(m_impl->config, request.promptTokens.size(), request.maxTokens)) {
    return SubmitResult::kTooLong;
  }
  {
    std::lock_guard lock(m_impl->mutex);
    const std::size_t queued = m_impl->inbox.size() + static_cast<std::size_t>(m_impl->schedulerWaiting);
    if (m_impl->stopping || queued >= static_cast<std::size_t>(m_impl->config.maxWaiting)) {
      return SubmitResult::kQueueFull;
    }
    m_impl->inbox.push_back({m_impl->nextSeqId++, std::move(request), std::move(sink)});
  }
  m_impl->wake.notify_one();
  return SubmitResult::kAccepted;
}

void EngineLoop::abort(const std::string& requestId) {
  {
    std::lock_guard lock(m_impl->mutex);
    m_impl->abortInbox.push_back(requestId);
  }
  m_impl->wake.notify_one();
}

EngineStats EngineLoop::stats() const {
  std::lock_guard lock(m_impl->mutex);
  return m_impl->stats;
}

const SchedulerConfig& EngineLoop::config() const {
  return m_impl->config;
}

const Backend& EngineLoop::backend() const {
  return *m_impl->backend;
}

}  // namespace ayar::engine
