#include "tests/app/cli/cli_process.h"

#include <gtest/gtest.h>
#include <signal.h>

#include <thread>

#include "core/store/result_store.h"

namespace ayar::test {

CliProcess::CliProcess(const std::vector<std::string>& args, const std::filesystem::path& logPath,
                       const std::filesystem::path& workingDirectory)
    : m_logPath(logPath) {
  ProcessOptions options;
  options.workingDirectory = workingDirectory;
  options.args = {AYAR_CLI_BIN};
  options.args.insert(options.args.end(), args.begin(), args.end());
  options.logPath = logPath;
  options.destructorGrace = std::chrono::milliseconds(3000);
  options.tailLines = 100000;  // the whole output, complete once the exit has been seen
  m_process = std::make_unique<Process>(options);
}

int CliProcess::wait(std::chrono::seconds timeout) {
  auto exit = m_process->wait(timeout);
  if (!exit) {
    ADD_FAILURE() << "ayar-cli still runs after " << timeout.count() << " s; its output:\n" << output();
    exit = m_process->stop(std::chrono::milliseconds(2000));
  }
  return exit->signal ? 128 + exit->signal : exit->exitCode;
}

void CliProcess::signal(int signalNumber) {
  ::kill(m_process->pid(), signalNumber);
}

std::string CliProcess::output() const {
  std::string text;
  for (const auto& line : m_process->tail())
    text += line + "\n";
  return text;
}

CliResult runCli(const std::vector<std::string>& args, const std::filesystem::path& logPath,
                 std::chrono::seconds timeout, const std::filesystem::path& workingDirectory) {
  CliProcess cli(args, logPath, workingDirectory);
  CliResult result;
  result.exitCode = cli.wait(timeout);
  result.output = cli.output();
  return result;
}

void waitForStoredRequests(const std::filesystem::path& store, std::size_t count, CliProcess& cli) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    if (std::filesystem::exists(store)) {
      ResultStore reader(store);
      const auto runs = reader.listRuns();
      if (!runs.empty() && reader.loadRequests(runs.front().id).size() >= count) return;
    }
    ASSERT_TRUE(cli.process().isRunning()) << cli.output();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));  // polling another process's file
  }
  FAIL() << "no requests reached the store:\n" << cli.output();
}

}  // namespace ayar::test
