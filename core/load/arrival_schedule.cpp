#include "core/load/arrival_schedule.h"

#include <cmath>
#include <random>
#include <sstream>

#include "core/error.h"

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

ArrivalSchedule ArrivalSchedule::atRate(std::size_t count, double rate, double burstiness,
                                        std::uint64_t seed) {
  if (!(rate > 0)) {
    throw Error("The request rate must be above 0 requests per second (or inf), not " + formatNumber(rate) +
                ".");
  }
  if (!(burstiness > 0)) {
    throw Error("The burstiness must be above 0 (1 is Poisson, inf is a constant rate), not " +
                formatNumber(burstiness) + ".");
  }
  ArrivalSchedule schedule;
  schedule.m_offsetsS.assign(count, 0.0);
  if (std::isinf(rate)) {
    schedule.m_description = "rate inf";
    return schedule;
  }
  if (static_cast<double>(count) / rate > kLongestScheduleS) {
    throw Error("A rate of " + formatNumber(rate) + " req/s would spread " + std::to_string(count) +
                " requests over more than 30 years; raise the rate.");
  }
  schedule.m_description = "rate " + formatNumber(rate) + " req/s, burstiness " + formatNumber(burstiness);
  if (std::isinf(burstiness)) {
    for (std::size_t i = 0; i < count; ++i)
      schedule.m_offsetsS[i] = static_cast<double>(i + 1) / rate;
    return schedule;
  }
  std::mt19937_64 generator(seed);
  std::gamma_distribution<double> gap(burstiness, 1.0 / (rate * burstiness));
  double offset = 0.0;
  for (std::size_t i = 0; i < count; ++i) {
    offset += gap(generator);
    schedule.m_offsetsS[i] = offset;
  }
  // vLLM's rescale: the sum of the gaps drifts 1-2% from count / rate; scaling removes that drift so
  // that runs with different seeds offer the same load.
  if (count > 0 && offset > 0) {
    const double target = static_cast<double>(count) / rate;
    const double factor = target / offset;
    for (double& value : schedule.m_offsetsS)
      value *= factor;
    schedule.m_offsetsS.back() = target;  // exact, whatever the rounding above did
  }
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
    throw Error("The number of concurrent streams must be at least 1, not " + std::to_string(streams) + ".");
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
    throw Error("A sweep needs 0 < synchronous rate <= throughput rate, both finite; got " +
                formatNumber(synchronousRate) + " and " + formatNumber(throughputRate) +
                " req/s. Check that the synchronous and throughput runs completed requests.");
  }
  if (count < 0)
    throw Error("The number of sweep rates cannot be negative, got " + std::to_string(count) + ".");
  std::vector<double> rates;
  rates.reserve(static_cast<std::size_t>(count));
  for (int i = 1; i <= count; ++i) {
    rates.push_back(synchronousRate + (throughputRate - synchronousRate) * i / (count + 1));
  }
  return rates;
}

}  // namespace ayar
