#include "core/store/result_store.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/store/run_writer.h"
#include "core/store/schema.h"
#include "tests/core/store/expect_same_record.h"
#include "tests/core/store/raw_sqlite.h"
#include "tests/core/store/store_test_records.h"
#include "tests/support/test_env.h"

namespace ayar {
namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The ayar::Error message of opening a store at `path`, or "" when it opened.
std::string openError(const std::filesystem::path& path) {
  try {
    ResultStore store(path);
  } catch (const Error& e) {
    return e.what();
  }
  return {};
}

std::int64_t writeFinishedRun(const std::filesystem::path& path, const RunInfo& info, RunStatus status,
                              int requests = 0) {
  RunWriter writer(path, info);
  for (int i = 0; i < requests; ++i)
    writer.addRecord(test::makeStoreTestRecord(i));
  writer.finish(status, nlohmann::json{{"completed", requests}}, nullptr);
  return writer.runId();
}

TEST(ResultStore, CreatesMissingFoldersAndTheLatestSchema) {
  test::TempDir dir;
  const auto path = dir / "nested/deeper/ayar.db";
  ResultStore store(path);
  EXPECT_TRUE(std::filesystem::exists(path));
  EXPECT_EQ(store.schemaVersion(), latestSchemaVersion());
  EXPECT_TRUE(store.listRuns().empty());
}

TEST(ResultStore, MigratesAnEmptyFile) {
  test::TempDir dir;
  const auto path = dir / "empty.db";
  std::ofstream(path).close();
  ASSERT_EQ(std::filesystem::file_size(path), 0u);
  {
    ResultStore store(path);
    EXPECT_EQ(store.schemaVersion(), latestSchemaVersion());
  }
  test::RawSqlite raw(path);
  EXPECT_EQ(raw.integer("PRAGMA user_version"), latestSchemaVersion());
  for (const char* table : {"runs", "requests", "samples", "studies"}) {
    EXPECT_EQ(
        raw.integer(std::string("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = '") +
                    table + "'"),
        1)
        << table;
  }
  EXPECT_EQ(raw.integer("SELECT count(*) FROM pragma_foreign_key_list('requests') WHERE \"table\" = 'runs'"),
            1);
}

TEST(ResultStore, ReopeningAMigratedFileKeepsItsRuns) {
  test::TempDir dir;
  const auto path = dir / "ayar.db";
  const std::int64_t id = writeFinishedRun(path, RunInfo{}, RunStatus::Completed, 3);
  ResultStore store(path);
  const auto run = store.findRun(id);
  ASSERT_TRUE(run);
  EXPECT_EQ(run->storedRequests, 3);
}

TEST(ResultStore, FileIsInWalModeWithForeignKeysOn) {
  test::TempDir dir;
  const auto path = dir / "ayar.db";
  ResultStore store(path);
  test::RawSqlite raw(path);
  // journal_mode=WAL is a property of the file: any connection sees it.
  EXPECT_EQ(raw.text("PRAGMA journal_mode"), "wal");
  // Foreign keys are per connection; the store's own shows in the cascade test. Here: the schema
  // declares the cascade that relies on them.
  EXPECT_EQ(raw.text("SELECT on_delete FROM pragma_foreign_key_list('samples')"), "CASCADE");
}

TEST(ResultStore, RoundTripsEveryRunFieldRecordAndSample) {
  test::TempDir dir;
  const auto path = dir / "ayar.db";
  RunInfo info;
  info.kind = RunKind::Bench;
  info.label = "baseline";
  info.backend = "openai-chat";
  info.baseUrl = "http://127.0.0.1:8000";
  info.endpoint = "/v1/chat/completions";
  info.model = "Qwen/Qwen3-8B";
  info.servedModelName = "qwen3-8b";
  info.tokenizer = "Qwen/Qwen3-8B";
  info.dataset = "sharegpt";
  info.notes = "first try — ilk deneme";
  info.profile = {{"dataset", "sharegpt"}, {"num_prompts", 1000}, {"request_rate", "inf"}};
  info.engine = {{"kind", "bundled"}, {"flags", {"--max-num-seqs", "256"}}};
  info.config = {{"seed", 0}, {"max_concurrency", 31}};

  std::vector<RequestRecord> records;
  for (int i = 0; i < 40; ++i)
    records.push_back(test::makeStoreTestRecord(i, 500));
  records[7].generatedText = std::string("with a NUL \0 inside", 19);
  records[8].chunkTimesS = {1.0e-9};
  const std::vector<Sample> samples{{0.5, "client.in_flight", 12},
                                    {1.0, "client.in_flight", 31},
                                    {0.5, "server.kv_cache_usage_perc", 0.4375}};
  const nlohmann::json summary = {{"completed", 39}, {"failed", 1}, {"mean_ttft_ms", 21.5}};
  const nlohmann::json result = {{"backend", "openai-chat"}, {"ttfts", {0.021, 0.022}}};

  std::int64_t id = 0;
  std::string uuid;
  {
    RunWriter writer(path, info);
    id = writer.runId();
    uuid = writer.runUuid();
    writer.addRecords({records.begin(), records.begin() + 20});
    writer.addSamples(samples);
    writer.addRecords({records.begin() + 20, records.end()});
    writer.finish(RunStatus::Completed, summary, result);
  }

  ResultStore store(path);
  const auto detail = store.loadRun(id);
  ASSERT_TRUE(detail);
  const StoredRun& run = detail->run;
  EXPECT_EQ(run.id, id);
  EXPECT_EQ(run.uuid, uuid);
  EXPECT_EQ(run.uuid.size(), 36u);
  EXPECT_EQ(run.status, RunStatus::Completed);
  EXPECT_EQ(run.info.kind, RunKind::Bench);
  EXPECT_FALSE(run.info.studyId);
  EXPECT_EQ(run.info.label, info.label);
  EXPECT_EQ(run.info.backend, info.backend);
  EXPECT_EQ(run.info.baseUrl, info.baseUrl);
  EXPECT_EQ(run.info.endpoint, info.endpoint);
  EXPECT_EQ(run.info.model, info.model);
  EXPECT_EQ(run.info.servedModelName, info.servedModelName);
  EXPECT_EQ(run.info.tokenizer, info.tokenizer);
  EXPECT_EQ(run.info.dataset, info.dataset);
  EXPECT_EQ(run.info.notes, info.notes);
  EXPECT_EQ(run.info.profile, info.profile);
  EXPECT_EQ(run.info.engine, info.engine);
  EXPECT_EQ(run.info.config, info.config);
  EXPECT_EQ(run.summary, summary);
  EXPECT_EQ(run.result, result);
  EXPECT_GT(run.createdAt, 1.6e9);
  ASSERT_TRUE(run.finishedAt);
  EXPECT_GE(*run.finishedAt, run.createdAt);
  EXPECT_EQ(run.pid, static_cast<std::int64_t>(::getpid()));
  EXPECT_FALSE(run.hostname.empty());
  EXPECT_EQ(run.storedRequests, 40);

  ASSERT_EQ(detail->requests.size(), records.size());
  for (std::size_t i = 0; i < records.size(); ++i)
    test::expectSameRecord(detail->requests[i], records[i]);
  const std::vector<Sample> expectedSamples{samples[0], samples[1], samples[2]};
  EXPECT_EQ(detail->samples, expectedSamples);

  const auto byUuid = store.findRunByUuid(uuid);
  ASSERT_TRUE(byUuid);
  EXPECT_EQ(byUuid->id, id);
  EXPECT_FALSE(store.findRun(id + 100));
  EXPECT_FALSE(store.loadRun(id + 100));
}

// Whether a run measured the simulator, and whether its prompts were synthetic, as read back from the
// store: from the result's "ayar" object, the engine record, or the dataset that was built.
TEST(ResultStore, ARunsFactsAreReadFromWhatItRecorded) {
  test::TempDir dir;
  ResultStore store(dir / "ayar.db");
  const auto factsOf = [&](FinishedRun run) { return runFacts(*store.findRun(store.addFinishedRun(run))); };
  FinishedRun plain;
  plain.info.dataset = "random";
  plain.summary = {{"completed", 1}, {"ayar", {{"simulated", false}, {"dataset", {{"synthetic", false}}}}}};
  EXPECT_FALSE(factsOf(plain).simulated);
  EXPECT_FALSE(factsOf(plain).syntheticDataset);

  FinishedRun simulated = plain;
  simulated.summary["ayar"]["simulated"] = true;
  EXPECT_TRUE(factsOf(simulated).simulated);
  FinishedRun simulatedEngine = plain;
  simulatedEngine.info.engine = {{"kind", "bundled"}, {"simulated", true}};
  EXPECT_TRUE(factsOf(simulatedEngine).simulated);

  // ShareGPT asked for, the synthetic set built in its place (no file given).
  FinishedRun standIn = plain;
  standIn.info.profile = {{"dataset_name", "sharegpt"}};
  standIn.info.dataset = "synthetic-sharegpt";
  EXPECT_TRUE(factsOf(standIn).syntheticDataset);
  FinishedRun flagged = plain;
  flagged.summary["ayar"]["dataset"]["synthetic"] = true;
  EXPECT_TRUE(factsOf(flagged).syntheticDataset);
  EXPECT_FALSE(factsOf(flagged).simulated);
}

// The engine, the import and the profile name as views read them, from the run's set-up as stored.
TEST(ResultStore, ARunsEngineImportAndProfileAreReadTyped) {
  test::TempDir dir;
  ResultStore store(dir / "ayar.db");
  FinishedRun started;
  started.info.engine = {
      {"kind", "bundled"},
      {"engine", "ayar"},
      {"device", "sim"},
      {"command", "ayar-engine --model qwen3-tiny"},
      {"log", "/logs/engine.log"},
      {"flags", {{{"name", "--max-num-seqs"}, {"value", "8"}}, {{"name", "--enforce-eager"}}}}};
  started.info.profile = {{"name", "cpu-quick"}, {"dataset_name", "random"}};
  const StoredRun run = *store.findRun(store.addFinishedRun(started));
  const RunEngineFacts engine = runEngineFacts(run);
  EXPECT_EQ(engine.kind, "bundled");
  EXPECT_EQ(engine.engine, "ayar");
  EXPECT_EQ(engine.device, "sim");
  EXPECT_EQ(engine.command, "ayar-engine --model qwen3-tiny");
  EXPECT_EQ(engine.logPath, "/logs/engine.log");
  ASSERT_EQ(engine.flags.size(), 2u);
  EXPECT_EQ(engine.flags[0].first, "--max-num-seqs");
  EXPECT_EQ(engine.flags[0].second, std::optional<std::string>("8"));
  EXPECT_EQ(engine.flags[1].first, "--enforce-eager");
  EXPECT_FALSE(engine.flags[1].second);
  EXPECT_EQ(runProfileName(run).name, "cpu-quick");
  EXPECT_FALSE(runImportFacts(run.info));

  FinishedRun imported;
  imported.info.profile = {{"edited_from", "sharegpt-8rps"}};
  imported.info.config = {{"imported",
                           {{"tool", "vllm"},
                            {"version", "0.11.0"},
                            {"file", "run.json"},
                            {"recomputed", true},
                            {"notes", {"no start times"}},
                            {"notes_tr", {"başlangıç zamanları yok"}},
                            {"differences", {"mean TTFT differs"}}}}};
  const StoredRun importedRun = *store.findRun(store.addFinishedRun(imported));
  const auto facts = runImportFacts(importedRun.info);
  ASSERT_TRUE(facts);
  EXPECT_EQ(facts->tool, "vllm");
  EXPECT_EQ(facts->version, "0.11.0");
  EXPECT_EQ(facts->file, "run.json");
  EXPECT_EQ(facts->requestsFile, "");
  EXPECT_TRUE(facts->recomputed);
  ASSERT_EQ(facts->notes.size(), 1u);
  EXPECT_EQ(facts->notes[0].turkish, "başlangıç zamanları yok");
  ASSERT_EQ(facts->differences.size(), 1u);
  EXPECT_EQ(facts->differences[0].turkish, "mean TTFT differs") << "stored before Turkish was kept";
  EXPECT_EQ(runNotes(importedRun).notes.size(), 2u);
  EXPECT_EQ(runProfileName(importedRun).name, "");
  EXPECT_EQ(runProfileName(importedRun).editedFrom, "sharegpt-8rps");
  EXPECT_TRUE(runEngineFacts(importedRun).flags.empty());
}

TEST(ResultStore, AFinishedRunKeepsItsOwnTimesRequestsAndStatusAndNoWriter) {
  test::TempDir dir;
  const auto path = dir / "ayar.db";
  FinishedRun finished;
  finished.info.model = "Qwen/Qwen3-0.6B";
  finished.info.config = {{"imported", {{"tool", "vllm"}}}};
  finished.status = RunStatus::Failed;
  finished.createdAt = 1764599001.25;
  finished.finishedAt = 1764599031.5;
  for (int i = 0; i < 5; ++i)
    finished.requests.push_back(test::makeStoreTestRecord(i));
  finished.samples = {{0.5, "client.in_flight", 3}};
  finished.summary = {{"completed", 0}, {"failed", 5}};
  finished.result = {{"backend", "openai"}};

  ResultStore store(path);
  const std::int64_t id = store.addFinishedRun(finished);
  EXPECT_EQ(store.markInterruptedRuns(), 0);  // no writing process: never taken for a live run
  const auto detail = store.loadRun(id);
  ASSERT_TRUE(detail);
  EXPECT_EQ(detail->run.status, RunStatus::Failed);
  EXPECT_EQ(detail->run.createdAt, finished.createdAt);
  ASSERT_TRUE(detail->run.finishedAt);
  EXPECT_EQ(*detail->run.finishedAt, finished.finishedAt);
  EXPECT_EQ(detail->run.pid, 0);
  EXPECT_EQ(detail->run.hostname, "");
  EXPECT_EQ(detail->run.info.config, finished.info.config);
  EXPECT_EQ(detail->run.summary, finished.summary);
  EXPECT_EQ(detail->run.result, finished.result);
  EXPECT_EQ(detail->run.uuid.size(), 36u);
  ASSERT_EQ(detail->requests.size(), finished.requests.size());
  for (std::size_t i = 0; i < finished.requests.size(); ++i)
    test::expectSameRecord(detail->requests[i], finished.requests[i]);
  EXPECT_EQ(detail->samples, finished.samples);
}

TEST(ResultStore, ListsNewestFirstAndFiltersByLabelModelStatusAndLimit) {
  test::TempDir dir;
  const auto path = dir / "ayar.db";
  auto info = [](std::string label, std::string model, std::string served) {
    RunInfo run;
    run.label = std::move(label);
    run.model = std::move(model);
    run.servedModelName = std::move(served);
    return run;
  };
  const std::int64_t a = writeFinishedRun(path, info("baseline", "qwen3-8b", "q8"), RunStatus::Completed);
  const std::int64_t b = writeFinishedRun(path, info("baseline", "qwen3-14b", "q14"), RunStatus::Failed);
  const std::int64_t c = writeFinishedRun(path, info("prefix-cache", "qwen3-8b", "q8"), RunStatus::Completed);
  const std::int64_t d =
      writeFinishedRun(path, info("prefix-cache", "qwen3-14b", "q14"), RunStatus::Cancelled);

  ResultStore store(path);
  auto ids = [&](const RunFilter& filter) {
    std::vector<std::int64_t> out;
    for (const StoredRun& run : store.listRuns(filter))
      out.push_back(run.id);
    return out;
  };
  using Ids = std::vector<std::int64_t>;
  RunFilter byLabel;
  byLabel.label = "baseline";
  RunFilter byModel;
  byModel.model = "qwen3-8b";
  RunFilter byServedName;
  byServedName.model = "q14";
  RunFilter byStatus;
  byStatus.status = RunStatus::Completed;
  RunFilter byLabelAndModel;
  byLabelAndModel.label = "prefix-cache";
  byLabelAndModel.model = "qwen3-14b";
  RunFilter firstTwo;
  firstTwo.limit = 2;
  RunFilter noMatch;
  noMatch.label = "nothing-like-it";
  EXPECT_EQ(ids({}), (Ids{d, c, b, a}));
  EXPECT_EQ(ids(byLabel), (Ids{b, a}));
  EXPECT_EQ(ids(byModel), (Ids{c, a}));
  EXPECT_EQ(ids(byServedName), (Ids{d, b})) << "the served model name matches too";
  EXPECT_EQ(ids(byStatus), (Ids{c, a}));
  EXPECT_EQ(ids(byLabelAndModel), (Ids{d}));
  EXPECT_EQ(ids(firstTwo), (Ids{d, c}));
  EXPECT_EQ(ids(noMatch), Ids{});

  RunFilter newest;
  newest.limit = 1;
  const auto listed = store.listRuns(newest);
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_TRUE(listed[0].result.is_null()) << "the result JSON is loaded only when asked";
  EXPECT_EQ(listed[0].summary, (nlohmann::json{{"completed", 0}}));
}

TEST(ResultStore, DeletingARunRemovesItsRequestsAndSamples) {
  test::TempDir dir;
  const auto path = dir / "ayar.db";
  std::int64_t doomed = 0;
  {
    RunWriter writer(path, RunInfo{});
    doomed = writer.runId();
    for (int i = 0; i < 25; ++i)
      writer.addRecord(test::makeStoreTestRecord(i));
    writer.addSamples({{0.1, "client.in_flight", 3}, {0.2, "client.in_flight", 4}});
    writer.finish(RunStatus::Completed, nullptr, nullptr);
  }
  const std::int64_t kept = writeFinishedRun(path, RunInfo{}, RunStatus::Completed, 5);

  ResultStore store(path);
  EXPECT_TRUE(store.deleteRun(doomed));
  EXPECT_FALSE(store.deleteRun(doomed)) << "a second delete finds nothing";
  EXPECT_FALSE(store.findRun(doomed));

  test::RawSqlite raw(path);
  const std::string doomedId = std::to_string(doomed);
  EXPECT_EQ(raw.integer("SELECT count(*) FROM requests WHERE run_id = " + doomedId), 0);
  EXPECT_EQ(raw.integer("SELECT count(*) FROM samples WHERE run_id = " + doomedId), 0);
  EXPECT_EQ(raw.integer("SELECT count(*) FROM requests WHERE run_id = " + std::to_string(kept)), 5);
  EXPECT_EQ(store.loadRequests(kept).size(), 5u);
}

TEST(ResultStore, RunsBelongToAStudyUntilTheStudyIsDeleted) {
  test::TempDir dir;
  const auto path = dir / "ayar.db";
  ResultStore store(path);
  const std::int64_t study = store.createStudy("prefix caching on qwen3-8b", {{"configs", 2}});
  RunInfo info;
  info.kind = RunKind::StudyPart;
  info.studyId = study;
  const std::int64_t part = writeFinishedRun(path, info, RunStatus::Completed);
  writeFinishedRun(path, RunInfo{}, RunStatus::Completed);

  RunFilter ofStudy;
  ofStudy.studyId = study;
  const auto parts = store.listRuns(ofStudy);
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_EQ(parts[0].id, part);
  EXPECT_EQ(parts[0].info.kind, RunKind::StudyPart);
  EXPECT_TRUE(store.setStudyStatus(study, RunStatus::Completed));
  const auto studies = store.listStudies();
  ASSERT_EQ(studies.size(), 1u);
  EXPECT_EQ(studies[0].name, "prefix caching on qwen3-8b");
  EXPECT_EQ(studies[0].status, RunStatus::Completed);
  EXPECT_EQ(studies[0].spec, (nlohmann::json{{"configs", 2}}));

  EXPECT_TRUE(store.deleteStudy(study));
  const auto run = store.findRun(part);
  ASSERT_TRUE(run) << "a study's runs outlive it";
  EXPECT_FALSE(run->info.studyId);
}

TEST(ResultStore, StudyCellsKeepTheirOrderStateRunAndEngineLog) {
  test::TempDir dir;
  const auto path = dir / "ayar.db";
  ResultStore store(path);
  const std::int64_t study = store.createStudy("smoke", {{"name", "smoke"}});
  std::vector<StudyCell> cells(3);
  for (int i = 0; i < 3; ++i) {
    cells[static_cast<std::size_t>(i)].index = i;
    cells[static_cast<std::size_t>(i)].configuration = i < 2 ? "baseline" : "fast";
    cells[static_cast<std::size_t>(i)].profile = i % 2 == 0 ? "p1" : "p2";
  }
  store.addStudyCells(study, cells);
  RunInfo info;
  info.kind = RunKind::StudyPart;
  info.studyId = study;
  StudyCell done = cells[0];
  done.status = CellStatus::Done;
  done.runId = writeFinishedRun(path, info, RunStatus::Completed);
  EXPECT_TRUE(store.updateStudyCell(study, done));
  StudyCell broken = cells[2];
  broken.status = CellStatus::FailedToStart;
  broken.error = "ayar-engine exited during start-up";
  broken.engineLog = "error: unknown model\n";
  EXPECT_TRUE(store.updateStudyCell(study, broken));

  // Adding again leaves the existing cells as they are and adds the new ones (follow-up cells).
  StudyCell followUp;
  followUp.index = 3;
  followUp.configuration = "baseline";
  followUp.profile = "p3";
  followUp.phase = "follow-up";
  cells.push_back(followUp);
  store.addStudyCells(study, cells);

  const auto stored = ResultStore(path).listStudyCells(study);
  ASSERT_EQ(stored.size(), 4u);
  EXPECT_EQ(stored[0].status, CellStatus::Done);
  EXPECT_EQ(stored[0].runId, done.runId);
  EXPECT_EQ(stored[1].status, CellStatus::Pending);
  EXPECT_FALSE(stored[1].runId);
  EXPECT_EQ(stored[2].status, CellStatus::FailedToStart);
  EXPECT_EQ(stored[2].engineLog, "error: unknown model\n");
  EXPECT_EQ(stored[2].error, "ayar-engine exited during start-up");
  EXPECT_EQ(stored[3].phase, "follow-up");
  EXPECT_EQ(stored[3].profile, "p3");
  ASSERT_TRUE(store.findStudy(study));
  EXPECT_EQ(store.findStudy(study)->name, "smoke");
  EXPECT_FALSE(store.findStudy(study + 1));
  EXPECT_FALSE(store.updateStudyCell(study + 1, done));

  // A deleted study takes its cells with it.
  EXPECT_TRUE(store.deleteStudy(study));
  EXPECT_TRUE(store.listStudyCells(study).empty());
  EXPECT_EQ(parseCellStatus("failed-to-start"), CellStatus::FailedToStart);
  EXPECT_THROW(parseCellStatus("finished"), Error);
}

// A study's runner beats a heartbeat. Run from another host (a shared store), its pid means nothing
// here: it lists as running while heard from recently, as interrupted once silent, and its own runner's
// next beat brings it back. Only the process that took the study running may beat.
TEST(ResultStore, AStudyWhoseRunnerWentSilentListsAsInterruptedOnAnyHost) {
  test::TempDir dir;
  const auto path = dir / "ayar.db";
  StoreOptions options;
  options.staleHeartbeatAfter = std::chrono::seconds(30);
  ResultStore store(path, options);
  const std::int64_t study = store.createStudy("shared", {});
  const std::string id = std::to_string(study);
  test::RawSqlite raw(path);
  raw.exec(
      "UPDATE studies SET status = 'running', hostname = 'elsewhere.invalid', pid = 1, "
      "heartbeat_at = unixepoch('now') - 5 WHERE id = " +
      id);
  EXPECT_EQ(store.findStudy(study)->status, RunStatus::Running);
  EXPECT_FALSE(store.beatStudy(study));  // not this process's study

  raw.exec("UPDATE studies SET heartbeat_at = unixepoch('now') - 3600 WHERE id = " + id);
  EXPECT_EQ(store.listStudies()[0].status, RunStatus::Interrupted);
  EXPECT_EQ(raw.text("SELECT status FROM studies WHERE id = " + id), "interrupted");

  // Resumed here: this process is the runner; a slow runner's beat brings a marked study back.
  EXPECT_TRUE(store.setStudyStatus(study, RunStatus::Running));
  raw.exec("UPDATE studies SET status = 'interrupted' WHERE id = " + id);
  EXPECT_TRUE(store.beatStudy(study));
  EXPECT_EQ(store.findStudy(study)->status, RunStatus::Running);
  EXPECT_EQ(raw.integer("SELECT heartbeat_at > unixepoch('now') - 60 FROM studies WHERE id = " + id), 1);
  EXPECT_TRUE(store.setStudyStatus(study, RunStatus::Completed));
  EXPECT_FALSE(store.beatStudy(study));  // a finished study stays finished
  EXPECT_EQ(store.findStudy(study)->status, RunStatus::Completed);
}

TEST(ResultStore, AVersionOneFileGainsStudyCellsAndKeepsItsRuns) {
  test::TempDir dir;
  const auto path = dir / "old.db";
  {
    ResultStore store(path);
    writeFinishedRun(path, RunInfo{}, RunStatus::Completed, 2);
  }
  {
    test::RawSqlite raw(path);
    raw.exec("DROP TABLE study_cells");
    raw.exec("ALTER TABLE studies DROP COLUMN pid");
    raw.exec("ALTER TABLE studies DROP COLUMN hostname");
    raw.exec("ALTER TABLE studies DROP COLUMN heartbeat_at");
    raw.exec("PRAGMA user_version = 1");
  }
  ResultStore store(path);
  EXPECT_EQ(store.schemaVersion(), latestSchemaVersion());
  EXPECT_EQ(store.listRuns().size(), 1u);
  const std::int64_t study = store.createStudy("s", {});
  store.addStudyCells(study, {StudyCell{}});
  EXPECT_EQ(store.listStudyCells(study).size(), 1u);
}

TEST(ResultStore, AWriterForAnUnknownStudyIsRefused) {
  test::TempDir dir;
  RunInfo info;
  info.studyId = 42;
  try {
    RunWriter writer(dir / "ayar.db", info);
    FAIL() << "a run of a study that does not exist was written";
  } catch (const Error& e) {
    EXPECT_TRUE(contains(e.what(), "no study 42")) << e.what();
  }
  ResultStore store(dir / "ayar.db");
  EXPECT_TRUE(store.listRuns().empty());
}

// A run that failed while it ran keeps its error in both languages beside what it had in its config,
// and runNotes gives it back in both; the English is the notes `ayar-cli runs show` prints.
TEST(ResultStore, AFailureIsKeptInBothLanguages) {
  test::TempDir dir;
  const auto path = dir / "ayar.db";
  RunInfo info;
  info.config = {{"load", "rate 4 req/s"}};
  const std::int64_t id = writeFinishedRun(path, info, RunStatus::Failed);
  ResultStore store(path);
  EXPECT_TRUE(store.setFailure(id, MessageArgument("the engine stopped", "motor durdu")));
  EXPECT_FALSE(store.setFailure(id + 1, MessageArgument("none", "yok")));
  const auto run = store.findRun(id);
  ASSERT_TRUE(run);
  EXPECT_EQ(run->info.notes, "the engine stopped");
  EXPECT_EQ(run->info.config.value("load", std::string()), "rate 4 req/s");
  EXPECT_EQ(run->info.config.value("error_tr", std::string()), "motor durdu");
  const RunNotes notes = runNotes(*run);
  ASSERT_TRUE(notes.failure);
  EXPECT_EQ(notes.failure->english, "the engine stopped");
  EXPECT_EQ(notes.failure->turkish, "motor durdu");
  EXPECT_TRUE(notes.notes.empty());
}

TEST(ResultStore, EditsLabelAndNotes) {
  test::TempDir dir;
  const auto path = dir / "ayar.db";
  const std::int64_t id = writeFinishedRun(path, RunInfo{}, RunStatus::Completed);
  ResultStore store(path);
  EXPECT_TRUE(store.setLabel(id, "after"));
  EXPECT_TRUE(store.setNotes(id, "fp8 kv cache"));
  EXPECT_FALSE(store.setLabel(id + 1, "none"));
  const auto run = store.findRun(id);
  ASSERT_TRUE(run);
  EXPECT_EQ(run->info.label, "after");
  EXPECT_EQ(run->info.notes, "fp8 kv cache");
}

TEST(ResultStore, AFileThatIsNotSqliteIsAnErrorNamingIt) {
  test::TempDir dir;
  const auto path = dir / "notes.txt";
  std::ofstream(path) << "These are my notes, not a database. They go on for a while so that the file "
                         "is longer than a SQLite header would be.\n";
  const std::string message = openError(path);
  EXPECT_TRUE(contains(message, path.string())) << message;
  EXPECT_TRUE(contains(message, "not a SQLite database")) << message;
}

TEST(ResultStore, AnotherProgramsSqliteFileIsRefused) {
  test::TempDir dir;
  const auto path = dir / "other.db";
  {
    test::RawSqlite raw(path);
    raw.exec("CREATE TABLE bookmarks (url TEXT)");
  }
  const std::string message = openError(path);
  EXPECT_TRUE(contains(message, path.string())) << message;
  EXPECT_TRUE(contains(message, "another program")) << message;
  test::RawSqlite raw(path);
  EXPECT_EQ(raw.integer("SELECT count(*) FROM sqlite_schema WHERE name = 'runs'"), 0) << "left untouched";
}

TEST(ResultStore, ANewerSchemaIsAnErrorSayingToUpgrade) {
  test::TempDir dir;
  const auto path = dir / "ayar.db";
  { ResultStore store(path); }
  {
    test::RawSqlite raw(path);
    raw.exec("PRAGMA user_version = " + std::to_string(latestSchemaVersion() + 1));
  }
  const std::string message = openError(path);
  EXPECT_TRUE(contains(message, path.string())) << message;
  EXPECT_TRUE(contains(message, "newer")) << message;
  EXPECT_TRUE(contains(message, "Upgrade Ayar")) << message;
}

TEST(ResultStore, AnUnwritableLocationIsAnErrorNamingThePath) {
  test::TempDir dir;
  // A regular file where the folder should be: no user, root included, can create the store there.
  std::ofstream(dir / "a-file") << "x";
  const auto path = dir / "a-file" / "ayar.db";
  const std::string message = openError(path);
  EXPECT_TRUE(contains(message, path.string())) << message;
  EXPECT_TRUE(contains(message, "writable")) << message;
  EXPECT_THROW(RunWriter(path, RunInfo{}), Error);
}

TEST(ResultStore, AFolderInsteadOfAFileIsAnErrorNamingIt) {
  test::TempDir dir;
  const std::string message = openError(dir.path());
  EXPECT_TRUE(contains(message, dir.path().string())) << message;
  EXPECT_TRUE(contains(message, "is a folder")) << message;
}

TEST(ResultStore, UnknownStatusWordIsAnErrorListingTheValidOnes) {
  EXPECT_EQ(parseRunStatus("interrupted"), RunStatus::Interrupted);
  EXPECT_EQ(parseRunKind("study-part"), RunKind::StudyPart);
  try {
    parseRunStatus("done");
    FAIL() << "\"done\" was accepted";
  } catch (const Error& e) {
    EXPECT_TRUE(contains(e.what(), "\"done\"")) << e.what();
    EXPECT_TRUE(contains(e.what(), "completed")) << e.what();
  }
}

}  // namespace
}  // namespace ayar
