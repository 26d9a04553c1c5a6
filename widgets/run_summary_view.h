#pragma once

#include <QWidget>
#include <optional>

#include "core/metrics/run_summary.h"
#include "core/report/report_text.h"

class QPlainTextEdit;
class QTableView;

namespace ayar {

class RunSummaryModel;

// A run's summary twice: the familiar "Serving Benchmark Result" text block (C locale, as vLLM
// prints it, so it can be pasted beside vLLM's) and a table of the figures in the UI's language.
class RunSummaryView : public QWidget {
  Q_OBJECT

 public:
  explicit RunSummaryView(QWidget* parent = nullptr);

  // `syntheticDataset`: the prompts came from the synthetic ShareGPT-like set (the block says so).
  void setSummary(const RunSummary& summary, std::optional<double> requestRate = std::nullopt,
                  bool syntheticDataset = false);
  void setLanguage(ReportLanguage language);
  // A run without figures (it failed before its first request): the note instead of the block.
  void showNote(const QString& note);
  void clear();
  QString textBlock() const;
  RunSummaryModel* model() const { return m_model; }

 private:
  QPlainTextEdit* m_text = nullptr;
  QTableView* m_table = nullptr;
  RunSummaryModel* m_model = nullptr;
};

}  // namespace ayar
