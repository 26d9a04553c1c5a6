// A child process writes a run until it is SIGKILLed; whatever it said was committed must be in the
// file afterwards, and the run must list as interrupted.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <iostream>
#include <map>
#include <set>
#include <stdexcept>
#include <string>

#include "core/store/result_store.h"
#include "tests/core/store/expect_same_record.h"
#include "tests/core/store/store_test_records.h"
#include "tests/support/test_env.h"

extern char** environ;

namespace ayar {
namespace {

using Clock = std::chrono::steady_clock;

// The crash writer with its stdout on a pipe. Killed and reaped when it goes out of scope, so no
// test leaves it behind.
class CrashWriterProcess {
 public:
  explicit CrashWriterProcess(const std::filesystem::path& storePath) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("pipe2 failed");
    m_readFd = fds[0];
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    std::string program = AYAR_STORE_CRASH_WRITER;
    std::string path = storePath.string();
    char* argv[] = {program.data(), path.data(), nullptr};
    const int rc = ::posix_spawn(&m_pid, program.c_str(), &actions, nullptr, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(fds[1]);
    if (rc != 0) {
      m_pid = -1;
      throw std::runtime_error("cannot start " + program + ": " + std::strerror(rc));
    }
  }
  ~CrashWriterProcess() {
    if (m_pid > 0) {
      ::kill(m_pid, SIGKILL);
      ::waitpid(m_pid, nullptr, 0);
    }
    ::close(m_readFd);
  }
  CrashWriterProcess(const CrashWriterProcess&) = delete;
  CrashWriterProcess& operator=(const CrashWriterProcess&) = delete;

  // Reads what is there, waiting at most until `deadline`. False on end of file or timeout.
  bool read(std::string& into, Clock::time_point deadline) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return false;
    pollfd fd{m_readFd, POLLIN, 0};
    if (::poll(&fd, 1, static_cast<int>(left.count())) <= 0) return false;
    char buffer[4096];
    const ssize_t n = ::read(m_readFd, buffer, sizeof buffer);
    if (n <= 0) return false;
    into.append(buffer, static_cast<std::size_t>(n));
    return true;
  }

  // SIGKILL, then reap; returns the wait status.
  int kill() {
    ::kill(m_pid, SIGKILL);
    int status = 0;
    ::waitpid(m_pid, &status, 0);
    m_pid = -1;
    return status;
  }

 private:
  pid_t m_pid = -1;
  int m_readFd = -1;
};

// Moves the complete lines of `text` into `indices`, keeping an unfinished last line in `text`.
void takeIndices(std::string& text, std::set<std::int64_t>& indices) {
  std::size_t start = 0;
  for (std::size_t end = text.find('\n'); end != std::string::npos; end = text.find('\n', start)) {
    indices.insert(std::stoll(text.substr(start, end - start)));
    start = end + 1;
  }
  text.erase(0, start);
}

TEST(StoreCrashSafety, EveryRecordReportedCommittedBeforeSigkillIsInTheFile) {
  test::TempDir dir;
  const auto path = dir / "ayar.db";
  const auto deadline = Clock::now() + std::chrono::seconds(20);
  constexpr std::size_t kCommittedBeforeKill = 1000;

  CrashWriterProcess child(path);
  std::string text;
  std::set<std::int64_t> reported;
  while (reported.size() < kCommittedBeforeKill) {
    ASSERT_TRUE(child.read(text, deadline))
        << "the child stopped or stalled after reporting " << reported.size() << " committed records";
    takeIndices(text, reported);
  }
  const int status = child.kill();
  // Whatever it wrote to the pipe before it died was committed before it died.
  while (child.read(text, deadline))
    takeIndices(text, reported);
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << "the child ended by itself: " << status;

  ResultStore store(path);
  const auto runs = store.listRuns();
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].status, RunStatus::Interrupted);
  EXPECT_EQ(runs[0].info.label, "crash-test");

  const auto records = store.loadRequests(runs[0].id);
  std::map<std::int64_t, const RequestRecord*> stored;
  for (const RequestRecord& record : records)
    stored[record.index] = &record;
  EXPECT_GE(stored.size(), reported.size());
  for (const std::int64_t index : reported) {
    const auto found = stored.find(index);
    ASSERT_NE(found, stored.end()) << "record " << index << " was reported committed but is not in the file";
  }
  // Nothing torn either: every stored record is whole.
  for (const auto& [index, record] : stored)
    test::expectSameRecord(*record, test::makeStoreTestRecord(index));
  std::cout << "committed before the kill: " << reported.size() << ", in the file: " << stored.size() << "\n";
}

}  // namespace
}  // namespace ayar
