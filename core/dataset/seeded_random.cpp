#include "core/dataset/seeded_random.h"

#include <bit>
#include <cassert>
#include <limits>

namespace ayar {

std::uint64_t SeededRandom::below(std::uint64_t bound) {
  assert(bound > 0);
  // Reject the top partial block so that every residue is equally likely.
  const std::uint64_t limit =
      std::numeric_limits<std::uint64_t>::max() - std::numeric_limits<std::uint64_t>::max() % bound;
  std::uint64_t value = 0;
  do {
    value = m_engine();
  } while (value >= limit);
  return value % bound;
}

std::int64_t SeededRandom::between(std::int64_t low, std::int64_t high) {
  assert(low <= high);
  const auto span = static_cast<std::uint64_t>(high - low) + 1;
  return low + static_cast<std::int64_t>(below(span));
}

double SeededRandom::uniform() {
  return static_cast<double>(m_engine() >> 11) * 0x1.0p-53;
}

Mt19937 Mt19937::fromSeed(std::uint32_t seed) {
  Mt19937 mt;
  mt.m_state[0] = seed;
  for (int i = 1; i < kN; ++i) {
    mt.m_state[i] =
        1812433253u * (mt.m_state[i - 1] ^ (mt.m_state[i - 1] >> 30)) + static_cast<std::uint32_t>(i);
  }
  mt.m_index = kN;
  return mt;
}

Mt19937 Mt19937::fromKey(std::span<const std::uint32_t> key) {
  Mt19937 mt = fromSeed(19650218u);
  std::uint32_t* state = mt.m_state;
  int i = 1;
  std::size_t j = 0;
  const int keyLength = static_cast<int>(key.size());
  for (int k = kN > keyLength ? kN : keyLength; k > 0; --k) {
    state[i] = (state[i] ^ ((state[i - 1] ^ (state[i - 1] >> 30)) * 1664525u)) + key[j] +
               static_cast<std::uint32_t>(j);
    ++i;
    ++j;
    if (i >= kN) {
      state[0] = state[kN - 1];
      i = 1;
    }
    if (j >= key.size()) j = 0;
  }
  for (int k = kN - 1; k > 0; --k) {
    state[i] =
        (state[i] ^ ((state[i - 1] ^ (state[i - 1] >> 30)) * 1566083941u)) - static_cast<std::uint32_t>(i);
    ++i;
    if (i >= kN) {
      state[0] = state[kN - 1];
      i = 1;
    }
  }
  state[0] = 0x80000000u;
  mt.m_index = kN;
  return mt;
}

std::uint32_t Mt19937::next() {
  constexpr int kM = 397;
  constexpr std::uint32_t kMatrixA = 0x9908b0dfu, kUpper = 0x80000000u, kLower = 0x7fffffffu;
  if (m_index >= kN) {
    int k = 0;
    for (; k < kN - kM; ++k) {
      const std::uint32_t y = (m_state[k] & kUpper) | (m_state[k + 1] & kLower);
      m_state[k] = m_state[k + kM] ^ (y >> 1) ^ ((y & 1u) ? kMatrixA : 0u);
    }
    for (; k < kN - 1; ++k) {
      const std::uint32_t y = (m_state[k] & kUpper) | (m_state[k + 1] & kLower);
      m_state[k] = m_state[k + (kM - kN)] ^ (y >> 1) ^ ((y & 1u) ? kMatrixA : 0u);
    }
    const std::uint32_t y = (m_state[kN - 1] & kUpper) | (m_state[0] & kLower);
    m_state[kN - 1] = m_state[kM - 1] ^ (y >> 1) ^ ((y & 1u) ? kMatrixA : 0u);
    m_index = 0;
  }
  std::uint32_t y = m_state[m_index++];
  y ^= (y >> 11);
  y ^= (y << 7) & 0x9d2c5680u;
  y ^= (y << 15) & 0xefc60000u;
  y ^= (y >> 18);
  return y;
}

double Mt19937::nextDouble() {
  const std::uint32_t a = next() >> 5;
  const std::uint32_t b = next() >> 6;
  return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

namespace {

// random.seed(n): the absolute value's 32-bit words, least significant first, at least one word.
std::vector<std::uint32_t> seedWords(std::uint64_t seed) {
  std::vector<std::uint32_t> key;
  do {
    key.push_back(static_cast<std::uint32_t>(seed & 0xffffffffu));
    seed >>= 32;
  } while (seed != 0);
  return key;
}

}  // namespace

PythonRandom::PythonRandom(std::uint64_t seed) : m_mt(Mt19937::fromKey(seedWords(seed))) {}

std::uint32_t PythonRandom::getrandbits(int k) {
  assert(k >= 1 && k <= 32);
  return getrandbits32() >> (32 - k);
}

std::uint32_t PythonRandom::randbelow(std::uint32_t n) {
  assert(n >= 1);
  const int k = std::bit_width(n);  // n.bit_length()
  std::uint32_t r = getrandbits(k);
  while (r >= n)
    r = getrandbits(k);
  return r;
}

}  // namespace ayar
