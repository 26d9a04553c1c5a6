#pragma once

#include <QWidget>
#include <vector>

#include "app/gui/stored_run.h"
#include "core/metrics/run_figure.h"
#include "core/report/report_text.h"

class QBoxLayout;
class QCheckBox;
class QComboBox;
class QLabel;
class QListWidget;
class QMenu;
class QPushButton;
class QScrollArea;
class QSplitter;
class QToolButton;

namespace ayar {

class BoxPlotChart;
class ComparisonTableModel;
class ComparisonTableView;
class DistributionChart;
class HistoryModel;

// The Compare area: a baseline and one or more candidates from the store (each with its status; the
// baseline is not among the candidates; by default the newest completed run); their CDFs overlaid and
// their box plots for the chosen latency figure, on a logarithmic axis when the runs lie far apart,
// and the seeds' table (scenario | baseline | candidate | ratio) with every row in view, the charts
// beside it in a wide window and below it in a narrow one.
class ComparePage : public QWidget {
  Q_OBJECT

 public:
  ComparePage(HistoryModel* history, QWidget* parent = nullptr);

  void setStore(ResultStore* store) { m_store = store; }
  // Shows the comparison of these runs (the first is the baseline). Throws ayar::Error for a run that is
  // not in the store.
  void compare(std::int64_t baseline, const std::vector<std::int64_t>& candidates);
  // Writes the comparison as a report in the report language (the UI's until one is picked beside
  // the button), with every latency's charts in PDF and HTML; the format follows the file's suffix
  // (.pdf, .html, .md, .csv, .json). Returns an error message, empty on success, when message() says
  // where the report was written.
  QString exportReport(const QString& path);
  void setReportLanguage(ReportLanguage language);
  ReportLanguage reportLanguage() const;
  void setDark(bool dark);

  ComparisonTableModel* tableModel() const { return m_model; }
  ComparisonTableView* tableView() const { return m_table; }
  QComboBox* baselineChoice() const { return m_baseline; }
  QListWidget* candidateChoices() const { return m_candidates; }
  QCheckBox* logScaleChoice() const { return m_logScale; }
  DistributionChart* cdfChart() const { return m_cdf; }
  BoxPlotChart* boxChart() const { return m_box; }
  const std::vector<LoadedRun>& runs() const { return m_runs; }
  // The figures the table and the exported report list, in the order of kAllRunFigures: the user's
  // choice from the "Figures" menu, kept in the settings (compare/figures); the seeds' figures at first.
  std::vector<RunFigure> chosenFigures() const;
  QMenu* figuresMenu() const { return m_figuresMenu; }
  // Whether the charts stand beside the table (a wide window) or below it.
  bool chartsBesideTable() const;

 signals:
  void failed(const QString& message);
  void message(const QString& message);

 protected:
  void changeEvent(QEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  void retranslate();
  void arrange();
  void refillChoices();
  void fillCandidates(const QList<qint64>& checked);
  QList<qint64> checkedCandidates() const;
  static QString choiceText(const StoredRun& run);
  static QString choiceToolTip(const StoredRun& run);
  static QString statusToolTip(const StoredRun& run);
  static QString tableName(const LoadedRun& run);
  void compareChosen();
  // Ticks the logarithmic axis when the runs' medians of the shown figure lie ten times apart.
  void chooseScale();
  void showMetric();
  // The differences between the compared runs' set-ups as a table, in the UI's language.
  void showDifferences();
  // The table of the runs compared, with the chosen figures (after a comparison, or a change of them).
  void showFigures();
  void saveFigures();

  HistoryModel* m_history;
  ResultStore* m_store = nullptr;
  QToolButton* m_figures = nullptr;
  QMenu* m_figuresMenu = nullptr;
  QComboBox* m_baseline = nullptr;
  QListWidget* m_candidates = nullptr;
  static constexpr int kChartWidthBesideTable = 440;
  static constexpr int kChartHeightBesideTable = 260;
  static constexpr int kChartHeightBelowTable = 320;
  QScrollArea* m_scroll = nullptr;
  QBoxLayout* m_body = nullptr;
  QSplitter* m_charts = nullptr;
  QComboBox* m_metric = nullptr;
  QCheckBox* m_logScale = nullptr;
  QPushButton* m_compare = nullptr;
  QPushButton* m_copy = nullptr;
  QPushButton* m_export = nullptr;
  QComboBox* m_reportLanguage = nullptr;
  QLabel* m_reportLanguageLabel = nullptr;
  bool m_reportLanguageChosen = false;  // until the user picks one, the report follows the UI language
  QLabel* m_baselineLabel = nullptr;
  QLabel* m_candidatesLabel = nullptr;
  QLabel* m_metricLabel = nullptr;
  ComparisonTableModel* m_model = nullptr;
  ComparisonTableView* m_table = nullptr;
  DistributionChart* m_cdf = nullptr;
  BoxPlotChart* m_box = nullptr;
  QLabel* m_differences = nullptr;  // what differs between the runs' set-ups
  QLabel* m_noiseLegend = nullptr;  // what a ratio marked "≈" means
  std::vector<LoadedRun> m_runs;    // baseline first
};

}  // namespace ayar
