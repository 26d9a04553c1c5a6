#include "core/metrics/statistics.h"

#include <gtest/gtest.h>

#include <vector>

namespace ayar {
namespace {

TEST(Percentile, InterpolatesLinearlyLikeNumpy) {
  const std::vector<double> values{1.0, 2.0, 3.0, 4.0};
  // numpy.percentile([1, 2, 3, 4], p): rank p/100 * 3.
  EXPECT_DOUBLE_EQ(percentileLinear(values, 90.0), 3.7);
  EXPECT_DOUBLE_EQ(percentileLinear(values, 50.0), 2.5);
  EXPECT_DOUBLE_EQ(percentileLinear(values, 99.0), 3.97);
  EXPECT_DOUBLE_EQ(percentileLinear(values, 25.0), 1.75);
  EXPECT_DOUBLE_EQ(percentileLinear(values, 0.0), 1.0);
  EXPECT_DOUBLE_EQ(percentileLinear(values, 100.0), 4.0);
}

TEST(Percentile, OddCountMedianIsTheMiddleValue) {
  const std::vector<double> values{10.0, 20.0, 60.0};
  EXPECT_DOUBLE_EQ(percentileLinear(values, 50.0), 20.0);
  // rank 0.95 * 2 = 1.9: 20 + 0.9 * 40.
  EXPECT_DOUBLE_EQ(percentileLinear(values, 95.0), 56.0);
}

TEST(Percentile, SingleValueAndEmptyInput) {
  const std::vector<double> one{5.0};
  EXPECT_DOUBLE_EQ(percentileLinear(one, 99.0), 5.0);
  EXPECT_DOUBLE_EQ(percentileLinear({}, 99.0), 0.0);
}

TEST(Statistics, StdIsThePopulationStandardDeviation) {
  const std::vector<double> values{1.0, 2.0, 3.0, 4.0};
  EXPECT_DOUBLE_EQ(mean(values), 2.5);
  // sqrt(((1.5^2 + 0.5^2) * 2) / 4) = sqrt(1.25); the sample std would be sqrt(5/3) = 1.29.
  EXPECT_DOUBLE_EQ(populationStdDev(values), 1.118033988749895);
  EXPECT_DOUBLE_EQ(mean({}), 0.0);
  EXPECT_DOUBLE_EQ(populationStdDev({}), 0.0);
}

}  // namespace
}  // namespace ayar
