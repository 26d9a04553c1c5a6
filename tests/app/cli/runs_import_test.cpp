// `ayar-cli runs import` and `runs export --format vllm`: the program as a user runs it, on the
// result files of tests/core/interop/fixtures, with a real SQLite store.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/report/result_json.h"
#include "tests/app/cli/cli_process.h"
#include "tests/support/test_env.h"

namespace ayar {
namespace {

using test::runCli;

const std::filesystem::path kFixtures = AYAR_INTEROP_FIXTURES;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::string readText(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(AyarCliRunsImport, ImportsEveryToolsFileAndExportsTheVllmFileBackUnchanged) {
  test::TempDir dir;
  const std::string store = (dir / "ayar.db").string();
  const auto imported =
      runCli({"runs", "import", (kFixtures / "vllm_detailed.json").string(),
              (kFixtures / "guidellm_benchmarks.json").string(),
              (kFixtures / "aiperf" / "profile_export_aiperf.json").string(),
              (kFixtures / "genai_perf" / "profile_export_genai_perf.json").string(), "--store", store},
             dir / "import.log");
  ASSERT_EQ(imported.exitCode, 0) << imported.output;
  EXPECT_TRUE(
      contains(imported.output, "run 1: imported from " + (kFixtures / "vllm_detailed.json").string()))
      << imported.output;
  EXPECT_TRUE(contains(imported.output, "figures recomputed from its 4 requests")) << imported.output;
  EXPECT_TRUE(contains(imported.output, "run 3: imported from")) << imported.output;  // guidellm's second
  EXPECT_TRUE(contains(imported.output, "run 5: imported from")) << imported.output;
  EXPECT_TRUE(contains(imported.output, "genai-perf")) << imported.output;
  EXPECT_FALSE(contains(imported.output, "differs:")) << imported.output;

  const auto list = runCli({"runs", "list", "--store", store}, dir / "list.log");
  ASSERT_EQ(list.exitCode, 0) << list.output;
  EXPECT_TRUE(contains(list.output, "imported: vllm")) << list.output;
  EXPECT_TRUE(contains(list.output, "imported: guidellm")) << list.output;
  EXPECT_TRUE(contains(list.output, "imported: aiperf")) << list.output;

  const auto show = runCli({"runs", "show", "1", "--store", store}, dir / "show.log");
  ASSERT_EQ(show.exitCode, 0) << show.output;
  EXPECT_TRUE(contains(show.output, "imported:  vllm (version not recorded)")) << show.output;
  EXPECT_TRUE(contains(show.output, "Successful requests:")) << show.output;
  EXPECT_FALSE(contains(show.output, "Dispatch lag")) << show.output;

  const auto exported = runCli(
      {"runs", "export", "1", "--format", "vllm", "--store", store, "-o", (dir / "back.json").string()},
      dir / "export.log");
  ASSERT_EQ(exported.exitCode, 0) << exported.output;
  const auto original = parseResultObjects(readText(kFixtures / "vllm_detailed.json"), "original")[0];
  const auto back = parseResultObjects(readText(dir / "back.json"), "exported")[0];
  for (const auto& [key, value] : original.items())
    EXPECT_EQ(back.value(key, nlohmann::ordered_json("(missing)")), value) << key;
  EXPECT_EQ(back.size(), original.size());

  // A run imported from another tool exports with vLLM's keys too, its figures as Ayar has them.
  const auto fromGuidellm =
      runCli({"runs", "export", "3", "--format", "vllm", "--store", store}, dir / "g.log");
  ASSERT_EQ(fromGuidellm.exitCode, 0) << fromGuidellm.output;
  const auto guidellm = parseResultObjects(fromGuidellm.output, "exported")[0];
  EXPECT_EQ(guidellm["completed"], 3);
  EXPECT_EQ(guidellm["failed"], 1);
  EXPECT_EQ(guidellm["model_id"], "Qwen/Qwen3-0.6B");
  EXPECT_FALSE(guidellm.contains("ayar"));
}

TEST(AyarCliRunsImport, AnImportedVllmFileExportsBackByteForByte) {
  test::TempDir dir;
  // As another tool may have saved it: indented, with a newline at the end.
  const std::string text =
      nlohmann::ordered_json::parse(readText(kFixtures / "vllm_detailed.json")).dump(2) + "\n";
  {
    std::ofstream out(dir / "saved.json", std::ios::binary);
    out << text;
  }
  const std::string store = (dir / "ayar.db").string();
  const auto imported =
      runCli({"runs", "import", (dir / "saved.json").string(), "--store", store}, dir / "i.log");
  ASSERT_EQ(imported.exitCode, 0) << imported.output;
  const auto exported = runCli(
      {"runs", "export", "1", "--format", "vllm", "--store", store, "-o", (dir / "back.json").string()},
      dir / "e.log");
  ASSERT_EQ(exported.exitCode, 0) << exported.output;
  EXPECT_EQ(readText(dir / "back.json"), text);
}

TEST(AyarCliRunsImport, DeeplyNestedJsonIsAnErrorNotACrash) {
  test::TempDir dir;
  {
    std::ofstream out(dir / "deep.json", std::ios::binary);
    out << std::string(100000, '[');
  }
  const std::string store = (dir / "ayar.db").string();
  const auto imported =
      runCli({"runs", "import", (dir / "deep.json").string(), "--store", store}, dir / "i.log");
  EXPECT_EQ(imported.exitCode, 1) << imported.output;
  EXPECT_TRUE(contains(imported.output, "error: " + (dir / "deep.json").string())) << imported.output;
  EXPECT_TRUE(contains(imported.output, "100 levels deep")) << imported.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "ayar.db"));
}

TEST(AyarCliRunsImport, ABadFileAmongGoodOnesStoresNothingAndIsNamed) {
  test::TempDir dir;
  const std::string store = (dir / "ayar.db").string();
  {
    std::ofstream bad(dir / "bad.json");
    bad << R"({"benchmarks": [{"type_": "generative_benchmark"}]})";
  }
  const auto result = runCli({"runs", "import", (kFixtures / "vllm_summary.json").string(),
                              (dir / "bad.json").string(), "--store", store},
                             dir / "import.log");
  EXPECT_EQ(result.exitCode, 1) << result.output;
  EXPECT_TRUE(contains(result.output, (dir / "bad.json").string() + ": field 'benchmarks[0]."))
      << result.output;
  EXPECT_FALSE(std::filesystem::exists(store)) << "nothing may be stored when a file is bad";

  const auto missing =
      runCli({"runs", "import", (dir / "nope.json").string(), "--store", store}, dir / "m.log");
  EXPECT_EQ(missing.exitCode, 2) << missing.output;
  EXPECT_TRUE(contains(missing.output, "nope.json")) << missing.output;
}

TEST(AyarCliRunsImport, TheToolVersionCanBeGivenWhenTheFileDoesNotRecordIt) {
  test::TempDir dir;
  const std::string store = (dir / "ayar.db").string();
  const auto imported = runCli({"runs", "import", (kFixtures / "vllm_summary.json").string(),
                                "--tool-version", "0.11.2", "--store", store},
                               dir / "import.log");
  ASSERT_EQ(imported.exitCode, 0) << imported.output;
  EXPECT_TRUE(contains(imported.output, "vllm 0.11.2")) << imported.output;
  EXPECT_TRUE(contains(imported.output, "figures as written")) << imported.output;
  const auto show = runCli({"runs", "show", "1", "--store", store}, dir / "show.log");
  EXPECT_TRUE(contains(show.output, "imported:  vllm 0.11.2, ")) << show.output;
}

}  // namespace
}  // namespace ayar
