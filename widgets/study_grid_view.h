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

 signals:
  // A cell with a run was activated.
  void runActivated(qint64 runId);
};

}  // namespace ayar
