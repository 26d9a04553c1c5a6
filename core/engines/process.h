#pragma once

#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace ayar {

// How a child process ended.
struct ProcessExit {
  int exitCode = -1;  // the code passed to exit(), or -1 when a signal ended it
  int signal = 0;     // the signal that ended it, or 0 when it exited

  bool exitedNormally() const { return signal == 0; }
  bool succeeded() const { return signal == 0 && exitCode == 0; }
  // "exit code 3", "killed by signal 9 (SIGKILL)".
  std::string describe() const;
};

struct ProcessOptions {
  // args[0] is the program: a path (absolute, or relative to the current folder) or a name looked up
  // in PATH. The rest are passed as they are; nothing goes through a shell.
  std::vector<std::string> args;
  // Where stdout and stderr go, interleaved as the child writes them. Empty: kept in memory only.
  std::filesystem::path logPath;
  bool appendToLog = false;  // false: the log file is truncated first
  // Variables set (value) or removed (nullopt) on top of this process's environment. A PATH given
  // here is also the one used to find args[0].
  std::vector<std::pair<std::string, std::optional<std::string>>> environment;
  // The child's current folder. Empty: this process's.
  std::filesystem::path workingDirectory;
  // How many of the last output lines are kept in memory (for error messages).
  std::size_t tailLines = 40;
  // Called on the output thread with every complete line (without the newline). It must not call
  // back into the Process that invokes it.
  std::function<void(std::string_view line)> onOutputLine;
  // The grace period the destructor gives the child between SIGTERM and SIGKILL.
  std::chrono::milliseconds destructorGrace{5000};
};

// A child process in its own process group, started with posix_spawn from an argument list, its
// stdout and stderr captured by a thread into a log file and a tail of recent lines. stop() and the
// destructor end the whole group (SIGTERM, then SIGKILL after a grace period) and reap the child, so
// nothing outlives its Process and no zombie is left. Until then an exited child stays a zombie on
// purpose: that keeps its process group id from being reused by another process while stop() may
// still signal the group. Methods may be called from several threads.
class Process {
 public:
  // Starts the child. Throws ayar::Error when the program cannot be found or run (naming it and the
  // PATH searched), when the working folder does not exist or the log file cannot be written.
  explicit Process(ProcessOptions options);
  ~Process();
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;

  pid_t pid() const { return m_pid; }
  // The argument list actually run (args[0] resolved to the program's path).
  const std::vector<std::string>& args() const { return m_args; }
  const std::filesystem::path& logPath() const { return m_logPath; }

  bool isRunning();
  // Waits for the child to exit, at most `timeout`; nullopt when it is still running then.
  std::optional<ProcessExit> wait(std::chrono::milliseconds timeout);
  // Waits as long as it takes.
  ProcessExit wait();
  // How it ended, once it has; nullopt while it runs.
  std::optional<ProcessExit> exitStatus() const;
  // SIGTERM to the process group; SIGKILL to the group when the child is still running after
  // `grace` (and to whatever else is left in the group); the child is reaped, the output read to its
  // end (when the last process holding it has died, at most 2 s more) and the thread finished.
  // Idempotent; returns how the child ended.
  ProcessExit stop(std::chrono::milliseconds grace = std::chrono::milliseconds(5000));

  // The last lines of output (at most ProcessOptions::tailLines), oldest first, including an
  // unterminated last line. Complete up to the child's exit once wait() or isRunning() saw it exit.
  std::vector<std::string> tail() const;
  // The same lines joined, each indented by `indent`, for error messages.
  std::string tailText(std::string_view indent = "  ") const;

 private:
  void readOutput();
  void consumeOutput(const char* data, std::size_t size);
  void pushTailLine(const std::string& line);
  bool drainOutput();  // reads what is available now; false at end of file
  void syncOutput();   // returns once the output thread has read everything written so far
  void finishOutput();
  std::optional<ProcessExit> observeExit();  // notes an exit without reaping
  void reap();
  void signalGroup(int signal);

  std::vector<std::string> m_args;
  std::filesystem::path m_logPath;
  std::size_t m_tailLines;
  std::function<void(std::string_view)> m_onOutputLine;
  std::chrono::milliseconds m_destructorGrace;

  pid_t m_pid = -1;
  int m_pidFd = -1;     // a pidfd to wait on with a timeout; -1 on kernels without pidfd_open
  int m_outputFd = -1;  // read end of the child's stdout/stderr pipe
  int m_wakeRead = -1;  // self-pipe that wakes the output thread
  int m_wakeWrite = -1;
  int m_logFd = -1;

  std::mutex m_stopMutex;
  bool m_stopped = false;
  mutable std::mutex m_exitMutex;
  std::optional<ProcessExit> m_exit;
  bool m_reaped = false;

  mutable std::mutex m_outputMutex;
  std::condition_variable m_outputCv;
  std::deque<std::string> m_tail;
  std::string m_partialLine;
  bool m_carriageReturn = false;
  unsigned m_syncRequested = 0;
  unsigned m_syncDone = 0;
  bool m_finishRequested = false;
  bool m_outputEnded = false;
  std::thread m_outputThread;
};

// Finds a program the way execvp would: a name with a slash is taken as a path (relative to the
// current folder), any other name is searched in `pathVariable` (a PATH value; empty entries mean
// the current folder). Returns an absolute path to a regular, executable file, or throws ayar::Error
// naming the program and, for a search, the PATH searched.
std::filesystem::path findExecutable(const std::string& program, const std::string& pathVariable);

// This process's PATH, or the POSIX default when it has none.
std::string currentPathVariable();

}  // namespace ayar
