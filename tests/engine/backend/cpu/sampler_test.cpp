#include "engine/backend/cpu/sampler.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>
#include <set>

namespace ayar::engine {
namespace {

std::vector<float> logitsOf(const std::vector<double>& probabilities) {
  std::vector<float> logits;
  for (const double p : probabilities)
    logits.push_back(static_cast<float>(std::log(p)));
  return logits;
}

// Token frequencies over `draws` tokens of one seeded request (k = 0 .. draws-1).
std::vector<double> frequencies(const std::vector<float>& logits, SamplingParams params, int draws) {
  Sampler sampler(0);
  std::vector<double> counts(logits.size(), 0.0);
  params.hasSeed = true;
  for (int k = 0; k < draws; ++k)
    counts[static_cast<std::size_t>(sampler.sample(logits, params, k))] += 1.0 / draws;
  return counts;
}

TEST(Sampler, TemperatureZeroPicksTheLargestLogit) {
  Sampler sampler(1);
  const std::vector<float> logits = {0.5f, 3.0f, -1.0f, 2.9f};
  EXPECT_EQ(sampler.sample(logits, {.temperature = 0.0f}, 0), 1);
  EXPECT_EQ(argmaxToken(std::vector<float>{2.0f, 2.0f}), 0);  // ties go to the first
}

TEST(Sampler, TopKOneEqualsGreedyAtAnyTemperature) {
  Sampler sampler(1);
  std::mt19937 rng(3);
  std::normal_distribution<float> normal;
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<float> logits(500);
    for (float& v : logits)
      v = normal(rng);
    EXPECT_EQ(sampler.sample(logits, {.temperature = 2.0f, .topK = 1}, trial),
              sampler.sample(logits, {.temperature = 0.0f}, trial));
  }
}

TEST(Sampler, SeededDrawsDependOnlyOnSeedAndIndex) {
  std::vector<float> logits(1000, 0.0f);  // uniform: every draw shows in the token
  const SamplingParams seeded{.temperature = 1.0f, .seed = 99, .hasSeed = true};
  Sampler a(1), b(2);
  std::vector<std::int32_t> fromA, fromB;
  for (int k = 0; k < 50; ++k)
    fromA.push_back(a.sample(logits, seeded, k));
  for (int k = 49; k >= 0; --k)
    fromB.insert(fromB.begin(), b.sample(logits, seeded, k));  // any order
  EXPECT_EQ(fromA, fromB);
  EXPECT_GT(std::set<std::int32_t>(fromA.begin(), fromA.end()).size(), 40u);

  SamplingParams otherSeed = seeded;
  otherSeed.seed = 100;
  int same = 0;
  for (int k = 0; k < 50; ++k)
    same += a.sample(logits, otherSeed, k) == fromA[k];
  EXPECT_LT(same, 5);
}

TEST(Sampler, UnseededDrawsFollowTheBackendSeed) {
  std::vector<float> logits(1000, 0.0f);
  auto run = [&](std::uint64_t backendSeed) {
    Sampler sampler(backendSeed);
    std::vector<std::int32_t> tokens;
    for (int k = 0; k < 30; ++k)
      tokens.push_back(sampler.sample(logits, {.temperature = 1.0f}, 0));
    return tokens;
  };
  EXPECT_EQ(run(5), run(5));
  EXPECT_NE(run(5), run(6));
}

TEST(Sampler, FrequenciesFollowTheSoftmax) {
  const std::vector<double> p = {0.5, 0.25, 0.15, 0.1};
  const auto freq = frequencies(logitsOf(p), {.temperature = 1.0f}, 40000);
  for (std::size_t i = 0; i < p.size(); ++i)
    EXPECT_NEAR(freq[i], p[i], 0.01) << i;
}

TEST(Sampler, TemperatureSharpensTheDistribution) {
  // At temperature 0.5 the probabilities become proportional to p^2.
  const std::vector<double> p = {0.5, 0.25, 0.15, 0.1};
  const double norm = 0.25 + 0.0625 + 0.0225 + 0.01;
  const auto freq = frequencies(logitsOf(p), {.temperature = 0.5f}, 40000);
  for (std::size_t i = 0; i < p.size(); ++i)
    EXPECT_NEAR(freq[i], p[i] * p[i] / norm, 0.01) << i;
}

TEST(Sampler, TopKDrawsOnlyFromTheKLargestInTheirProportions) {
  const std::vector<double> p = {0.05, 0.4, 0.05, 0.2, 0.3};
  const auto freq = frequencies(logitsOf(p), {.temperature = 1.0f, .topK = 2}, 40000);
  EXPECT_NEAR(freq[1], 0.4 / 0.7, 0.01);
  EXPECT_NEAR(freq[4], 0.3 / 0.7, 0.01);
  EXPECT_EQ(freq[0] + freq[2] + freq[3], 0.0);
}

TEST(Sampler, TopPKeepsTheSmallestSetReachingP) {
  const std::vector<double> p = {0.15, 0.5, 0.05, 0.3};
  const auto freq = frequencies(logitsOf(p), {.temperature = 1.0f, .topP = 0.7f}, 40000);
  EXPECT_NEAR(freq[1], 0.5 / 0.8, 0.01);
  EXPECT_NEAR(freq[3], 0.3 / 0.8, 0.01);
  EXPECT_EQ(freq[0] + freq[2], 0.0);
}

TEST(Sampler, TopPOverAFlatLargeVocabularyKeepsTheRightShare) {
  // 2000 equal logits: the nucleus for p = 0.5 is 1000 tokens, and ties go to the lower ids.
  const std::vector<float> logits(2000, 1.0f);
  Sampler sampler(0);
  std::set<std::int32_t> seen;
  for (int k = 0; k < 500; ++k) {
    const std::int32_t token =
        sampler.sample(logits, {.temperature = 1.0f, .topP = 0.5f, .seed = 7, .hasSeed = true}, k);
    EXPECT_LT(token, 1000);
    seen.insert(token);
  }
  EXPECT_GT(seen.size(), 250u);
}

TEST(Sampler, SeededUniformIsInTheUnitIntervalAndUniform) {
  double sum = 0.0;
  for (int k = 0; k < 100000; ++k) {
    const double u = seededUniform(42, k);
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
    sum += u;
  }
  EXPECT_NEAR(sum / 100000, 0.5, 0.005);
  EXPECT_EQ(seededUniform(1, 3), seededUniform(1, 3));
  EXPECT_NE(seededUniform(1, 3), seededUniform(2, 3));
}

}  // namespace
}  // namespace ayar::engine
