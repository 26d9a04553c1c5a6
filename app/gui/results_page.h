#pragma once

#include <QWidget>
#include <optional>
#include <span>
#include <vector>

#include "core/record/request_record.h"
#include "core/metrics/run_summary.h"
#include "core/store/run_types.h"

class QBoxLayout;
class QLabel;
class QScrollArea;

namespace ayar {

class DistributionChart;
class RunSummaryView;

// The Results area: one run's summary (a table of its figures and vLLM's block) and the distributions
// of TTFT, TPOT, ITL and end-to-end latency as histogram + CDF with the percentile markers; the
// figures beside the charts in a wide window, above them in a narrow one.
class ResultsPage : public QWidget {
  Q_OBJECT

 public:
  explicit ResultsPage(QWidget* parent = nullptr);

  // `status`, when given, follows the title in the UI language.
  void showRun(const QString& title, std::span<const RequestRecord> records, const RunSummary& summary,
               std::optional<double> requestRate = std::nullopt,
               std::optional<RunStatus> status = std::nullopt,
               const std::vector<std::vector<double>>* sortedValues = nullptr);
  // How the shown run was measured: a simulated run is marked in the heading, a synthetic dataset in
  // the result block. Call after showRun(); showRun() forgets the previous run's facts.
  void setRunFacts(const RunFacts& facts);
  // What to read beside the shown run's figures, in the UI language (kept in both, so that a language
  // switch redraws them): an import's notes above the figures, and a failure's error, with where its
  // engine's log is. A run that failed before its first request shows its error instead of figures
  // it does not have. Call after showRun(); showRun() forgets the previous run's notes.
  void setRunNotes(const RunNotes& notes, bool hasRequests, const QString& engineLog);
  // The notes as shown (empty when there are none).
  QString notesText() const;
  const RunFacts& runFacts() const { return m_facts; }
  QString headingText() const;
  void clear();
  void setDark(bool dark);
  void setReportLanguageFromUi();
  const QString& runTitle() const { return m_title; }
  DistributionChart* chart(LatencyMetric metric) const;
  RunSummaryView* summaryView() const { return m_summary; }
  // Whether the figures stand in a column beside the charts (a wide window) or above them.
  bool figuresBesideCharts() const;

 protected:
  void changeEvent(QEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  void retranslate();
  void arrange();

  QLabel* m_heading = nullptr;
  QLabel* m_notes = nullptr;
  RunSummaryView* m_summary = nullptr;
  static constexpr int kChartWidthBesideFigures = 400;
  static constexpr int kChartHeightBesideFigures = 240;
  static constexpr int kChartHeightBelowFigures = 300;
  QScrollArea* m_scroll = nullptr;
  QBoxLayout* m_body = nullptr;
  QWidget* m_chartsBox = nullptr;
  std::vector<DistributionChart*> m_charts;  // in kAllLatencyMetrics order
  QString m_title;
  std::optional<RunStatus> m_status;
  RunFacts m_facts;
  RunSummary m_summaryShown;
  std::optional<double> m_rateShown;
  RunNotes m_runNotes;  // retranslated
  bool m_failedBeforeRequests = false;
  QString m_failureLog;
  void showNotes();
  QString heading() const;
};

}  // namespace ayar
