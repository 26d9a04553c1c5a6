#include "core/engines/process.h"

#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <sstream>
#include <string>

#include "core/error.h"
#include "tests/core/engines/line_watch.h"
#include "tests/support/test_env.h"

namespace ayar {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

ProcessOptions shell(const std::string& script) {
  ProcessOptions options;
  options.args = {"sh", "-c", script};
  options.destructorGrace = 2s;
  return options;
}

std::string readFile(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// True once `pid` is no child of ours any more: reaped, not a zombie waiting for us.
bool reaped(pid_t pid) {
  return ::waitpid(pid, nullptr, WNOHANG) == -1 && errno == ECHILD;
}

// Waits (at most `timeout`) until `pid`, which need not be our child, has exited: a pidfd turns
// readable when its process has. True also when the process is gone already.
bool exitsWithin(pid_t pid, std::chrono::milliseconds timeout) {
  const long fd = ::syscall(SYS_pidfd_open, pid, 0);
  if (fd < 0) return errno == ESRCH;
  pollfd pollFd{static_cast<int>(fd), POLLIN, 0};
  const int ready = ::poll(&pollFd, 1, static_cast<int>(timeout.count()));
  ::close(static_cast<int>(fd));
  return ready == 1;
}

std::string messageOf(const std::function<void()>& action) {
  try {
    action();
  } catch (const Error& error) {
    return error.what();
  }
  return "(no error)";
}

TEST(Process, ReportsExitCodeAndCapturesOutput) {
  Process process(shell("echo hi; exit 3"));
  const ProcessExit exit = process.wait();
  EXPECT_TRUE(exit.exitedNormally());
  EXPECT_EQ(exit.exitCode, 3);
  EXPECT_EQ(exit.describe(), "exit code 3");
  EXPECT_EQ(process.tail(), std::vector<std::string>{"hi"});
  EXPECT_FALSE(process.isRunning());
}

TEST(Process, WritesStdoutAndStderrToTheLogFile) {
  test::TempDir dir;
  auto options = shell("echo to-stdout; echo to-stderr >&2; exit 0");
  options.logPath = dir / "engine.log";
  Process process(std::move(options));
  EXPECT_TRUE(process.wait().succeeded());
  process.stop();
  EXPECT_EQ(readFile(dir / "engine.log"), "to-stdout\nto-stderr\n");
  EXPECT_EQ(process.tail(), (std::vector<std::string>{"to-stdout", "to-stderr"}));
}

TEST(Process, KeepsOnlyTheLastLinesInMemory) {
  auto options = shell("for i in 1 2 3 4 5 6 7 8 9 10; do echo line$i; done");
  options.tailLines = 3;
  Process process(std::move(options));
  process.wait();
  EXPECT_EQ(process.tail(), (std::vector<std::string>{"line8", "line9", "line10"}));
  EXPECT_EQ(process.tailText("> "), "> line8\n> line9\n> line10\n");
}

TEST(Process, KeepsAnUnterminatedLastLineAndRedrawsAfterCarriageReturn) {
  Process process(shell("printf 'loading 10%%\\rloading 100%%\\nno newline'"));
  process.wait();
  EXPECT_EQ(process.tail(), (std::vector<std::string>{"loading 100%", "no newline"}));
}

TEST(Process, LargeOutputNeverBlocksTheChild) {
  test::TempDir dir;
  auto options = shell("i=0; while [ $i -lt 20000 ]; do echo \"line $i\"; i=$((i+1)); done");
  options.logPath = dir / "big.log";
  Process process(std::move(options));
  ASSERT_TRUE(process.wait(20s).has_value());
  process.stop();
  const std::string log = readFile(dir / "big.log");
  EXPECT_EQ(std::count(log.begin(), log.end(), '\n'), 20000);
  EXPECT_EQ(process.tail().back(), "line 19999");
}

TEST(Process, PassesEnvironmentOverridesAndRemovals) {
  auto options = shell("echo \"value=$AYAR_TEST_VALUE\"; echo \"home=${HOME-unset}\"");
  options.environment = {
      {"AYAR_TEST_VALUE", "first"}, {"HOME", std::nullopt}, {"AYAR_TEST_VALUE", "hello world"}};
  Process process(std::move(options));
  process.wait();
  EXPECT_EQ(process.tail(), (std::vector<std::string>{"value=hello world", "home=unset"}));
}

TEST(Process, RunsInTheGivenWorkingDirectory) {
  test::TempDir dir;
  auto options = shell("pwd -P");
  options.workingDirectory = dir.path();
  Process process(std::move(options));
  process.wait();
  ASSERT_EQ(process.tail().size(), 1u);
  EXPECT_EQ(std::filesystem::path(process.tail()[0]), std::filesystem::canonical(dir.path()));
}

TEST(Process, WaitTimesOutWhileTheChildRuns) {
  Process process(shell("exec sleep 1000"));
  const auto before = Clock::now();
  EXPECT_FALSE(process.wait(100ms).has_value());
  EXPECT_GE(Clock::now() - before, 100ms);
  EXPECT_TRUE(process.isRunning());
  EXPECT_FALSE(process.exitStatus().has_value());
  const ProcessExit exit = process.stop(5s);
  EXPECT_EQ(exit.signal, SIGTERM);
  EXPECT_TRUE(reaped(process.pid()));
}

TEST(Process, StopEndsAChildThatHandlesSigtermWithoutWaitingForTheGrace) {
  test::LineWatch watch;
  auto options = shell("trap 'echo got-term; exit 0' TERM; echo ready; while :; do sleep 0.05; done");
  options.onOutputLine = watch.callback();
  Process process(std::move(options));
  ASSERT_FALSE(watch.waitFor("ready").empty());
  const auto before = Clock::now();
  const ProcessExit exit = process.stop(20s);
  EXPECT_LT(Clock::now() - before, 10s);
  // The shell's own trap exits 0, or the group's SIGTERM reaches it first in its sleep.
  EXPECT_TRUE(exit.succeeded() || exit.signal == SIGTERM) << exit.describe();
  EXPECT_TRUE(reaped(process.pid()));
}

TEST(Process, StopKillsAChildThatIgnoresSigtermAfterTheGracePeriod) {
  test::LineWatch watch;
  auto options = shell("trap '' TERM; echo ready; exec sleep 1000");
  options.onOutputLine = watch.callback();
  Process process(std::move(options));
  ASSERT_FALSE(watch.waitFor("ready").empty());
  const auto before = Clock::now();
  const ProcessExit exit = process.stop(300ms);
  const auto took = Clock::now() - before;
  EXPECT_EQ(exit.signal, SIGKILL);
  EXPECT_EQ(exit.describe(), "killed by signal 9 (SIGKILL)");
  EXPECT_GE(took, 300ms);
  EXPECT_LT(took, 10s);
  EXPECT_TRUE(reaped(process.pid()));
  // Idempotent.
  EXPECT_EQ(process.stop().signal, SIGKILL);
}

TEST(Process, StopEndsTheWholeProcessGroup) {
  test::LineWatch watch;
  auto options = shell("sleep 1000 & echo \"child $!\"; wait");
  options.onOutputLine = watch.callback();
  Process process(std::move(options));
  const std::string line = watch.waitFor("child ");
  ASSERT_FALSE(line.empty());
  const pid_t grandchild = std::stoi(line.substr(6));
  EXPECT_EQ(::getpgid(grandchild), process.pid());
  EXPECT_FALSE(exitsWithin(grandchild, 0ms));
  process.stop(5s);
  EXPECT_TRUE(reaped(process.pid()));
  EXPECT_TRUE(exitsWithin(grandchild, 5s));
}

TEST(Process, DestructorStopsAndReapsTheChild) {
  pid_t pid = -1;
  {
    Process process(shell("exec sleep 1000"));
    pid = process.pid();
    EXPECT_TRUE(process.isRunning());
  }
  EXPECT_TRUE(reaped(pid));
}

TEST(Process, AnExitedChildIsReapedByTheDestructor) {
  pid_t pid = -1;
  {
    Process process(shell("exit 0"));
    pid = process.pid();
    EXPECT_TRUE(process.wait().succeeded());
  }
  EXPECT_TRUE(reaped(pid));
}

TEST(Process, ResolvesTheProgramFromPath) {
  Process process(shell("exit 0"));
  EXPECT_TRUE(std::filesystem::path(process.args()[0]).is_absolute());
  EXPECT_EQ(std::filesystem::path(process.args()[0]).filename(), "sh");
  process.wait();
}

TEST(Process, MissingProgramNamesItAndThePathSearched) {
  test::TempDir dir;
  ProcessOptions options;
  options.args = {"ayar-no-such-program"};
  options.environment = {{"PATH", dir.path().string()}};
  const std::string message = messageOf([&] { Process process(options); });
  EXPECT_NE(message.find("'ayar-no-such-program'"), std::string::npos) << message;
  EXPECT_NE(message.find("not found in PATH (" + dir.path().string() + ")"), std::string::npos) << message;
}

TEST(Process, MissingProgramPathIsNamed) {
  test::TempDir dir;
  ProcessOptions options;
  options.args = {(dir / "missing-engine").string()};
  const std::string message = messageOf([&] { Process process(options); });
  EXPECT_NE(message.find((dir / "missing-engine").string() + " does not exist"), std::string::npos)
      << message;
}

TEST(Process, NonExecutableFileIsRejected) {
  test::TempDir dir;
  std::ofstream(dir / "engine") << "#!/bin/sh\necho hi\n";
  ::chmod((dir / "engine").c_str(), 0644);
  ProcessOptions options;
  options.args = {(dir / "engine").string()};
  const std::string message = messageOf([&] { Process process(options); });
  EXPECT_NE(message.find("is not executable"), std::string::npos) << message;
  options.args = {dir.path().string()};
  EXPECT_NE(messageOf([&] { Process process(options); }).find("is a folder"), std::string::npos);
}

TEST(Process, BadLogFileOrFolderIsAClearError) {
  test::TempDir dir;
  auto options = shell("exit 0");
  options.logPath = dir / "no-such-folder" / "engine.log";
  std::string message = messageOf([&] { Process process(options); });
  EXPECT_NE(message.find((dir / "no-such-folder" / "engine.log").string()), std::string::npos) << message;

  options = shell("exit 0");
  options.workingDirectory = dir / "no-such-folder";
  message = messageOf([&] { Process process(options); });
  EXPECT_NE(message.find("working folder"), std::string::npos) << message;

  EXPECT_NE(messageOf([] { Process process(ProcessOptions{}); }).find("argument list is empty"),
            std::string::npos);
}

TEST(Process, ReportsDeathBySignal) {
  Process process(shell("kill -SEGV $$"));
  const ProcessExit exit = process.wait();
  EXPECT_FALSE(exit.exitedNormally());
  EXPECT_EQ(exit.signal, SIGSEGV);
  EXPECT_NE(exit.describe().find("SIGSEGV"), std::string::npos);
}

}  // namespace
}  // namespace ayar
