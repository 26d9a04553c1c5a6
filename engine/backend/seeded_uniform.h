#pragma once

// The uniform draws the backends sample with, header-only so that the CPU backend and the CUDA backend
// (which samples on the GPU from host-drawn uniforms) share them without one linking the other.

#include <cstdint>

#include "engine/common/splitmix64.h"

namespace ayar::engine {

// The top 53 bits of `bits` as a double in [0, 1).
inline double uniformFromBits(std::uint64_t bits) {
  return static_cast<double>(bits >> 11) * 0x1.0p-53;
}

// The uniform draw in [0, 1) for the k-th generated token of a request seeded with `seed`. It depends on
// (seed, k) alone, so a request that is preempted and recomputed draws the same tokens again.
inline double seededUniform(std::uint64_t seed, std::int64_t k) {
  return uniformFromBits(splitmix64Mix(splitmix64Mix(seed + kSplitMix64Gamma) ^
                                       (static_cast<std::uint64_t>(k) * 0xd1b54a32d192ed03ull)));
}

}  // namespace ayar::engine
