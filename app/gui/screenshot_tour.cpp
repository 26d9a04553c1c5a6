// ayar-screenshots [--size WxH] OUTPUT_DIR [REPORT]: drives the workbench through three runs of the bundled
// engine's timing simulator, a comparison of them and the `smoke` study, and writes each area as a PNG in
// English and Turkish, light and dark, for the README. `--size` sets the window's size (1920x1080 by
// default), to look at the areas on a small or a large screen. A second argument writes the comparison's
// report there
// (.pdf, .html, ...). Run it under a display (xvfb-run -a) so that fonts render as on a desktop.
#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>
#include <clocale>
#include <cstdio>

#include "app/gui/compare_page.h"
#include "app/gui/main_window.h"
#include "app/gui/setup_panel.h"
#include "app/gui/studies_page.h"
#include "core/engines/engine_spec.h"
#include "core/store/result_store.h"
#include "core/store/store_path.h"
#include "core/study/run_spec.h"
#include "widgets/comparison_table_model.h"

namespace {

ayar::RunSpec simRun(const char* simProfile, const char* label, double rate) {
  ayar::RunSpec spec;
  spec.engine.device = "sim";
  spec.engine.model = "qwen3-8b";
  spec.engine.flags = {ayar::EngineFlag::option("--sim-profile", simProfile)};
  spec.profile.name = "";
  spec.profile.datasetName = "random";
  spec.profile.randomInputLen = 512;
  spec.profile.randomOutputLen = 64;
  spec.profile.randomRangeRatio = 0.5;
  spec.profile.ignoreEos = true;
  spec.profile.numPrompts = 240;
  spec.profile.requestRate = rate;
  spec.profile.seed = 42;
  spec.label = label;
  return spec;
}

bool runAndWait(ayar::MainWindow& window) {
  QSignalSpy finished(&window, &ayar::MainWindow::runFinished);
  if (!window.startRun()) return false;
  return finished.wait(300000) && finished.front().at(1).toString().isEmpty();
}

void settle() {
  for (int i = 0; i < 10; ++i) {
    QCoreApplication::processEvents();
    QThread::msleep(20);
  }
}

}  // namespace

int main(int argc, char** argv) {
  // The store where a user's is (~/.local/share/ayar), in a home of the tour's own, so that what the
  // pictures show is what a user sees; the tokenizer stays in the real cache.
  const QTemporaryDir home;
  if (qEnvironmentVariableIsEmpty("XDG_CACHE_HOME"))
    qputenv("XDG_CACHE_HOME", QDir::homePath().toUtf8() + "/.cache");
  qputenv("HOME", home.path().toUtf8());
  qunsetenv("XDG_DATA_HOME");
  QStandardPaths::setTestModeEnabled(true);  // the tour's settings never touch the user's
  QApplication app(argc, argv);
  std::setlocale(LC_NUMERIC, "C");
  QApplication::setOrganizationName(QStringLiteral("AyarScreenshots"));
  QApplication::setApplicationName(QStringLiteral("ayar-screenshots"));
  QStringList args = QCoreApplication::arguments().mid(1);
  QSize size(1920, 1080);
  if (args.size() >= 2 && args.front() == QLatin1String("--size")) {
    const QStringList wh = args[1].split(QLatin1Char('x'));
    if (wh.size() == 2) size = QSize(wh[0].toInt(), wh[1].toInt());
    args = args.mid(2);
  }
  if (args.isEmpty() || size.isEmpty()) {
    std::fprintf(stderr, "usage: ayar-screenshots [--size WxH] OUTPUT_DIR [REPORT]\n");
    return 2;
  }
  const QString out = args[0];
  QDir().mkpath(out);
  QSettings().clear();

  ayar::MainWindow window({ayar::defaultStorePath(), QStringLiteral("en")});
  window.resize(size);
  window.show();
  settle();

  window.setupPanel()->setRunSpec(simRun("fixed:45,6", "baseline", 24.0));
  if (!runAndWait(window)) {
    std::fprintf(stderr, "ayar-screenshots: the baseline run failed: %s\n", qPrintable(window.statusText()));
    return 1;
  }
  const qint64 baseline = window.store().listRuns().front().id;
  window.setupPanel()->setRunSpec(simRun("fixed:28,4", "candidate", 24.0));
  if (!runAndWait(window)) {
    std::fprintf(stderr, "ayar-screenshots: the candidate run failed: %s\n", qPrintable(window.statusText()));
    return 1;
  }
  const qint64 candidate = window.store().listRuns().front().id;
  // A third run, slower by far: three runs side by side, and on a logarithmic axis.
  window.setupPanel()->setRunSpec(simRun("fixed:480,30", "eager", 24.0));
  if (!runAndWait(window)) {
    std::fprintf(stderr, "ayar-screenshots: the third run failed: %s\n", qPrintable(window.statusText()));
    return 1;
  }
  const qint64 third = window.store().listRuns().front().id;
  window.compareRuns(baseline, {candidate, third});
  if (window.comparePage()->tableModel()->intervalsPending()) {  // computed off the GUI thread
    QSignalSpy intervals(window.comparePage()->tableModel(), &ayar::ComparisonTableModel::intervalsReady);
    intervals.wait(30000);
  }

  // The smoke study through the Studies area, as a user starts it there.
  ayar::StudiesPage* studies = window.studiesPage();
  QSignalSpy studyFinished(studies, &ayar::StudiesPage::studyFinished);
  if (studies->startStudy(QStringLiteral("smoke")) < 0 || !studyFinished.wait(300000) ||
      !studyFinished.front().at(2).toString().isEmpty()) {
    std::fprintf(stderr, "ayar-screenshots: the smoke study failed: %s\n", qPrintable(window.statusText()));
    return 1;
  }

  struct Shot {
    const char* language;
    bool dark;
    std::vector<ayar::MainWindow::Area> areas;
  };
  using Area = ayar::MainWindow::Area;
  const Shot shots[] = {
      {"en",
       false,
       {Area::LiveArea, Area::ResultsArea, Area::CompareArea, Area::HistoryArea, Area::StudiesArea}},
      {"tr",
       false,
       {Area::LiveArea, Area::ResultsArea, Area::CompareArea, Area::HistoryArea, Area::StudiesArea}},
      {"en", true, {Area::LiveArea, Area::CompareArea, Area::StudiesArea}},
      {"tr", true, {Area::ResultsArea, Area::StudiesArea}},
  };
  const char* names[] = {"live", "results", "compare", "history", "studies"};
  int written = 0;
  for (const Shot& shot : shots) {
    window.setLanguage(QString::fromLatin1(shot.language));
    window.setDarkTheme(shot.dark);
    for (Area area : shot.areas) {
      window.showArea(area);
      settle();
      const QString file = QStringLiteral("%1/%2-%3-%4.png")
                               .arg(out, QString::fromLatin1(names[area]), QString::fromLatin1(shot.language),
                                    shot.dark ? QStringLiteral("dark") : QStringLiteral("light"));
      if (!window.grab().save(file)) {
        std::fprintf(stderr, "ayar-screenshots: cannot write %s\n", qPrintable(file));
        return 1;
      }
      ++written;
    }
  }
  window.setDarkTheme(false);
  std::printf("ayar-screenshots: wrote %d screenshots to %s\n", written, qPrintable(out));
  // A second argument: the comparison's report, in Turkish, for looking at (PDF pages with pdftoppm).
  if (args.size() >= 2) {
    window.setLanguage(QStringLiteral("en"));
    window.showArea(Area::CompareArea);
    settle();
    window.comparePage()->setReportLanguage(ayar::ReportLanguage::Turkish);
    const QString error = window.comparePage()->exportReport(args[1]);
    if (!error.isEmpty()) {
      std::fprintf(stderr, "ayar-screenshots: %s\n", qPrintable(error));
      return 1;
    }
  }
  return 0;
}
