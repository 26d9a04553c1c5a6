#pragma once

#include <QAbstractTableModel>
#include <QLocale>
#include <vector>

#include "core/metrics/run_figure.h"
#include "core/metrics/run_summary.h"
#include "core/report/report_text.h"

namespace ayar {

// A run's figures as a table: figure | value | unit, only the figures the run has, numbers in the UI
// locale, labels from core's report catalogue in the chosen language.
class RunSummaryModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { Figure, Value, Unit, ColumnCount };
  static constexpr int SortRole = Qt::UserRole + 1;

  explicit RunSummaryModel(QObject* parent = nullptr);

  void setSummary(const RunSummary& summary);
  void setLanguage(ReportLanguage language, const QLocale& locale = QLocale());
  void clear();

  int rowCount(const QModelIndex& parent = QModelIndex()) const override;
  int columnCount(const QModelIndex& parent = QModelIndex()) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  std::vector<std::pair<RunFigure, double>> m_rows;
  ReportLanguage m_language = ReportLanguage::English;
  QLocale m_locale;
};

}  // namespace ayar
