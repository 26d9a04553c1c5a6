#pragma once

#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/test_env.h"

namespace ayar::test {

// The ayar-engine executable under test (a compile definition set by CMake).
std::string engineBinary();

// A real `ayar-engine serve ...` child on 127.0.0.1: started with posix_spawn from an argument list
// (--port 0 is appended: the engine logs the port it bound), its stdout and stderr captured through a
// pipe, ready once its log names the port and GET /health answers 200. The destructor stops it with
// SIGTERM (SIGKILL if it does not exit within 10 s), reaps it, and fails the test unless it exited 0.
class EngineProcess {
 public:
  explicit EngineProcess(std::vector<std::string> serveArgs,
                         std::chrono::milliseconds startTimeout = std::chrono::seconds(30));
  ~EngineProcess();
  EngineProcess(const EngineProcess&) = delete;
  EngineProcess& operator=(const EngineProcess&) = delete;

  int port() const { return m_port; }
  std::string url(const std::string& path) const;
  pid_t pid() const { return m_pid; }
  // Sends SIGTERM and waits; returns the exit code (128 + signal when killed).
  int stop(std::chrono::milliseconds timeout = std::chrono::seconds(10));
  std::string log() const;

 private:
  void readOutput(int fd);

  pid_t m_pid = -1;
  int m_port = 0;
  bool m_stopped = false;
  int m_exitCode = -1;
  std::thread m_reader;
  mutable std::mutex m_mutex;
  std::condition_variable m_changed;
  std::string m_log;
  bool m_outputClosed = false;
};

struct EngineRun {
  int exitCode = -1;
  std::string output;  // stdout and stderr
  long maxRssKiB = 0;  // the child's peak resident memory
  double seconds = 0.0;
};

// Runs `ayar-engine ARGS...` to its end (for the command line: help, version, refused flags).
EngineRun runEngine(const std::vector<std::string>& args,
                    std::chrono::milliseconds timeout = std::chrono::seconds(30));

// `serve` arguments for qwen3-8b on the timing simulator with the real tokenizer: `simProfile`
// ("fixed:0,0" answers at once), then `extra`.
inline std::vector<std::string> simEngineArgs(const std::string& simProfile,
                                              std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {
      "qwen3-8b", "--device", "sim", "--sim-profile", simProfile, "--tokenizer", tokenizerDir().string()};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

// The first value of metric `name` (whatever its labels) in a /metrics text; -1 when it is not there.
inline double metricValue(const std::string& metrics, const std::string& name) {
  const std::regex pattern("\n" + std::regex_replace(name, std::regex(R"([{}.*+?^$()\[\]|\\])"), R"(\$&)") +
                           R"(\{[^}]*\} ([0-9.e+-]+))");
  std::smatch match;
  if (!std::regex_search(metrics, match, pattern)) return -1.0;
  return std::stod(match[1].str());
}

}  // namespace ayar::test
