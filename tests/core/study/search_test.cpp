// Flag and rate searches over the real ayar-engine's step simulator, whose answers are known.
#include "core/study/search.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "core/store/result_store.h"
#include "tests/support/test_env.h"

namespace ayar {
namespace {

SearchSetup stepSimSetup(const std::string& simProfile, const test::TempDir& dir) {
  SearchSetup setup;
  setup.engine.kind = EngineKind::Bundled;
  setup.engine.model = "qwen3-0.6b";
  setup.engine.device = "sim";
  setup.engine.flags = {EngineFlag::option("--sim-profile", simProfile)};
  setup.tokenizer = test::tokenizerDir().string();
  setup.bundledEngine = AYAR_ENGINE_BIN;
  setup.storePath = dir / "ayar.db";
  setup.profile.name = "burst";
  setup.profile.datasetName = "random";
  setup.profile.randomInputLen = 16;
  setup.profile.randomOutputLen = 5;
  setup.profile.ignoreEos = true;
  return setup;
}

// step:20,10 makes a step of B sequences take 20 + 10 x B ms. 24 requests at once with
// --max-num-seqs B run in waves of B, so TPOT is 20 + 10 x B and output throughput rises with B
// (1.6 s of steps at B = 6 against 1.7 s at B = 5). Under a TPOT SLO of 85 ms, B = 6 (80 ms) holds
// and B = 7 (90 ms for 21 of the 24 requests) does not: the best value is 6.
TEST(Tune, FindsTheKnownBestMaxNumSeqsOfTheStepSimulator) {
  test::TempDir dir;
  TuneSpec spec;
  spec.setup = stepSimSetup("step:20,10", dir);
  spec.setup.profile.numPrompts = 24;
  spec.setup.profile.requestRate = ProfileSpec::kInfinity;
  spec.setup.slo.tpotMs = 85.0;
  spec.flag = "--max-num-seqs";
  for (long long value = 1; value <= 12; ++value)
    spec.values.push_back(value);
  spec.figure = RunFigure::OutputThroughput;
  std::vector<double> seen;
  const TuneResult result = runTune(spec, [&](const SearchProbe& probe) { seen.push_back(probe.value); });
  ASSERT_TRUE(result.best) << "no value held the limits";
  EXPECT_EQ(*result.best, 6);
  EXPECT_EQ(seen.size(), result.probes.size());
  EXPECT_LT(result.probes.size(), spec.values.size()) << "the search probed every value";
  for (const SearchProbe& probe : result.probes) {
    EXPECT_TRUE(probe.started) << probe.error;
    EXPECT_EQ(probe.withinLimits, probe.value <= 6.0)
        << "value " << probe.value << ", SLOs met " << probe.sloAttainment;
    EXPECT_TRUE(probe.runId);
  }
  EXPECT_EQ(result.bestEngine.flags.back(), EngineFlag::option("--max-num-seqs", "6"));
  EXPECT_EQ(ResultStore(dir / "ayar.db").listRuns().size(), result.probes.size());

  const ReportDocument turkish = tuneReport(spec, result, ReportLanguage::Turkish);
  const std::string markdown = renderMarkdown(turkish);
  EXPECT_NE(markdown.find("--max-num-seqs için en iyi değer: 6"), std::string::npos) << markdown;
  EXPECT_NE(
      markdown.find("ayar-engine serve qwen3-0.6b --device sim --sim-profile step:20,10 --max-num-seqs 6"),
      std::string::npos)
      << markdown;
  EXPECT_EQ(turkish.data["best"], 6);
}

TEST(Tune, ARemoteEngineOrABadRangeIsAnErrorSayingWhy) {
  test::TempDir dir;
  TuneSpec spec;
  spec.setup = stepSimSetup("step:1,1", dir);
  spec.flag = "--max-num-seqs";
  EXPECT_THROW(runTune(spec), Error);  // no values
  spec.values = {4, 2};
  EXPECT_THROW(runTune(spec), Error);  // not ascending
  spec.values = {0, 1};
  try {
    runTune(spec);  // 0 is below the catalogue's minimum: refused before any engine starts
    FAIL();
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("--max-num-seqs"), std::string::npos) << error.what();
  }
  spec.setup.engine.kind = EngineKind::Remote;
  spec.setup.engine.baseUrl = "http://127.0.0.1:9";
  spec.values = {1, 2};
  try {
    runTune(spec);
    FAIL();
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("remote"), std::string::npos) << error.what();
  }
}

// Fixed timings do not depend on the load, so every rate holds the SLO: the search doubles up to the
// highest rate allowed and reports it.
TEST(Capacity, WithLoadIndependentTimingsTheCapacityIsTheHighestRateAllowed) {
  test::TempDir dir;
  CapacitySpec spec;
  spec.setup = stepSimSetup("fixed:20,5", dir);
  spec.setup.profile.numPrompts = 8;
  spec.setup.slo.e2elMs = 200.0;
  spec.startRate = 4.0;
  spec.maxRate = 16.0;
  const CapacityResult result = runCapacity(spec);
  ASSERT_EQ(result.probes.size(), 3u);
  EXPECT_EQ(result.probes[0].value, 4.0);
  EXPECT_EQ(result.probes[1].value, 8.0);
  EXPECT_EQ(result.probes[2].value, 16.0);
  ASSERT_TRUE(result.capacity);
  EXPECT_EQ(*result.capacity, 16.0);
  EXPECT_FALSE(result.firstFailing);
}

// With the step simulator the batch grows with the rate and so does TPOT: somewhere the SLO breaks.
// The search brackets that rate and narrows the bracket by interpolation.
TEST(Capacity, BracketsTheRateWhereTheSloBreaks) {
  test::TempDir dir;
  CapacitySpec spec;
  spec.setup = stepSimSetup("step:5,5", dir);
  spec.setup.profile.numPrompts = 30;
  spec.setup.slo.tpotMs = 30.0;  // a step of at most 5 sequences
  spec.startRate = 8.0;
  spec.maxRate = 1024.0;
  spec.tolerance = 0.25;
  spec.maxProbes = 8;
  const CapacityResult result = runCapacity(spec);
  ASSERT_TRUE(result.capacity);
  ASSERT_TRUE(result.firstFailing);
  EXPECT_LT(*result.capacity, *result.firstFailing);
  bool interpolated = false;
  for (const SearchProbe& probe : result.probes) {
    if (probe.withinLimits) {
      EXPECT_LE(probe.value, *result.capacity);
    } else {
      EXPECT_GE(probe.value, *result.firstFailing);
    }
    interpolated = interpolated || probe.step == "interpolate";
  }
  EXPECT_TRUE(interpolated);
  const std::string markdown = renderMarkdown(capacityReport(spec, result, ReportLanguage::English));
  EXPECT_NE(markdown.find("Largest request rate within the limits: "), std::string::npos) << markdown;
  EXPECT_NE(markdown.find("Goodput against request rate"), std::string::npos) << markdown;
}

TEST(Capacity, WithoutAnSloItSaysWhatToGive) {
  test::TempDir dir;
  CapacitySpec spec;
  spec.setup = stepSimSetup("fixed:1,1", dir);
  try {
    runCapacity(spec);
    FAIL();
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("--slo-"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace ayar
