// A run's set-up goes into the store and comes back as the spec that starts the same run: what the
// run recorded beside it stays out, the API key never goes in, an import has none.
#include "core/study/run_spec.h"

#include <gtest/gtest.h>

#include "core/interop/result_import.h"
#include "tests/support/test_env.h"

namespace ayar {
namespace {

RunSpec aSpec() {
  RunSpec spec;
  spec.label = "baseline";
  spec.engine.kind = EngineKind::Bundled;
  spec.engine.engine = "ayar";
  spec.engine.device = "sim";
  spec.engine.model = "qwen3-8b";
  spec.engine.flags = {EngineFlag::option("--max-num-seqs", "64"),
                       EngineFlag::toggle("--enable-prefix-caching")};
  spec.profile.name = "steady";
  spec.profile.datasetName = "random";
  spec.profile.randomInputLen = 512;
  spec.profile.requestRate = 4.0;
  return spec;
}

TEST(RunSetup, GoesIntoTheStoreAndComesBackAsTheSameSpec) {
  const RunSpec spec = aSpec();
  StoredRun stored;
  writeRunSetup(spec, stored.info);
  EXPECT_EQ(stored.info.label, "baseline");
  EXPECT_EQ(stored.info.kind, RunKind::Bench);
  EXPECT_EQ(stored.info.model, "qwen3-8b");
  EXPECT_EQ(stored.info.dataset, "random");
  // What the run records beside its spec does not come back as part of it.
  stored.info.engine["command"] = "ayar-engine --model qwen3-8b";
  stored.info.engine["simulated"] = true;
  stored.info.engine["log"] = "engine.log";

  const std::optional<RunSpec> back = runSpecOf(stored);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->label, spec.label);
  EXPECT_EQ(nlohmann::json(back->engine), nlohmann::json(spec.engine));
  EXPECT_EQ(nlohmann::json(back->profile), nlohmann::json(spec.profile));
}

TEST(RunSetup, AStudyPartIsMarkedAndARemoteKeyNeverStored) {
  RunSpec spec = aSpec();
  spec.studyId = 7;
  spec.engine.kind = EngineKind::Remote;
  spec.engine.baseUrl = "http://user:s3cret@127.0.0.1:9/";
  RunInfo info;
  writeRunSetup(spec, info);
  EXPECT_EQ(info.kind, RunKind::StudyPart);
  EXPECT_EQ(info.studyId, std::optional<std::int64_t>(7));
  EXPECT_EQ(info.engine.dump().find("s3cret"), std::string::npos) << info.engine.dump();
}

TEST(RunSetup, AnImportOrARunWithoutASetUpHasNone) {
  StoredRun imported;
  for (const ImportedRun& run : readImportedRuns(AYAR_INTEROP_FIXTURES "/vllm_summary.json"))
    imported.info = toFinishedRun(run).info;
  EXPECT_FALSE(runSpecOf(imported));
  StoredRun bare;
  EXPECT_FALSE(runSpecOf(bare));
  bare.info.engine = {{"kind", "no such kind"}};
  EXPECT_FALSE(runSpecOf(bare));
}

}  // namespace
}  // namespace ayar
