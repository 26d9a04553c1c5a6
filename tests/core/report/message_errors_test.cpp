// Errors a newcomer meets in several parts of core, read back in Turkish: each names its input (the
// file, the field) in the reader's language, and what() stays the English that ayar-cli prints.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "core/dataset/sharegpt_dataset.h"
#include "core/engines/engine_spec.h"
#include "core/report/message_text.h"
#include "core/store/result_store.h"
#include "core/study/profile_spec.h"
#include "core/study/study_spec.h"
#include "core/tokenizer/tokenizer.h"
#include "tests/support/test_env.h"

namespace ayar {
namespace {

// The error `call` throws, in English (what()) and in Turkish (errorText).
template <typename Call>
std::pair<std::string, std::string> errorOf(Call call) {
  try {
    call();
  } catch (const Error& e) {
    return {e.what(), errorText(e, ReportLanguage::Turkish)};
  }
  ADD_FAILURE() << "no ayar::Error";
  return {};
}

void writeFile(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
}

TEST(MessageErrors, AStudyFileWithAnUnknownFieldNamesTheFileAndTheFieldInTurkish) {
  test::TempDir dir;
  const auto file = dir / "study.json";
  writeFile(file, R"({"name": "s", "warmup": 3})");
  const auto [english, turkish] = errorOf([&] { loadStudy(file.string()); });
  EXPECT_EQ(english.rfind("study file " + file.string() + ": warmup: unknown field (known: ", 0), 0u)
      << english;
  EXPECT_EQ(
      turkish.rfind("çalışma dosyası " + file.string() + ": warmup: bilinmeyen alan (bilinen alanlar: ", 0),
      0u)
      << turkish;
}

TEST(MessageErrors, AProfileFileWithABadValueKeepsTheInnerTurkish) {
  test::TempDir dir;
  const auto file = dir / "bad.json";
  writeFile(file, R"({"name": "bad", "dataset_name": "random", "random_range_ratio": 1.5})");
  const auto [english, turkish] = errorOf([&] { loadProfile(file.string()); });
  EXPECT_EQ(english, "in the profile file " + file.string() + ": --random-range-ratio must be in [0, 1)");
  EXPECT_EQ(turkish, file.string() + " profil dosyasında: --random-range-ratio [0, 1) aralığında olmalı");
}

TEST(MessageErrors, AMissingShareGptFileIsNamedInTurkish) {
  test::TempDir dir;
  const auto tokenizer = Tokenizer::load(test::tokenizerDir());
  ShareGptOptions options;
  options.path = dir / "absent.json";
  options.numPrompts = 4;
  const auto [english, turkish] = errorOf([&] { loadShareGpt(*tokenizer, options); });
  EXPECT_NE(english.find(options.path.string() + " does not exist"), std::string::npos) << english;
  EXPECT_EQ(turkish.rfind("ShareGPT dosyası " + options.path.string() + " yok ya da bir dosya değil.", 0), 0u)
      << turkish;
}

TEST(MessageErrors, ABadEngineSpecNamesTheFieldInTurkish) {
  const auto port = errorOf([] {
    nlohmann::json{{"model", "qwen3-0.6b"}, {"port", 70000}}.get<EngineSpec>();
  });
  EXPECT_EQ(port.first, "engine spec: \"port\" is 70000; use 1-65535, or leave it out.");
  EXPECT_EQ(
      port.second,
      "motor tanımı: \"port\" için 70000 verilmiş; 1-65535 arasında bir değer verin ya da hiç vermeyin.");
  const auto flags = errorOf([] { nlohmann::json{{"model", "m"}, {"flags", "--x"}}.get<EngineSpec>(); });
  EXPECT_EQ(flags.first, "engine spec: \"flags\" must be a list, not string.");
  EXPECT_EQ(flags.second, "motor tanımı: \"flags\" bir liste olmalı, metin değil.");
}

TEST(MessageErrors, AResultsStoreThatIsAFolderIsNamedInTurkish) {
  test::TempDir dir;
  const auto [english, turkish] = errorOf([&] { ResultStore store(dir.path()); });
  EXPECT_EQ(english.rfind("results store \"" + dir.path().string() + "\" is a folder", 0), 0u) << english;
  EXPECT_EQ(turkish.rfind(
                "sonuç deposu \"" + dir.path().string() + "\" bir klasör; içindeki bir dosyanın yolunu", 0),
            0u)
      << turkish;
}

}  // namespace
}  // namespace ayar
