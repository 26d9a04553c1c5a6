#pragma once

#include <QMainWindow>
#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

#include "core/engines/engine_catalogue.h"

class QAction;
class QActionGroup;
class QDockWidget;
class QLabel;
class QPlainTextEdit;
class QTabWidget;

namespace ayar {

class ComparePage;
class GpuMonitor;
class HistoryModel;
class HistoryPage;
class Language;
class LivePage;
class ResultStore;
class ResultsPage;
class RunController;
class SetupPanel;
class StudiesPage;
class StudyController;

struct MainWindowOptions {
  std::filesystem::path storePath;  // empty: the default store
  QString language;                 // "tr", "en"; empty: the saved choice, else the system's
};

// The workbench: Setup on the left, the Live, Results, Compare, History and Studies areas in the
// middle, the engine's log at the bottom; menus for files, theme and language. Owns the results
// store, the run and study controllers and the GPU monitor; remembers layout, theme, language and the last
// setup in QSettings.
class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  enum Area { LiveArea, ResultsArea, CompareArea, HistoryArea, StudiesArea };

  explicit MainWindow(MainWindowOptions options = {}, QWidget* parent = nullptr);
  ~MainWindow() override;

  // Starts a run with the Setup's settings; false (and a message in the status bar) when they are
  // not valid.
  bool startRun();
  void stopRun();
  // Shows a stored run in Results. False with a message when it is not in the store.
  bool openRun(qint64 id);
  // Puts a stored run's engine, flags, profile and label into Setup. False with a message for a run
  // Ayar did not make (an import has no set-up).
  bool setUpAgain(qint64 id);
  void compareRuns(qint64 baseline, const std::vector<qint64>& candidates);
  // Imports result files into the store; returns the new runs' ids. Errors go to the status bar
  // and to `errors` when given.
  std::vector<qint64> importFiles(const QStringList& files, QStringList* errors = nullptr);
  void refreshHistory();
  void setLanguage(const QString& code);
  void setDarkTheme(bool dark);
  bool darkTheme() const { return m_dark; }
  void showArea(Area area);

  ResultStore& store() { return *m_store; }
  RunController* controller() const { return m_controller; }
  StudyController* studyController() const { return m_studyController; }
  SetupPanel* setupPanel() const { return m_setup; }
  LivePage* livePage() const { return m_live; }
  ResultsPage* resultsPage() const { return m_results; }
  ComparePage* comparePage() const { return m_compare; }
  HistoryPage* historyPage() const { return m_historyPage; }
  StudiesPage* studiesPage() const { return m_studiesPage; }
  HistoryModel* historyModel() const { return m_history; }
  QTabWidget* areas() const { return m_tabs; }
  QPlainTextEdit* engineLog() const { return m_log; }
  Language* language() const { return m_language; }
  QString statusText() const;

 signals:
  // A run ended and its results are shown (or it failed: error not empty).
  void runFinished(qint64 storeRunId, const QString& error);

 protected:
  void changeEvent(QEvent* event) override;
  void closeEvent(QCloseEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  void buildMenus();
  void retranslate();
  void onRunFinished(quint64 run, qint64 storeRunId, bool cancelled, const QString& error);
  // The finished run's outcome (in memory) on the Results page.
  void showOutcome(qint64 storeRunId, bool cancelled);
  void saveSettings();
  void restoreSettings(const MainWindowOptions& options);
  void showMessage(const QString& message);

  std::unique_ptr<ResultStore> m_store;
  EngineCatalogue m_catalogue;
  std::unique_ptr<GpuMonitor> m_gpu;
  Language* m_language = nullptr;
  RunController* m_controller = nullptr;
  StudyController* m_studyController = nullptr;
  HistoryModel* m_history = nullptr;
  SetupPanel* m_setup = nullptr;
  LivePage* m_live = nullptr;
  ResultsPage* m_results = nullptr;
  ComparePage* m_compare = nullptr;
  HistoryPage* m_historyPage = nullptr;
  StudiesPage* m_studiesPage = nullptr;
  QTabWidget* m_tabs = nullptr;
  QDockWidget* m_setupDock = nullptr;
  QDockWidget* m_logDock = nullptr;
  QPlainTextEdit* m_log = nullptr;
  QLabel* m_status = nullptr;
  QMenu* m_fileMenu = nullptr;
  QMenu* m_viewMenu = nullptr;
  QMenu* m_languageMenu = nullptr;
  QAction* m_importAction = nullptr;
  QAction* m_quitAction = nullptr;
  QAction* m_lightAction = nullptr;
  QAction* m_darkAction = nullptr;
  QAction* m_turkishAction = nullptr;
  QAction* m_englishAction = nullptr;
  std::string m_runApiKey;  // masked in the engine log
  bool m_dark = false;
  bool m_restoring = true;  // no saving while the saved settings are being applied
  QString m_lastMessage;
};

}  // namespace ayar
