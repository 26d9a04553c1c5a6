#pragma once

#include <QAbstractTableModel>
#include <QLocale>
#include <QString>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/metrics/run_figure.h"
#include "core/report/report_text.h"
#include "core/store/run_types.h"
#include "core/study/study_spec.h"

namespace ayar {

// A study as a grid: its configurations (the baseline, then each variant) as rows and its profiles as
// columns (the option profiles, then the follow-up profiles, which only the baseline and the
// recommended configuration run). Each cell shows its state: pending, running (with the share of its
// requests finished), done with its deciding figure, or failed (its engine did not start, or its run
// failed); a place the study has no cell for stays empty. Titles and figure names in the chosen
// language, numbers in the UI locale. Background colours are translucent tints, so that they read on
// the light and the dark palette alike.
class StudyGridModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Role {
    StatusRole = Qt::UserRole + 1,  // int(CellStatus); absent where the study has no cell
    RunIdRole,                      // qint64: the cell's run, when it has one
    FigureRole,                     // double: a done cell's deciding figure
    SpeedupRole,    // double: a done cell against the baseline in its column (above 1: better)
    ProgressRole,   // double 0..1: a running cell's share of requests finished
    CellIndexRole,  // int: the cell's place in the study's order
  };

  explicit StudyGridModel(QObject* parent = nullptr);

  // A new study: its rows and columns, every cell empty.
  void setStudy(const StudySpec& study);
  void clear();
  // The study's cells as the store holds them (matched to the grid by configuration, profile and
  // phase); `figures`: the deciding figure of each done cell's run, by run id. Changed cells emit
  // dataChanged; the grid is not reset, so a selection stays.
  void setCells(const std::vector<StudyCell>& cells, const std::map<std::int64_t, double>& figures);
  // The share of requests finished of the running cell (0..1).
  void setRunningProgress(double fraction);
  // The recommended configuration's row is marked; empty: none yet.
  void setRecommended(const std::string& configuration);
  void setLanguage(ReportLanguage language, const QLocale& locale = QLocale());

  int rowCount(const QModelIndex& parent = QModelIndex()) const override;
  int columnCount(const QModelIndex& parent = QModelIndex()) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  // The cell of a configuration on a profile in a phase ("options", "follow-up"); invalid when the
  // grid has no such place.
  QModelIndex cellIndex(const std::string& configuration, const std::string& profile,
                        const std::string& phase) const;
  // Cells of each state, for a summary line ("3 of 6 done").
  int count(CellStatus status) const;
  int cellCount() const;
  const std::string& studyName() const { return m_studyName; }

  // The state's name in the UI language ("done", "engine did not start").
  static QString statusText(CellStatus status);

 private:
  struct Column {
    std::string name;
    LocalizedText title;
    bool followUp = false;
  };
  struct Place {
    bool present = false;
    StudyCell cell;
    std::optional<double> figure;
  };
  const Place& place(int row, int column) const;
  std::optional<double> speedupAt(int row, int column) const;
  QString title(const LocalizedText& text, const std::string& fallback) const;

  std::string m_studyName;
  RunFigure m_figure = RunFigure::MeanE2el;
  std::vector<StudyConfiguration> m_rows;
  std::vector<Column> m_columns;
  std::vector<Place> m_places;  // row-major
  std::string m_recommended;
  double m_progress = 0.0;
  ReportLanguage m_language = ReportLanguage::English;
  QLocale m_locale;
};

}  // namespace ayar
