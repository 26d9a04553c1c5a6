#pragma once

// The parts of a load test's result file that the run knows and the summary does not: its set-up as
// vLLM writes it, vLLM's rps_change_events for a ramp-up, and Ayar's own object (how the run was set
// up and measured).

#include <chrono>
#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <vector>

#include "core/load/arrival_schedule.h"
#include "core/load/load_runner.h"
#include "core/record/request_record.h"
#include "core/report/result_json.h"
#include "core/store/run_types.h"

namespace ayar {

struct BuiltRequests;
struct LoadPlan;
struct RunOutcome;
struct RunSpec;

// The set-up part of a load test's result file, as vLLM writes it (rps_change_events aside, which
// need the run's records).
ResultSetup resultSetup(const RunSpec& spec, const RunInfo& info, const LoadPlan& plan, std::size_t requests,
                        std::optional<int> maxConcurrency, const nlohmann::json& metadata);

// vLLM's rps_change_events for a ramp-up: the start rate at the start, then each whole rate the ramp
// passes, stamped when the request that reached it was sent.
nlohmann::json rpsChangeEvents(const ArrivalSchedule& schedule, std::span<const RequestRecord> records,
                               std::chrono::system_clock::time_point wallOrigin);

// How the client did while it sent the load: whether it ran at real-time priority, and the dispatches
// that went out late, by cause.
struct ClientConduct {
  bool realtime = false;
  LateDispatches late;
};

// Ayar's own object in a result file: how the run was set up and measured (engine, profile, dataset,
// simulated or not, the client's cost and late dispatches, the samples taken).
nlohmann::json ayarObject(const RunInfo& info, const BuiltRequests& built, const RunOutcome& outcome,
                          const ClientConduct& client, const std::vector<Sample>& samples);

}  // namespace ayar
