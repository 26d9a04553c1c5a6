#pragma once

#include <cstdint>
#include <vector>

#include "core/dataset/seeded_random.h"

namespace ayar {

// numpy's global RandomState after np.random.seed(seed): MT19937 seeded with init_genrand and the
// legacy distributions, which numpy keeps unchanged since 1.16 so that a seed gives the same stream
// in every version. vLLM draws its arrival gaps with np.random.gamma from this state; drawing the
// same way gives the same arrival times for the same --seed.
class NumpyLegacyRandom {
 public:
  explicit NumpyLegacyRandom(std::uint32_t seed) : m_mt(Mt19937::fromSeed(seed)) {}

  double uniform() { return m_mt.nextDouble(); }
  // -log(1 - U)
  double standardExponential();
  // Marsaglia's polar method; the second value of each pair is kept for the next call.
  double gauss();
  // Marsaglia and Tsang for shape > 1, Johnk-like rejection for shape < 1, exponential for 1.
  double standardGamma(double shape);
  // np.random.gamma(shape, scale)
  double gamma(double shape, double scale) { return scale * standardGamma(shape); }

 private:
  Mt19937 m_mt;
  bool m_hasGauss = false;
  double m_gauss = 0.0;
};

// np.random.default_rng(seed): the PCG64 bit generator (128-bit LCG, XSL-RR output) seeded through
// SeedSequence, with Generator.integers' bounded draws (Lemire's method, 32-bit draws for ranges
// that fit, the unused half of a 64-bit output kept for the next one). vLLM's random dataset draws
// its lengths, offsets and padding tokens from such a generator.
class NumpyGenerator {
 public:
  explicit NumpyGenerator(std::uint64_t seed);

  std::uint64_t next64();
  std::uint32_t next32();
  // Generator.integers(low, high, size=count) for int64: values in [low, high), high > low.
  std::vector<std::int64_t> integers(std::int64_t low, std::int64_t high, std::size_t count);

 private:
  __extension__ typedef unsigned __int128 Uint128;
  Uint128 m_state = 0;
  Uint128 m_increment = 0;
  bool m_hasUint32 = false;
  std::uint32_t m_uint32 = 0;
};

// SeedSequence(entropy).generate_state(words) as 32-bit words (pool size 4, no spawn key).
std::vector<std::uint32_t> seedSequenceState(std::uint64_t entropy, std::size_t words);

}  // namespace ayar
