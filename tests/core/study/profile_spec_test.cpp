#include "core/study/profile_spec.h"

#include <gtest/gtest.h>

#include <fstream>
#include <functional>

#include "core/error.h"
#include "core/report/message_text.h"
#include "tests/support/test_env.h"

namespace ayar {
namespace {

TEST(ProfileSpec, EveryShippedProfileLoadsAndValidates) {
  const auto profiles = listProfiles();
  ASSERT_GE(profiles.size(), 9u);
  for (const auto& profile : profiles) {
    SCOPED_TRACE(profile.name);
    EXPECT_NO_THROW(profile.validate());
    EXPECT_EQ(profile.title.count("en"), 1u);
    EXPECT_EQ(profile.title.count("tr"), 1u);
  }
}

TEST(ProfileSpec, SeedProfilesMatchTheStudies) {
  const ProfileSpec sharegpt = loadProfile("sharegpt-8rps");
  EXPECT_EQ(sharegpt.datasetName, "sharegpt");
  EXPECT_EQ(sharegpt.numPrompts, 1000);
  EXPECT_DOUBLE_EQ(sharegpt.requestRate, 8.0);
  EXPECT_TRUE(std::isinf(sharegpt.burstiness));  // guidellm's constant profile

  const ProfileSpec longPrompt = loadProfile("random-4k-200");
  EXPECT_EQ(longPrompt.randomInputLen, 4000);
  EXPECT_EQ(longPrompt.randomOutputLen, 200);
  EXPECT_EQ(longPrompt.numPrompts, 500);
  EXPECT_EQ(longPrompt.seed, 42u);
  EXPECT_TRUE(std::isinf(longPrompt.requestRate));
}

TEST(ProfileSpec, JsonRoundTripKeepsEveryField) {
  ProfileSpec profile;
  profile.name = "custom";
  profile.datasetName = "prefix-repetition";
  profile.numPrompts = 77;
  profile.sharegptOutputLen = 9;
  profile.prefixRepetitionPrefixLen = 100;
  profile.temperature = 0.5;
  profile.topK = 20;
  profile.loadMode = LoadMode::Concurrent;
  profile.concurrency = 12;
  profile.requestRate = 3.5;
  profile.burstiness = ProfileSpec::kInfinity;
  profile.maxConcurrency = 4;
  profile.seed = 7;
  nlohmann::json json = profile;
  EXPECT_EQ(json["burstiness"], "inf");
  ProfileSpec back;
  from_json(json, back);
  EXPECT_EQ(nlohmann::json(back), json);
  EXPECT_EQ(back.concurrency, 12);
  EXPECT_EQ(back.maxConcurrency, 4);
}

// A preset changed in any field that decides what is sent or when is no longer that preset: it loses
// the preset's name and titles and says which preset it came from; unchanged, it keeps them.
TEST(ProfileSpec, AnEditedPresetIsNamedAfterWhatItWasMadeFrom) {
  const ProfileSpec preset = loadProfile("sharegpt-4rps");
  ProfileSpec same = preset;
  same.name.clear();
  same.title.clear();
  nameEditedProfile(same, preset);
  EXPECT_EQ(same.name, "sharegpt-4rps");
  EXPECT_TRUE(same.editedFrom.empty());
  EXPECT_EQ(same.title, preset.title);

  for (const auto& edit : std::vector<std::function<void(ProfileSpec&)>>{
           [](ProfileSpec& p) { p.numPrompts = 10; }, [](ProfileSpec& p) { p.requestRate = 2; },
           [](ProfileSpec& p) { p.backend = "openai"; }, [](ProfileSpec& p) { p.temperature = 0.7; },
           [](ProfileSpec& p) { p.sharegptOutputLen = 64; }}) {
    ProfileSpec edited = preset;
    edit(edited);
    nameEditedProfile(edited, preset);
    EXPECT_TRUE(edited.name.empty());
    EXPECT_EQ(edited.editedFrom, "sharegpt-4rps");
    EXPECT_TRUE(edited.title.empty());
    EXPECT_TRUE(edited.purpose.empty());
    EXPECT_EQ(edited.describe().rfind("sharegpt-4rps, edited: sharegpt x", 0), 0u) << edited.describe();
    ProfileSpec back;
    from_json(nlohmann::json(edited), back);
    EXPECT_EQ(back.editedFrom, "sharegpt-4rps");
  }
}

TEST(ProfileSpec, VllmsOtherSamplingParametersAndRampUpRoundTrip) {
  ProfileSpec profile;
  profile.minP = 0.05;
  profile.frequencyPenalty = 0.1;
  profile.presencePenalty = 0.2;
  profile.repetitionPenalty = 1.1;
  profile.rampUpStrategy = "exponential";
  profile.rampUpStartRps = 2;
  profile.rampUpEndRps = 30;
  profile.validate();
  const nlohmann::json json = profile;
  EXPECT_EQ(json["ramp_up_strategy"], "exponential");
  EXPECT_EQ(json["min_p"], 0.05);
  ProfileSpec back;
  from_json(json, back);
  EXPECT_EQ(nlohmann::json(back), json);
  EXPECT_EQ(profile.describe(), "random 1024->128 x1000, exponential ramp-up 2 to 30 req/s");
}

// vLLM refuses a ramp-up beside --request-rate and an end below the start; a start of 0 would send
// the first request at a rate of 0, which vLLM only finds out when it fails.
TEST(ProfileSpec, RampUpIsValidatedAsVllmValidatesIt) {
  ProfileSpec profile;
  profile.rampUpStrategy = "linear";
  profile.rampUpStartRps = 1;
  profile.rampUpEndRps = 5;
  EXPECT_NO_THROW(profile.validate());
  profile.requestRate = 3;
  EXPECT_THROW(profile.validate(), Error);
  profile.requestRate = ProfileSpec::kInfinity;
  profile.rampUpStartRps = 6;
  EXPECT_THROW(profile.validate(), Error);
  profile.rampUpStartRps = 0;
  EXPECT_THROW(profile.validate(), Error);
  profile.rampUpStartRps = 1;
  profile.rampUpStrategy = "sideways";
  EXPECT_THROW(profile.validate(), Error);
}

TEST(ProfileSpec, UnknownFieldIsAnErrorNamingIt) {
  ProfileSpec profile;
  try {
    from_json(nlohmann::json{{"num_prompt", 5}}, profile);
    FAIL() << "a typo must not fall back to a default silently";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("num_prompt"), std::string::npos);
  }
}

TEST(ProfileSpec, UnknownProfileNameListsTheKnownOnes) {
  try {
    loadProfile("no-such-profile");
    FAIL();
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("no-such-profile"), std::string::npos);
    EXPECT_NE(message.find("sharegpt-8rps"), std::string::npos);
  }
}

TEST(ProfileSpec, ProfileFileWithBadValueNamesFileAndField) {
  test::TempDir dir;
  const auto file = dir / "bad.json";
  std::ofstream(file) << R"({"name": "bad", "dataset_name": "random", "random_range_ratio": 1.5})";
  try {
    loadProfile(file.string());
    FAIL();
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("bad.json"), std::string::npos);
    EXPECT_NE(message.find("--random-range-ratio"), std::string::npos);
  }
  std::ofstream(dir / "broken.json") << "{not json";
  EXPECT_THROW(loadProfile((dir / "broken.json").string()), Error);
}

TEST(ProfileSpec, ValidateRejectsOutOfRangeValues) {
  ProfileSpec profile;
  profile.numPrompts = 0;
  EXPECT_THROW(profile.validate(), Error);
  profile = {};
  profile.requestRate = 0;
  EXPECT_THROW(profile.validate(), Error);
  profile = {};
  profile.datasetName = "nope";
  EXPECT_THROW(profile.validate(), Error);
  profile = {};
  profile.backend = "grpc";
  EXPECT_THROW(profile.validate(), Error);
}

// The error `fields` raise when read into a profile, in English and Turkish; empty when none.
std::pair<std::string, std::string> readError(const nlohmann::json& fields) {
  ProfileSpec profile;
  try {
    from_json(fields, profile);
    profile.validate();
  } catch (const std::exception& e) {
    return {errorText(e, ReportLanguage::English), errorText(e, ReportLanguage::Turkish)};
  }
  return {};
}

TEST(ProfileSpec, ACountIsAWholeNumberThatFitsNeverRoundedOrWrapped) {
  // 1e30 used to wrap to a negative int and read as "must be at least 1".
  for (const char* value : {"1e30", "2.5", "\"1024\"", "-3000000000", "true", "null"}) {
    SCOPED_TRACE(value);
    const auto [english, turkish] =
        readError(nlohmann::json::parse(std::string(R"({"random_output_len": )") + value + "}"));
    EXPECT_NE(english.find("\"random_output_len\" must be a whole number"), std::string::npos) << english;
    EXPECT_NE(turkish.find("tam sayı olmalı"), std::string::npos) << turkish;
  }
  ProfileSpec profile;
  from_json(
      nlohmann::json::parse(R"({"random_output_len": 1e3, "num_prompts": 20, "seed": 18446744073709551615})"),
      profile);
  EXPECT_EQ(profile.randomOutputLen, 1000) << "a whole number written with an exponent is still one";
  EXPECT_EQ(profile.seed, 18446744073709551615ULL);
  EXPECT_NE(readError(nlohmann::json{{"seed", -1}}).first.find("\"seed\""), std::string::npos);
}

TEST(ProfileSpec, LengthsThatWouldExhaustMemoryAreRefusedBeforeAnythingIsBuilt) {
  // Each once drove ayar-cli to tens of GB and the OOM killer.
  auto [english, turkish] = readError({{"dataset_name", "random"}, {"random_output_len", 1000000000}});
  EXPECT_NE(english.find("--random-output-len"), std::string::npos) << english;
  EXPECT_NE(english.find("16,777,216 tokens a request"), std::string::npos) << english;
  EXPECT_NE(turkish.find("16.777.216"), std::string::npos) << turkish;

  std::tie(english, turkish) = readError({{"dataset_name", "random"}, {"random_input_len", 1000000000}});
  EXPECT_NE(english.find("--random-input-len"), std::string::npos) << english;

  std::tie(english, turkish) =
      readError({{"dataset_name", "random"}, {"num_prompts", 1000}, {"random_input_len", 1000000}});
  EXPECT_NE(english.find("1,000,000,000 prompt tokens in all"), std::string::npos) << english;
  EXPECT_NE(english.find("--num-prompts"), std::string::npos) << english;
  EXPECT_NE(turkish.find("istemler toplam 1.000.000.000 token"), std::string::npos) << turkish;

  std::tie(english, turkish) = readError({{"dataset_name", "synthetic-sharegpt"}, {"num_prompts", 2000000}});
  EXPECT_NE(english.find("--num-prompts is 2,000,000"), std::string::npos) << english;

  std::tie(english, turkish) =
      readError({{"dataset_name", "prefix-repetition"}, {"prefix_repetition_prefix_len", 20000000}});
  EXPECT_NE(english.find("--prefix-repetition-prefix-len"), std::string::npos) << english;

  std::tie(english, turkish) = readError({{"dataset_name", "sharegpt"}, {"sharegpt_output_len", 100000000}});
  EXPECT_NE(english.find("--sharegpt-output-len"), std::string::npos) << english;

  // The limits themselves are allowed: a 1M-token context and a 128k x 1000 study are runs people make.
  EXPECT_EQ(readError({{"dataset_name", "random"},
                       {"num_prompts", 1000},
                       {"random_input_len", 131072},
                       {"random_output_len", 1024}})
                .first,
            "");
  EXPECT_EQ(readError({{"dataset_name", "random"}, {"num_prompts", 1}, {"random_input_len", 1 << 20}}).first,
            "");
}

TEST(ProfileSpec, DescribeSaysDatasetCountAndSchedule) {
  ProfileSpec profile;
  profile.randomInputLen = 128;
  profile.randomOutputLen = 4;
  profile.numPrompts = 10;
  profile.requestRate = 2;
  profile.maxConcurrency = 3;
  EXPECT_EQ(profile.describe(), "random 128->4 x10, rate 2 req/s, burstiness 1, max concurrency 3");
}

}  // namespace
}  // namespace ayar
