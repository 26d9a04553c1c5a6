// bench_client: what the load generator's client costs and how precisely it dispatches, against the
// loopback SSE test server running in a child process (so that this process's CPU time is the client's).
//
//   bench_client [--streams 2000] [--tokens 500] [--paced-itl-ms 20] [--paced-tokens 100]
//                [--dispatch-requests 2000] [--dispatch-rate 2000]
//
// 1. dispatch: --dispatch-requests short requests at a constant --dispatch-rate: dispatch lag p50/p99/max
//    (first, while no earlier phase's load lingers).
// 2. throughput: --streams concurrent streams of --tokens one-token chunks each, the server streaming
//    as fast as the sockets take it: chunks/s, CPU seconds per 1,000 chunks (client thread, process).
// 3. paced: the same streams with one chunk every --paced-itl-ms (a steady 100k chunks/s for 2,000
//    streams at 20 ms): the per-chunk cost when every chunk is its own packet and wake-up.
// 4. parser: SSE framing + chunk interpretation alone, per chunk.
//
// On a shared machine the kernel keeps a woken thread waiting while other processes hold the CPUs; the
// figures print how long the client thread waited so. --realtime runs client and server under
// SCHED_FIFO (root or CAP_SYS_NICE) so that they run as soon as they wake, which shows the client's
// own precision apart from that wait.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sched.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/load/load_runner.h"
#include "core/load/openai_stream.h"
#include "tests/support/sse_server/sse_test_server.h"

namespace {

using Clock = std::chrono::steady_clock;

struct ServerProcess {
  pid_t pid = -1;
  int stopPipe = -1;  // the child serves until this closes
  int port = 0;
};

// Forks before this process starts any thread, so the child may run the server freely.
ServerProcess startServerProcess() {
  int portPipe[2];
  int stopPipe[2];
  if (pipe(portPipe) != 0 || pipe(stopPipe) != 0) {
    std::perror("pipe");
    std::exit(1);
  }
  const pid_t pid = fork();
  if (pid < 0) {
    std::perror("fork");
    std::exit(1);
  }
  if (pid == 0) {
    close(portPipe[0]);
    close(stopPipe[1]);
    {
      ayar::test::SseTestServer server({.recordRequests = false});
      const int port = server.port();
      if (write(portPipe[1], &port, sizeof port) != sizeof port) _exit(1);
      char byte = 0;
      while (read(stopPipe[0], &byte, 1) > 0) {
      }
    }
    _exit(0);
  }
  close(portPipe[1]);
  close(stopPipe[0]);
  ServerProcess server;
  server.pid = pid;
  server.stopPipe = stopPipe[1];
  if (read(portPipe[0], &server.port, sizeof server.port) != sizeof server.port) {
    std::fprintf(stderr, "the server process did not start\n");
    std::exit(1);
  }
  close(portPipe[0]);
  return server;
}

double processCpuS() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
}

double threadCpuS() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const double rank = p / 100.0 * static_cast<double>(values.size() - 1);
  const auto below = static_cast<std::size_t>(rank);
  const std::size_t above = std::min(below + 1, values.size() - 1);
  return values[below] + (values[above] - values[below]) * (rank - static_cast<double>(below));
}

// Seconds this thread has spent runnable but waiting for a CPU (the kernel's schedstat): on a shared
// machine this, not the client, is where late timestamps come from.
double threadRunQueueWaitS() {
  std::FILE* file = std::fopen("/proc/thread-self/schedstat", "r");
  if (!file) return -1;
  unsigned long long onCpuNs = 0;
  unsigned long long waitingNs = 0;
  const int read = std::fscanf(file, "%llu %llu", &onCpuNs, &waitingNs);
  std::fclose(file);
  return read == 2 ? static_cast<double>(waitingNs) * 1e-9 : -1;
}

struct RunFigures {
  std::size_t requests = 0;
  std::size_t failed = 0;
  std::size_t chunks = 0;
  double wallS = 0;
  double clientThreadCpuS = 0;
  double processCpuS = 0;
  std::vector<double> dispatchLagsS;
  std::vector<double> itlsS;
  std::vector<double> chunkArrivalsS;  // every chunk's arrival on the run's clock (keepItls runs only)
  double steadyFromS = 0;              // the window in which every stream was open: the last first
  double steadyToS = 0;                // chunk to the first last chunk
  std::string firstError;
  double clientRunQueueWaitS = 0;  // as of the last sink call, which comes at the very end
  double clientUserS = 0;          // the client thread's CPU split: user space (libcurl, parsing)
  double clientSystemS = 0;        // and kernel (sockets, epoll, timers)
};

RunFigures runOnce(int port, std::size_t count, int tokens, const nlohmann::json& directives,
                   const ayar::ArrivalSchedule& schedule, bool keepItls) {
  RunFigures figures;
  ayar::LoadRunnerConfig config;
  config.baseUrl = "http://127.0.0.1:" + std::to_string(port);
  config.body.model = "bench";
  config.body.extraBody = {{"ayar_test", directives}};
  config.requestTimeoutS = 600;
  config.sink = [&figures, keepItls](std::vector<ayar::RequestRecord>&& batch) {
    figures.clientRunQueueWaitS = threadRunQueueWaitS();  // the sink runs on the client thread
    rusage usage{};
    getrusage(RUSAGE_THREAD, &usage);
    figures.clientUserS =
        static_cast<double>(usage.ru_utime.tv_sec) + static_cast<double>(usage.ru_utime.tv_usec) * 1e-6;
    figures.clientSystemS =
        static_cast<double>(usage.ru_stime.tv_sec) + static_cast<double>(usage.ru_stime.tv_usec) * 1e-6;
    for (const ayar::RequestRecord& record : batch) {
      ++figures.requests;
      figures.chunks += record.chunkTimesS.size();
      figures.dispatchLagsS.push_back(record.dispatchLagS());
      if (!record.success) {
        ++figures.failed;
        if (figures.firstError.empty()) figures.firstError = record.error;
      }
      if (keepItls && !record.chunkTimesS.empty()) {
        const double first = record.startS + record.chunkTimesS.front();
        const double last = record.startS + record.chunkTimesS.back();
        figures.steadyFromS = figures.requests == 1 ? first : std::max(figures.steadyFromS, first);
        figures.steadyToS = figures.requests == 1 ? last : std::min(figures.steadyToS, last);
        for (double t : record.chunkTimesS)
          figures.chunkArrivalsS.push_back(record.startS + t);
        for (std::size_t i = 1; i < record.chunkTimesS.size(); ++i) {
          figures.itlsS.push_back(record.chunkTimesS[i] - record.chunkTimesS[i - 1]);
        }
      }
    }
  };
  std::vector<ayar::LoadRequest> requests(count);
  for (std::size_t i = 0; i < count; ++i) {
    requests[i].prompt = "bench request " + std::to_string(i);
    requests[i].expectedOutputTokens = tokens;
  }
  const double cpuBefore = processCpuS();
  const Clock::time_point begin = Clock::now();
  ayar::LoadRunner runner(config);
  runner.start(std::move(requests), schedule);
  runner.wait();
  figures.wallS = std::chrono::duration<double>(Clock::now() - begin).count();
  figures.processCpuS = processCpuS() - cpuBefore;
  figures.clientThreadCpuS = runner.clientThreadCpuS();
  return figures;
}

void printStreaming(const char* title, const RunFigures& figures) {
  std::printf("%s\n", title);
  std::printf("  requests %zu (failed %zu%s%s), chunks %zu, wall %.3f s\n", figures.requests, figures.failed,
              figures.firstError.empty() ? "" : ": ", figures.firstError.c_str(), figures.chunks,
              figures.wallS);
  std::printf("  chunks/s                          %.0f\n",
              static_cast<double>(figures.chunks) / figures.wallS);
  std::printf("  client thread CPU s / 1000 chunks %.4f  (%.3f s total)\n",
              figures.clientThreadCpuS * 1000.0 / static_cast<double>(figures.chunks),
              figures.clientThreadCpuS);
  std::printf("  process CPU s / 1000 chunks       %.4f  (%.3f s total)\n",
              figures.processCpuS * 1000.0 / static_cast<double>(figures.chunks), figures.processCpuS);
  std::printf("  client thread user / kernel CPU    %.3f s / %.3f s\n", figures.clientUserS,
              figures.clientSystemS);
  std::printf("  client thread waiting for a CPU   %.3f s of the %.3f s\n", figures.clientRunQueueWaitS,
              figures.wallS);
}

// The floor for the paced phase: the same streams read with nothing but epoll_wait and recv on raw
// sockets (no HTTP parsing beyond counting "data: " lines). What the libcurl client costs above this
// is its own overhead.
RunFigures runRawFloor(int port, std::size_t count, int tokens, int itlMs) {
  RunFigures figures;
  const std::string body =
      "{\"model\":\"bench\",\"prompt\":\"floor\",\"max_tokens\":" + std::to_string(tokens) +
      ",\"stream\":true,\"ayar_test\":{\"itl_ms\":" + std::to_string(itlMs) + "}}";
  const std::string request =
      "POST /v1/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
      "application/json\r\nContent-Length: " +
      std::to_string(body.size()) + "\r\n\r\n" + body;
  const int epollFd = epoll_create1(EPOLL_CLOEXEC);
  std::vector<int> fds;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  for (std::size_t i = 0; i < count; ++i) {
    const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
      std::perror("connect");
      std::exit(1);
    }
    fcntl(fd, F_SETFL, O_NONBLOCK);
    fds.push_back(fd);
  }
  const double cpuBefore = threadCpuS();
  rusage usageBefore{};
  getrusage(RUSAGE_THREAD, &usageBefore);
  const Clock::time_point begin = Clock::now();
  for (int fd : fds) {
    if (send(fd, request.data(), request.size(), 0) != static_cast<ssize_t>(request.size())) {
      std::perror("send");
      std::exit(1);
    }
    epoll_event event{};
    event.events = EPOLLIN;
    event.data.fd = fd;
    epoll_ctl(epollFd, EPOLL_CTL_ADD, fd, &event);
  }
  std::size_t open = fds.size();
  std::vector<char> buffer(64 * 1024);
  epoll_event events[32];
  while (open > 0) {
    const int ready = epoll_wait(epollFd, events, 32, 10000);
    if (ready <= 0) break;
    for (int i = 0; i < ready; ++i) {
      const int fd = events[i].data.fd;
      const ssize_t got = recv(fd, buffer.data(), buffer.size(), 0);
      if (got <= 0) {
        if (got < 0 && errno == EAGAIN) continue;
        epoll_ctl(epollFd, EPOLL_CTL_DEL, fd, nullptr);
        --open;
        continue;
      }
      const std::string_view data(buffer.data(), static_cast<std::size_t>(got));
      for (std::size_t at = data.find("data: "); at != std::string_view::npos;
           at = data.find("data: ", at + 6)) {
        if (data.compare(at, 12, "data: [DONE]") == 0) {
          epoll_ctl(epollFd, EPOLL_CTL_DEL, fd, nullptr);
          --open;
        } else {
          ++figures.chunks;
        }
      }
    }
  }
  figures.wallS = std::chrono::duration<double>(Clock::now() - begin).count();
  figures.clientThreadCpuS = threadCpuS() - cpuBefore;
  rusage usage{};
  getrusage(RUSAGE_THREAD, &usage);
  auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6;
  };
  figures.clientUserS = seconds(usage.ru_utime) - seconds(usageBefore.ru_utime);
  figures.clientSystemS = seconds(usage.ru_stime) - seconds(usageBefore.ru_stime);
  figures.requests = count;
  figures.failed = open;
  for (int fd : fds)
    close(fd);
  close(epollFd);
  return figures;
}

// The client's own per-chunk work without the network: SSE framing and chunk interpretation of vLLM-shaped
// completions chunks, fed in 16 KiB slices as libcurl would hand them over.
void benchParser() {
  const std::string chunk =
      "data: {\"id\":\"cmpl-7c2f1e\",\"object\":\"text_completion\",\"created\":1700000000,\"model\":"
      "\"Qwen/Qwen3-8B\",\"choices\":[{\"index\":0,\"text\":\" "
      "token\",\"logprobs\":null,\"finish_reason\":null,"
      "\"stop_reason\":null}],\"usage\":null}\n\n";
  const std::size_t perStream = 1000;
  std::string body;
  for (std::size_t i = 0; i < perStream; ++i)
    body += chunk;
  const int rounds = 200;
  std::size_t chunks = 0;
  // CPU time, not wall time: other processes on a shared machine would otherwise count as parsing.
  const double cpuBegin = threadCpuS();
  for (int round = 0; round < rounds; ++round) {
    ayar::OpenAiStreamReader reader;
    for (std::size_t offset = 0; offset < body.size(); offset += 16384) {
      reader.feed(std::string_view(body).substr(offset, 16384), 0.001 * static_cast<double>(offset));
    }
    chunks += reader.chunkTimesS().size();
  }
  const double seconds = threadCpuS() - cpuBegin;
  std::printf("4. parser alone: %zu chunks of %zu bytes in %.3f CPU s: %.0f chunks/s, %.3f us per chunk\n",
              chunks, chunk.size(), seconds, static_cast<double>(chunks) / seconds,
              seconds * 1e6 / static_cast<double>(chunks));
}

int intFlag(int argc, char** argv, const char* name, int fallback) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], name) == 0) return std::atoi(argv[i + 1]);
  }
  return fallback;
}

}  // namespace

int main(int argc, char** argv) {
  const int streams = intFlag(argc, argv, "--streams", 2000);
  const int tokens = intFlag(argc, argv, "--tokens", 500);
  const int pacedItlMs = intFlag(argc, argv, "--paced-itl-ms", 20);
  const int pacedTokens = intFlag(argc, argv, "--paced-tokens", 100);
  const int dispatchRequests = intFlag(argc, argv, "--dispatch-requests", 2000);
  const int dispatchRate = intFlag(argc, argv, "--dispatch-rate", 2000);

  // Both ends of every stream live on this machine; make room for them before anything starts.
  rlimit limit{};
  getrlimit(RLIMIT_NOFILE, &limit);
  limit.rlim_cur = limit.rlim_max;
  setrlimit(RLIMIT_NOFILE, &limit);

  bool realtime = false;
  for (int i = 1; i < argc; ++i)
    realtime = realtime || std::strcmp(argv[i], "--realtime") == 0;
  if (realtime) {
    const sched_param priority{.sched_priority = 1};
    if (sched_setscheduler(0, SCHED_FIFO, &priority) != 0) {
      std::perror("--realtime: sched_setscheduler(SCHED_FIFO)");
      realtime = false;
    }
  }

  const ServerProcess server = startServerProcess();  // inherits the scheduling policy
  const auto count = static_cast<std::size_t>(streams);
  double load[1] = {0};
  getloadavg(load, 1);
  std::printf(
      "bench_client: %d streams against the loopback test server (pid %d, port %d); %ld CPUs, load %.2f%s\n",
      streams, static_cast<int>(server.pid), server.port, sysconf(_SC_NPROCESSORS_ONLN), load[0],
      realtime ? ", client and server SCHED_FIFO" : "");

  const auto dispatchCount = static_cast<std::size_t>(dispatchRequests);
  const RunFigures dispatch =
      runOnce(server.port, dispatchCount, 4, {{"ttft_ms", 1}, {"itl_ms", 1}},
              ayar::ArrivalSchedule::constantRate(dispatchCount, dispatchRate), false);
  std::printf("1. dispatch: %zu requests at a constant %d req/s (failed %zu)\n", dispatch.requests,
              dispatchRate, dispatch.failed);
  std::printf("  dispatch lag p50 %.3f ms, p99 %.3f ms, max %.3f ms\n",
              percentile(dispatch.dispatchLagsS, 50) * 1e3, percentile(dispatch.dispatchLagsS, 99) * 1e3,
              percentile(dispatch.dispatchLagsS, 100) * 1e3);
  std::printf("  client thread waiting for a CPU %.3f s of the %.3f s\n", dispatch.clientRunQueueWaitS,
              dispatch.wallS);

  const RunFigures throughput = runOnce(server.port, count, tokens, nlohmann::json::object(),
                                        ayar::ArrivalSchedule::throughput(count), false);
  printStreaming(
      ("2. throughput: " + std::to_string(tokens) + " chunks per stream, streamed as fast as possible")
          .c_str(),
      throughput);

  const RunFigures paced = runOnce(server.port, count, pacedTokens, {{"itl_ms", pacedItlMs}},
                                   ayar::ArrivalSchedule::throughput(count), true);
  printStreaming(("3. paced: " + std::to_string(pacedTokens) + " chunks per stream, one every " +
                  std::to_string(pacedItlMs) + " ms")
                     .c_str(),
                 paced);
  if (paced.steadyToS > paced.steadyFromS) {
    const auto inWindow =
        std::count_if(paced.chunkArrivalsS.begin(), paced.chunkArrivalsS.end(),
                      [&](double t) { return t >= paced.steadyFromS && t <= paced.steadyToS; });
    std::printf("  steady state, all %zu streams open: %.0f chunks/s over %.3f s\n", count,
                static_cast<double>(inWindow) / (paced.steadyToS - paced.steadyFromS),
                paced.steadyToS - paced.steadyFromS);
  }
  std::printf("  ITL p50 %.3f ms, p99 %.3f ms, max %.3f ms (nominal %d ms)\n",
              percentile(paced.itlsS, 50) * 1e3, percentile(paced.itlsS, 99) * 1e3,
              percentile(paced.itlsS, 100) * 1e3, pacedItlMs);

  const RunFigures floor = runRawFloor(server.port, count, pacedTokens, pacedItlMs);
  printStreaming(
      "3b. floor for phase 3: the same load read with bare epoll_wait + recv (no HTTP, no libcurl)", floor);

  benchParser();

  close(server.stopPipe);
  int status = 0;
  rusage serverUsage{};
  wait4(server.pid, &status, 0, &serverUsage);
  std::printf("server process CPU over all runs: %.3f s\n",
              static_cast<double>(serverUsage.ru_utime.tv_sec + serverUsage.ru_stime.tv_sec) +
                  static_cast<double>(serverUsage.ru_utime.tv_usec + serverUsage.ru_stime.tv_usec) * 1e-6);
  return throughput.failed + paced.failed + dispatch.failed + floor.failed == 0 ? 0 : 1;
}
