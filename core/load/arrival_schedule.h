#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace ayar {

// When each request of a run is sent, computed whole before the run starts.
//
// Open loop (`atRate`, `constantRate`, `throughput`): each request has an offset in seconds from the run's
// origin; the runner sends it then, or as soon as a --max-concurrency slot frees. Closed loop
// (`concurrent`): N streams each send their next request as soon as their previous one finished; a
// request's scheduled time is then the moment its stream became free.
class ArrivalSchedule {
 public:
  enum class Mode { OpenLoop, ClosedLoop };

  static constexpr double kInfinity = std::numeric_limits<double>::infinity();

  // vLLM's --request-rate / --burstiness, drawn as `vllm bench serve` draws them: numpy's legacy
  // stream seeded with np.random.seed(seed), one np.random.gamma(shape = b, scale = 1 / (r * b)) gap
  // per request, accumulated into offsets, then scaled so that the last arrival lands at count / rate
  // (vLLM's rescale). The same seed gives vLLM's arrival times to the last bit. b = 1 is a Poisson
  // process; smaller is burstier. rate = inf sends everything at 0 and draws nothing; burstiness =
  // inf gives gaps of exactly 1 / rate (rescaled likewise). Throws ayar::Error for a rate or
  // burstiness <= 0 and for a seed above 2^32 - 1, which numpy refuses.
  static ArrivalSchedule atRate(std::size_t count, double rate, double burstiness, std::uint64_t seed);
  // vLLM's --ramp-up-strategy: request i's rate goes from startRps to endRps, linearly
  // (start + (end - start) * p) or exponentially (start * (end / start)^p) with p = i / max(count - 1, 1),
  // and its gap is drawn as atRate draws one at that rate; the offsets are not rescaled. Throws
  // ayar::Error naming the flags for rates vLLM refuses (negative, start above end, a start of 0).
  static ArrivalSchedule rampUp(std::size_t count, std::string_view strategy, double startRps, double endRps,
                                double burstiness, std::uint64_t seed);
  // guidellm's "constant": gaps of 1 / rate (atRate with infinite burstiness: summed and rescaled as
  // vLLM does, so apart from the rounding of those sums).
  static ArrivalSchedule constantRate(std::size_t count, double rate);
  // guidellm's "throughput": everything due at 0; the runner's --max-concurrency caps what is in flight.
  static ArrivalSchedule throughput(std::size_t count);
  // guidellm's "concurrent" (and "synchronous" for streams = 1): a closed loop of `streams` streams.
  static ArrivalSchedule concurrent(std::size_t count, int streams);

  Mode mode() const { return m_mode; }
  std::size_t size() const { return m_offsetsS.size(); }
  // Seconds from the run's origin, non-decreasing. In closed loop the first `streams` are 0 and the
  // rest are decided during the run.
  const std::vector<double>& offsetsS() const { return m_offsetsS; }
  int closedLoopStreams() const { return m_streams; }
  // The rate each request was drawn at (a ramp-up's changing rate); empty for other schedules.
  const std::vector<double>& requestRates() const { return m_rates; }
  // e.g. "rate 10 req/s, burstiness 1" or "concurrent, 8 streams", for logs and reports.
  const std::string& description() const { return m_description; }

 private:
  ArrivalSchedule() = default;

  Mode m_mode = Mode::OpenLoop;
  std::vector<double> m_offsetsS;
  std::vector<double> m_rates;
  int m_streams = 0;
  std::string m_description;
};

// guidellm's sweep, run by the caller as separate runs: first synchronous (one stream), then
// throughput (everything at once), then `count` constant rates spaced evenly strictly between the
// two request rates those runs achieved: sync + (max - sync) * i / (count + 1), i = 1..count.
std::vector<double> sweepRates(double synchronousRate, double throughputRate, int count);

}  // namespace ayar
