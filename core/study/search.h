#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/engines/engine_spec.h"
#include "core/metrics/run_figure.h"
#include "core/metrics/run_summary.h"
#include "core/report/report_document.h"
#include "core/study/profile_spec.h"

namespace ayar {

// What both searches share: the engine, the load, the limits a probe must hold, where runs go.
struct SearchSetup {
  EngineSpec engine;  // bundled or external (started per probe by tune, once by capacity), or remote
  ProfileSpec profile;
  std::string tokenizer;
  GoodputSlo slo;
  // A probe holds the SLOs when at least this share of its successful requests meets every SLO.
  double sloAttainment = 0.9;
  // ... and at least this share of its requests succeeded.
  double successRateFloor = 0.99;
  int warmupRequests = 0;
  std::filesystem::path storePath;      // each probe's run is stored here; empty: not stored
  std::filesystem::path bundledEngine;  // empty: beside this executable, else $PATH
  std::filesystem::path logDir;         // the engines' logs; empty: beside the store, else temp
};

// One measurement of a search.
struct SearchProbe {
  double value = 0.0;   // the flag's value (tune) or the request rate (capacity)
  std::string step;     // why it was probed: "end", "boundary", "ternary", "last", "grow", "interpolate"
  bool started = true;  // false: the engine did not start (tune), `error` says why
  std::optional<double> figure;  // tune: the deciding figure; capacity: the goodput (req/s)
  double sloAttainment = 0.0;    // share of successful requests meeting every SLO (1 without SLOs)
  double successRate = 0.0;
  bool withinLimits = false;  // started, success rate and SLO attainment at or above their floors
  std::optional<std::int64_t> runId;
  std::string error;
};

struct TuneSpec {
  SearchSetup setup;
  std::string flag;               // "--max-num-seqs"
  std::vector<long long> values;  // the candidate values, ascending (e.g. 1..64)
  RunFigure figure = RunFigure::OutputThroughput;
  // Two probes whose figures differ by less than this share of the larger are on a plateau: the
  // search stops narrowing and takes the best value probed.
  double plateau = 0.01;
};

struct TuneResult {
  std::vector<SearchProbe> probes;  // in the order they ran
  std::optional<long long> best;    // none when no value held the limits
  std::optional<double> bestFigure;
  EngineSpec bestEngine;  // the engine with the best value
};

// Finds the value of one flag with the best deciding figure while the limits hold. First the
// feasible range: both ends are probed, and when only one end holds the limits the boundary is found
// by bisection (the limits are taken to hold on one side of it). Then a ternary search of the
// figure over the feasible range (the figure taken as unimodal), with the plateau rule, and the last
// two or three values probed one by one. Each value is probed once (a fresh engine start each, so
// probes do not share a warm cache). `onProbe` sees each probe as it ends.
TuneResult runTune(const TuneSpec& spec, const std::function<void(const SearchProbe&)>& onProbe = {},
                   const std::atomic<bool>* cancelled = nullptr);

struct CapacitySpec {
  SearchSetup setup;
  double startRate = 1.0;  // the first rate probed, in requests per second
  double maxRate = 1024.0;
  // The search stops when the last rate that holds and the first that does not are this close
  // (relative), or after maxProbes.
  double tolerance = 0.05;
  int maxProbes = 12;
};

struct CapacityResult {
  std::vector<SearchProbe> probes;
  std::optional<double> capacity;  // the largest rate probed that held the SLOs
  std::optional<double> firstFailing;
};

// The largest request rate whose goodput meets the SLOs, against one engine started once: the rate
// doubles from startRate until a probe fails the limits, then the gap is narrowed by interpolating
// where the SLO attainment crosses its floor between the two probes around it (kept within the
// middle half of the gap so that every probe narrows it).
CapacityResult runCapacity(const CapacitySpec& spec,
                           const std::function<void(const SearchProbe&)>& onProbe = {},
                           const std::atomic<bool>* cancelled = nullptr);

// Reports in the locale's language and numbers: the probes table (and, for capacity, a
// goodput-against-rate chart as text), the best value or rate, and the serving command.
ReportDocument tuneReport(const TuneSpec& spec, const TuneResult& result, const ReportLocale& locale);
ReportDocument capacityReport(const CapacitySpec& spec, const CapacityResult& result,
                              const ReportLocale& locale);

}  // namespace ayar
