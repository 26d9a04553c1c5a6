// bench_engine_server: how many streamed tokens per second the server layer of ayar-engine sustains.
//
// Starts a real ayar-engine with the timing simulator (--sim-profile fixed:TTFT,ITL: tokens cost no
// model math, so what is measured is the scheduler loop, the event hand-over, detokenization, SSE
// formatting and the socket writes), opens N keep-alive connections from this process (one thread, epoll,
// raw sockets), keeps one streaming request in flight on each (a new one as soon as one ends), and counts
// SSE token chunks over a measurement window. Reports tokens/s, the CPU the server and the client used.
//
//   bench_engine_server [--streams 2000] [--itl-ms 5] [--max-tokens 256] [--seconds 10] [--warmup 3]
//                       [--io-threads 1] [--model qwen3-tiny] [--sim-profile h200]
//
// With --sim-profile h200 the sim steps as fast as its roofline allows (qwen3-tiny: tens of us), every
// step a token for every running stream, as a real engine batches: the server layer is then the limit.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "tests/engine/server/engine_process.h"
#include "tests/engine/server/http_client.h"
#include "tests/support/test_env.h"

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  int streams = 2000;
  double itlMs = 5.0;
  int maxTokens = 256;
  double seconds = 10.0;
  double warmup = 3.0;
  int ioThreads = 1;
  std::string model = "qwen3-tiny";
  std::string profile;  // empty: fixed:0,ITL
};

// Counts a needle in a byte stream that arrives in pieces (a match may straddle two reads).
class NeedleCounter {
 public:
  explicit NeedleCounter(std::string_view needle) : m_needle(needle) {}
  std::size_t feed(std::string_view data) {
    m_window.append(data);
    std::size_t count = 0;
    for (std::size_t at = m_window.find(m_needle); at != std::string::npos;
         at = m_window.find(m_needle, at + 1)) {
      ++count;
    }
    if (m_window.size() >= m_needle.size()) m_window.erase(0, m_window.size() - (m_needle.size() - 1));
    return count;
  }

 private:
  std::string_view m_needle;
  std::string m_window;
};

struct Stream {
  int fd = -1;
  NeedleCounter tokens{"data: {"};
  NeedleCounter done{"data: [DONE]"};
  NeedleCounter errors{"HTTP/1.1 5"};
  std::size_t requests = 0;
};

double cpuSecondsOfProcess(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string content((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const std::size_t close = content.rfind(')');
  std::istringstream fields(content.substr(close + 2));
  std::string field;
  unsigned long long utime = 0, stime = 0;
  for (int i = 3; i <= 15 && fields >> field; ++i) {
    if (i == 14) utime = std::stoull(field);
    if (i == 15) stime = std::stoull(field);
  }
  return static_cast<double>(utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

// CPU seconds of each thread of a process, by thread id.
std::map<int, double> cpuSecondsByThread(pid_t pid) {
  std::map<int, double> threads;
  const std::string taskDir = "/proc/" + std::to_string(pid) + "/task";
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(taskDir, ec)) {
    const int tid = std::stoi(entry.path().filename().string());
    std::ifstream stat(entry.path() / "stat");
    std::string content((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    const std::size_t close = content.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream fields(content.substr(close + 2));
    std::string field;
    unsigned long long utime = 0, stime = 0;
    for (int i = 3; i <= 15 && fields >> field; ++i) {
      if (i == 14) utime = std::stoull(field);
      if (i == 15) stime = std::stoull(field);
    }
    threads[tid] = static_cast<double>(utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
  }
  return threads;
}

double cpuSecondsOfThisThread() {
  rusage usage{};
  getrusage(RUSAGE_THREAD, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

int connectTo(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (fd < 0 || ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    std::perror("connect");
    std::exit(1);
  }
  const int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  return fd;
}

void sendAll(int fd, const std::string& bytes) {
  std::size_t sent = 0;
  while (sent < bytes.size()) {
    const ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n > 0) {
      sent += static_cast<std::size_t>(n);
    } else if (n < 0 && errno != EAGAIN && errno != EINTR) {
      std::perror("send");
      std::exit(1);
    }
  }
}

Options parseOptions(int argc, char** argv) {
  Options options;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const std::string value = argv[i + 1];
    if (flag == "--streams")
      options.streams = std::stoi(value);
    else if (flag == "--itl-ms")
      options.itlMs = std::stod(value);
    else if (flag == "--max-tokens")
      options.maxTokens = std::stoi(value);
    else if (flag == "--seconds")
      options.seconds = std::stod(value);
    else if (flag == "--warmup")
      options.warmup = std::stod(value);
    else if (flag == "--io-threads")
      options.ioThreads = std::stoi(value);
    else if (flag == "--model")
      options.model = value;
    else if (flag == "--sim-profile")
      options.profile = value;
    else {
      std::fprintf(stderr, "unknown flag %s\n", flag.c_str());
      std::exit(2);
    }
  }
  return options;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parseOptions(argc, argv);
  rlimit limit{};
  getrlimit(RLIMIT_NOFILE, &limit);
  limit.rlim_cur = limit.rlim_max;
  setrlimit(RLIMIT_NOFILE, &limit);

  char fixedProfile[64];
  std::snprintf(fixedProfile, sizeof fixedProfile, "fixed:0,%g", options.itlMs);
  const char* profile = options.profile.empty() ? fixedProfile : options.profile.c_str();
  const std::string streams = std::to_string(options.streams);
  ayar::test::EngineProcess engine({options.model, "--device", "sim", "--sim-profile", profile, "--tokenizer",
                                    ayar::test::tokenizerDir().string(), "--max-model-len", "2048",
                                    "--max-num-seqs", streams, "--max-num-batched-tokens",
                                    std::to_string(std::max(8192, options.streams * 2)), "--io-threads",
                                    std::to_string(options.ioThreads), "--max-waiting-requests", streams});
  std::printf("ayar-engine pid %d on port %d: %s, --sim-profile %s, --io-threads %d\n", engine.pid(),
              engine.port(), options.model.c_str(), profile, options.ioThreads);

  // A prompt of 32 token ids (no tokenization cost), streamed, running to max_tokens.
  std::string prompt = "[";
  for (int i = 0; i < 32; ++i)
    prompt += (i ? "," : "") + std::to_string(1000 + i * 7);
  prompt += "]";
  const std::string body = R"({"model":")" + options.model + R"(","prompt":)" + prompt + R"(,"max_tokens":)" +
                           std::to_string(options.maxTokens) + R"(,"ignore_eos":true,"stream":true})";
  const std::string request =
      "POST /v1/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
      "Content-Length: " +
      std::to_string(body.size()) + "\r\n\r\n" + body;

  const int epoll = ::epoll_create1(EPOLL_CLOEXEC);
  std::vector<Stream> connections(static_cast<std::size_t>(options.streams));
  for (std::size_t i = 0; i < connections.size(); ++i) {
    connections[i].fd = connectTo(engine.port());
    epoll_event event{};
    event.events = EPOLLIN;
    event.data.u64 = i;
    ::epoll_ctl(epoll, EPOLL_CTL_ADD, connections[i].fd, &event);
    sendAll(connections[i].fd, request);
    connections[i].requests = 1;
  }

  const auto started = Clock::now();
  const auto windowStart =
      started + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(options.warmup));
  const auto windowEnd = windowStart + std::chrono::duration_cast<Clock::duration>(
                                           std::chrono::duration<double>(options.seconds));
  bool inWindow = false;
  std::uint64_t tokens = 0, windowTokens = 0, completed = 0, windowCompleted = 0, serverErrors = 0;
  double serverCpuAtStart = 0.0, clientCpuAtStart = 0.0;
  std::map<int, double> threadCpuAtStart;
  std::vector<epoll_event> events(1024);
  std::vector<char> buffer(1 << 16);
  while (Clock::now() < windowEnd) {
    if (!inWindow && Clock::now() >= windowStart) {
      inWindow = true;
      windowTokens = 0;
      windowCompleted = 0;
      serverCpuAtStart = cpuSecondsOfProcess(engine.pid());
      threadCpuAtStart = cpuSecondsByThread(engine.pid());
      clientCpuAtStart = cpuSecondsOfThisThread();
    }
    const int ready = ::epoll_wait(epoll, events.data(), static_cast<int>(events.size()), 100);
    for (int e = 0; e < ready; ++e) {
      Stream& stream = connections[events[static_cast<std::size_t>(e)].data.u64];
      while (true) {
        const ssize_t n = ::recv(stream.fd, buffer.data(), buffer.size(), 0);
        if (n < 0 && (errno == EAGAIN || errno == EINTR)) break;
        if (n <= 0) {
          std::fprintf(stderr, "a connection closed early\n");
          return 1;
        }
        const std::string_view data(buffer.data(), static_cast<std::size_t>(n));
        const std::size_t newTokens = stream.tokens.feed(data);
        const std::size_t finished = stream.done.feed(data);
        serverErrors += stream.errors.feed(data);
        tokens += newTokens;
        windowTokens += newTokens;
        completed += finished;
        windowCompleted += finished;
        for (std::size_t f = 0; f < finished; ++f) {
          sendAll(stream.fd, request);  // keep-alive: the next request on the same connection
          ++stream.requests;
        }
      }
    }
  }
  const double serverCpu = cpuSecondsOfProcess(engine.pid()) - serverCpuAtStart;
  std::string threadShares;
  for (const auto& [tid, seconds] : cpuSecondsByThread(engine.pid())) {
    const double used = (seconds - threadCpuAtStart[tid]) / options.seconds;
    if (used < 0.01) continue;
    char share[64];
    std::snprintf(share, sizeof share, "%s%s %.2f", threadShares.empty() ? "" : ", ",
                  tid == engine.pid() ? "io thread (main)" : ("thread " + std::to_string(tid)).c_str(), used);
    threadShares += share;
  }
  const double clientCpu = cpuSecondsOfThisThread() - clientCpuAtStart;
  // The server's own view: the mean inter-token latency at the engine loop's hand-over (warm-up included).
  const std::string metrics = ayar::test::httpGet(engine.url("/metrics")).body;
  using ayar::test::metricValue;
  const double itlSum = metricValue(metrics, "vllm:inter_token_latency_seconds_sum");
  const double itlCount = metricValue(metrics, "vllm:inter_token_latency_seconds_count");
  const double steps = metricValue(metrics, "ayar:engine_steps_total");
  const double generated = metricValue(metrics, "vllm:generation_tokens_total");
  for (Stream& stream : connections)
    ::close(stream.fd);
  ::close(epoll);
  const int exitCode = engine.stop();

  if (options.profile.empty()) {
    std::printf(
        "streams %d, ITL %.1f ms (offered %.0f tokens/s), max_tokens %d, window %.1f s after %.1f s "
        "warm-up\n",
        options.streams, options.itlMs, options.streams * 1000.0 / options.itlMs, options.maxTokens,
        options.seconds, options.warmup);
  } else {
    std::printf(
        "streams %d, --sim-profile %s (each step: a token for every running stream), max_tokens %d, "
        "window %.1f s after %.1f s warm-up\n",
        options.streams, profile, options.maxTokens, options.seconds, options.warmup);
  }
  std::printf(
      "streamed tokens/s:       %.0f (%llu tokens, %llu requests completed in the window, %llu 5xx)\n",
      static_cast<double>(windowTokens) / options.seconds, static_cast<unsigned long long>(windowTokens),
      static_cast<unsigned long long>(windowCompleted), static_cast<unsigned long long>(serverErrors));
  std::printf("server CPU:              %.2f cores (%.2f us per token)\n", serverCpu / options.seconds,
              windowTokens ? serverCpu * 1e6 / static_cast<double>(windowTokens) : 0.0);
  std::printf("  by thread:             %s\n", threadShares.c_str());
  std::printf("client CPU (this bench): %.2f cores\n", clientCpu / options.seconds);
  // A metric missing from /metrics (metricValue: -1) is said to be, never printed as a zero.
  char serverItl[32] = "absent";
  char perStep[32] = "absent";
  if (itlSum >= 0 && itlCount > 0)
    std::snprintf(serverItl, sizeof serverItl, "%.2f ms", 1e3 * itlSum / itlCount);
  if (generated >= 0 && steps > 0) std::snprintf(perStep, sizeof perStep, "%.0f", generated / steps);
  std::printf("server-side mean ITL:    %s; tokens per engine step: %s\n", serverItl, perStep);
  std::printf("engine exit code %d\n", exitCode);
  return serverErrors == 0 && exitCode == 0 ? 0 : 1;
}
