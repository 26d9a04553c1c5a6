#pragma once

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/store/run_types.h"

namespace ayar {

// Every run in the store, newest first: id, date, status, label, the study it belongs to, model,
// engine, flags, profile, requests, and the headline figures. The store is read by refresh(); filtering is
// HistoryFilter's.
class HistoryModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column {
    Id,
    Date,
    Status,
    Label,
    Study,
    Model,
    Engine,
    Profile,
    Requests,
    MeanTtft,
    OutputThroughput,
    ColumnCount
  };
  static constexpr int RunIdRole = Qt::UserRole + 1;
  static constexpr int SortRole = Qt::UserRole + 2;
  static constexpr int SearchTextRole = Qt::UserRole + 3;  // everything a search may match, flags included

  explicit HistoryModel(QObject* parent = nullptr);

  // `studyNames`: the store's studies by id, to name the study each run belongs to.
  void setRuns(std::vector<StoredRun> runs, std::map<std::int64_t, std::string> studyNames = {});
  const std::vector<StoredRun>& runs() const { return m_runs; }
  const StoredRun* runAt(int row) const;
  int rowOfRun(qint64 id) const;

  int rowCount(const QModelIndex& parent = QModelIndex()) const override;
  int columnCount(const QModelIndex& parent = QModelIndex()) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  // "completed" in the UI language.
  static QString statusText(RunStatus status);
  // "#12 baseline (qwen3-0.6b)": how a run is named in comparisons.
  static QString runName(const StoredRun& run);
  // "SIMULATED", and what it means, in the UI language: beside every figure of a simulated run.
  static QString simulatedMark();
  // When something started, with a four-digit year and the 24-hour clock in the UI language's order:
  // "2026-12-04 03:07" in English, "04.12.2026 03:07" in Turkish (never the US "12/4/26").
  static QString dateText(double secondsSinceEpoch);
  static QString simulatedNote();

 private:
  std::vector<StoredRun> m_runs;
  std::map<std::int64_t, std::string> m_studyNames;
};

// Matches every word of the search text against a row's SearchTextRole (label, study, model, engine,
// flags, profile, date, status), case-insensitively, and an optional status.
class HistoryFilter : public QSortFilterProxyModel {
  Q_OBJECT

 public:
  explicit HistoryFilter(QObject* parent = nullptr);
  void setSearchText(const QString& text);
  void setStatus(std::optional<RunStatus> status);

 protected:
  bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

 private:
  QStringList m_words;
  std::optional<RunStatus> m_status;
};

}  // namespace ayar
