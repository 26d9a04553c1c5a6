#include "core/load/load_runner.h"

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cassert>
#include <future>
#include <limits>
#include <stdexcept>

#include "core/error.h"
#include "core/load/stream_client.h"
#include "core/report/message_text.h"

namespace ayar {

namespace {

using Clock = LoadRunner::Clock;

double secondsBetween(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

Clock::duration toDuration(double seconds) {
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

std::string endpointUrl(const LoadRunnerConfig& config) {
  std::string base = config.baseUrl;
  if (base.empty()) {
    throw MessageError({MessageText::LoadNoEndpoint, {}});
  }
  if (!base.starts_with("http://") && !base.starts_with("https://")) {
    throw MessageError({MessageText::LoadEndpointScheme, {base}});
  }
  while (base.ends_with('/'))
    base.pop_back();
  std::string path =
      config.endpointPath.empty() ? std::string(defaultEndpointPath(config.body.api)) : config.endpointPath;
  if (!path.starts_with('/')) path.insert(path.begin(), '/');
  return base + path;
}

// Each stream holds one socket. Raise the soft limit towards the hard one when the run needs it;
// when the peak is known (a cap, a closed loop) and still does not fit, say so before starting.
void ensureOpenFileLimit(std::size_t connections, bool peakIsKnown) {
  const rlim_t needed = static_cast<rlim_t>(connections) + 64;
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur >= needed) return;
  rlimit raised = limit;
  raised.rlim_cur = std::min(limit.rlim_max, needed);
  if (setrlimit(RLIMIT_NOFILE, &raised) == 0) limit = raised;
  if (peakIsKnown && limit.rlim_cur < needed) {
    throw MessageError(
        {MessageText::LoadOpenFiles,
         {std::to_string(connections), std::to_string(needed), std::to_string(limit.rlim_cur)}});
  }
}

// Grows this process's descriptor table now, before the run, to hold `count` descriptors. The kernel
// grows the table by doubling when a new descriptor does not fit, and in a process with several
// threads every growth waits for an RCU grace period, which freezes the client thread inside socket()
// for milliseconds each time connections are opened by the thousand (docs/BENCHMARKS.md, dispatch lag
// on a GPU host). The table never shrinks, so one early growth pays for the run.
void reserveDescriptorTable(std::size_t count) {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return;
  const rlim_t highest = std::min<rlim_t>(static_cast<rlim_t>(count), limit.rlim_cur) - 1;
  if (highest < 64 || highest > static_cast<rlim_t>(std::numeric_limits<int>::max())) return;
  const int low = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (low < 0) return;
  const int high = fcntl(low, F_DUPFD_CLOEXEC, static_cast<int>(highest));
  if (high >= 0) ::close(high);
  ::close(low);
}

double threadCpuS() {
  timespec cpu{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu);
  return static_cast<double>(cpu.tv_sec) + static_cast<double>(cpu.tv_nsec) * 1e-9;
}

}  // namespace

struct LoadRunner::Run {
  // What a record needs from its request; the prompt itself lives on only inside the body.
  struct Counts {
    int promptTokens = 0;
    int expectedOutputTokens = 0;
    std::int64_t maxTokens = 0;
  };
  std::vector<Counts> counts;
  std::vector<std::string> bodies;
  std::vector<double> offsetsS;
  bool closedLoop = false;
  std::size_t streams = 0;   // closed loop only
  std::size_t capacity = 0;  // most requests in flight at once
  std::unique_ptr<StreamClient> client;
  std::vector<RequestRecord> pending;  // finished, not yet handed to the sink
  Clock::time_point firstPendingAt;
  std::vector<Clock::time_point> freedSlots;  // when each slot freed during the last poll
  std::promise<void> originTaken;

  // Hands over everything pending to `sink`, in batches of at most batchSize.
  void handOver(const std::function<void(std::vector<RequestRecord>&&)>& sink, std::size_t batchSize) {
    if (pending.empty()) return;
    std::vector<RequestRecord> all;
    all.swap(pending);
    pending.reserve(batchSize);
    if (!sink) return;
    if (all.size() <= batchSize) {
      sink(std::move(all));
      return;
    }
    for (std::size_t begin = 0; begin < all.size(); begin += batchSize) {
      const auto first = all.begin() + static_cast<std::ptrdiff_t>(begin);
      const auto last = all.begin() + static_cast<std::ptrdiff_t>(std::min(all.size(), begin + batchSize));
      sink(std::vector<RequestRecord>(std::make_move_iterator(first), std::make_move_iterator(last)));
    }
  }
};

LoadRunner::LoadRunner(LoadRunnerConfig config) : m_config(std::move(config)) {}

LoadRunner::~LoadRunner() {
  if (m_thread.joinable()) {
    cancel();
    m_thread.join();
  }
}

void LoadRunner::start(std::vector<LoadRequest> requests, const ArrivalSchedule& schedule) {
  assert(!m_run && "a LoadRunner runs once");
  if (m_run) throw std::logic_error("LoadRunner::start called twice; a LoadRunner runs once");
  if (requests.size() != schedule.size()) {
    throw MessageError(
        {MessageText::LoadScheduleSize, {std::to_string(schedule.size()), std::to_string(requests.size())}});
  }
  auto run = std::make_unique<Run>();
  const std::string url = endpointUrl(m_config);
  run->bodies.reserve(requests.size());
  run->counts.reserve(requests.size());
  for (LoadRequest& request : requests) {
    run->bodies.push_back(
        buildRequestBody(m_config.body, request.prompt, request.expectedOutputTokens, request.extraBody));
    run->counts.push_back(
        {request.promptTokens, request.expectedOutputTokens,
         requestedMaxTokens(m_config.body, request.expectedOutputTokens, request.extraBody)});
    request = LoadRequest();  // the body holds the prompt now
  }
  run->offsetsS = schedule.offsetsS();
  run->closedLoop = schedule.mode() == ArrivalSchedule::Mode::ClosedLoop;
  const std::size_t count = run->counts.size();
  if (run->closedLoop) {
    run->streams = static_cast<std::size_t>(schedule.closedLoopStreams());
    run->capacity = run->streams;
  } else {
    run->capacity = m_config.maxConcurrency > 0 ? static_cast<std::size_t>(m_config.maxConcurrency)
                                                : std::numeric_limits<std::size_t>::max();
  }
  const std::size_t peak = std::max<std::size_t>(1, std::min(run->capacity, count));
  const bool allAtOnce =
      std::all_of(run->offsetsS.begin(), run->offsetsS.end(), [](double t) { return t == 0; });
  ensureOpenFileLimit(peak, run->closedLoop || m_config.maxConcurrency > 0 || allAtOnce);
  reserveDescriptorTable(peak + 64);

  StreamClientConfig clientConfig;
  clientConfig.url = url;
  clientConfig.apiKey = m_config.apiKey;
  clientConfig.headers = m_config.headers;
  clientConfig.requestIdPrefix = m_config.requestIdPrefix;
  clientConfig.requestTimeoutS = m_config.requestTimeoutS;
  clientConfig.connectionPoolSize = peak;
  clientConfig.countTokens = m_config.countTokens;
  Run* runPtr = run.get();
  run->client =
      std::make_unique<StreamClient>(std::move(clientConfig), [this, runPtr](RequestRecord&& record) {
        m_inFlight.fetch_sub(1, std::memory_order_relaxed);
        (record.success ? m_completed : m_failed).fetch_add(1, std::memory_order_relaxed);
        const Clock::time_point now = Clock::now();
        if (runPtr->pending.empty()) runPtr->firstPendingAt = now;
        runPtr->pending.push_back(std::move(record));
        runPtr->freedSlots.push_back(now);
      });
  m_total = count;
  {
    std::lock_guard lock(m_clientMutex);
    m_run = std::move(run);
  }
  std::future<void> originTaken = m_run->originTaken.get_future();
  m_thread = std::thread([this] { runLoop(*m_run); });
  originTaken.wait();
}

void LoadRunner::cancel() {
  m_cancelled.store(true, std::memory_order_release);
  std::lock_guard lock(m_clientMutex);
  if (m_run && m_run->client) m_run->client->wake();
}

void LoadRunner::wait() {
  if (m_thread.joinable()) m_thread.join();
  if (m_error) std::rethrow_exception(std::exchange(m_error, nullptr));
}

LoadProgress LoadRunner::progress() const {
  LoadProgress progress;
  progress.total = m_total.load(std::memory_order_relaxed);
  progress.sent = m_sent.load(std::memory_order_relaxed);
  progress.inFlight = m_inFlight.load(std::memory_order_relaxed);
  progress.completed = m_completed.load(std::memory_order_relaxed);
  progress.failed = m_failed.load(std::memory_order_relaxed);
  return progress;
}

void LoadRunner::runLoop(Run& run) {
  pthread_setname_np(pthread_self(), "ayar-load");  // so that top and perf can tell it apart
  if (m_config.realtimeClient) {
    sched_param priority{};
    priority.sched_priority = 10;  // above every normal thread, below the kernel's own
    m_realtimeGranted = pthread_setschedparam(pthread_self(), SCHED_FIFO, &priority) == 0;
  }
  StreamClient& client = *run.client;
  const std::size_t count = run.counts.size();
  const auto interval = toDuration(m_config.sinkIntervalS);
  const std::size_t batchSize = std::max<std::size_t>(1, m_config.sinkBatchSize);
  run.pending.reserve(batchSize);

  // Returns the instant the request was stamped as started.
  auto send = [&](std::size_t index, double scheduledS, double slotWaitS) {
    RequestRecord record;
    record.index = static_cast<std::int64_t>(index);
    record.scheduledS = scheduledS;
    record.slotWaitS = slotWaitS;
    record.promptTokens = run.counts[index].promptTokens;
    record.expectedOutputTokens = run.counts[index].expectedOutputTokens;
    record.maxTokens = run.counts[index].maxTokens;
    m_sent.fetch_add(1, std::memory_order_relaxed);
    m_inFlight.fetch_add(1, std::memory_order_relaxed);
    return client.send(run.bodies[index], std::move(record));
  };

  m_origin = Clock::now();
  client.setOrigin(m_origin);
  run.originTaken.set_value();

  try {
    std::size_t next = 0;
    // Slots that were free before the last poll's completions: requests taking them did not wait.
    std::size_t freeBefore = std::min(run.capacity, count);
    for (;;) {
      if (m_cancelled.load(std::memory_order_acquire)) {
        client.abortAll("cancelled");
        break;
      }
      const Clock::time_point now = Clock::now();
      m_late.sendsBegan(now);
      std::size_t freedUsed = 0;
      std::size_t dispatched = 0;
      while (next < count && client.inFlight() < run.capacity) {
        const bool waitedForSlot = dispatched >= freeBefore && freedUsed < run.freedSlots.size();
        const Clock::time_point slotFreedAt = waitedForSlot ? run.freedSlots[freedUsed] : now;
        if (run.closedLoop) {
          // A stream's next request is scheduled the moment its previous one finished.
          const double scheduledS = next < run.streams ? 0.0 : secondsBetween(m_origin, slotFreedAt);
          send(next, scheduledS, 0.0);
        } else {
          const Clock::time_point dueAt = m_origin + toDuration(run.offsetsS[next]);
          if (dueAt > now) break;
          const double slotWaitS =
              waitedForSlot && slotFreedAt > dueAt ? secondsBetween(dueAt, slotFreedAt) : 0.0;
          const Clock::time_point startedAt = send(next, run.offsetsS[next], slotWaitS);
          if (slotWaitS == 0.0) m_late.note(dueAt, startedAt);
        }
        freedUsed += waitedForSlot ? 1 : 0;
        ++dispatched;
        ++next;
      }
      run.freedSlots.clear();
      if (next == count && client.inFlight() == 0) break;

      Clock::time_point wakeAt = Clock::time_point::max();
      if (!run.closedLoop && next < count && client.inFlight() < run.capacity) {
        wakeAt = m_origin + toDuration(run.offsetsS[next]);
      }
      m_late.handOverBegan(Clock::now());
      if (!run.pending.empty()) {
        if (run.pending.size() >= batchSize || now >= run.firstPendingAt + interval) {
          run.handOver(m_config.sink, batchSize);
        } else {
          wakeAt = std::min(wakeAt, run.firstPendingAt + interval);
        }
      }
      freeBefore = run.capacity - std::min(run.capacity, client.inFlight());
      // When requests wait for a slot (a concurrency cap, a closed loop), a finished one is news.
      const double cpuBeforeS = threadCpuS();
      client.poll(wakeAt, next < count && client.inFlight() >= run.capacity);
      const StreamClient::PollTiming polled = client.lastPollTiming();
      m_late.polled(polled.entered, polled.woke, polled.returned, threadCpuS() - cpuBeforeS);
    }
    m_durationS = secondsBetween(m_origin, Clock::now());
    run.handOver(m_config.sink, batchSize);
  } catch (...) {
    m_error = std::current_exception();
    m_cancelled.store(true, std::memory_order_release);
  }
  m_clientThreadCpuS = threadCpuS();
  rusage usage{};
  if (getrusage(RUSAGE_THREAD, &usage) == 0) {
    m_late.counts().voluntarySwitches = usage.ru_nvcsw;
    m_late.counts().involuntarySwitches = usage.ru_nivcsw;
  }
  {
    std::lock_guard lock(m_clientMutex);
    run.client.reset();  // closes the connections now rather than when the runner goes
  }
  m_inFlight.store(0, std::memory_order_relaxed);
  m_finished.store(true, std::memory_order_release);
}

std::vector<RequestRecord> runLoad(LoadRunnerConfig config, std::vector<LoadRequest> requests,
                                   const ArrivalSchedule& schedule) {
  std::vector<RequestRecord> records;
  records.reserve(requests.size());
  auto userSink = std::move(config.sink);
  config.sink = [&records, &userSink](std::vector<RequestRecord>&& batch) {
    if (userSink) userSink(std::vector<RequestRecord>(batch));
    for (RequestRecord& record : batch)
      records.push_back(std::move(record));
  };
  LoadRunner runner(std::move(config));
  runner.start(std::move(requests), schedule);
  runner.wait();
  return records;
}

}  // namespace ayar
