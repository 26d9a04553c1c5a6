#pragma once

#include <QWidget>
#include <optional>
#include <span>
#include <vector>

#include "core/load/request_record.h"
#include "core/metrics/run_summary.h"
#include "core/store/run_types.h"

class QLabel;

namespace ayar {

class DistributionChart;
class RunSummaryView;

// The Results area: one run's summary (vLLM's block and a table) and the distributions of TTFT,
// TPOT, ITL and end-to-end latency as histogram + CDF with the percentile markers.
class ResultsPage : public QWidget {
  Q_OBJECT

 public:
  explicit ResultsPage(QWidget* parent = nullptr);

  // `status`, when given, follows the title in the UI language.
  void showRun(const QString& title, std::span<const RequestRecord> records, const RunSummary& summary,
               std::optional<double> requestRate = std::nullopt,
               std::optional<RunStatus> status = std::nullopt,
               const std::vector<std::vector<double>>* sortedValues = nullptr);
  void clear();
  void setDark(bool dark);
  void setReportLanguageFromUi();
  const QString& runTitle() const { return m_title; }
  DistributionChart* chart(LatencyMetric metric) const;
  RunSummaryView* summaryView() const { return m_summary; }

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void retranslate();

  QLabel* m_heading = nullptr;
  RunSummaryView* m_summary = nullptr;
  std::vector<DistributionChart*> m_charts;  // in kAllLatencyMetrics order
  QString m_title;
  std::optional<RunStatus> m_status;
  QString heading() const;
};

}  // namespace ayar
