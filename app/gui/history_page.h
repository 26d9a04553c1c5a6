#pragma once

#include <QWidget>
#include <set>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;
class QTimer;

namespace ayar {

class HistoryFilter;
class HistoryModel;

// The History area: every run in the store, searchable (label, model, engine, flags, profile, date)
// and filterable by status; open a run, compare the selected ones (the first selected is the
// baseline), delete with a few seconds to undo, import other tools' result files.
class HistoryPage : public QWidget {
  Q_OBJECT

 public:
  HistoryPage(HistoryModel* model, QWidget* parent = nullptr);

  std::vector<qint64> selectedRuns() const;
  QLineEdit* searchField() const { return m_search; }
  QTableView* table() const { return m_table; }
  // Runs deleted but still undoable, hidden from the list.
  const std::set<qint64>& pendingDeletes() const { return m_pendingDeletes; }
  // Hides the selected runs and deletes them when the undo time ends.
  void deleteSelected();
  void undoDelete();
  // Deletes the runs waiting for their undo time now (also when the window closes).
  void commitDeletes();

 signals:
  void openRequested(qint64 run);
  void setUpAgainRequested(qint64 run);
  void compareRequested(qint64 baseline, const std::vector<qint64>& candidates);
  void importRequested();
  void refreshRequested();
  void deleteRequested(const std::vector<qint64>& runs);

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void retranslate();

  HistoryModel* m_model;
  HistoryFilter* m_filter = nullptr;
  QLineEdit* m_search = nullptr;
  QComboBox* m_status = nullptr;
  QTableView* m_table = nullptr;
  QPushButton* m_open = nullptr;
  QPushButton* m_setUpAgain = nullptr;
  QPushButton* m_compare = nullptr;
  QPushButton* m_delete = nullptr;
  QPushButton* m_import = nullptr;
  QPushButton* m_refresh = nullptr;
  QLabel* m_undoText = nullptr;
  QPushButton* m_undo = nullptr;
  QTimer* m_deleteTimer = nullptr;
  std::set<qint64> m_pendingDeletes;
};

}  // namespace ayar
