#include "engine/model/fp8.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace ayar::engine {

namespace {

// Nearest integer to x >= 0, ties to even (x is exact: a float scaled by a power of two, in double).
double roundHalfEven(double x) {
  const double floor = std::floor(x);
  const double fraction = x - floor;
  if (fraction > 0.5) return floor + 1.0;
  if (fraction < 0.5) return floor;
  return std::fmod(floor, 2.0) == 0.0 ? floor : floor + 1.0;
}

}  // namespace

std::uint8_t floatToE4m3(float value) {
  if (std::isnan(value)) return 0x7f;
  const std::uint8_t sign = std::signbit(value) ? 0x80 : 0x00;
  const double magnitude = std::fabs(static_cast<double>(value));
  if (magnitude >= kE4m3Max) return sign | 0x7e;  // 448 (and saturation: 0x7f is NaN)
  // Below 2^-6 the codes are subnormal: code = magnitude / 2^-9, in 0..8 (8 is 2^-6, the first normal,
  // whose code is also 8).
  if (magnitude < 0x1p-6) return sign | static_cast<std::uint8_t>(roundHalfEven(magnitude * 512.0));
  int exponent = 0;
  const double mantissa = std::frexp(magnitude, &exponent);  // magnitude = mantissa x 2^exponent, [0.5, 1)
  // magnitude = (1 + m / 8) x 2^e with e = exponent - 1; m rounds to 0..8 (8 carries into the exponent).
  const double m = roundHalfEven((mantissa * 2.0 - 1.0) * 8.0);
  const int code = ((exponent - 1 + 7) << 3) + static_cast<int>(m);  // the carry adds 8 = one exponent
  return sign | static_cast<std::uint8_t>(std::min(code, 0x7e));     // below 448 the code is at most 0x7e
}

float e4m3ToFloat(std::uint8_t code) {
  const bool negative = (code & 0x80) != 0;
  const int exponent = (code >> 3) & 0xf;
  const int mantissa = code & 0x7;
  if (exponent == 0xf && mantissa == 0x7) return std::nanf("");
  const double magnitude = exponent == 0 ? std::ldexp(mantissa, -9) : std::ldexp(8 + mantissa, exponent - 10);
  return static_cast<float>(negative ? -magnitude : magnitude);
}

float fp8Scale(float absMax) {
  return absMax > 0.0f ? absMax / kE4m3Max : 1.0f;
}

namespace {

float quantizeRun(float* run, std::int64_t count) {
  float absMax = 0.0f;
  for (std::int64_t i = 0; i < count; ++i)
    absMax = std::max(absMax, std::fabs(run[i]));
  const float scale = fp8Scale(absMax);
  for (std::int64_t i = 0; i < count; ++i)
    run[i] = e4m3ToFloat(floatToE4m3(run[i] / scale)) * scale;
  return scale;
}

}  // namespace

std::vector<float> quantizeRowsFp8(std::span<float> values, std::int64_t rows, std::int64_t cols) {
  assert(static_cast<std::int64_t>(values.size()) == rows * cols);
  std::vector<float> scales(static_cast<std::size_t>(rows));
  for (std::int64_t r = 0; r < rows; ++r)
    scales[static_cast<std::size_t>(r)] = quantizeRun(values.data() + r * cols, cols);
  return scales;
}

void quantizeGroupsFp8(std::span<float> values, std::int64_t rows, std::int64_t cols, std::int64_t group) {
  assert(static_cast<std::int64_t>(values.size()) == rows * cols && group > 0);
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int64_t c = 0; c < cols; c += group)
      quantizeRun(values.data() + r * cols + c, std::min(group, cols - c));
  }
}

}  // namespace ayar::engine
