#include "widgets/run_summary_model.h"

namespace ayar {

namespace {

QString fromUtf8(std::string_view text) {
  return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

}  // namespace

RunSummaryModel::RunSummaryModel(QObject* parent) : QAbstractTableModel(parent) {}

void RunSummaryModel::setSummary(const RunSummary& summary) {
  beginResetModel();
  m_rows.clear();
  for (RunFigure figure : kAllRunFigures) {
    if (auto v = runFigureValue(summary, figure)) m_rows.emplace_back(figure, *v);
  }
  endResetModel();
}

void RunSummaryModel::setLanguage(ReportLanguage language, const QLocale& locale) {
  m_language = language;
  m_locale = locale;
  if (!m_rows.empty()) emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
  emit headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
}

void RunSummaryModel::clear() {
  beginResetModel();
  m_rows.clear();
  endResetModel();
}

int RunSummaryModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int RunSummaryModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant RunSummaryModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const auto& [figure, value] = m_rows[static_cast<std::size_t>(index.row())];
  if (role == Qt::DisplayRole) {
    switch (index.column()) {
      case Figure:
        return fromUtf8(runFigureLabel(figure, m_language));
      case Value:
        return m_locale.toString(value, 'f', 2);
      case Unit:
        return fromUtf8(runFigureUnit(figure, m_language));
      default:
        return {};
    }
  }
  if (role == SortRole) return index.column() == Value ? QVariant(value) : QVariant(index.row());
  if (role == Qt::TextAlignmentRole && index.column() == Value)
    return QVariant(Qt::AlignRight | Qt::AlignVCenter);
  return {};
}

QVariant RunSummaryModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Figure:
      return fromUtf8(reportText(ReportText::ColumnFigure, m_language));
    case Value:
      return tr("Value");
    case Unit:
      return tr("Unit");
    default:
      return {};
  }
}

}  // namespace ayar
