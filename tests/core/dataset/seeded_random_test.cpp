#include "core/dataset/seeded_random.h"

#include <gtest/gtest.h>

#include <numeric>

namespace ayar {
namespace {

std::vector<int> range(int n) {
  std::vector<int> values(static_cast<std::size_t>(n));
  std::iota(values.begin(), values.end(), 0);
  return values;
}

// Expected values from CPython 3.11: random.seed(s); random.random() / random.shuffle(list(range(n))).
TEST(PythonRandom, RandomMatchesCPython) {
  PythonRandom random(0);
  EXPECT_EQ(random.random(), 0.8444218515250481);
}

TEST(PythonRandom, ShuffleMatchesCPython) {
  {
    PythonRandom random(0);
    auto values = range(10);
    random.shuffle(values);
    EXPECT_EQ(values, (std::vector<int>{7, 8, 1, 5, 3, 4, 2, 0, 9, 6}));
  }
  {
    PythonRandom random(42);
    auto values = range(20);
    random.shuffle(values);
    EXPECT_EQ(values,
              (std::vector<int>{19, 5, 14, 4, 9, 13, 15, 18, 6, 12, 17, 10, 1, 11, 2, 16, 7, 8, 0, 3}));
  }
  {
    PythonRandom random((1ull << 40) + 5);  // a seed of two 32-bit words
    auto values = range(7);
    random.shuffle(values);
    EXPECT_EQ(values, (std::vector<int>{1, 3, 5, 0, 2, 6, 4}));
  }
}

TEST(SeededRandom, SameSeedSameStreamAndBoundsAreInclusive) {
  SeededRandom a(7), b(7), c(8);
  bool sawLow = false, sawHigh = false, differs = false;
  for (int i = 0; i < 1000; ++i) {
    const std::int64_t x = a.between(3, 6);
    EXPECT_EQ(x, b.between(3, 6));
    differs = differs || x != c.between(3, 6);
    EXPECT_GE(x, 3);
    EXPECT_LE(x, 6);
    sawLow = sawLow || x == 3;
    sawHigh = sawHigh || x == 6;
    const double u = a.uniform();
    EXPECT_EQ(u, b.uniform());
    c.uniform();
    EXPECT_GE(u, 0.0);
    EXPECT_LT(u, 1.0);
  }
  EXPECT_TRUE(sawLow);
  EXPECT_TRUE(sawHigh);
  EXPECT_TRUE(differs);
}

}  // namespace
}  // namespace ayar
