#include "core/study/run_result.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <string>

#include "core/study/benchmark_run.h"
#include "core/study/load_plan.h"
#include "core/study/request_builder.h"
#include "core/study/run_spec.h"

namespace ayar {
namespace {

nlohmann::json lateDispatchesJson(const LateDispatches& late) {
  const auto cause = [](const LateDispatches::Cause& c) {
    return nlohmann::json{{"count", c.count}, {"total_ms", c.totalMs}, {"max_ms", c.maxMs}};
  };
  return {{"threshold_ms", LateDispatches::kLateDispatchS * 1e3},
          {"woke_late", cause(late.wokeLate)},
          {"reading_sockets", cause(late.readingSockets)},
          {"off_cpu", cause(late.offCpu)},
          {"handing_over", cause(late.handingOver)},
          {"dispatching", cause(late.dispatching)},
          {"voluntary_switches", late.voluntarySwitches},
          {"involuntary_switches", late.involuntarySwitches}};
}

// Python's datetime.isoformat() for a local time: 2026-12-02T10:11:12.123456 (no fraction when it is 0).
std::string isoLocalTime(std::chrono::system_clock::time_point when) {
  const auto micros =
      std::chrono::duration_cast<std::chrono::microseconds>(when.time_since_epoch()).count() % 1000000;
  const std::time_t t = std::chrono::system_clock::to_time_t(when);
  std::tm local{};
  localtime_r(&t, &local);
  char text[48];
  std::size_t n = std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &local);
  if (micros != 0) {
    n += static_cast<std::size_t>(
        std::snprintf(text + n, sizeof text - n, ".%06lld", static_cast<long long>(micros)));
  }
  return std::string(text, n);
}

}  // namespace

ResultSetup resultSetup(const RunSpec& spec, const RunInfo& info, const LoadPlan& plan, std::size_t requests,
                        std::optional<int> maxConcurrency, const nlohmann::json& metadata) {
  const ProfileSpec& profile = spec.profile;
  ResultSetup setup;
  setup.backend = info.backend;
  setup.label = spec.label.empty() ? std::nullopt : std::optional<std::string>(spec.label);
  setup.modelId = info.servedModelName;
  setup.tokenizerId = info.tokenizer;
  setup.numPrompts = static_cast<int>(requests);
  setup.requestRate = plan.requestRate;
  setup.burstiness = profile.burstiness;
  setup.maxConcurrency = maxConcurrency;
  setup.metadata = metadata;
  if (!profile.rampUpStrategy.empty() && profile.loadMode == LoadMode::Rate) {
    setup.rampUpStrategy = profile.rampUpStrategy;
    setup.rampUpStartRps = profile.rampUpStartRps;
    setup.rampUpEndRps = profile.rampUpEndRps;
  }
  return setup;
}

nlohmann::json rpsChangeEvents(const ArrivalSchedule& schedule, std::span<const RequestRecord> records,
                               std::chrono::system_clock::time_point wallOrigin) {
  const std::vector<double>& rates = schedule.requestRates();
  nlohmann::json events = nlohmann::json::array();
  if (rates.empty()) return events;
  const auto at = [&](double seconds) {
    return wallOrigin + std::chrono::duration_cast<std::chrono::system_clock::duration>(
                            std::chrono::duration<double>(seconds));
  };
  std::vector<double> sentAt(schedule.offsetsS());
  for (const RequestRecord& record : records) {
    if (record.index >= 0 && static_cast<std::size_t>(record.index) < sentAt.size())
      sentAt[static_cast<std::size_t>(record.index)] = record.startS;
  }
  auto last = static_cast<long long>(rates.front());
  events.push_back({{"rps", last}, {"timestamp", isoLocalTime(wallOrigin)}});
  for (std::size_t i = 0; i < rates.size(); ++i) {
    const auto current = static_cast<long long>(rates[i]);
    for (long long rps = last + 1; rps <= current; ++rps)
      events.push_back({{"rps", rps}, {"timestamp", isoLocalTime(at(sentAt[i]))}});
    last = std::max(last, current);
  }
  return events;
}

nlohmann::json ayarObject(const RunInfo& info, const BuiltRequests& built, const RunOutcome& outcome,
                          const ClientConduct& client, const std::vector<Sample>& samples) {
  std::size_t chunks = 0;
  for (const auto& record : outcome.records)
    chunks += record.chunkTimesS.size();
  nlohmann::json samplesJson = nlohmann::json::object();
  for (const auto& sample : samples)
    samplesJson[sample.name].push_back({sample.tS, sample.value});
  return {
      {"engine", info.engine},
      {"profile", info.profile},
      {"dataset", {{"name", built.datasetName}, {"synthetic", built.synthetic}, {"note", built.note}}},
      {"simulated", outcome.facts.simulated},
      {"load", outcome.title},
      {"cancelled", outcome.cancelled},
      {"cancelled_in_flight", outcome.cancelledInFlight},
      {"client",
       {{"cpu_s", outcome.clientCpuS},
        {"realtime", client.realtime},
        {"chunks", chunks},
        {"cpu_s_per_1000_chunks", chunks ? outcome.clientCpuS * 1000.0 / static_cast<double>(chunks) : 0.0},
        {"late_dispatches", lateDispatchesJson(client.late)}}},
      {"samples", samplesJson},
  };
}

}  // namespace ayar
