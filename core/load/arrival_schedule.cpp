#include "core/load/arrival_schedule.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/dataset/numpy_random.h"
#include "core/error.h"
#include "core/report/message_text.h"

namespace ayar {

namespace {

// Offsets become steady-clock durations in nanoseconds (int64); far below their limit, far above any run.
constexpr double kLongestScheduleS = 1e9;

std::string formatNumber(double value) {
  std::ostringstream out;
  out.imbue(std::locale::classic());
  out << value;
  return out.str();
}

}  // namespace

namespace {

constexpr std::uint64_t kLargestNumpySeed = 0xFFFFFFFFull;

void checkBurstiness(double burstiness) {
  if (!(burstiness > 0)) {
    throw MessageError({MessageText::ArrivalBurstiness, {decimalArgument(formatNumber(burstiness))}});
  }
}

void checkSeed(std::uint64_t seed) {
  if (seed > kLargestNumpySeed) {
    throw MessageError({MessageText::ArrivalSeed, {std::to_string(seed)}});
  }
}

// vLLM's get_request: one gap per request at its own rate, then the running sum.
std::vector<double> cumulativeGaps(const std::vector<double>& rates, double burstiness, std::uint64_t seed) {
  NumpyLegacyRandom random(static_cast<std::uint32_t>(seed));
  std::vector<double> offsets;
  offsets.reserve(rates.size());
  for (double rate : rates) {
    if (std::isinf(rate)) {
      offsets.push_back(0.0);
    } else if (std::isinf(burstiness)) {
      offsets.push_back(1.0 / rate);
    } else {
      offsets.push_back(random.gamma(burstiness, 1.0 / (rate * burstiness)));
    }
  }
  for (std::size_t i = 1; i < offsets.size(); ++i)
    offsets[i] += offsets[i - 1];
  return offsets;
}

}  // namespace

ArrivalSchedule ArrivalSchedule::atRate(std::size_t count, double rate, double burstiness,
                                        std::uint64_t seed) {
  if (!(rate > 0)) {
    throw MessageError({MessageText::ArrivalRate, {decimalArgument(formatNumber(rate))}});
  }
  checkBurstiness(burstiness);
  ArrivalSchedule schedule;
  schedule.m_offsetsS.assign(count, 0.0);
  if (std::isinf(rate)) {
    schedule.m_description = "rate inf";
    return schedule;
  }
  if (static_cast<double>(count) / rate > kLongestScheduleS) {
    throw MessageError(
        {MessageText::ArrivalRateTooLong, {decimalArgument(formatNumber(rate)), std::to_string(count)}});
  }
  checkSeed(seed);
  schedule.m_description = "rate " + formatNumber(rate) + " req/s, burstiness " + formatNumber(burstiness);
  schedule.m_offsetsS = cumulativeGaps(std::vector<double>(count, rate), burstiness, seed);
  // vLLM's rescale: the sum of the gaps drifts 1-2% from count / rate; scaling removes that drift so
  // that runs with different seeds offer the same load.
  if (count > 0 && schedule.m_offsetsS.back() != 0) {
    const double factor = (static_cast<double>(count) / rate) / schedule.m_offsetsS.back();
    for (double& value : schedule.m_offsetsS)
      value *= factor;
  }
  return schedule;
}

ArrivalSchedule ArrivalSchedule::rampUp(std::size_t count, std::string_view strategy, double startRps,
                                        double endRps, double burstiness, std::uint64_t seed) {
  const bool linear = strategy == "linear";
  if (!linear && strategy != "exponential") {
    throw MessageError({MessageText::ArrivalRampUpUnknown, {std::string(strategy)}});
  }
  if (!(startRps >= 0 && endRps >= 0)) {
    throw MessageError({MessageText::ArrivalRampUpNegative, {}});
  }
  if (startRps > endRps) {
    throw MessageError({MessageText::ArrivalRampUpOrder,
                        {decimalArgument(formatNumber(startRps)), decimalArgument(formatNumber(endRps))}});
  }
  if (!(startRps > 0)) {
    throw MessageError({MessageText::ArrivalRampUpStart, {}});
  }
  checkBurstiness(burstiness);
  checkSeed(seed);
  ArrivalSchedule schedule;
  schedule.m_rates.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    const double progress = static_cast<double>(i) / static_cast<double>(std::max<std::size_t>(count, 2) - 1);
    schedule.m_rates.push_back(linear ? startRps + (endRps - startRps) * progress
                                      : startRps * std::pow(endRps / startRps, progress));
  }
  schedule.m_offsetsS = cumulativeGaps(schedule.m_rates, burstiness, seed);
  if (!schedule.m_offsetsS.empty() && schedule.m_offsetsS.back() > kLongestScheduleS) {
    throw MessageError({MessageText::ArrivalRampUpTooLong, {std::to_string(count)}});
  }
  schedule.m_description = std::string(strategy) + " ramp-up " + formatNumber(startRps) + " to " +
                           formatNumber(endRps) + " req/s, burstiness " + formatNumber(burstiness);
  return schedule;
}

ArrivalSchedule ArrivalSchedule::constantRate(std::size_t count, double rate) {
  ArrivalSchedule schedule = atRate(count, rate, kInfinity, 0);
  if (!std::isinf(rate)) schedule.m_description = "constant " + formatNumber(rate) + " req/s";
  return schedule;
}

ArrivalSchedule ArrivalSchedule::throughput(std::size_t count) {
  ArrivalSchedule schedule;
  schedule.m_offsetsS.assign(count, 0.0);
  schedule.m_description = "throughput";
  return schedule;
}

ArrivalSchedule ArrivalSchedule::concurrent(std::size_t count, int streams) {
  if (streams < 1) {
    throw MessageError({MessageText::ArrivalStreams, {std::to_string(streams)}});
  }
  ArrivalSchedule schedule;
  schedule.m_mode = Mode::ClosedLoop;
  schedule.m_streams = streams;
  schedule.m_offsetsS.assign(count, 0.0);
  schedule.m_description =
      streams == 1 ? "synchronous" : "concurrent, " + std::to_string(streams) + " streams";
  return schedule;
}

std::vector<double> sweepRates(double synchronousRate, double throughputRate, int count) {
  if (!(synchronousRate > 0) || !(throughputRate >= synchronousRate) || std::isinf(throughputRate)) {
    throw MessageError(
        {MessageText::ArrivalSweepRange,
         {decimalArgument(formatNumber(synchronousRate)), decimalArgument(formatNumber(throughputRate))}});
  }
  if (count < 0) throw MessageError({MessageText::ArrivalSweepCount, {std::to_string(count)}});
  std::vector<double> rates;
  rates.reserve(static_cast<std::size_t>(count));
  for (int i = 1; i <= count; ++i) {
    rates.push_back(synchronousRate + (throughputRate - synchronousRate) * i / (count + 1));
  }
  return rates;
}

}  // namespace ayar
