// How many tokens per second the engine loop itself sustains (scheduler, step bookkeeping and event
// delivery), with the sim in fixed:0,0 mode so that the "device" costs nothing.
//
//   bench_engine_loop [SEQUENCES=2000] [TOKENS_PER_SEQUENCE=500]
//
// Prints, for the scheduler alone and for the whole loop, tokens/s and CPU time per token, and the share
// of one core the loop needs for 100,000 streamed tokens/s.
#include <time.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <numeric>
#include <vector>

#include "engine/backend/sim/sim_backend.h"
#include "engine/scheduler/engine_loop.h"
#include "engine/scheduler/scheduler.h"

namespace {

using namespace ayar::engine;

double cpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

double wallSeconds() {
  return std::chrono::duration<double>(Clock::now().time_since_epoch()).count();
}

SchedulerConfig benchConfig(int sequences, int tokens) {
  SchedulerConfig config;
  config.maxNumSeqs = sequences;
  config.maxNumBatchedTokens = std::max(8192, sequences);
  config.blockSize = 16;
  config.numBlocks = sequences * ((128 + tokens + 15) / 16 + 1);
  config.maxWaiting = sequences;
  return config;
}

GenerationRequest benchRequest(int index, int tokens) {
  GenerationRequest request;
  request.requestId = "bench-" + std::to_string(index);
  request.promptTokens.resize(128);
  std::iota(request.promptTokens.begin(), request.promptTokens.end(), index * 128);
  request.maxTokens = tokens;
  request.ignoreEos = true;
  return request;
}

void report(const char* what, std::uint64_t tokens, double wall, double cpu) {
  const double perToken = cpu / static_cast<double>(tokens);
  std::printf("%-34s %9.0f tok/s  %6.3f us CPU/token  %5.1f%% of a core for 100k tok/s\n", what,
              static_cast<double>(tokens) / wall, perToken * 1e6, perToken * 100000 * 100);
}

void benchScheduler(int sequences, int tokens) {
  Scheduler scheduler(benchConfig(sequences, tokens));
  for (int i = 0; i < sequences; ++i)
    scheduler.add(static_cast<std::uint64_t>(i), benchRequest(i, tokens));
  StepOutput output;
  std::vector<SequenceUpdate> updates;
  std::uint64_t generated = 0;
  const double wall0 = wallSeconds();
  const double cpu0 = cpuSeconds();
  while (!scheduler.empty()) {
    const std::span<const SeqStep> batch = scheduler.schedule();
    output.sampled.clear();
    for (const SeqStep& seq : batch) {
      if (seq.sample) output.sampled.push_back(static_cast<std::int32_t>(seq.position % 1000));
    }
    scheduler.update(output, updates);
    generated += updates.size();
    updates.clear();
  }
  report("scheduler alone (schedule+update)", generated, wallSeconds() - wall0, cpuSeconds() - cpu0);
}

void benchLoop(int sequences, int tokens) {
  std::mutex mutex;
  std::condition_variable allDone;
  int finished = 0;
  std::uint64_t delivered = 0;  // touched on the loop thread only, read after it is joined
  const auto model = findModelPreset("qwen3-tiny");
  double wall = 0.0;
  double cpu = 0.0;
  {
    EngineLoop loop(makeSimBackend(*model, SimProfile::parse("fixed:0,0"), 1),
                    benchConfig(sequences, tokens));
    const double wall0 = wallSeconds();
    const double cpu0 = cpuSeconds();
    for (int i = 0; i < sequences; ++i) {
      const auto result = loop.submit(benchRequest(i, tokens), [&](GenerationEvent&& event) {
        delivered += event.tokens.size();
        if (event.finish == FinishReason::kNone) return;
        std::lock_guard lock(mutex);
        if (++finished == sequences) allDone.notify_one();
      });
      if (result != EngineLoop::SubmitResult::kAccepted) {
        std::fprintf(stderr, "request %d refused\n", i);
        std::exit(1);
      }
    }
    std::unique_lock lock(mutex);
    allDone.wait(lock, [&] { return finished == sequences; });
    wall = wallSeconds() - wall0;
    cpu = cpuSeconds() - cpu0;
    const EngineStats stats = loop.stats();
    std::printf("loop: %llu steps, %llu tokens generated, %llu preemptions\n",
                static_cast<unsigned long long>(stats.stepsTotal),
                static_cast<unsigned long long>(stats.generationTokensTotal),
                static_cast<unsigned long long>(stats.preemptionsTotal));
  }
  report("engine loop + sim fixed:0,0 + sinks", delivered, wall, cpu);
}

}  // namespace

int main(int argc, char** argv) {
  const int sequences = argc > 1 ? std::atoi(argv[1]) : 2000;
  const int tokens = argc > 2 ? std::atoi(argv[2]) : 500;
  if (sequences < 1 || tokens < 1) {
    std::fprintf(stderr, "usage: bench_engine_loop [SEQUENCES>=1] [TOKENS_PER_SEQUENCE>=1]\n");
    return 2;
  }
  std::printf("%d concurrent sequences x %d tokens (prompts of 128 tokens), one loop thread\n", sequences,
              tokens);
  benchScheduler(sequences, tokens);
  benchLoop(sequences, tokens);
  return 0;
}
