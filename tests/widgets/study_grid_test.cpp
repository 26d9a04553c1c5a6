#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QBrush>
#include <QLocale>
#include <QSignalSpy>

#include "widgets/study_grid_model.h"
#include "widgets/study_grid_view.h"

namespace ayar {
namespace {

ProfileSpec profile(const std::string& name, const std::string& en, const std::string& tr) {
  ProfileSpec p;
  p.name = name;
  p.title = {{"en", en}, {"tr", tr}};
  return p;
}

// A baseline and two variants on two option profiles, and one follow-up profile.
StudySpec study() {
  StudySpec s;
  s.name = "grid";
  s.baseline.device = "sim";
  s.baseline.model = "qwen3-0.6b";
  s.baselineTitle = {{"en", "Baseline"}, {"tr", "Temel yapılandırma"}};
  StudyVariant fast;
  fast.name = "fast";
  fast.title = {{"en", "Fast"}, {"tr", "Hızlı"}};
  fast.addFlags = {EngineFlag::option("--sim-profile", "fixed:40,8")};
  StudyVariant slow;
  slow.name = "slow";
  slow.addFlags = {EngineFlag::option("--sim-profile", "fixed:60,12")};
  s.variants = {fast, slow};
  s.profiles = {profile("steady", "Steady", "Sabit"), profile("burst", "Burst", "Ani yük")};
  s.followUpProfiles = {profile("long", "Long", "Uzun")};
  s.decidingFigure = RunFigure::MeanE2el;
  return s;
}

StudyCell cell(int index, const std::string& configuration, const std::string& profile, CellStatus status,
               std::optional<std::int64_t> run = std::nullopt, const std::string& phase = "options") {
  StudyCell c;
  c.index = index;
  c.configuration = configuration;
  c.profile = profile;
  c.phase = phase;
  c.status = status;
  c.runId = run;
  return c;
}

TEST(StudyGridModel, PassesTheModelTesterThroughAStudyFillingIn) {
  StudyGridModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setStudy(study());
  ASSERT_EQ(model.rowCount(), 3);     // baseline, fast, slow
  ASSERT_EQ(model.columnCount(), 3);  // steady, burst, long (follow-up)
  EXPECT_EQ(model.cellCount(), 0);

  std::vector<StudyCell> cells{
      cell(0, "baseline", "steady", CellStatus::Running), cell(1, "baseline", "burst", CellStatus::Pending),
      cell(2, "fast", "steady", CellStatus::Pending),     cell(3, "fast", "burst", CellStatus::Pending),
      cell(4, "slow", "steady", CellStatus::Pending),     cell(5, "slow", "burst", CellStatus::Pending)};
  QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
  model.setCells(cells, {});
  EXPECT_EQ(model.cellCount(), 6);
  model.setRunningProgress(0.5);
  cells[0] = cell(0, "baseline", "steady", CellStatus::Done, 1);
  cells[1] = cell(1, "baseline", "burst", CellStatus::Done, 2);
  cells[2] = cell(2, "fast", "steady", CellStatus::Done, 3);
  cells[3] = cell(3, "fast", "burst", CellStatus::Done, 4);
  cells[4] = cell(4, "slow", "steady", CellStatus::FailedToStart);
  cells[4].error = "the engine exited";
  cells[5] = cell(5, "slow", "burst", CellStatus::FailedToStart);
  cells.push_back(cell(6, "baseline", "long", CellStatus::Pending, std::nullopt, "follow-up"));
  cells.push_back(cell(7, "fast", "long", CellStatus::Running, std::nullopt, "follow-up"));
  model.setCells(cells, {{1, 500.0}, {2, 250.0}, {3, 400.0}, {4, 200.0}});
  model.setRecommended("fast");
  model.setLanguage(ReportLanguage::Turkish, QLocale(QLocale::Turkish));
  model.setStudy(study());
  model.clear();
  EXPECT_EQ(model.rowCount(), 0);
  EXPECT_GT(changed.count(), 0);
}

TEST(StudyGridModel, CellsShowTheirStateAndDoneCellsTheirFigureAgainstTheBaseline) {
  StudyGridModel model;
  model.setStudy(study());
  model.setLanguage(ReportLanguage::English, QLocale(QLocale::English));
  StudyCell failed = cell(4, "slow", "steady", CellStatus::FailedToStart);
  failed.error = "ayar-engine exited with status 1";
  model.setCells(
      {cell(0, "baseline", "steady", CellStatus::Done, 11),
       cell(1, "baseline", "burst", CellStatus::Done, 12), cell(2, "fast", "steady", CellStatus::Done, 13),
       cell(3, "fast", "burst", CellStatus::Running), failed, cell(5, "slow", "burst", CellStatus::Pending)},
      {{11, 500.0}, {12, 300.0}, {13, 400.0}});
  model.setRunningProgress(0.25);

  const QModelIndex baseSteady = model.cellIndex("baseline", "steady", "options");
  const QModelIndex fastSteady = model.cellIndex("fast", "steady", "options");
  const QModelIndex fastBurst = model.cellIndex("fast", "burst", "options");
  const QModelIndex slowSteady = model.cellIndex("slow", "steady", "options");
  const QModelIndex slowBurst = model.cellIndex("slow", "burst", "options");
  const QModelIndex fastLong = model.cellIndex("fast", "long", "follow-up");
  ASSERT_TRUE(fastSteady.isValid());
  EXPECT_FALSE(model.cellIndex("fast", "long", "options").isValid());

  EXPECT_EQ(baseSteady.data().toString(), QStringLiteral("500.00 ms"));
  EXPECT_EQ(fastSteady.data().toString(), QStringLiteral("400.00 ms"));
  EXPECT_EQ(fastSteady.data(StudyGridModel::RunIdRole).toLongLong(), 13);
  EXPECT_DOUBLE_EQ(fastSteady.data(StudyGridModel::SpeedupRole).toDouble(), 1.25);
  EXPECT_TRUE(
      fastSteady.data(Qt::ToolTipRole).toString().contains(QStringLiteral("1.25x faster than the baseline")))
      << fastSteady.data(Qt::ToolTipRole).toString().toStdString();
  EXPECT_FALSE(baseSteady.data(StudyGridModel::SpeedupRole).isValid());
  EXPECT_EQ(fastBurst.data().toString(), QStringLiteral("running… 25%"));
  EXPECT_DOUBLE_EQ(fastBurst.data(StudyGridModel::ProgressRole).toDouble(), 0.25);
  EXPECT_FALSE(fastBurst.data(StudyGridModel::RunIdRole).isValid());
  EXPECT_EQ(slowSteady.data().toString(), QStringLiteral("engine did not start"));
  EXPECT_TRUE(slowSteady.data(Qt::ToolTipRole).toString().contains(QStringLiteral("exited with status 1")));
  EXPECT_EQ(slowBurst.data().toString(), QStringLiteral("pending"));
  EXPECT_FALSE(fastLong.data().isValid()) << "the follow-up cells are not there yet";
  EXPECT_FALSE(fastLong.data(StudyGridModel::StatusRole).isValid());

  // Each state its own translucent tint (the theme's base shows through); pending none.
  const QColor done = baseSteady.data(Qt::BackgroundRole).value<QBrush>().color();
  const QColor running = fastBurst.data(Qt::BackgroundRole).value<QBrush>().color();
  const QColor failedTint = slowSteady.data(Qt::BackgroundRole).value<QBrush>().color();
  EXPECT_LT(done.alpha(), 128);
  EXPECT_NE(done, running);
  EXPECT_NE(done, failedTint);
  EXPECT_NE(running, failedTint);
  EXPECT_FALSE(slowBurst.data(Qt::BackgroundRole).isValid());

  // Headers: titles in the language, the follow-up marked, the recommended row marked.
  EXPECT_EQ(model.headerData(0, Qt::Vertical).toString(), QStringLiteral("Baseline"));
  EXPECT_EQ(model.headerData(2, Qt::Vertical).toString(), QStringLiteral("slow"));
  EXPECT_EQ(model.headerData(2, Qt::Horizontal).toString(), QStringLiteral("Long (follow-up)"));
  model.setRecommended("fast");
  EXPECT_EQ(model.headerData(1, Qt::Vertical).toString(), QStringLiteral("★ Fast"));
  EXPECT_TRUE(model.headerData(1, Qt::Vertical, Qt::FontRole).value<QFont>().bold());

  model.setLanguage(ReportLanguage::Turkish, QLocale(QLocale::Turkish));
  EXPECT_EQ(fastSteady.data().toString(), QStringLiteral("400,00 ms"));
  EXPECT_EQ(model.headerData(0, Qt::Vertical).toString(), QStringLiteral("Temel yapılandırma"));
  EXPECT_EQ(model.headerData(1, Qt::Horizontal).toString().left(7), QStringLiteral("Ani yük"));

  EXPECT_EQ(model.count(CellStatus::Done), 3);
  EXPECT_EQ(model.count(CellStatus::FailedToStart), 1);
  EXPECT_EQ(model.cellCount(), 6);
}

TEST(StudyGridView, ActivatingADoneCellAsksForItsRunAndOtherCellsDoNot) {
  StudyGridModel model;
  model.setStudy(study());
  model.setCells({cell(0, "baseline", "steady", CellStatus::Done, 21),
                  cell(1, "baseline", "burst", CellStatus::Running)},
                 {{21, 480.0}});
  StudyGridView view;
  view.setGridModel(&model);
  QSignalSpy opened(&view, &StudyGridView::runActivated);
  emit view.activated(model.cellIndex("baseline", "burst", "options"));
  emit view.activated(model.cellIndex("fast", "steady", "options"));
  EXPECT_EQ(opened.count(), 0);
  emit view.activated(model.cellIndex("baseline", "steady", "options"));
  ASSERT_EQ(opened.count(), 1);
  EXPECT_EQ(opened.front().at(0).toLongLong(), 21);
}

}  // namespace
}  // namespace ayar
