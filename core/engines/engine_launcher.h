#pragma once

#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/engines/engine_catalogue.h"
#include "core/engines/engine_spec.h"
#include "core/engines/process.h"

namespace ayar {

struct LaunchOptions {
  // Where the engine's stdout and stderr go. Empty: a new file in the system temp folder.
  std::filesystem::path logPath;
  // The ayar-engine to run for a bundled spec. Empty: the one next to this executable, else $PATH.
  std::filesystem::path bundledEngine;
  // How long start() waits for the health check. None: the template's startup_timeout_s.
  std::optional<std::chrono::milliseconds> startupTimeout;
  // SIGTERM-to-SIGKILL grace for stop() and the destructor.
  std::chrono::milliseconds stopGrace{10000};
  // How long a remote endpoint gets to answer.
  std::chrono::milliseconds remoteTimeout{10000};
  // Every line the engine prints, on the output thread (for a live log view).
  std::function<void(std::string_view line)> onLogLine;
};

// Starts the engine an EngineSpec describes and waits until it serves; or, for a remote endpoint,
// checks that it answers. Bundled: ayar-engine serve MODEL --host H --port P --device D [flags].
// External: the template's command with placeholders filled in. The engine runs in its own process
// group and is stopped with the launcher.
class EngineLauncher {
 public:
  // Throws ayar::Error when the spec is invalid or its flags do not fit the template's catalogue.
  EngineLauncher(EngineSpec spec, const EngineCatalogue& catalogue, LaunchOptions options = {});
  ~EngineLauncher();
  EngineLauncher(const EngineLauncher&) = delete;
  EngineLauncher& operator=(const EngineLauncher&) = delete;

  // Starts the engine (picking a free port when the spec has none) and returns once
  // GET {baseUrl}{health path} answers 200. Polls every 100 ms. Throws ayar::Error, after stopping
  // the engine, when it exits first (with its exit status, the command line and its last log
  // lines), when the timeout passes, or when cancelStart() is called. Remote: one reachability
  // check of /health, then /v1/models, with an error naming the URL.
  void start();
  // Ends the engine (SIGTERM to its group, SIGKILL after the grace period). Idempotent.
  void stop();
  // Makes a start() in progress on another thread give up and stop the engine. Thread-safe. A
  // cancelled launcher does not start again.
  void cancelStart() { m_cancelled = true; }

  // A started engine that has not exited, or a remote endpoint that answered.
  bool isRunning();
  // "http://127.0.0.1:PORT" (no /v1), known once start() has picked the port.
  std::string baseUrl() const { return m_baseUrl; }
  int port() const { return m_port; }
  // The engine's log file; empty for remote endpoints.
  std::filesystem::path logPath() const { return m_logPath; }
  // The argument vector last started (empty for remote), and the same for showing, key hidden.
  const std::vector<std::string>& commandLine() const { return m_commandLine; }
  std::string displayCommand() const;
  // Warnings about flags Ayar could not check (unknown to a partial catalogue, open choices).
  const std::vector<FlagIssue>& flagWarnings() const { return m_flagWarnings; }
  const EngineSpec& spec() const { return m_spec; }
  const EngineTemplate& engineTemplate() const { return m_template; }
  // The engine process of the last start (stopped or not, for its tail and exit); nullptr before.
  Process* process() { return m_process.get(); }

 private:
  void checkRemote();
  std::string findBundledEngine() const;
  // One try on `port`; false when the engine found the port taken and another should be tried.
  bool startOnce(int port, int attempt, bool retryIfPortTaken);

  EngineSpec m_spec;
  EngineTemplate m_template;
  LaunchOptions m_options;
  std::vector<FlagIssue> m_flagWarnings;
  std::string m_apiKey;
  std::unique_ptr<Process> m_process;
  std::vector<std::string> m_commandLine;
  std::filesystem::path m_logPath;
  std::string m_baseUrl;
  int m_port = 0;
  bool m_remoteReachable = false;
  std::atomic<bool> m_cancelled{false};
};

// A TCP port on `host` that nothing listens on now (bind to port 0, read it, release it).
// Throws ayar::Error when the host cannot be bound.
int pickFreePort(const std::string& host = "127.0.0.1");

// What the bundled engine's `--device auto` picks on this machine: the line `ayar-engine device`
// prints ("cuda NVIDIA H200 139.8 GiB", "cpu no CUDA driver ..."). `bundledEngine` as in
// LaunchOptions (empty: next to this executable, else in PATH). Empty when it cannot be run.
std::string bundledEngineDevice(const std::filesystem::path& bundledEngine = {});

// The outcome of one HTTP request, for health checks and small API calls.
struct HttpProbe {
  int status = 0;     // 0 when no response came
  std::string error;  // the transport error when status is 0
  std::string body;   // the first few KB
};
// One GET with libcurl; `bearerToken` is sent as Authorization when not empty. No proxy is used
// for loopback addresses.
HttpProbe httpGet(const std::string& url, std::chrono::milliseconds timeout,
                  const std::string& bearerToken = {});
// One POST of a JSON body (a server's /tokenize, say), keeping up to `maxResponseBytes` of the answer.
HttpProbe httpPost(const std::string& url, const std::string& jsonBody, std::chrono::milliseconds timeout,
                   const std::string& bearerToken = {}, std::size_t maxResponseBytes = 16 << 20);

}  // namespace ayar
