// Runs written as vLLM's result file, and vLLM's files given back unchanged after an import.
#include "core/interop/vllm_result_export.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/interop/result_import.h"
#include "core/report/result_json.h"
#include "core/store/result_store.h"
#include "tests/support/test_env.h"

namespace ayar {
namespace {

const std::filesystem::path kFixtures = AYAR_INTEROP_FIXTURES;

std::string readText(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Imports `file` into a fresh store and exports each run as vLLM's file again, as `runs import`
// then `runs export --format vllm` do.
std::vector<std::string> importThenExport(const std::filesystem::path& file) {
  test::TempDir dir;
  ResultStore store(dir / "ayar.db");
  std::vector<std::string> texts;
  for (const ImportedRun& run : readImportedRuns(file)) {
    const std::int64_t id = store.addFinishedRun(toFinishedRun(run));
    const auto detail = store.loadRun(id);
    texts.push_back(vllmResultText(vllmResultOf(detail->run.result, detail->requests)));
  }
  return texts;
}

void expectEveryKeyEqual(const nlohmann::ordered_json& original, const nlohmann::ordered_json& exported) {
  for (const auto& [key, value] : original.items()) {
    ASSERT_TRUE(exported.contains(key)) << key;
    EXPECT_EQ(exported[key], value) << key;
  }
  EXPECT_EQ(exported.size(), original.size()) << exported.dump();
}

TEST(VllmResultExport, AnImportedDetailedVllmFileExportsBackEqualOnEveryKeyInItsOrder) {
  const auto texts = importThenExport(kFixtures / "vllm_detailed.json");
  ASSERT_EQ(texts.size(), 1u);
  const auto original = parseResultObjects(readText(kFixtures / "vllm_detailed.json"), "original");
  const auto exported = parseResultObjects(texts[0], "exported");
  expectEveryKeyEqual(original[0], exported[0]);
  std::vector<std::string> originalKeys, exportedKeys;
  for (const auto& [key, value] : original[0].items())
    originalKeys.push_back(key);
  for (const auto& [key, value] : exported[0].items())
    exportedKeys.push_back(key);
  EXPECT_EQ(exportedKeys, originalKeys);
  // Written as Python writes it: the exported text is the file's own.
  std::string file = readText(kFixtures / "vllm_detailed.json");
  EXPECT_EQ(texts[0], file);
}

// A file as another tool may have saved vLLM's result: indented, numbers written in a form
// nlohmann's writer would not choose, a newline at the end. The export gives back its bytes.
TEST(VllmResultExport, AnImportedVllmFileExportsBackByteForByte) {
  test::TempDir dir;
  std::string text = nlohmann::ordered_json::parse(readText(kFixtures / "vllm_detailed.json")).dump(2);
  const std::string duration = "\"duration\": 0.5731";
  ASSERT_NE(text.find(duration), std::string::npos);
  text.replace(text.find(duration), duration.size(), "\"duration\": 5.731E-1");
  text += "\n";
  {
    std::ofstream out(dir / "saved.json", std::ios::binary);
    out << text;
  }
  ResultStore store(dir / "ayar.db");
  const auto runs = readImportedRuns(dir / "saved.json");
  ASSERT_EQ(runs.size(), 1u);
  const std::int64_t id = store.addFinishedRun(toFinishedRun(runs[0]));
  const auto detail = store.loadRun(id);
  ASSERT_TRUE(detail);
  EXPECT_EQ(importedOriginalText(detail->run.result), text);
  // The parsed object agrees with the file's on every key too.
  expectEveryKeyEqual(parseResultObjects(text, "saved")[0],
                      vllmResultOf(detail->run.result, detail->requests));

  // Each result of an appended file gives back its own line.
  const std::string appended = readText(kFixtures / "vllm_appended.json");
  const auto both = readImportedRuns(kFixtures / "vllm_appended.json");
  ASSERT_EQ(both.size(), 2u);
  const auto first = importedOriginalText(toFinishedRun(both[0]).result);
  const auto second = importedOriginalText(toFinishedRun(both[1]).result);
  ASSERT_TRUE(first && second);
  EXPECT_EQ(*first + "\n" + *second, appended.substr(0, appended.find_last_not_of("\n") + 1));
}

TEST(VllmResultExport, AVllmFileWithASecretIsKeptRedactedNotByteForByte) {
  test::TempDir dir;
  nlohmann::ordered_json file = nlohmann::ordered_json::parse(readText(kFixtures / "vllm_detailed.json"));
  file["api_key"] = "sk-metadata-7c1d";  // as --metadata api_key=... writes it
  {
    std::ofstream out(dir / "secret.json", std::ios::binary);
    out << file.dump();
  }
  ResultStore store(dir / "ayar.db");
  const auto runs = readImportedRuns(dir / "secret.json");
  const std::int64_t id = store.addFinishedRun(toFinishedRun(runs[0]));
  const auto detail = store.loadRun(id);
  EXPECT_FALSE(importedOriginalText(detail->run.result).has_value());
  const std::string exported = vllmResultText(vllmResultOf(detail->run.result, detail->requests));
  EXPECT_EQ(exported.find("sk-metadata"), std::string::npos) << exported;
  EXPECT_NE(exported.find("\"api_key\": \"[redacted]\""), std::string::npos) << exported;
}

TEST(VllmResultExport, AnImportedSummaryFileAndAnInfiniteBurstinessExportBackUnchanged) {
  const auto texts = importThenExport(kFixtures / "vllm_appended.json");
  ASSERT_EQ(texts.size(), 2u);
  const auto original = parseResultObjects(readText(kFixtures / "vllm_appended.json"), "original");
  for (std::size_t i = 0; i < 2; ++i) {
    const auto exported = parseResultObjects(texts[i], "exported");
    expectEveryKeyEqual(original[i], exported[0]);
  }
  EXPECT_NE(texts[1].find("\"burstiness\": Infinity,"), std::string::npos) << texts[1];
}

TEST(VllmResultExport, AnAyarRunGetsVllmsKeysAndTypesWithoutAyarsObject) {
  std::vector<RequestRecord> records(3);
  for (int i = 0; i < 3; ++i) {
    records[i].index = i;
    records[i].startS = 0.25 * i;
    records[i].scheduledS = records[i].startS;
    records[i].chunkTimesS = {0.02, 0.03, 0.045};
    records[i].promptTokens = 12;
    records[i].outputTokens = 3;
    records[i].success = true;
    records[i].httpStatus = 200;
  }
  records[2].success = false;
  records[2].chunkTimesS.clear();
  records[2].outputTokens = 0;
  records[2].error = "HTTP 503";
  ResultSetup setup;
  setup.modelId = "qwen3-0.6b";
  setup.numPrompts = 3;
  setup.burstiness = std::numeric_limits<double>::infinity();
  const nlohmann::json stored = nlohmann::json::parse(
      resultJson(setup, computeRunSummary(records), records, true, {{"simulated", true}}).dump());

  const nlohmann::ordered_json out = vllmResultOf(stored, records);
  EXPECT_FALSE(out.contains("ayar"));
  EXPECT_EQ(out.begin().key(), "date");
  EXPECT_EQ(out["request_rate"], "inf");     // vLLM writes an infinite rate as this string
  EXPECT_EQ(out["burstiness"], "Infinity");  // ... and an infinite burstiness as a float
  EXPECT_TRUE(out["duration"].is_number_float());
  EXPECT_TRUE(out["completed"].is_number_integer());
  EXPECT_EQ(out["completed"], 2);
  EXPECT_TRUE(out["max_concurrent_requests"].is_number_integer());
  EXPECT_TRUE(out["label"].is_null());
  EXPECT_EQ(out["output_lens"], nlohmann::ordered_json({3, 3, 0}));
  EXPECT_EQ(out["errors"], nlohmann::ordered_json({"", "", "HTTP 503"}));
  ASSERT_EQ(out["itls"].size(), 3u);
  EXPECT_EQ(out["itls"][2], nlohmann::ordered_json::array());
  EXPECT_TRUE(out.contains("mean_ttft_ms"));
  const std::string text = vllmResultText(out);
  EXPECT_NE(text.find("\"burstiness\": Infinity,"), std::string::npos) << text;
  EXPECT_NE(text.find("\"request_rate\": \"inf\","), std::string::npos) << text;
}

TEST(VllmResultExport, TextIsWhatPythonsJsonDumpWrites) {
  nlohmann::ordered_json value = nlohmann::ordered_json::object();
  value["label"] = "çay";
  value["burstiness"] = "Infinity";
  value["lists"] = {1, 2.5, nlohmann::ordered_json::array(), nlohmann::ordered_json::object()};
  value["nested"] = {{"a", nullptr}, {"b", true}};
  value["x"] = 1e-05;
  EXPECT_EQ(vllmResultText(value),
            R"({"label": "\u00e7ay", "burstiness": Infinity, "lists": [1, 2.5, [], {}], )"
            R"("nested": {"a": null, "b": true}, "x": 1e-05})");
}

}  // namespace
}  // namespace ayar
