// ayar-cli when things go wrong: the engine dies mid-run, a request asks for more than the model
// takes, a file is a folder, a name holds escape sequences. Real processes, a real store.
#include <dirent.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/cli/terminal_text.h"
#include "core/store/result_store.h"
#include "tests/app/cli/cli_process.h"
#include "tests/support/test_env.h"

namespace ayar {
namespace {

using test::runCli;
using test::waitForStoredRequests;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The pid of the ayar-engine serving on `port`, read from /proc; 0 when none.
pid_t enginePid(int port) {
  const std::string portArg = std::to_string(port);
  DIR* proc = ::opendir("/proc");
  if (!proc) return 0;
  pid_t found = 0;
  while (const dirent* entry = ::readdir(proc)) {
    const pid_t pid = static_cast<pid_t>(std::atoi(entry->d_name));
    if (pid <= 0) continue;
    std::ifstream in("/proc/" + std::string(entry->d_name) + "/cmdline", std::ios::binary);
    std::vector<std::string> args;
    for (std::string arg; std::getline(in, arg, '\0');)
      args.push_back(arg);
    if (args.empty() || !args[0].ends_with("ayar-engine")) continue;
    for (std::size_t i = 0; i + 1 < args.size(); ++i) {
      if (args[i] == "--port" && args[i + 1] == portArg) found = pid;
    }
  }
  ::closedir(proc);
  return found;
}

// Runs ayar-cli with its stdout and stderr on a pseudo-terminal, as a person at a terminal runs it;
// returns what the terminal received.
std::string runOnTerminal(const std::vector<std::string>& args) {
  int master = -1;
  const pid_t pid = ::forkpty(&master, nullptr, nullptr, nullptr);
  if (pid == 0) {
    std::vector<char*> argv;
    std::string program = AYAR_CLI_BIN;
    argv.push_back(program.data());
    std::vector<std::string> copies = args;
    for (std::string& arg : copies)
      argv.push_back(arg.data());
    argv.push_back(nullptr);
    ::execv(program.c_str(), argv.data());
    ::_exit(127);
  }
  if (pid < 0) {
    ADD_FAILURE() << "forkpty failed";
    return {};
  }
  std::string out;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    pollfd fd{master, POLLIN, 0};
    if (::poll(&fd, 1, 200) <= 0) continue;
    char buffer[4096];
    const ssize_t n = ::read(master, buffer, sizeof buffer);
    if (n <= 0) break;  // EIO once the child and its terminal are gone
    out.append(buffer, static_cast<std::size_t>(n));
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  ::close(master);
  return out;
}

TEST(AyarCliFailures, AnEngineThatDiesMidRunStopsTheRunThereAndIsStoredAsFailed) {
  test::TempDir dir;
  const auto store = dir / "store.db";
  test::CliProcess cli({"bench",
                        "--engine",
                        "bundled",
                        "--model",
                        "qwen3-0.6b",
                        "--device",
                        "sim",
                        "--engine-arg=--sim-profile=fixed:1,20",
                        "--request-rate",
                        "5",
                        "--store",
                        store.string(),
                        "--dataset-name",
                        "random",
                        "--num-prompts",
                        "200",
                        "--random-input-len",
                        "16",
                        "--random-output-len",
                        "5"},
                       dir / "bench.log");
  waitForStoredRequests(store, 3, cli);
  const std::string engineUrl = ResultStore(store).listRuns().front().info.baseUrl;
  const int port = std::stoi(engineUrl.substr(engineUrl.rfind(':') + 1));
  const pid_t engine = enginePid(port);
  ASSERT_GT(engine, 0) << "no ayar-engine on port " << port;
  ::kill(engine, SIGKILL);

  EXPECT_EQ(cli.wait(std::chrono::seconds(60)), 1);
  const std::string output = cli.output();
  EXPECT_TRUE(contains(output, "stopped during the run (killed by signal 9")) << output;
  EXPECT_TRUE(contains(output, "stored as failed")) << output;

  ResultStore reader(store);
  const auto runs = reader.listRuns();
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs.front().status, RunStatus::Failed);
  EXPECT_TRUE(contains(runs.front().info.notes, "stopped during the run")) << runs.front().info.notes;
  // The run stopped at the death: not the rest of the 200 sent into refused connections.
  const auto stored = reader.loadRequests(runs.front().id);
  std::size_t finished = 0;
  std::size_t failed = 0;
  for (const RequestRecord& record : stored) {
    finished += record.success ? 1 : 0;
    failed += record.success ? 0 : 1;
    if (!record.success) {
      EXPECT_NE(record.error, "cancelled") << "a request cut by the death says so";
    }
  }
  EXPECT_GE(finished, 3u);
  EXPECT_LE(failed, 5u) << "requests sent after the engine died";
  EXPECT_LT(stored.size(), 200u);

  const auto show = runCli({"runs", "show", "1", "--store", store.string()}, dir / "show.log");
  EXPECT_TRUE(contains(show.output, "stopped during the run")) << show.output;
}

TEST(AyarCliFailures, ARequestLongerThanTheServedContextIsRefusedBeforeAnyIsSent) {
  test::TempDir dir;
  const auto store = dir / "store.db";
  const auto result =
      runCli({"bench", "--engine", "bundled", "--model", "qwen3-0.6b", "--device", "sim",
              "--engine-arg=--max-model-len=64", "--store", store.string(), "--dataset-name", "random",
              "--num-prompts", "4", "--random-input-len", "100", "--random-output-len", "8"},
             dir / "bench.log");
  EXPECT_EQ(result.exitCode, 1) << result.output;
  EXPECT_TRUE(contains(result.output, "context of 64 tokens (max_model_len")) << result.output;
  EXPECT_TRUE(contains(result.output, "--random-input-len")) << result.output;
  EXPECT_FALSE(contains(result.output, "sending one test request")) << result.output;
}

TEST(AyarCliFailures, LengthsBeyondTheLimitsAreRefusedBeforeAllocating) {
  test::TempDir dir;
  // Once 22 GB and the OOM killer; now a message, at once.
  const auto result =
      runCli({"bench", "--base-url", "http://127.0.0.1:1", "--model", "m", "--store",
              (dir / "store.db").string(), "--dataset-name", "random", "--random-output-len", "1000000000"},
             dir / "bench.log", std::chrono::seconds(30));
  EXPECT_EQ(result.exitCode, 1) << result.output;
  EXPECT_TRUE(contains(result.output, "--random-output-len")) << result.output;
  EXPECT_TRUE(contains(result.output, "at most 16,777,216 tokens a request")) << result.output;
}

TEST(AyarCliFailures, AFolderOrANameWithControlCharactersIsBadInputNotAnInternalError) {
  test::TempDir dir;
  const auto store = (dir / "store.db").string();
  auto result = runCli({"study", "run", dir.path().string(), "--store", store}, dir / "a.log");
  EXPECT_EQ(result.exitCode, 1) << result.output;
  EXPECT_TRUE(contains(result.output, "is a folder; give the path of a study file")) << result.output;
  EXPECT_FALSE(contains(result.output, "internal error")) << result.output;

  nlohmann::json study =
      nlohmann::json::parse(std::ifstream(std::filesystem::path(AYAR_STUDIES_DIR) / "smoke.json"));
  study["name"] = "bad\x1b[31mname\nsecond line";
  std::ofstream(dir / "study.json") << study.dump();
  result = runCli({"study", "run", (dir / "study.json").string(), "--store", store}, dir / "b.log");
  EXPECT_EQ(result.exitCode, 1) << result.output;
  EXPECT_TRUE(contains(result.output, "name: holds a control character (\\x1B at byte 3)")) << result.output;
  EXPECT_FALSE(contains(result.output, "\x1b")) << "the escape reached the output";

  study = nlohmann::json::parse(std::ifstream(std::filesystem::path(AYAR_STUDIES_DIR) / "smoke.json"));
  study["profiles"][0]["random_output_len"] = 1e30;
  std::ofstream(dir / "study2.json") << study.dump();
  result = runCli({"study", "run", (dir / "study2.json").string(), "--store", store}, dir / "c.log");
  EXPECT_EQ(result.exitCode, 1) << result.output;
  EXPECT_TRUE(contains(result.output, "\"random_output_len\" must be a whole number")) << result.output;
}

TEST(AyarCliFailures, WhatAStoredRunSaysReachesATerminalAsTextNeverAsEscapes) {
  test::TempDir dir;
  const auto store = dir / "store.db";
  {
    FinishedRun run;
    run.info.label = "x\x1b[2Jy\nz\x9b";
    run.info.model = "m\x1b]0;title\x07";
    run.info.notes = "server said \x1b[31mred\x1b[0m";
    run.status = RunStatus::Failed;
    ResultStore(store).addFinishedRun(run);
  }
  const std::string list = runOnTerminal({"runs", "list", "--store", store.string()});
  EXPECT_FALSE(contains(list, "\x1b")) << list;
  EXPECT_TRUE(contains(list, "x\\x1B[2Jy\\x0Az")) << list;
  const std::string show = runOnTerminal({"runs", "show", "1", "--store", store.string()});
  EXPECT_FALSE(contains(show, "\x1b")) << show;
  EXPECT_TRUE(contains(show, "server said \\x1B[31mred")) << show;
  // Into a file or a pipe the bytes stay as they are: a redirect is not a terminal.
  const auto piped = runCli({"runs", "show", "1", "--store", store.string()}, dir / "show.log");
  EXPECT_TRUE(contains(piped.output, "server said \x1b[31mred")) << piped.output;
}

TEST(TerminalText, ControlsAndBrokenUtf8AreEscapedTurkishIsKept) {
  EXPECT_EQ(cli::terminalSafe("çalışma ğüşıöÇ İ"), "çalışma ğüşıöÇ İ");
  EXPECT_EQ(cli::terminalSafe("a\x1b[31mb\n\tc\r"), "a\\x1B[31mb\n\tc\\x0D");
  EXPECT_EQ(cli::oneLine("a\nb\tc"), "a\\x0Ab\\x09c");
  EXPECT_EQ(cli::terminalSafe("\xc2\x9b"
                              "2J"),
            "\\xC2\\x9B2J")
      << "C1 CSI";
  EXPECT_EQ(cli::terminalSafe("\xff\xc3(\xed\xa0\x80"), "\\xFF\\xC3(\\xED\\xA0\\x80") << "invalid, surrogate";
  EXPECT_EQ(cli::terminalSafe("\x7f"), "\\x7F");

  // A UTF-8 letter split across two writes arrives whole; a sequence cut at the end is escaped.
  std::stringbuf target;
  {
    cli::TerminalSafeBuffer safe(&target);
    std::ostream out(&safe);
    out << "ş" << std::flush;
    const std::string s = "ğ";
    out << s.substr(0, 1) << std::flush;
    out << s.substr(1) << "\x1b" << std::flush;
    out << std::string("\xc3");
  }
  EXPECT_EQ(target.str(), "şğ\\x1B\\xC3");
}

}  // namespace
}  // namespace ayar
