#pragma once

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/engines/engine_launcher.h"
#include "core/engines/process.h"
#include "core/load/load_runner.h"
#include "core/store/run_types.h"
#include "core/study/benchmark_run.h"

namespace ayar {

class RunWriter;

// Once a second while a load test runs: the client's counts and, where the server has /metrics, its
// queue and KV cache, stored and handed to the observer as they are taken. With an engine to watch,
// it also looks every 100 ms whether the engine still runs; one that died is noted (`engineDied` set
// first, so the records cut short say why) and the load stopped. Owns its thread: stop() joins it.
class RunSampler {
 public:
  RunSampler(LoadRunner& runner, EngineLauncher* watched, std::atomic<bool>& engineDied, std::string baseUrl,
             std::string apiKey, RunWriter* writer, const RunObserver& observer)
      : m_runner(runner),
        m_watched(watched),
        m_engineDied(engineDied),
        m_baseUrl(std::move(baseUrl)),
        m_apiKey(std::move(apiKey)),
        m_writer(writer),
        m_observer(observer),
        m_thread([this] { loop(); }) {}
  ~RunSampler() { stop(); }
  RunSampler(const RunSampler&) = delete;
  RunSampler& operator=(const RunSampler&) = delete;

  void stop() {
    {
      std::lock_guard lock(m_mutex);
      m_stop = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable()) m_thread.join();
  }
  // After stop(): every sample taken, and how the watched engine ended if it died.
  const std::vector<Sample>& samples() const { return m_samples; }
  std::optional<ProcessExit> engineDeath() const { return m_engineDeath; }

 private:
  void loop();
  std::vector<Sample> take(bool& serverMetrics);

  LoadRunner& m_runner;
  EngineLauncher* m_watched;
  std::atomic<bool>& m_engineDied;
  const std::string m_baseUrl;
  const std::string m_apiKey;
  RunWriter* m_writer;
  const RunObserver& m_observer;
  std::mutex m_mutex;
  std::condition_variable m_wake;
  bool m_stop = false;
  std::vector<Sample> m_samples;
  std::optional<ProcessExit> m_engineDeath;
  std::thread m_thread;  // last: started once every member above is ready
};

}  // namespace ayar
