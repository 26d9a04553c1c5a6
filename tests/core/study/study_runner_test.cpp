// A study over the real ayar-engine (sim backend with fixed timings) and a real SQLite store: the
// known timings give known ratios, in both report languages.
#include "core/study/study_runner.h"

#include <gtest/gtest.h>

#include <cmath>
#include <regex>
#include <thread>

#include "core/engines/resources_dir.h"
#include "core/error.h"
#include "core/store/result_store.h"
#include "core/study/study_report.h"
#include "tests/support/test_env.h"

namespace ayar {
namespace {

// Baseline fixed:50,10 against fixed:40,8: every latency is 1.25x shorter. A third configuration
// names a model the engine does not know, so its engine exits at start.
StudySpec knownRatioStudy() {
  return studyFromJson(nlohmann::json::parse(R"({
    "name": "known-ratio",
    "baseline": {"engine": {"kind": "bundled", "model": "qwen3-0.6b", "device": "sim",
                            "flags": [{"name": "--sim-profile", "value": "fixed:50,10"}]}},
    "variants": [
      {"name": "broken", "engine": {"kind": "bundled", "model": "no-such-model", "device": "sim"}},
      {"name": "fast", "title": {"en": "Fast", "tr": "Hızlı"},
       "add_flags": [{"name": "--sim-profile", "value": "fixed:40,8"}]}
    ],
    "profiles": [{"name": "p", "dataset_name": "random", "num_prompts": 8, "random_input_len": 16,
                  "random_output_len": 20, "ignore_eos": true, "request_rate": 20, "burstiness": "inf"}],
    "deciding_figure": "mean_e2el_ms",
    "warmup_requests": 1
  })"),
                       "test study");
}

StudyRunOptions engineOptions() {
  StudyRunOptions options;
  options.bundledEngine = AYAR_ENGINE_BIN;
  return options;
}

// The optimised cell of the before/after table's first row.
// The conclusion's before/after table (the report's first): scenario | baseline | optimised | ratio.
const ReportBlock* beforeAfterTable(const ReportDocument& report) {
  for (const ReportSection& section : report.sections) {
    for (const ReportBlock& block : section.blocks) {
      if (block.kind == ReportBlock::Kind::Table && !block.rows.empty()) return &block;
    }
  }
  return nullptr;
}

// A profile as a report describes it: in its language's words and numbers, not ProfileSpec::describe()'s
// log line.
TEST(StudyReport, ProfilesAreDescribedInTheReportsLanguageAndNumbers) {
  ProfileSpec profile;
  profile.datasetName = "random";
  profile.numPrompts = 1000;
  profile.randomInputLen = 4000;
  profile.randomOutputLen = 200;
  profile.requestRate = 2.5;
  profile.burstiness = ProfileSpec::kInfinity;
  profile.maxConcurrency = 64;
  EXPECT_EQ(
      describeProfile(profile, ReportLanguage::Turkish),
      "rastgele istemler, 1.000 istek, 4.000 giriş ve 200 çıkış token'ı, saniyede 2,5 istek, eşit aralıklı, "
      "aynı anda en fazla 64 istek");
  EXPECT_EQ(
      describeProfile(profile, ReportLanguage::English),
      "random prompts, 1,000 requests, 4,000 input and 200 output tokens, 2.5 requests per second, evenly "
      "spaced, at most 64 in flight");
  profile.datasetName = "sharegpt";
  profile.requestRate = ProfileSpec::kInfinity;
  profile.maxConcurrency.reset();
  EXPECT_EQ(describeProfile(profile, ReportLanguage::Turkish), "ShareGPT, 1.000 istek, hepsi aynı anda");
  profile.loadMode = LoadMode::Concurrent;
  profile.concurrency = 8;
  EXPECT_EQ(describeProfile(profile, ReportLanguage::English),
            "ShareGPT, 1,000 requests, 8 concurrent streams");
}

// On a loaded 2-core machine the OS can park a thread for a scheduler tick and stretch a few
// requests of one side; one of three studies must read within 0.02 of 1.25. A wrong ratio rule (the
// inverse, a difference) or wrong timings fail all three.
// A stored run's set-up as the comparison reads it: every spelling of a flag in the catalogue's one form,
// the engine's defaults beside them, the profile's fields as text; an import without an engine record
// recorded nothing.
TEST(StudyReport, AStoredRunsSetUpReadsItsFlagsInOneFormWithTheEnginesDefaults) {
  StoredRun run;
  run.info.engine = nlohmann::json::parse(R"({"engine": "ayar", "kind": "bundled", "model": "qwen3-8b",
      "device": "sim", "simulated": true, "command": "ayar-engine serve ...",
      "flags": [{"name": "--no-enable-prefix-caching"}, {"name": "--max-num-batched-tokens", "value": "4096.0"},
                {"raw": "--custom=1"}]})");
  run.info.profile = {{"request_rate", "inf"}, {"num_prompts", 200}, {"burstiness", 1.0}};
  const EngineCatalogue catalogue = EngineCatalogue::loadFolder(resourcesDir() / "engines");
  const RunSetup setup = storedRunSetup(run, &catalogue);
  EXPECT_TRUE(setup.recorded);
  EXPECT_EQ(setup.engine, "ayar");
  EXPECT_EQ(setup.model, "qwen3-8b");
  EXPECT_EQ(setup.device, "sim");
  EXPECT_EQ(setup.flags, (std::map<std::string, std::string>{{"--enable-prefix-caching", "false"},
                                                             {"--max-num-batched-tokens", "4096"},
                                                             {"--custom=1", ""}}));
  EXPECT_EQ(setup.flagDefaults.at("--max-num-batched-tokens"), "8192");
  EXPECT_EQ(setup.flagDefaults.at("--enable-prefix-caching"), "true");
  EXPECT_EQ(setup.flagDefaults.count("--max-num-seqs"), 0u) << "the engine decides it at start";
  EXPECT_EQ(setup.profile, (std::map<std::string, std::string>{
                               {"request_rate", "inf"}, {"num_prompts", "200"}, {"burstiness", "1.0"}}));

  StoredRun imported;
  imported.info.model = "Qwen/Qwen3-8B";
  EXPECT_FALSE(storedRunSetup(imported, &catalogue).recorded);
  run.info.engine["flags"] = "not a list";
  EXPECT_FALSE(storedRunSetup(run, &catalogue).recorded);
}

TEST(StudyRunner, FixedTimingsReadAboutOnePointTwoFiveTimesFasterInBothLanguages) {
  test::TempDir dir;
  const auto store = dir / "ayar.db";
  std::int64_t id = 0;
  std::vector<std::string> finished;
  double ratio = 0.0;
  for (int attempt = 0; attempt < 3 && std::abs(ratio - 1.25) > 0.02; ++attempt) {
    id = StudyRunner::create(knownRatioStudy(), store);
    finished.clear();
    StudyObserver observer;
    observer.onCellFinished = [&](const StudyCell& cell, int total) {
      EXPECT_EQ(total, 3);
      finished.push_back(cell.configuration + ":" + std::string(toString(cell.status)));
    };
    StudyRunner(store, id, engineOptions(), observer).run();
    ratio = buildStudyReport(store, id, ReportLanguage::English).data["speedup"].get<double>();
  }
  EXPECT_EQ(finished, (std::vector<std::string>{"baseline:done", "broken:failed-to-start", "fast:done"}));

  ResultStore reader(store);
  const auto cells = reader.listStudyCells(id);
  ASSERT_EQ(cells.size(), 3u);
  EXPECT_NE(cells[1].engineLog.find("Unknown model 'no-such-model'"), std::string::npos)
      << cells[1].engineLog;
  EXPECT_NE(cells[1].error.find("exited during start-up"), std::string::npos) << cells[1].error;
  ASSERT_TRUE(cells[2].runId);
  const auto run = reader.findRun(*cells[2].runId);
  ASSERT_TRUE(run);
  EXPECT_EQ(run->info.kind, RunKind::StudyPart);
  EXPECT_EQ(run->info.studyId, id);
  EXPECT_EQ(run->summary["completed"], 8);  // the warm-up request is not counted
  EXPECT_EQ(reader.findStudy(id)->status, RunStatus::Completed);

  const ReportDocument english = buildStudyReport(store, id, ReportLanguage::English);
  const ReportDocument turkish = buildStudyReport(store, id, ReportLanguage::Turkish);
  EXPECT_EQ(english.data["recommended"], "fast");
  EXPECT_NEAR(english.data["speedup"].get<double>(), 1.25, 0.02);
  // 50 + 10 x 19 = 240 ms against 40 + 8 x 19 = 192 ms, plus the same few tenths of a millisecond of
  // client and loopback time on both sides.
  const ReportBlock* en = beforeAfterTable(english);
  const ReportBlock* tr = beforeAfterTable(turkish);
  ASSERT_TRUE(en && tr);
  ASSERT_EQ(en->rows.front().size(), 4u);
  EXPECT_TRUE(std::regex_match(en->rows.front()[3], std::regex(R"(1\.2[3-7]x faster)")))
      << en->rows.front()[3];
  EXPECT_TRUE(std::regex_match(tr->rows.front()[3], std::regex(R"(1,2[3-7]x daha hızlı)")))
      << tr->rows.front()[3];
  // The figures in each language's numbers, named once in the table's caption; aligned right.
  EXPECT_TRUE(std::regex_match(en->rows.front()[1], std::regex(R"(2[34][0-9]\.[0-9]{2})")))
      << en->rows.front()[1];
  EXPECT_TRUE(std::regex_match(tr->rows.front()[2], std::regex(R"(19[0-9],[0-9]{2})")))
      << tr->rows.front()[2];
  EXPECT_EQ(en->caption, "Mean latency (ms)");
  EXPECT_EQ(tr->caption, "Ortalama gecikme (ms)");
  EXPECT_TRUE(tr->isNumericColumn(1) && tr->isNumericColumn(2) && tr->isNumericColumn(3));
  // The recommendation in a sentence: the configuration's title opens it, the figure is in lower case.
  EXPECT_TRUE(std::regex_search(renderMarkdown(turkish),
                                std::regex(R"(\nHızlı, “p” profilinde ortalama gecikme açısından en iyi )"
                                           R"(yapılandırmadır: 1,2[3-7]x daha hızlı\.)")))
      << renderMarkdown(turkish);
  // A CSV is a machine file: the same table with the C locale's numbers.
  const std::string csv =
      renderCsv(buildStudyReport(store, id, reportLocaleFor(ReportLanguage::Turkish, ReportFormat::Csv)));
  EXPECT_TRUE(
      std::regex_search(csv, std::regex(R"(,2[34][0-9]\.[0-9]{2},19[0-9]\.[0-9]{2},1\.2[3-7]x daha hızlı)")))
      << csv;

  // The broken configuration is in the report with its log; the serving command is the fast one's.
  const std::string markdown = renderMarkdown(english);
  EXPECT_NE(markdown.find("The engine did not start"), std::string::npos);
  EXPECT_NE(markdown.find("Unknown model 'no-such-model'"), std::string::npos);
  EXPECT_NE(markdown.find("ayar-engine serve qwen3-0.6b --device sim --sim-profile fixed:40,8"),
            std::string::npos)
      << markdown;
  EXPECT_NE(markdown.find("Simulated"), std::string::npos);
  EXPECT_NE(renderMarkdown(turkish).find("Motor başlamadı"), std::string::npos);
}

TEST(StudyRunner, AResumedStudyRunsOnlyTheCellsNotDone) {
  test::TempDir dir;
  const auto store = dir / "ayar.db";
  StudySpec study = knownRatioStudy();
  study.variants.erase(study.variants.begin());  // only baseline and fast
  const std::int64_t id = StudyRunner::create(study, store);
  // The first cell as a killed study leaves it: done; the second was running when it died.
  StudyRunner(store, id, engineOptions()).run();
  ResultStore reader(store);
  auto cells = reader.listStudyCells(id);
  ASSERT_EQ(cells.size(), 2u);
  const auto firstRun = cells[0].runId;
  cells[1].status = CellStatus::Running;
  cells[1].runId.reset();
  reader.updateStudyCell(id, cells[1]);
  // The half-done study's report says so, in both languages, and claims no recommendation from it.
  const std::string partial = renderMarkdown(buildStudyReport(store, id, ReportLanguage::English));
  EXPECT_NE(partial.find("The study is not finished: 1 of the 2 cells planned so far are measured"),
            std::string::npos)
      << partial;
  EXPECT_EQ(partial.find("the baseline stays the recommended configuration"), std::string::npos);
  EXPECT_NE(renderMarkdown(buildStudyReport(store, id, ReportLanguage::Turkish))
                .find("Çalışma tamamlanmadı: şimdiye dek planlanan 2 hücreden 1 tanesi ölçüldü"),
            std::string::npos);

  std::vector<int> ran;
  StudyObserver observer;
  observer.onCellStarted = [&](const StudyCell& cell, int) { ran.push_back(cell.index); };
  StudyRunner(store, id, engineOptions(), observer).run();
  EXPECT_EQ(ran, (std::vector<int>{1}));
  cells = reader.listStudyCells(id);
  EXPECT_EQ(cells[0].runId, firstRun);
  EXPECT_EQ(cells[1].status, CellStatus::Done);
  EXPECT_EQ(buildStudyReport(store, id, ReportLanguage::English).data["recommended"], "fast");
  EXPECT_EQ(renderMarkdown(buildStudyReport(store, id, ReportLanguage::English)).find("not finished"),
            std::string::npos);
}

// The runner beats the study's heartbeat while it works: a reader that takes three silent seconds for a
// dead runner (as for a runner on another host) still sees the study running five seconds in.
TEST(StudyRunner, BeatsTheStudysHeartbeatWhileItRuns) {
  test::TempDir dir;
  const auto store = dir / "ayar.db";
  StudySpec study = knownRatioStudy();
  study.variants.clear();
  study.profiles[0].numPrompts = 14;
  study.profiles[0].requestRate = 2.0;  // about seven seconds of load
  const std::int64_t id = StudyRunner::create(study, store);
  std::thread runner([&] { StudyRunner(store, id, engineOptions()).run(); });
  std::this_thread::sleep_for(std::chrono::seconds(5));
  StoreOptions strict;
  strict.staleHeartbeatAfter = std::chrono::seconds(3);
  const RunStatus during = ResultStore(store, strict).findStudy(id)->status;
  runner.join();
  EXPECT_EQ(during, RunStatus::Running);
  EXPECT_EQ(ResultStore(store).findStudy(id)->status, RunStatus::Completed);
}

// A variant whose flags are the engine's defaults (prefix caching is on by default) would measure the
// baseline again: the study is refused before it starts, naming the variant. The shipped presets pass.
TEST(StudyRunner, AVariantThatChangesNothingIsRefusedNamingIt) {
  test::TempDir dir;
  StudySpec study = studyFromJson(nlohmann::json::parse(R"({
    "name": "no-op",
    "baseline": {"engine": {"kind": "bundled", "model": "qwen3-0.6b", "device": "sim"}},
    "variants": [{"name": "prefix-caching", "add_flags": ["--enable-prefix-caching"]},
                 {"name": "more-seqs", "add_flags": [{"name": "--max-num-seqs", "value": 512}]}],
    "profiles": [{"name": "p", "dataset_name": "random", "num_prompts": 2}]
  })"),
                                  "test study");
  try {
    StudyRunner::create(study, dir / "ayar.db");
    FAIL() << "a variant equal to the baseline was accepted";
  } catch (const Error& e) {
    EXPECT_NE(
        std::string(e.what()).find("variant 'prefix-caching' starts the engine exactly as the baseline"),
        std::string::npos)
        << e.what();
  }
  EXPECT_TRUE(ResultStore(dir / "ayar.db").listStudies().empty());
  study.variants.erase(study.variants.begin());
  EXPECT_GT(StudyRunner::create(study, dir / "ayar.db"), 0);
  for (const std::string& preset : listStudyPresets())
    EXPECT_GT(StudyRunner::create(loadStudy(preset), dir / "ayar.db"), 0) << preset;
}

TEST(StudyRunner, AnUnknownStudyIsAnErrorNamingIt) {
  test::TempDir dir;
  try {
    StudyRunner(dir / "ayar.db", 7).run();
    FAIL();
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("no study 7"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace ayar
