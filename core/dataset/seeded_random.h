#pragma once

#include <cstdint>
#include <random>
#include <span>
#include <utility>
#include <vector>

namespace ayar {

// A seeded generator whose streams are the same with every standard library: std::mt19937_64's
// output is fixed by the standard, and the distributions below are written out here rather than
// taken from <random>, whose algorithms are implementation-defined.
class SeededRandom {
 public:
  explicit SeededRandom(std::uint64_t seed) : m_engine(seed) {}

  // Uniform in [0, bound), bound > 0 (rejection sampling, no modulo bias).
  std::uint64_t below(std::uint64_t bound);
  // Uniform integer in [low, high], low <= high.
  std::int64_t between(std::int64_t low, std::int64_t high);
  // Uniform in [0, 1) with 53 random bits.
  double uniform();

  template <typename T>
  void shuffle(std::vector<T>& values) {
    for (std::size_t i = values.size(); i > 1; --i) {
      std::swap(values[i - 1], values[below(i)]);
    }
  }

 private:
  std::mt19937_64 m_engine;
};

// The Mersenne Twister MT19937 that CPython's `random` and numpy's legacy RandomState share.
class Mt19937 {
 public:
  // init_genrand(seed): numpy's np.random.seed(int).
  static Mt19937 fromSeed(std::uint32_t seed);
  // init_by_array(key): CPython's random.seed(int), the int's 32-bit words as the key.
  static Mt19937 fromKey(std::span<const std::uint32_t> key);

  std::uint32_t next();
  // 53 random bits in [0, 1): ((a >> 5) * 2^26 + (b >> 6)) / 2^53, as random.random() and numpy's
  // legacy next_double compute it.
  double nextDouble();

 private:
  static constexpr int kN = 624;
  std::uint32_t m_state[kN]{};
  int m_index = kN;
};

// CPython's `random` module: MT19937 seeded as random.seed(int) does, with getrandbits, random()
// and shuffle() drawing the same numbers. vLLM orders ShareGPT with random.seed(seed) then
// random.shuffle(entries); using the same stream picks the same conversations.
class PythonRandom {
 public:
  explicit PythonRandom(std::uint64_t seed);

  std::uint32_t getrandbits32() { return m_mt.next(); }
  // random.getrandbits(k) for 1 <= k <= 32.
  std::uint32_t getrandbits(int k);
  // random.random()
  double random() { return m_mt.nextDouble(); }
  // random._randbelow(n) for 1 <= n < 2^32.
  std::uint32_t randbelow(std::uint32_t n);

  template <typename T>
  void shuffle(std::vector<T>& values) {
    for (std::size_t i = values.size(); i-- > 1;) {
      std::swap(values[i], values[randbelow(static_cast<std::uint32_t>(i + 1))]);
    }
  }

 private:
  Mt19937 m_mt;
};

}  // namespace ayar
