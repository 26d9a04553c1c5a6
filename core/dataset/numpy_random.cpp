#include "core/dataset/numpy_random.h"

#include <array>
#include <cassert>
#include <cmath>

namespace ayar {

double NumpyLegacyRandom::standardExponential() {
  return -std::log(1.0 - uniform());
}

double NumpyLegacyRandom::gauss() {
  if (m_hasGauss) {
    m_hasGauss = false;
    const double kept = m_gauss;
    m_gauss = 0.0;
    return kept;
  }
  double x1 = 0, x2 = 0, r2 = 0;
  do {
    x1 = 2.0 * uniform() - 1.0;
    x2 = 2.0 * uniform() - 1.0;
    r2 = x1 * x1 + x2 * x2;
  } while (r2 >= 1.0 || r2 == 0.0);
  const double f = std::sqrt(-2.0 * std::log(r2) / r2);
  m_gauss = f * x1;
  m_hasGauss = true;
  return f * x2;
}

// Each expression keeps numpy's order of operations: the draws must agree to the last bit.
double NumpyLegacyRandom::standardGamma(double shape) {
  if (shape == 1.0) return standardExponential();
  if (shape == 0.0) return 0.0;
  if (shape < 1.0) {
    for (;;) {
      const double u = uniform();
      const double v = standardExponential();
      if (u <= 1.0 - shape) {
        const double x = std::pow(u, 1. / shape);
        if (x <= v) return x;
      } else {
        const double y = -std::log((1 - u) / shape);
        const double x = std::pow(1.0 - shape + shape * y, 1. / shape);
        if (x <= (v + y)) return x;
      }
    }
  }
  const double b = shape - 1. / 3.;
  const double c = 1. / std::sqrt(9 * b);
  for (;;) {
    double x = 0, v = 0;
    do {
      x = gauss();
      v = 1.0 + c * x;
    } while (v <= 0.0);
    v = v * v * v;
    const double u = uniform();
    if (u < 1.0 - 0.0331 * (x * x) * (x * x)) return b * v;
    if (std::log(u) < 0.5 * x * x + b * (1. - v + std::log(v))) return b * v;
  }
}

namespace {

constexpr std::uint32_t kInitA = 0x43b0d7e5, kMultA = 0x931e8875, kInitB = 0x8b51f9dd, kMultB = 0x58f38ded;
constexpr std::uint32_t kMixMultL = 0xca01f9dd, kMixMultR = 0x4973f715;
constexpr int kXShift = 16;
constexpr std::size_t kPoolSize = 4;

std::uint32_t hashMix(std::uint32_t value, std::uint32_t& hashConst) {
  value ^= hashConst;
  hashConst *= kMultA;
  value *= hashConst;
  value ^= value >> kXShift;
  return value;
}

std::uint32_t mix(std::uint32_t x, std::uint32_t y) {
  std::uint32_t result = kMixMultL * x - kMixMultR * y;
  result ^= result >> kXShift;
  return result;
}

}  // namespace

std::vector<std::uint32_t> seedSequenceState(std::uint64_t entropy, std::size_t words) {
  // The integer's 32-bit words, least significant first ([0] for 0).
  std::vector<std::uint32_t> input;
  do {
    input.push_back(static_cast<std::uint32_t>(entropy & 0xffffffffu));
    entropy >>= 32;
  } while (entropy != 0);

  std::array<std::uint32_t, kPoolSize> pool{};
  std::uint32_t hashConst = kInitA;
  for (std::size_t i = 0; i < kPoolSize; ++i)
    pool[i] = hashMix(i < input.size() ? input[i] : 0u, hashConst);
  for (std::size_t src = 0; src < kPoolSize; ++src) {
    for (std::size_t dst = 0; dst < kPoolSize; ++dst) {
      if (src != dst) pool[dst] = mix(pool[dst], hashMix(pool[src], hashConst));
    }
  }
  for (std::size_t src = kPoolSize; src < input.size(); ++src) {
    for (std::size_t dst = 0; dst < kPoolSize; ++dst)
      pool[dst] = mix(pool[dst], hashMix(input[src], hashConst));
  }

  std::vector<std::uint32_t> state(words);
  std::uint32_t outConst = kInitB;
  for (std::size_t i = 0; i < words; ++i) {
    std::uint32_t value = pool[i % kPoolSize];
    value ^= outConst;
    outConst *= kMultB;
    value *= outConst;
    value ^= value >> kXShift;
    state[i] = value;
  }
  return state;
}

namespace {

__extension__ typedef unsigned __int128 Uint128;

constexpr Uint128 kPcgMultiplier =
    (static_cast<Uint128>(0x2360ED051FC65DA4ULL) << 64) | 0x4385DF649FCCF645ULL;

}  // namespace

NumpyGenerator::NumpyGenerator(std::uint64_t seed) {
  // PCG64's seeding: four 64-bit words (two 32-bit words each, little end first) give the initial
  // state (words 0-1, high first) and the stream (words 2-3).
  const std::vector<std::uint32_t> words = seedSequenceState(seed, 8);
  std::uint64_t w[4];
  for (int i = 0; i < 4; ++i)
    w[i] = static_cast<std::uint64_t>(words[2 * i]) | (static_cast<std::uint64_t>(words[2 * i + 1]) << 32);
  const Uint128 initState = (static_cast<Uint128>(w[0]) << 64) | w[1];
  const Uint128 initSequence = (static_cast<Uint128>(w[2]) << 64) | w[3];
  m_state = 0;
  m_increment = (initSequence << 1u) | 1u;
  m_state = m_state * kPcgMultiplier + m_increment;
  m_state += initState;
  m_state = m_state * kPcgMultiplier + m_increment;
}

std::uint64_t NumpyGenerator::next64() {
  m_state = m_state * kPcgMultiplier + m_increment;
  const auto high = static_cast<std::uint64_t>(m_state >> 64);
  const auto low = static_cast<std::uint64_t>(m_state);
  const unsigned rotation = static_cast<unsigned>(m_state >> 122);
  const std::uint64_t x = high ^ low;
  return (x >> rotation) | (x << ((64u - rotation) & 63u));
}

std::uint32_t NumpyGenerator::next32() {
  if (m_hasUint32) {
    m_hasUint32 = false;
    return m_uint32;
  }
  const std::uint64_t next = next64();
  m_hasUint32 = true;
  m_uint32 = static_cast<std::uint32_t>(next >> 32);
  return static_cast<std::uint32_t>(next & 0xffffffffu);
}

std::vector<std::int64_t> NumpyGenerator::integers(std::int64_t low, std::int64_t high, std::size_t count) {
  assert(high > low);
  // numpy draws on the closed interval [low, high - 1], its width `range` = high - 1 - low.
  const auto range = static_cast<std::uint64_t>(high - 1) - static_cast<std::uint64_t>(low);
  const auto offset = static_cast<std::uint64_t>(low);
  std::vector<std::int64_t> out(count);
  for (std::int64_t& value : out) {
    std::uint64_t drawn = 0;
    if (range == 0) {
      drawn = 0;
    } else if (range == 0xFFFFFFFFULL) {
      drawn = next32();
    } else if (range < 0xFFFFFFFFULL) {
      const auto excluded = static_cast<std::uint32_t>(range) + 1u;
      std::uint64_t m = static_cast<std::uint64_t>(next32()) * excluded;
      auto leftover = static_cast<std::uint32_t>(m);
      if (leftover < excluded) {
        const std::uint32_t threshold = (0xFFFFFFFFu - static_cast<std::uint32_t>(range)) % excluded;
        while (leftover < threshold) {
          m = static_cast<std::uint64_t>(next32()) * excluded;
          leftover = static_cast<std::uint32_t>(m);
        }
      }
      drawn = m >> 32;
    } else if (range == ~0ULL) {
      drawn = next64();
    } else {
      const std::uint64_t excluded = range + 1;
      Uint128 m = static_cast<Uint128>(next64()) * excluded;
      auto leftover = static_cast<std::uint64_t>(m);
      if (leftover < excluded) {
        const std::uint64_t threshold = (~0ULL - range) % excluded;
        while (leftover < threshold) {
          m = static_cast<Uint128>(next64()) * excluded;
          leftover = static_cast<std::uint64_t>(m);
        }
      }
      drawn = static_cast<std::uint64_t>(m >> 64);
    }
    value = static_cast<std::int64_t>(offset + drawn);
  }
  return out;
}

}  // namespace ayar
