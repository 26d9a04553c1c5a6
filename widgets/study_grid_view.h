#pragma once

#include <QTableView>
#include <cstdint>

namespace ayar {

class StudyGridModel;

// The study grid: configurations down, profiles across, each cell tinted by its state; a running
// cell fills from the left as its requests finish. Activating a done cell (double click or Enter)
// asks for its run.
class StudyGridView : public QTableView {
  Q_OBJECT

 public:
  explicit StudyGridView(QWidget* parent = nullptr);
  void setGridModel(StudyGridModel* model);
  // As tall as the header and the rows (up to kMaxRowsShown; more scroll), so that a small study
  // leaves no empty band under its grid.
  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;
  static constexpr int kMaxRowsShown = 10;

 signals:
  // A cell with a run was activated.
  void runActivated(qint64 runId);
};

}  // namespace ayar
