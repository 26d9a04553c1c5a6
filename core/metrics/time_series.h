#pragma once

#include <optional>
#include <span>
#include <vector>

#include "core/record/request_record.h"

namespace ayar {

// One bin [startS, startS + binSeconds) of a run, for live charts and the store's samples.
struct TimeSeriesBin {
  double startS = 0.0;               // relative to the series origin
  int requestsStarted = 0;           // startS fell in the bin
  int requestsCompleted = 0;         // successful requests whose last chunk fell in the bin
  int requestsFailed = 0;            // failed requests whose end fell in the bin
  int requestsInFlight = 0;          // successful or not, start <= bin end < end
  double outputTokensPerS = 0.0;     // chunks arriving in the bin (each one token) / binSeconds
  std::optional<double> meanTtftMs;  // requests whose first chunk fell in the bin; none if no such request
};

struct TimeSeries {
  double originS = 0.0;
  double binSeconds = 1.0;
  std::vector<TimeSeriesBin> bins;  // from the origin to the bin holding the last event
};

// Bins the records' events from `originS` (the run's origin, 0 for records straight from the
// client; a fixed origin keeps bins stable while records keep arriving). Events before the origin
// are ignored. Throws ayar::Error when binSeconds is not positive or the span would need more than
// ten million bins.
TimeSeries computeTimeSeries(std::span<const RequestRecord> records, double binSeconds = 1.0,
                             double originS = 0.0);

}  // namespace ayar
