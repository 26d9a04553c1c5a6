#include "core/load/arrival_schedule.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <numeric>
#include <vector>

#include "core/error.h"

namespace ayar {
namespace {

struct GapStatistics {
  double mean = 0;
  double cv2 = 0;  // squared coefficient of variation: variance / mean^2
};

GapStatistics gapStatistics(const std::vector<double>& offsets) {
  std::vector<double> gaps;
  double previous = 0;
  for (double offset : offsets) {
    gaps.push_back(offset - previous);
    previous = offset;
  }
  GapStatistics stats;
  stats.mean = std::accumulate(gaps.begin(), gaps.end(), 0.0) / static_cast<double>(gaps.size());
  double variance = 0;
  for (double gap : gaps)
    variance += (gap - stats.mean) * (gap - stats.mean);
  variance /= static_cast<double>(gaps.size());
  stats.cv2 = variance / (stats.mean * stats.mean);
  return stats;
}

TEST(ArrivalSchedule, PoissonMeanRateMatchesWithinOnePercent) {
  const auto schedule = ArrivalSchedule::atRate(100000, 50.0, 1.0, 7);
  const GapStatistics stats = gapStatistics(schedule.offsetsS());
  EXPECT_NEAR(1.0 / stats.mean, 50.0, 0.5);
  EXPECT_NEAR(std::sqrt(stats.cv2), 1.0, 0.02);  // exponential gaps: CV = 1
}

TEST(ArrivalSchedule, GammaGapsHaveSquaredCvOfOneOverBurstiness) {
  for (double burstiness : {0.25, 0.5, 2.0, 4.0}) {
    const auto schedule = ArrivalSchedule::atRate(100000, 10.0, burstiness, 11);
    const GapStatistics stats = gapStatistics(schedule.offsetsS());
    EXPECT_NEAR(stats.cv2, 1.0 / burstiness, 0.04 / burstiness) << "burstiness " << burstiness;
    EXPECT_NEAR(1.0 / stats.mean, 10.0, 0.1) << "burstiness " << burstiness;
  }
}

TEST(ArrivalSchedule, FinalRescalePutsTheLastArrivalAtCountOverRate) {
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    const auto schedule = ArrivalSchedule::atRate(1000, 8.0, 0.7, seed);
    ASSERT_EQ(schedule.size(), 1000u);
    // vLLM multiplies every offset by (count / rate) / last; the last lands there to the rounding.
    EXPECT_NEAR(schedule.offsetsS().back(), 1000.0 / 8.0, 1e-12);
    EXPECT_TRUE(std::is_sorted(schedule.offsetsS().begin(), schedule.offsetsS().end()));
    EXPECT_GT(schedule.offsetsS().front(), 0.0);  // vLLM waits one gap before the first request too
  }
}

const nlohmann::json& vllmReference() {
  static const nlohmann::json json = [] {
    std::ifstream in(std::string(AYAR_VLLM_REFERENCE_DIR) + "/reference_draws.json");
    return nlohmann::json::parse(in);
  }();
  return json;
}

double rateOf(const nlohmann::json& value) {
  return value.is_string() ? ArrivalSchedule::kInfinity : value.get<double>();
}

// The arrival times `vllm bench serve` computes for the same flags and --seed, to the last bit
// (tests/vllm/make_reference_draws.py draws them with numpy): Poisson, bursty and smooth gamma
// gaps, a constant rate, all at once, and both ramp-ups.
TEST(ArrivalSchedule, SameSeedGivesVllmsArrivalTimes) {
  for (const auto& c : vllmReference()["arrivals"]) {
    SCOPED_TRACE(c.dump().substr(0, 200));
    const auto count = c["count"].get<std::size_t>();
    const auto seed = c["seed"].get<std::uint64_t>();
    const double burstiness = rateOf(c["burstiness"]);
    const ArrivalSchedule schedule =
        c["ramp_up_strategy"].is_null()
            ? ArrivalSchedule::atRate(count, rateOf(c["request_rate"]), burstiness, seed)
            : ArrivalSchedule::rampUp(count, c["ramp_up_strategy"].get<std::string>(),
                                      c["ramp_up_start_rps"].get<double>(),
                                      c["ramp_up_end_rps"].get<double>(), burstiness, seed);
    EXPECT_EQ(schedule.offsetsS(), c["delays"].get<std::vector<double>>());
    if (!c["ramp_up_strategy"].is_null()) {
      EXPECT_EQ(schedule.requestRates(), c["rates"].get<std::vector<double>>());
    }
  }
}

TEST(ArrivalSchedule, RampUpRefusesWhatVllmRefusesAndAStartOfZero) {
  EXPECT_THROW(ArrivalSchedule::rampUp(10, "sideways", 1, 5, 1.0, 0), Error);
  EXPECT_THROW(ArrivalSchedule::rampUp(10, "linear", 6, 5, 1.0, 0), Error);
  EXPECT_THROW(ArrivalSchedule::rampUp(10, "linear", -1, 5, 1.0, 0), Error);
  EXPECT_THROW(ArrivalSchedule::rampUp(10, "exponential", 0, 5, 1.0, 0), Error);
  EXPECT_THROW(ArrivalSchedule::rampUp(10, "linear", 0, 5, 1.0, 0), Error);  // vLLM's assert fails later
  EXPECT_THROW(ArrivalSchedule::atRate(10, 2.0, 1.0, 1ull << 32), Error);    // numpy's seed limit
  EXPECT_NO_THROW(ArrivalSchedule::atRate(10, 2.0, 1.0, 0xFFFFFFFFull));
}

TEST(ArrivalSchedule, ConstantRateIsExactlySpaced) {
  const auto schedule = ArrivalSchedule::constantRate(400, 4.0);
  for (std::size_t i = 0; i < schedule.size(); ++i) {
    ASSERT_EQ(schedule.offsetsS()[i], static_cast<double>(i + 1) / 4.0) << i;
  }
  EXPECT_EQ(ArrivalSchedule::atRate(3, 2.0, ArrivalSchedule::kInfinity, 5).offsetsS(),
            (std::vector<double>{0.5, 1.0, 1.5}));
}

TEST(ArrivalSchedule, InfiniteRateSendsEverythingAtZero) {
  const auto schedule = ArrivalSchedule::atRate(50, ArrivalSchedule::kInfinity, 1.0, 3);
  EXPECT_EQ(schedule.offsetsS(), std::vector<double>(50, 0.0));
  EXPECT_EQ(ArrivalSchedule::throughput(5).offsetsS(), std::vector<double>(5, 0.0));
  EXPECT_EQ(schedule.mode(), ArrivalSchedule::Mode::OpenLoop);
}

TEST(ArrivalSchedule, SameSeedGivesTheSameScheduleAndOtherSeedsDiffer) {
  const auto first = ArrivalSchedule::atRate(500, 3.0, 1.0, 99);
  const auto again = ArrivalSchedule::atRate(500, 3.0, 1.0, 99);
  const auto other = ArrivalSchedule::atRate(500, 3.0, 1.0, 100);
  EXPECT_EQ(first.offsetsS(), again.offsetsS());
  EXPECT_NE(first.offsetsS(), other.offsetsS());
}

TEST(ArrivalSchedule, ConcurrentIsAClosedLoop) {
  const auto schedule = ArrivalSchedule::concurrent(20, 4);
  EXPECT_EQ(schedule.mode(), ArrivalSchedule::Mode::ClosedLoop);
  EXPECT_EQ(schedule.closedLoopStreams(), 4);
  EXPECT_EQ(schedule.size(), 20u);
  EXPECT_EQ(ArrivalSchedule::concurrent(3, 1).description(), "synchronous");
}

TEST(ArrivalSchedule, BadParametersAreUserErrors) {
  EXPECT_THROW(ArrivalSchedule::atRate(10, 0.0, 1.0, 1), Error);
  EXPECT_THROW(ArrivalSchedule::atRate(10, -1.0, 1.0, 1), Error);
  EXPECT_THROW(ArrivalSchedule::atRate(10, std::nan(""), 1.0, 1), Error);
  EXPECT_THROW(ArrivalSchedule::atRate(10, 1.0, 0.0, 1), Error);
  EXPECT_THROW(ArrivalSchedule::concurrent(10, 0), Error);
  EXPECT_THROW(ArrivalSchedule::atRate(10, 1e-12, 1.0, 1), Error);
  EXPECT_TRUE(ArrivalSchedule::atRate(0, 1.0, 1.0, 1).offsetsS().empty());
}

TEST(SweepRates, SpacesRatesEvenlyBetweenSynchronousAndThroughput) {
  const std::vector<double> rates = sweepRates(2.0, 12.0, 4);
  ASSERT_EQ(rates.size(), 4u);
  EXPECT_DOUBLE_EQ(rates[0], 4.0);
  EXPECT_DOUBLE_EQ(rates[1], 6.0);
  EXPECT_DOUBLE_EQ(rates[2], 8.0);
  EXPECT_DOUBLE_EQ(rates[3], 10.0);
  EXPECT_TRUE(sweepRates(2.0, 12.0, 0).empty());
  EXPECT_THROW(sweepRates(0.0, 12.0, 3), Error);
  EXPECT_THROW(sweepRates(5.0, 4.0, 3), Error);
}

}  // namespace
}  // namespace ayar
