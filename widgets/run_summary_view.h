#pragma once

#include <QWidget>
#include <optional>

#include "core/metrics/run_summary.h"
#include "core/report/report_text.h"

class QPlainTextEdit;
class QSplitter;
class QTableView;

namespace ayar {

class RunSummaryModel;

// A run's summary twice: a table of the figures in the UI's language, tall enough for every figure,
// and the familiar "Serving Benchmark Result" text block (C locale, as vLLM prints it, so it can be
// pasted beside vLLM's) below it or, laid out horizontally, beside it.
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
  QTableView* table() const { return m_table; }
  // Qt::Vertical (the default): the text block below the table; Qt::Horizontal: beside it.
  void setOrientation(Qt::Orientation orientation);
  Qt::Orientation orientation() const;
  // The height and width the table needs to show every figure whole, without scrolling.
  int tableHeightForAllRows() const;
  int tableWidthForAllColumns() const;

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  void fitTable();

  QPlainTextEdit* m_text = nullptr;
  QTableView* m_table = nullptr;
  QSplitter* m_splitter = nullptr;
  RunSummaryModel* m_model = nullptr;
};

}  // namespace ayar
