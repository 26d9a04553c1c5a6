#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/engines/process.h"

namespace ayar::test {

// ayar-cli as a child process, its output (stdout and stderr together) in a log file.
class CliProcess {
 public:
  // Runs in `workingDirectory` when given, else in the test's.
  CliProcess(const std::vector<std::string>& args, const std::filesystem::path& logPath,
             const std::filesystem::path& workingDirectory = {});
  // Waits for the exit (failing the test after `timeout`) and returns the exit code (128+N for signal N).
  int wait(std::chrono::seconds timeout = std::chrono::seconds(120));
  void signal(int signalNumber);
  std::string output() const;  // everything written so far
  Process& process() { return *m_process; }

 private:
  std::filesystem::path m_logPath;
  std::unique_ptr<Process> m_process;
};

struct CliResult {
  int exitCode = -1;
  std::string output;
};

// Runs ayar-cli to its end.
CliResult runCli(const std::vector<std::string>& args, const std::filesystem::path& logPath,
                 std::chrono::seconds timeout = std::chrono::seconds(120),
                 const std::filesystem::path& workingDirectory = {});

// Waits until the newest run in `store` holds at least `count` finished requests; fails the test when
// `cli` exits first, or after a minute.
void waitForStoredRequests(const std::filesystem::path& store, std::size_t count, CliProcess& cli);

}  // namespace ayar::test
