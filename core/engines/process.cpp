#include "core/engines/process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cassert>
#include <cerrno>
#include <cstring>
#include <set>
#include <system_error>

#include "core/error.h"
#include "core/report/message_text.h"

extern char** environ;

namespace ayar {

namespace {

// A line longer than this is cut in the tail (the log file keeps all of it).
constexpr std::size_t kMaxTailLineBytes = 4096;
// How long stop() waits for the rest of the process group to close the output pipe.
constexpr std::chrono::milliseconds kFinishOutputWait{2000};

std::string errnoText(int error) {
  return std::strerror(error);
}

void closeFd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

ProcessExit exitFromWaitStatus(int status) {
  ProcessExit exit;
  if (WIFEXITED(status)) {
    exit.exitCode = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    exit.signal = WTERMSIG(status);
  }
  return exit;
}

int openPidFd(pid_t pid) {
#ifdef SYS_pidfd_open
  const long fd = ::syscall(SYS_pidfd_open, pid, 0);
  if (fd >= 0) {
    ::fcntl(static_cast<int>(fd), F_SETFD, FD_CLOEXEC);
    return static_cast<int>(fd);
  }
#else
  (void)pid;
#endif
  return -1;
}

// Writes all of `size` bytes, retrying after signals; gives up quietly on a full disk, because a
// log that cannot be written must not stop the engine.
void writeAll(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t written = ::write(fd, data, size);
    if (written < 0) {
      if (errno == EINTR) continue;
      return;
    }
    data += written;
    size -= static_cast<std::size_t>(written);
  }
}

std::vector<std::string> buildEnvironment(
    const std::vector<std::pair<std::string, std::optional<std::string>>>& overrides) {
  std::set<std::string> overridden;
  for (const auto& [name, value] : overrides)
    overridden.insert(name);
  std::vector<std::string> result;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string_view text(*entry);
    const auto equals = text.find('=');
    const std::string name(text.substr(0, equals));
    if (!overridden.count(name)) result.emplace_back(text);
  }
  // Later overrides of the same name win, as they would in a shell.
  std::vector<std::pair<std::string, std::optional<std::string>>> last;
  for (const auto& item : overrides) {
    std::erase_if(last, [&](const auto& other) { return other.first == item.first; });
    last.push_back(item);
  }
  for (const auto& [name, value] : last) {
    if (value) result.push_back(name + "=" + *value);
  }
  return result;
}

std::string signalName(int signal) {
  switch (signal) {
    case SIGTERM:
      return "SIGTERM";
    case SIGKILL:
      return "SIGKILL";
    case SIGINT:
      return "SIGINT";
    case SIGSEGV:
      return "SIGSEGV";
    case SIGABRT:
      return "SIGABRT";
    case SIGBUS:
      return "SIGBUS";
    case SIGFPE:
      return "SIGFPE";
    case SIGILL:
      return "SIGILL";
    case SIGHUP:
      return "SIGHUP";
    case SIGPIPE:
      return "SIGPIPE";
    default: {
      const char* description = ::strsignal(signal);
      return description != nullptr ? description : "unknown";
    }
  }
}

}  // namespace

std::string ProcessExit::describe() const {
  if (signal != 0) return "killed by signal " + std::to_string(signal) + " (" + signalName(signal) + ")";
  return "exit code " + std::to_string(exitCode);
}

std::string currentPathVariable() {
  const char* path = std::getenv("PATH");
  return path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
}

std::filesystem::path findExecutable(const std::string& program, const std::string& pathVariable) {
  namespace fs = std::filesystem;
  if (program.empty()) throw Error("Cannot start a process: the program name is empty.");
  auto check = [&](const fs::path& candidate) -> fs::path {
    std::error_code ec;
    const auto status = fs::status(candidate, ec);
    if (ec || !fs::exists(status)) {
      throw MessageError({MessageText::ProcessMissing, {program, candidate.string()}});
    }
    if (fs::is_directory(status)) {
      throw MessageError({MessageText::ProcessIsFolder, {program, candidate.string()}});
    }
    if (::access(candidate.c_str(), X_OK) != 0) {
      throw MessageError({MessageText::ProcessNotExecutable, {program, candidate.string()}});
    }
    return candidate;
  };
  if (program.find('/') != std::string::npos) return check(fs::absolute(program));

  std::optional<fs::path> notExecutable;
  std::size_t begin = 0;
  while (begin <= pathVariable.size()) {
    std::size_t end = pathVariable.find(':', begin);
    if (end == std::string::npos) end = pathVariable.size();
    const std::string dir = pathVariable.substr(begin, end - begin);
    const fs::path candidate = fs::absolute(fs::path(dir.empty() ? "." : dir) / program);
    std::error_code ec;
    if (fs::is_regular_file(candidate, ec)) {
      if (::access(candidate.c_str(), X_OK) == 0) return candidate;
      if (!notExecutable) notExecutable = candidate;
    }
    begin = end + 1;
  }
  if (notExecutable) {
    throw MessageError({MessageText::ProcessInPathNotExecutable, {program, notExecutable->string()}});
  }
  throw MessageError({MessageText::ProcessNotInPath, {program, pathVariable}});
}

Process::Process(ProcessOptions options)
    : m_logPath(std::move(options.logPath)),
      m_tailLines(std::max<std::size_t>(options.tailLines, 1)),
      m_onOutputLine(std::move(options.onOutputLine)),
      m_destructorGrace(options.destructorGrace) {
  if (options.args.empty()) throw Error("Cannot start a process: the argument list is empty.");

  std::string pathVariable = currentPathVariable();
  for (const auto& [name, value] : options.environment) {
    if (name == "PATH") pathVariable = value.value_or("");
  }
  m_args = options.args;
  m_args[0] = findExecutable(options.args[0], pathVariable).string();

  if (!options.workingDirectory.empty()) {
    std::error_code ec;
    if (!std::filesystem::is_directory(options.workingDirectory, ec)) {
      throw MessageError(
          {MessageText::ProcessNoWorkingFolder, {options.args[0], options.workingDirectory.string()}});
    }
  }

  if (!m_logPath.empty()) {
    const int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (options.appendToLog ? O_APPEND : O_TRUNC);
    m_logFd = ::open(m_logPath.c_str(), flags, 0644);
    if (m_logFd < 0) {
      throw MessageError(
          {MessageText::ProcessLogUnwritable, {m_logPath.string(), options.args[0], errnoText(errno)}});
    }
  }

  int outputPipe[2] = {-1, -1};
  int wakePipe[2] = {-1, -1};
  if (::pipe2(outputPipe, O_CLOEXEC) != 0 || ::pipe2(wakePipe, O_CLOEXEC | O_NONBLOCK) != 0) {
    const int error = errno;
    for (int fd : {outputPipe[0], outputPipe[1], wakePipe[0], wakePipe[1]}) {
      if (fd >= 0) ::close(fd);
    }
    closeFd(m_logFd);
    throw MessageError({MessageText::ProcessNoPipe, {options.args[0], errnoText(error)}});
  }

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, outputPipe[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, outputPipe[1], STDERR_FILENO);
  if (!options.workingDirectory.empty()) {
    posix_spawn_file_actions_addchdir_np(&actions, options.workingDirectory.c_str());
  }

  // Its own process group, so that stop() reaches the engine's workers too; default signal
  // dispositions and an empty mask, so that a SIGPIPE or SIGTERM ignored here is not ignored there.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes,
                           POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  posix_spawnattr_setpgroup(&attributes, 0);
  sigset_t signals;
  sigemptyset(&signals);
  posix_spawnattr_setsigmask(&attributes, &signals);
  sigfillset(&signals);
  posix_spawnattr_setsigdefault(&attributes, &signals);

  std::vector<char*> argv;
  for (auto& arg : m_args)
    argv.push_back(arg.data());
  argv.push_back(nullptr);
  std::vector<std::string> environment = buildEnvironment(options.environment);
  std::vector<char*> envp;
  for (auto& entry : environment)
    envp.push_back(entry.data());
  envp.push_back(nullptr);

  const int spawnError =
      ::posix_spawn(&m_pid, m_args[0].c_str(), &actions, &attributes, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  ::close(outputPipe[1]);
  if (spawnError != 0) {
    ::close(outputPipe[0]);
    ::close(wakePipe[0]);
    ::close(wakePipe[1]);
    closeFd(m_logFd);
    m_pid = -1;
    if (spawnError == ENOENT && !options.workingDirectory.empty()) {
      throw MessageError({MessageText::ProcessSpawnFailedIn,
                          {m_args[0], errnoText(spawnError), options.workingDirectory.string()}});
    }
    throw MessageError({MessageText::ProcessSpawnFailed, {m_args[0], errnoText(spawnError)}});
  }

  m_outputFd = outputPipe[0];
  ::fcntl(m_outputFd, F_SETFL, ::fcntl(m_outputFd, F_GETFL) | O_NONBLOCK);
  m_wakeRead = wakePipe[0];
  m_wakeWrite = wakePipe[1];
  m_pidFd = openPidFd(m_pid);
  try {
    m_outputThread = std::thread([this] { readOutput(); });
  } catch (const std::system_error& error) {
    // No thread, no Process: the child must not outlive this constructor.
    signalGroup(SIGKILL);
    ::waitpid(m_pid, nullptr, 0);
    for (int* fd : {&m_pidFd, &m_outputFd, &m_wakeRead, &m_wakeWrite, &m_logFd})
      closeFd(*fd);
    throw MessageError({MessageText::ProcessNoThread, {m_args[0], std::string(error.what())}});
  }
}

Process::~Process() {
  stop(m_destructorGrace);
  closeFd(m_pidFd);
}

std::optional<ProcessExit> Process::observeExit() {
  std::lock_guard lock(m_exitMutex);
  if (m_exit) return m_exit;
  // WNOWAIT: the exited child stays a zombie until stop() reaps it, so that its process group id
  // cannot be given to another process while stop() may still signal the group.
  siginfo_t info{};
  int result;
  do {
    result = ::waitid(P_PID, static_cast<id_t>(m_pid), &info, WEXITED | WNOHANG | WNOWAIT);
  } while (result < 0 && errno == EINTR);
  if (result == 0 && info.si_pid == m_pid) {
    ProcessExit exit;
    if (info.si_code == CLD_EXITED) {
      exit.exitCode = info.si_status;
    } else {
      exit.signal = info.si_status;
    }
    m_exit = exit;
  } else if (result < 0) {
    // ECHILD: someone else reaped it (SIGCHLD set to SIG_IGN); the status is lost.
    assert(errno == ECHILD);
    m_exit = ProcessExit{};
    m_reaped = true;
  }
  return m_exit;
}

void Process::reap() {
  std::lock_guard lock(m_exitMutex);
  if (m_reaped) return;
  int status = 0;
  pid_t result;
  do {
    result = ::waitpid(m_pid, &status, 0);
  } while (result < 0 && errno == EINTR);
  if (result == m_pid && !m_exit) m_exit = exitFromWaitStatus(status);
  if (!m_exit) m_exit = ProcessExit{};
  m_reaped = true;
}

bool Process::isRunning() {
  if (exitStatus()) return false;
  if (observeExit()) {
    syncOutput();
    return false;
  }
  return true;
}

std::optional<ProcessExit> Process::exitStatus() const {
  std::lock_guard lock(m_exitMutex);
  return m_exit;
}

std::optional<ProcessExit> Process::wait(std::chrono::milliseconds timeout) {
  using Clock = std::chrono::steady_clock;
  if (auto exit = exitStatus()) return exit;
  const auto deadline = Clock::now() + timeout;
  while (true) {
    if (auto exit = observeExit()) {
      syncOutput();
      return exit;
    }
    const auto now = Clock::now();
    if (now >= deadline) return std::nullopt;
    // Rounded up, so that a wait never ends before its timeout.
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - now);
    if (m_pidFd >= 0) {
      // The pidfd turns readable when the child exits: no polling loop.
      pollfd fd{m_pidFd, POLLIN, 0};
      const int ms = static_cast<int>(std::min<std::chrono::milliseconds::rep>(left.count(), 1 << 30));
      ::poll(&fd, 1, ms);
    } else {
      const auto step = std::min(left, std::chrono::milliseconds(5));
      std::this_thread::sleep_for(step);
    }
  }
}

ProcessExit Process::wait() {
  while (true) {
    if (auto exit = wait(std::chrono::hours(24))) return *exit;
  }
}

void Process::signalGroup(int signal) {
  if (m_pid > 0) ::kill(-m_pid, signal);  // ESRCH when the whole group is gone already: fine
}

ProcessExit Process::stop(std::chrono::milliseconds grace) {
  std::lock_guard stopLock(m_stopMutex);
  if (m_stopped) return *exitStatus();
  if (!observeExit()) {
    signalGroup(SIGTERM);
    if (!wait(grace)) signalGroup(SIGKILL);
  }
  // Children the engine left in its group go too. The leader is not reaped yet, so the group id
  // still belongs to this group.
  signalGroup(SIGKILL);
  wait();
  reap();
  finishOutput();
  m_stopped = true;
  return *exitStatus();
}

void Process::readOutput() {
  using Clock = std::chrono::steady_clock;
  bool open = true;
  std::optional<Clock::time_point> finishBy;
  while (open) {
    int timeoutMs = -1;
    if (finishBy) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(*finishBy - Clock::now()).count();
      if (left <= 0) break;
      timeoutMs = static_cast<int>(left);
    }
    pollfd fds[2] = {{m_outputFd, POLLIN, 0}, {m_wakeRead, POLLIN, 0}};
    const int ready = ::poll(fds, 2, timeoutMs);
    if (ready < 0 && errno != EINTR) break;
    if (ready <= 0) continue;
    if (fds[0].revents != 0) open = drainOutput();
    if (fds[1].revents != 0) {
      char buffer[64];
      while (::read(m_wakeRead, buffer, sizeof buffer) > 0) {
      }
      unsigned requested;
      bool finish;
      {
        std::lock_guard lock(m_outputMutex);
        requested = m_syncRequested;
        finish = m_finishRequested;
      }
      // Everything the child wrote before it exited is in the pipe now; read it all.
      if (open) open = drainOutput();
      {
        std::lock_guard lock(m_outputMutex);
        m_syncDone = requested;
        m_outputCv.notify_all();
      }
      // On stop, wait (boundedly) for the end of the output: it comes when the last process of the
      // group that holds the pipe has died, so stop() returns with the whole group gone. Something
      // that left the group and kept the pipe only delays it.
      if (finish && !finishBy) finishBy = Clock::now() + kFinishOutputWait;
    }
  }
  std::string lastLine;
  {
    std::lock_guard lock(m_outputMutex);
    // The unterminated last line counts as a line once the output has ended.
    if (!m_partialLine.empty()) pushTailLine(m_partialLine);
    lastLine.swap(m_partialLine);
  }
  if (!lastLine.empty() && m_onOutputLine) m_onOutputLine(lastLine);
  std::lock_guard lock(m_outputMutex);
  m_outputEnded = true;
  m_outputCv.notify_all();
}

bool Process::drainOutput() {
  char buffer[16384];
  while (true) {
    const ssize_t count = ::read(m_outputFd, buffer, sizeof buffer);
    if (count > 0) {
      if (m_logFd >= 0) writeAll(m_logFd, buffer, static_cast<std::size_t>(count));
      consumeOutput(buffer, static_cast<std::size_t>(count));
      continue;
    }
    if (count == 0) return false;
    if (errno == EINTR) continue;
    return errno == EAGAIN || errno == EWOULDBLOCK;
  }
}

void Process::consumeOutput(const char* data, std::size_t size) {
  std::vector<std::string> complete;
  {
    std::lock_guard lock(m_outputMutex);
    for (std::size_t i = 0; i < size; ++i) {
      const char c = data[i];
      if (m_carriageReturn) {
        m_carriageReturn = false;
        // A lone '\r' redraws the line (progress bars): keep only what follows it.
        if (c != '\n') m_partialLine.clear();
      }
      if (c == '\n') {
        pushTailLine(m_partialLine);
        if (m_onOutputLine) complete.push_back(m_partialLine);
        m_partialLine.clear();
      } else if (c == '\r') {
        m_carriageReturn = true;
      } else if (m_partialLine.size() < kMaxTailLineBytes) {
        m_partialLine.push_back(c);
      }
    }
  }
  // Outside the lock, so that the callback may read tail().
  for (const auto& line : complete)
    m_onOutputLine(line);
}

void Process::pushTailLine(const std::string& line) {
  m_tail.push_back(line);
  if (m_tail.size() > m_tailLines) m_tail.pop_front();
}

void Process::syncOutput() {
  std::unique_lock lock(m_outputMutex);
  if (m_outputEnded) return;
  const unsigned ticket = ++m_syncRequested;
  // Under the lock, so that finishOutput() cannot close the pipe in between; it does not block.
  const char byte = 1;
  [[maybe_unused]] const ssize_t written = ::write(m_wakeWrite, &byte, 1);
  m_outputCv.wait(lock, [&] { return m_outputEnded || static_cast<int>(m_syncDone - ticket) >= 0; });
}

void Process::finishOutput() {
  {
    std::lock_guard lock(m_outputMutex);
    m_finishRequested = true;
    if (!m_outputEnded) {
      const char byte = 1;
      [[maybe_unused]] const ssize_t written = ::write(m_wakeWrite, &byte, 1);
    }
  }
  if (m_outputThread.joinable()) m_outputThread.join();
  std::lock_guard lock(m_outputMutex);
  closeFd(m_outputFd);
  closeFd(m_wakeRead);
  closeFd(m_wakeWrite);
  closeFd(m_logFd);
}

std::vector<std::string> Process::tail() const {
  std::lock_guard lock(m_outputMutex);
  std::vector<std::string> lines(m_tail.begin(), m_tail.end());
  if (!m_partialLine.empty()) {
    lines.push_back(m_partialLine);
    if (lines.size() > m_tailLines) lines.erase(lines.begin());
  }
  return lines;
}

std::string Process::tailText(std::string_view indent) const {
  std::string text;
  for (const auto& line : tail()) {
    text += indent;
    text += line;
    text += '\n';
  }
  return text;
}

}  // namespace ayar
