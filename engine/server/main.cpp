// ayar-engine: the bundled OpenAI-compatible server. `ayar-engine serve MODEL [flags]` (see docs/ENGINE.md).
#include <fcntl.h>
#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>

#include "core/error.h"
#include "core/tokenizer/tokenizer.h"
#include "engine/scheduler/engine_loop.h"
#include "engine/server/engine_options.h"
#include "engine/server/engine_setup.h"
#include "engine/server/http_server.h"
#include "engine/server/openai_service.h"
#include "engine/server/server_metrics.h"

#ifndef AYAR_VERSION
#define AYAR_VERSION "0.0.0"
#endif

namespace {

using namespace ayar::engine;

int fail(int exitCode, const std::string& message) {
  const bool endsSentence = !message.empty() && message.back() == '.';
  std::fprintf(stderr, "ayar-engine: error: %s%s\n", message.c_str(), endsSentence ? "" : ".");
  return exitCode;
}

// Thousands of streaming clients need thousands of descriptors; the soft limit is often 1024.
// The descriptor table is also grown now, while the process has one thread: once several threads
// share it, every growth (by doubling, as connections arrive) waits for an RCU grace period, which
// freezes the accepting thread, and every stream it serves, for milliseconds at a time.
void raiseOpenFileLimit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return;
  if (limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &limit) != 0) getrlimit(RLIMIT_NOFILE, &limit);
  }
  constexpr rlim_t kReservedDescriptors = 65536;  // 512 KiB of table; more connections grow it later
  const rlim_t highest = std::min(limit.rlim_cur, kReservedDescriptors) - 1;
  if (highest < 64) return;
  const int low = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (low < 0) return;
  const int high = fcntl(low, F_DUPFD_CLOEXEC, static_cast<int>(highest));
  if (high >= 0) ::close(high);
  ::close(low);
}

std::string deviceDescription(const EnginePlan& plan) {
  if (plan.device == "sim") {
    return "sim (simulated, profile " + plan.simProfile->name + (plan.fp8Weights ? ", fp8 weights" : "") +
           (plan.fp8KvCache ? ", fp8 KV cache" : "") + ", no model math)";
  }
  if (plan.device == "cuda") {
    return "cuda (" + plan.deviceName + ", bf16, " + plan.loadFormat + " weights, " +
           (plan.enforceEager ? "eager" : "CUDA graphs for decode") + ")";
  }
  std::string precision = "float32";
  if (plan.fp8Weights) {
    precision += plan.model.fp8Checkpoint() && plan.loadFormat == "safetensors"
                     ? ", fp8 checkpoint weights and activations"
                     : ", fp8 weights and activations";
  }
  if (plan.fp8KvCache) precision += ", fp8 KV cache";
  return plan.device + " (" + precision + ", " + plan.loadFormat + " weights)";
}

int serve(const EngineOptions& options) {
  // Signals are taken by one thread with sigwait: block them before any other thread exists.
  sigset_t stopSignals;
  sigemptyset(&stopSignals);
  sigaddset(&stopSignals, SIGINT);
  sigaddset(&stopSignals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stopSignals, nullptr);
  std::signal(SIGPIPE, SIG_IGN);

  // Everything that can be refused is checked before anything big is allocated.
  EnginePlan plan;
  std::shared_ptr<const ayar::Tokenizer> tokenizer;
  try {
    plan = planEngine(options, availableHostMemoryBytes());
    tokenizer = ayar::Tokenizer::load(plan.tokenizerPath);
  } catch (const ayar::Error& error) {
    return fail(2, error.what());
  }
  raiseOpenFileLimit();

  HttpServerConfig http;
  http.host = options.host;
  http.port = static_cast<std::uint16_t>(options.port);
  http.ioThreads = options.ioThreads;
  http.maxBodyBytes = static_cast<std::size_t>(options.maxRequestBodyBytes);
  http.readTimeout =
      std::chrono::milliseconds(static_cast<std::int64_t>(options.httpReadTimeoutSeconds * 1000));
  http.writeTimeout =
      std::chrono::milliseconds(static_cast<std::int64_t>(options.httpWriteTimeoutSeconds * 1000));
  OpenAiService* service = nullptr;
  std::unique_ptr<HttpServer> server;
  try {
    server = std::make_unique<HttpServer>(
        http, [&service](const std::shared_ptr<HttpConnection>& connection, HttpRequest&& request) {
          service->handle(connection, std::move(request));
        });
  } catch (const ayar::Error& error) {
    return fail(2, error.what());
  }

  std::unique_ptr<EngineLoop> loop;
  try {
    SchedulerConfig scheduler;
    scheduler.maxNumSeqs = plan.maxNumSeqs;
    scheduler.maxNumBatchedTokens = options.maxNumBatchedTokens;
    scheduler.blockSize = options.blockSize;
    scheduler.numBlocks = plan.numBlocks;
    scheduler.enablePrefixCaching = options.enablePrefixCaching;
    scheduler.maxModelLen = plan.maxModelLen;
    scheduler.maxWaiting = options.maxWaitingRequests;
    loop = std::make_unique<EngineLoop>(createBackend(plan, options.seed), scheduler, options.stepLog);
  } catch (const ayar::Error& error) {
    return fail(1, error.what());
  }

  ServerMetrics metrics(plan.servedModelName, loop->backend().simulated());
  metrics.setCacheConfig({options.blockSize, plan.fp8KvCache ? "fp8_e4m3" : "auto", plan.numBlocks});
  ServedModel served;
  served.servedName = plan.servedModelName;
  served.root = options.model;
  served.maxModelLen = plan.maxModelLen;
  served.vocabSize = plan.model.vocabSize;
  served.device = plan.device;
  served.simulated = loop->backend().simulated();
  served.simProfile = plan.device == "sim" ? options.simProfile : std::string();
  served.numBlocks = plan.numBlocks;
  served.blockSize = options.blockSize;
  served.apiKey = options.apiKey;
  served.qwen3ReasoningParser = options.reasoningParser == "qwen3";
  served.samplingDefaults = plan.samplingDefaults;
  OpenAiService openai(served, tokenizer, *loop, *server, metrics);
  service = &openai;

  if (!options.apiKey.empty()) {
    std::fprintf(stderr, "INFO ayar-engine: /v1 routes require the API key given by %s\n",
                 options.apiKeySource.c_str());
  }
  std::fprintf(stderr,
               "INFO ayar-engine %s: model %s (served as '%s') on device %s: %d KV blocks of %d tokens (%s), "
               "max-model-len %d, max-num-seqs %d; listening on http://%s:%u\n",
               AYAR_VERSION, plan.model.name.c_str(), plan.servedModelName.c_str(),
               deviceDescription(plan).c_str(), plan.numBlocks, options.blockSize,
               formatBytes(std::int64_t{plan.numBlocks} * plan.kvBytesPerBlock).c_str(), plan.maxModelLen,
               plan.maxNumSeqs, options.host.c_str(), static_cast<unsigned>(server->port()));
  std::fflush(stderr);

  std::atomic<bool> stopRequested{false};
  std::thread signalWaiter([&] {
    int signal = 0;
    sigwait(&stopSignals, &signal);
    if (!stopRequested.exchange(true)) {
      std::fprintf(stderr, "INFO ayar-engine: %s received: stopping (running requests are aborted)\n",
                   signal == SIGINT ? "SIGINT" : "SIGTERM");
    }
    openai.beginShutdown();
    server->stop();
  });
  // Started by Ayar (the launcher sets AYAR_PARENT_PID): when that program dies, even by SIGKILL, the
  // engine is reparented, and stops rather than hold the port and the memory for nobody.
  std::thread parentWatch;
  if (const char* parent = std::getenv("AYAR_PARENT_PID"); parent && std::atol(parent) == ::getppid()) {
    parentWatch = std::thread([&stopRequested, parentPid = ::getppid()] {
      while (!stopRequested.load()) {
        if (::getppid() != parentPid) {
          std::fprintf(stderr, "INFO ayar-engine: the program that started it is gone: stopping\n");
          ::kill(::getpid(), SIGTERM);
          return;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(250));
      }
    });
  }
  // Each io thread tokenizes its requests with per-thread state (regex match data, JIT stack, word
  // cache shard): set it up now, so that no client's first request on a thread pays for it.
  for (std::size_t worker = 0; worker < server->workerCount(); ++worker) {
    server->post(worker, [tokenizer] {
      tokenizer->encode("Warm-up: the first request on this thread should cost what every other one does.");
    });
  }
  server->run();
  if (!stopRequested.exchange(true)) pthread_kill(signalWaiter.native_handle(), SIGTERM);
  signalWaiter.join();
  if (parentWatch.joinable()) parentWatch.join();

  // The loop first: its destructor gives unfinished requests their final events, which the service's
  // inboxes still receive.
  loop.reset();
  std::fprintf(stderr, "INFO ayar-engine: stopped\n");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  EngineOptions options;
  const CommandLineOutcome outcome = parseEngineCommandLine(argc, argv, options);
  if (outcome.printDevice) {
    std::printf("%s\n", describeAutoDevice().c_str());
    return 0;
  }
  if (!outcome.serve) return outcome.exitCode;
  return serve(options);
}
