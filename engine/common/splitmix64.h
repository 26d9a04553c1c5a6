#pragma once

// splitmix64 (Steele, Lea and Flood), the one definition every part of the engine uses: the dummy
// weights (on the host and, bit for bit the same, in a CUDA kernel), the samplers' draws, the prefix
// cache's block hashes and the response ids. Header-only and usable from device code, so that it
// sits below every library of the engine.

#include <cstdint>

#if defined(__CUDACC__)
#define AYAR_HOST_DEVICE __host__ __device__
#else
#define AYAR_HOST_DEVICE
#endif

namespace ayar::engine {

// The step by which a splitmix64 state advances: the odd integer nearest 2^64 divided by the golden ratio.
inline constexpr std::uint64_t kSplitMix64Gamma = 0x9e3779b97f4a7c15ull;

// The finaliser alone: a bijective mix of the 64 bits of z.
AYAR_HOST_DEVICE constexpr std::uint64_t splitmix64Mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// The full step: advances `state` by kSplitMix64Gamma and returns the mix of the new state.
AYAR_HOST_DEVICE constexpr std::uint64_t splitmix64Next(std::uint64_t& state) {
  state += kSplitMix64Gamma;
  return splitmix64Mix(state);
}

}  // namespace ayar::engine
