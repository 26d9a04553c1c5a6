#include "core/study/study_spec.h"

#include <gtest/gtest.h>

#include <fstream>

#include "core/engines/engine_launcher.h"
#include "core/error.h"
#include "tests/support/test_env.h"

namespace ayar {
namespace {

nlohmann::json goodStudy() {
  return nlohmann::json::parse(R"({
    "name": "s",
    "title": {"en": "A study", "tr": "Bir çalışma"},
    "baseline": {"engine": {"kind": "bundled", "model": "qwen3-0.6b", "device": "sim",
                            "flags": [{"name": "--sim-profile", "value": "fixed:50,10"}, "--enforce-eager"]}},
    "variants": [
      {"name": "fast", "add_flags": [{"name": "--sim-profile", "value": "fixed:40,8"}]},
      {"name": "eager-off", "group": "execution", "remove_flags": ["--enforce-eager"]},
      {"name": "other", "engine": {"kind": "remote", "base_url": "http://127.0.0.1:9/v1", "model": "m"}}
    ],
    "profiles": ["cpu-quick", {"name": "tiny", "dataset_name": "random", "num_prompts": 4}],
    "follow_up_profiles": ["sharegpt-1rps"],
    "deciding_figure": "total_token_throughput",
    "slo": {"ttft_ms": 200, "tpot_ms": 50},
    "warmup_requests": 3
  })");
}

TEST(StudySpec, ReadsEveryFieldAndResolvesVariantsAgainstTheBaseline) {
  const StudySpec study = studyFromJson(goodStudy(), "test");
  EXPECT_EQ(study.name, "s");
  EXPECT_EQ(localized(study.title, "tr", ""), "Bir çalışma");
  EXPECT_EQ(study.decidingFigure, RunFigure::TotalTokenThroughput);
  EXPECT_EQ(study.slo.ttftMs, 200.0);
  EXPECT_EQ(study.slo.tpotMs, 50.0);
  EXPECT_FALSE(study.slo.e2elMs);
  EXPECT_EQ(study.warmupRequests, 3);
  ASSERT_EQ(study.profiles.size(), 2u);
  EXPECT_EQ(study.profiles[0].name, "cpu-quick");
  EXPECT_EQ(study.profiles[0].numPrompts, 100);  // loaded from resources/profiles
  EXPECT_EQ(study.profiles[1].numPrompts, 4);
  ASSERT_EQ(study.followUpProfiles.size(), 1u);

  const auto configurations = study.configurations();
  ASSERT_EQ(configurations.size(), 4u);
  EXPECT_TRUE(configurations[0].baseline);
  // add_flags replaces the flag of the same name; the others stay in order.
  EXPECT_EQ(configurations[1].engine.flags,
            (std::vector<EngineFlag>{EngineFlag::option("--sim-profile", "fixed:40,8"),
                                     EngineFlag::toggle("--enforce-eager")}));
  EXPECT_EQ(configurations[1].group, "fast");
  EXPECT_EQ(configurations[2].engine.flags,
            (std::vector<EngineFlag>{EngineFlag::option("--sim-profile", "fixed:50,10")}));
  EXPECT_EQ(configurations[2].group, "execution");
  EXPECT_EQ(configurations[3].engine.kind, EngineKind::Remote);
}

TEST(StudySpec, RoundTripsThroughItsStoredJsonWithProfilesInline) {
  const StudySpec study = studyFromJson(goodStudy(), "test");
  const nlohmann::json stored = studyToJson(study);
  EXPECT_TRUE(stored["profiles"][0].is_object());
  const StudySpec again = studyFromJson(stored, "stored");
  EXPECT_EQ(studyToJson(again), stored);
  EXPECT_EQ(again.configurations()[1].engine, study.configurations()[1].engine);
}

// Each bad file names the field at fault.
TEST(StudySpec, BadFilesGetAnErrorNamingTheField) {
  const auto expectError = [](const std::function<void(nlohmann::json&)>& change, const std::string& field) {
    nlohmann::json json = goodStudy();
    change(json);
    try {
      studyFromJson(json, "study file x.json");
      ADD_FAILURE() << "accepted a study with a bad " << field;
    } catch (const Error& error) {
      const std::string message = error.what();
      EXPECT_NE(message.find("study file x.json: " + field), std::string::npos) << message;
    }
  };
  expectError([](auto& j) { j.erase("name"); }, "name");
  expectError([](auto& j) { j["colour"] = 1; }, "colour");
  expectError([](auto& j) { j.erase("baseline"); }, "baseline");
  expectError([](auto& j) { j["baseline"]["engine"]["kind"] = "cloud"; }, "baseline.engine");
  expectError([](auto& j) { j["baseline"]["engine"]["model"] = ""; }, "baseline.engine");
  expectError([](auto& j) { j["variants"][1]["name"] = "fast"; }, "variants[1].name");
  expectError(
      [](auto& j) {
        j["variants"][0]["add_flags"][0] = {{"name", "max-num-seqs"}, {"value", 4}};
      },
      "variants[0].add_flags[0]");
  expectError([](auto& j) { j["variants"][0] = {{"name", "nothing"}}; }, "variants[0]");
  expectError([](auto& j) { j["variants"][2]["add_flags"] = {"--x"}; }, "variants[2]");
  expectError([](auto& j) { j.erase("profiles"); }, "profiles");
  expectError([](auto& j) { j["profiles"] = nlohmann::json::array(); }, "profiles");
  expectError([](auto& j) { j["profiles"][0] = "no-such-profile"; }, "profiles[0]");
  expectError([](auto& j) { j["profiles"][1]["num_prompts"] = 0; }, "profiles[1]");
  expectError([](auto& j) { j["profiles"][1].erase("name"); }, "profiles[1].name");
  expectError([](auto& j) { j["profiles"][1]["name"] = "cpu-quick"; }, "profiles[1]");
  expectError(
      [](auto& j) {
        j["follow_up_profiles"] = {{{"dataset_name", "random"}}};
      },
      "follow_up_profiles[0]");
  expectError([](auto& j) { j["deciding_figure"] = "fastness"; }, "deciding_figure");
  expectError([](auto& j) { j["slo"]["ttft_ms"] = -1; }, "slo.ttft_ms");
  expectError([](auto& j) { j["slo"]["itl_ms"] = 3; }, "slo.itl_ms");
  expectError(
      [](auto& j) {
        j.erase("slo");
        j["deciding_figure"] = "request_goodput";
      },
      "deciding_figure");
  expectError([](auto& j) { j["warmup_requests"] = -2; }, "warmup_requests");
}

TEST(StudySpec, PresetsLoadAndAMissingOneListsTheOthers) {
  const std::vector<std::string> presets = listStudyPresets();
  for (const char* name : {"smoke", "qwen3-8b-latency", "qwen3-14b-throughput"}) {
    EXPECT_NE(std::find(presets.begin(), presets.end(), name), presets.end()) << name;
  }
  const EngineCatalogue catalogue = EngineCatalogue::loadDefault();
  for (const std::string& name : presets) {
    const StudySpec study = loadStudy(name);
    EXPECT_EQ(study.name, name);
    EXPECT_NO_THROW(study.validate()) << name;
    // Every configuration's flags fit its engine's catalogue, so no preset fails for a flag.
    for (const StudyConfiguration& configuration : study.configurations()) {
      try {
        EngineLauncher launcher(configuration.engine, catalogue);
      } catch (const Error& error) {
        ADD_FAILURE() << name << ": " << configuration.name << ": " << error.what();
      }
    }
  }
  try {
    loadStudy("no-such-study");
    FAIL();
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("smoke"), std::string::npos) << error.what();
  }
  test::TempDir dir;
  {
    std::ofstream out(dir / "broken.json");
    out << "{ not json";
  }
  try {
    loadStudy((dir / "broken.json").string());
    FAIL();
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("broken.json is not valid JSON"), std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace ayar
