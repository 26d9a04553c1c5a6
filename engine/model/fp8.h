#pragma once

// FP8 e4m3 (the OCP "E4M3FN" format NVIDIA's Hopper tensor cores take: 1 sign, 4 exponent bits with bias
// 7, 3 mantissa bits; no infinities, S.1111.111 is NaN, the largest finite value 448), and the scaled
// quantization --quantization fp8 and FP8 checkpoints use. A value is stored as a code and a float32 scale
// shared by a row or a block of values: value ~= e4m3ToFloat(code) x scale, code = floatToE4m3(value /
// scale), scale = the largest magnitude / 448 (so the largest value lands on 448 exactly).

#include <cstdint>
#include <span>
#include <vector>

namespace ayar::engine {

inline constexpr float kE4m3Max = 448.0f;

// Rounds to the nearest e4m3 value, ties to even; magnitudes past 448 saturate to +-448 (as CUDA's
// satfinite conversion does), NaN becomes 0x7f.
std::uint8_t floatToE4m3(float value);
// The exact value of a code (NaN for 0x7f and 0xff).
float e4m3ToFloat(std::uint8_t code);

// The scale of a group of values whose largest magnitude is `absMax`: absMax / 448, or 1 for an all-zero
// group (every code is then 0).
float fp8Scale(float absMax);

// Quantizes each row of a [rows, cols] matrix with its own scale and replaces every value by what its
// code and scale stand for (the CPU backend computes with those values in float32). Returns the scales.
std::vector<float> quantizeRowsFp8(std::span<float> values, std::int64_t rows, std::int64_t cols);

// The same for each run of `group` values within a row (the last run of a row may be shorter): the
// activations of a block-scaled checkpoint, quantized per token and group of 128 features.
void quantizeGroupsFp8(std::span<float> values, std::int64_t rows, std::int64_t cols, std::int64_t group);

}  // namespace ayar::engine
