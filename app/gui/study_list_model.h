#pragma once

#include <QAbstractTableModel>
#include <vector>

#include "core/store/run_types.h"

namespace ayar {

class ResultStore;

// A study as the Studies area lists it: the stored study, its title and its cells' tally.
struct StudyListEntry {
  StoredStudy study;
  QString title;  // in the UI language at the time it was read; empty: none
  int done = 0;
  int failed = 0;  // failed or failed-to-start
  int total = 0;
};

// Every study in the store, newest first: id, name, state (a study whose runner died reads
// "interrupted"), cells done of all, and when it started. read() fills it from a store.
class StudyListModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { Id, Name, Status, Cells, Started, ColumnCount };
  static constexpr int StudyIdRole = Qt::UserRole + 1;
  static constexpr int StatusRole = Qt::UserRole + 2;  // int(RunStatus)

  explicit StudyListModel(QObject* parent = nullptr);

  // Reads every study and its cells from the store (titles in `language`, "en" or "tr").
  static std::vector<StudyListEntry> read(ResultStore& store, const std::string& language);
  void setStudies(std::vector<StudyListEntry> studies);
  const std::vector<StudyListEntry>& studies() const { return m_studies; }
  const StudyListEntry* studyAt(int row) const;
  int rowOfStudy(qint64 id) const;

  int rowCount(const QModelIndex& parent = QModelIndex()) const override;
  int columnCount(const QModelIndex& parent = QModelIndex()) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  std::vector<StudyListEntry> m_studies;
};

}  // namespace ayar
