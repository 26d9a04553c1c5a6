#include "engine/model/fp8.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace ayar::engine {
namespace {

// The positive finite codes in increasing order of value: 0x00 .. 0x7e.
std::vector<float> positiveValues() {
  std::vector<float> values;
  for (int code = 0; code <= 0x7e; ++code)
    values.push_back(e4m3ToFloat(static_cast<std::uint8_t>(code)));
  return values;
}

TEST(Fp8, EveryCodeDecodesToItsValueAndEncodesBackToItself) {
  EXPECT_EQ(e4m3ToFloat(0x00), 0.0f);
  EXPECT_EQ(e4m3ToFloat(0x01), std::ldexp(1.0f, -9));  // the smallest subnormal
  EXPECT_EQ(e4m3ToFloat(0x07), 7.0f * std::ldexp(1.0f, -9));
  EXPECT_EQ(e4m3ToFloat(0x08), std::ldexp(1.0f, -6));  // the smallest normal
  EXPECT_EQ(e4m3ToFloat(0x38), 1.0f);
  EXPECT_EQ(e4m3ToFloat(0x3c), 1.5f);
  EXPECT_EQ(e4m3ToFloat(0x7e), 448.0f);
  EXPECT_EQ(e4m3ToFloat(0xb8), -1.0f);
  EXPECT_TRUE(std::isnan(e4m3ToFloat(0x7f)));
  EXPECT_TRUE(std::isnan(e4m3ToFloat(0xff)));
  for (int code = 0; code < 256; ++code) {
    if ((code & 0x7f) == 0x7f) continue;
    EXPECT_EQ(floatToE4m3(e4m3ToFloat(static_cast<std::uint8_t>(code))), code) << "code " << code;
  }
  const std::vector<float> values = positiveValues();
  for (std::size_t i = 1; i < values.size(); ++i)
    EXPECT_LT(values[i - 1], values[i]) << "code " << i;  // codes are ordered as their values
}

TEST(Fp8, RoundsToTheNearestValueWithTiesToEvenAndSaturates) {
  const std::vector<float> values = positiveValues();
  for (std::size_t i = 1; i < values.size(); ++i) {
    const float below = values[i - 1], above = values[i];
    const float middle = (below + above) / 2.0f;  // exact: both have few mantissa bits
    const int even = (i - 1) % 2 == 0 ? static_cast<int>(i - 1) : static_cast<int>(i);
    EXPECT_EQ(floatToE4m3(middle), even) << "between codes " << i - 1 << " and " << i;
    EXPECT_EQ(floatToE4m3(std::nextafter(middle, 0.0f)), static_cast<int>(i - 1));
    EXPECT_EQ(floatToE4m3(std::nextafter(middle, 1000.0f)), static_cast<int>(i));
    EXPECT_EQ(floatToE4m3(-middle), 0x80 | even);
  }
  EXPECT_EQ(floatToE4m3(448.0f), 0x7e);
  EXPECT_EQ(floatToE4m3(464.0f), 0x7e);  // past the largest value: saturated, never NaN
  EXPECT_EQ(floatToE4m3(1e30f), 0x7e);
  EXPECT_EQ(floatToE4m3(std::numeric_limits<float>::infinity()), 0x7e);
  EXPECT_EQ(floatToE4m3(-1e30f), 0xfe);
  EXPECT_EQ(floatToE4m3(std::ldexp(1.0f, -11)), 0x00);  // a quarter of the smallest subnormal
  EXPECT_EQ(floatToE4m3(-0.0f), 0x80);
  EXPECT_EQ(floatToE4m3(std::nanf("")), 0x7f);

  // Any value: no code is nearer than the one chosen.
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> exponent(-12.0f, 9.0f);
  for (int i = 0; i < 20000; ++i) {
    const float x = std::exp2(exponent(rng));
    const float chosen = e4m3ToFloat(floatToE4m3(x));
    for (const float v : values)
      ASSERT_LE(std::fabs(x - chosen), std::fabs(x - v)) << x;
  }
}

TEST(Fp8, RowQuantizationKeepsEachRowsLargestValueAndThreeMantissaBits) {
  const std::int64_t rows = 3, cols = 50;
  std::vector<float> values(rows * cols);
  std::mt19937 rng(5);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int64_t c = 0; c < cols; ++c)
      values[static_cast<std::size_t>(r * cols + c)] = normal(rng) * (r == 1 ? 1e-3f : 10.0f);
  }
  for (std::int64_t c = 0; c < cols; ++c)
    values[static_cast<std::size_t>(2 * cols + c)] = 0.0f;  // an all-zero row
  const std::vector<float> original = values;
  const std::vector<float> scales = quantizeRowsFp8(values, rows, cols);
  ASSERT_EQ(scales.size(), 3u);
  EXPECT_EQ(scales[2], 1.0f);
  for (std::int64_t r = 0; r < 2; ++r) {
    float absMax = 0.0f;
    for (std::int64_t c = 0; c < cols; ++c)
      absMax = std::max(absMax, std::fabs(original[static_cast<std::size_t>(r * cols + c)]));
    EXPECT_FLOAT_EQ(scales[static_cast<std::size_t>(r)], absMax / 448.0f);
    for (std::int64_t c = 0; c < cols; ++c) {
      const float before = original[static_cast<std::size_t>(r * cols + c)];
      const float after = values[static_cast<std::size_t>(r * cols + c)];
      // A code's value: code x scale exactly; within half a step of 3 mantissa bits above the subnormals.
      EXPECT_EQ(after, e4m3ToFloat(floatToE4m3(before / scales[r])) * scales[r]);
      if (std::fabs(before) / scales[r] >= std::ldexp(1.0f, -6)) {
        EXPECT_LE(std::fabs(after - before), std::fabs(before) / 16.0f * 1.0001f);
      }
    }
  }
  for (std::int64_t c = 0; c < cols; ++c)
    EXPECT_EQ(values[static_cast<std::size_t>(2 * cols + c)], 0.0f);
}

TEST(Fp8, GroupQuantizationScalesEachRunOnItsOwn) {
  // One row of two runs of 4 and a short last run of 2: a large run does not flatten a small one.
  std::vector<float> values{1000.0f, -500.0f, 3.0f, 7.0f, 0.001f, 0.002f, -0.003f, 0.0005f, 5.0f, 2.5f};
  quantizeGroupsFp8(values, 1, 10, 4);
  EXPECT_FLOAT_EQ(values[0], 1000.0f);
  // Scaled with the row's 1000 these would all be 0; with their own run's scale each keeps 3 bits.
  for (const auto& [index, before] :
       {std::pair{4, 0.001f}, std::pair{5, 0.002f}, std::pair{6, -0.003f}, std::pair{7, 0.0005f}})
    EXPECT_NEAR(values[static_cast<std::size_t>(index)], before, std::fabs(before) / 16.0f) << index;
  EXPECT_FLOAT_EQ(values[8], 5.0f);
  EXPECT_FLOAT_EQ(values[9], 2.5f);
}

}  // namespace
}  // namespace ayar::engine
