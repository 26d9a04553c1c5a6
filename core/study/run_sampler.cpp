#include "core/study/run_sampler.h"

#include <algorithm>
#include <chrono>

#include "core/store/run_writer.h"
#include "core/study/server_metrics.h"

namespace ayar {
namespace {

constexpr auto kEngineWatchInterval = std::chrono::milliseconds(100);

}  // namespace

void RunSampler::loop() {
  bool serverMetrics = true;
  std::unique_lock lock(m_mutex);
  for (int tick = 1; !m_stop; ++tick) {
    const auto due = m_runner.origin() + std::chrono::seconds(tick);
    // Woken every 100 ms to look at the engine, once a second to sample.
    for (;;) {
      const auto wake =
          m_watched ? std::min(due, std::chrono::steady_clock::now() + kEngineWatchInterval) : due;
      if (m_wake.wait_until(lock, wake, [&] { return m_stop; })) break;
      if (m_watched && !m_engineDeath && !m_watched->isRunning()) {
        const Process* process = m_watched->process();
        m_engineDeath = process && process->exitStatus() ? *process->exitStatus() : ProcessExit{};
        m_engineDied = true;
        m_runner.cancel();
      }
      if (std::chrono::steady_clock::now() >= due) break;
    }
    if (m_stop) break;
    lock.unlock();
    std::vector<Sample> batch = take(serverMetrics);
    lock.lock();
    m_samples.insert(m_samples.end(), batch.begin(), batch.end());
  }
}

std::vector<Sample> RunSampler::take(bool& serverMetrics) {
  const double t =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - m_runner.origin()).count();
  const LoadProgress p = m_runner.progress();
  std::vector<Sample> batch{{t, "client.sent", static_cast<double>(p.sent)},
                            {t, "client.in_flight", static_cast<double>(p.inFlight)},
                            {t, "client.completed", static_cast<double>(p.completed)},
                            {t, "client.failed", static_cast<double>(p.failed)}};
  if (serverMetrics) {
    const HttpProbe probe = httpGet(m_baseUrl + "/metrics", std::chrono::milliseconds(500), m_apiKey);
    if (probe.status == 200) {
      for (const auto& [name, value] : parseServerMetrics(probe.body).values)
        batch.push_back({t, name, value});
    } else if (probe.status == 404 || probe.status == 401) {
      serverMetrics = false;  // not exposed: do not ask every second
    }
  }
  if (m_observer.extraSamples) {
    auto extra = m_observer.extraSamples(t);
    batch.insert(batch.end(), extra.begin(), extra.end());
  }
  if (m_writer) m_writer->addSamples(batch);
  if (m_observer.onSamples) m_observer.onSamples(batch);
  return batch;
}

}  // namespace ayar
