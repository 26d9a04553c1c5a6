#include "tests/engine/server/engine_process.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <regex>
#include <stdexcept>

#include "tests/engine/server/http_client.h"

extern char** environ;

namespace ayar::test {

namespace {

struct SpawnedChild {
  pid_t pid = -1;
  int outputFd = -1;
};

SpawnedChild spawnEngine(const std::vector<std::string>& args) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("pipe2 failed");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDERR_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  std::vector<std::string> argvStrings;
  argvStrings.push_back(engineBinary());
  argvStrings.insert(argvStrings.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& arg : argvStrings)
    argv.push_back(arg.data());
  argv.push_back(nullptr);
  pid_t pid = -1;
  const int error = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  if (error != 0) {
    ::close(fds[0]);
    throw std::runtime_error("posix_spawn " + argvStrings[0] + ": " + std::strerror(error));
  }
  return {pid, fds[0]};
}

int exitCodeOf(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

// Waits for the child's exit with a deadline: a pidfd becomes readable when the process exits.
bool waitForExit(pid_t pid, std::chrono::milliseconds timeout, int& status, rusage* usage = nullptr) {
  const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));  // glibc's wrapper lacks C linkage
  if (pidfd >= 0) {
    pollfd pfd{pidfd, POLLIN, 0};
    int ready = 0;
    do {
      ready = ::poll(&pfd, 1, static_cast<int>(timeout.count()));
    } while (ready < 0 && errno == EINTR);
    ::close(pidfd);
    if (ready == 0) return false;
  }
  const pid_t done = usage ? ::wait4(pid, &status, 0, usage) : ::waitpid(pid, &status, 0);
  return done == pid;
}

}  // namespace

std::string engineBinary() {
  return AYAR_ENGINE_BINARY;
}

EngineProcess::EngineProcess(std::vector<std::string> serveArgs, std::chrono::milliseconds startTimeout) {
  serveArgs.insert(serveArgs.begin(), "serve");
  serveArgs.push_back("--port");
  serveArgs.push_back("0");
  const SpawnedChild child = spawnEngine(serveArgs);
  m_pid = child.pid;
  m_reader = std::thread([this, fd = child.outputFd] { readOutput(fd); });

  static const std::regex kListening(R"(listening on http://[0-9.]+:([0-9]+))");
  std::unique_lock lock(m_mutex);
  std::smatch match;
  const bool ready = m_changed.wait_for(
      lock, startTimeout, [&] { return std::regex_search(m_log, match, kListening) || m_outputClosed; });
  if (!ready || match.empty()) {
    const std::string log = m_log;
    lock.unlock();
    stop();
    throw std::runtime_error("ayar-engine did not start (" + std::string(ready ? "it exited" : "timeout") +
                             "):\n" + log);
  }
  m_port = std::stoi(match[1].str());
  lock.unlock();
  // The port is bound before it is logged, so this request waits in the backlog until the server runs.
  const HttpReply health = httpRequest("GET", url("/health"), "", {}, startTimeout);
  if (health.status != 200) {
    stop();
    throw std::runtime_error("ayar-engine /health answered " + std::to_string(health.status) + ":\n" + log());
  }
}

EngineProcess::~EngineProcess() {
  // SIGTERM must end the engine cleanly: a sanitizer report or a crash at exit shows up here.
  const int exitCode = stop();
  EXPECT_EQ(exitCode, 0) << "ayar-engine did not exit cleanly on SIGTERM:\n" << log();
}

std::string EngineProcess::url(const std::string& path) const {
  return "http://127.0.0.1:" + std::to_string(m_port) + path;
}

void EngineProcess::readOutput(int fd) {
  char buffer[4096];
  while (true) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    std::lock_guard lock(m_mutex);
    m_log.append(buffer, static_cast<std::size_t>(n));
    m_changed.notify_all();
  }
  ::close(fd);
  std::lock_guard lock(m_mutex);
  m_outputClosed = true;
  m_changed.notify_all();
}

int EngineProcess::stop(std::chrono::milliseconds timeout) {
  if (m_stopped) return m_exitCode;
  m_stopped = true;
  int status = 0;
  ::kill(m_pid, SIGTERM);
  if (!waitForExit(m_pid, timeout, status)) {
    ::kill(m_pid, SIGKILL);
    ::waitpid(m_pid, &status, 0);
  }
  m_exitCode = exitCodeOf(status);
  if (m_reader.joinable()) m_reader.join();
  return m_exitCode;
}

std::string EngineProcess::log() const {
  std::lock_guard lock(m_mutex);
  return m_log;
}

EngineRun runEngine(const std::vector<std::string>& args, std::chrono::milliseconds timeout) {
  const auto started = std::chrono::steady_clock::now();
  const SpawnedChild child = spawnEngine(args);
  EngineRun run;
  // Read until the child closes its output (it exits), bounded by the timeout.
  const auto deadline = started + timeout;
  char buffer[4096];
  while (true) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) break;
    pollfd pfd{child.outputFd, POLLIN, 0};
    if (::poll(&pfd, 1, static_cast<int>(left.count())) <= 0) break;
    const ssize_t n = ::read(child.outputFd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    run.output.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(child.outputFd);
  int status = 0;
  rusage usage{};
  if (!waitForExit(child.pid, std::chrono::seconds(5), status, &usage)) {
    ::kill(child.pid, SIGKILL);
    ::wait4(child.pid, &status, 0, &usage);
  }
  run.exitCode = exitCodeOf(status);
  run.maxRssKiB = usage.ru_maxrss;
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return run;
}

}  // namespace ayar::test
