#include "app/gui/study_list_model.h"

#include <QColor>
#include <QDateTime>
#include <QLocale>

#include "app/gui/history_model.h"
#include "core/error.h"
#include "core/store/result_store.h"
#include "core/study/study_spec.h"

namespace ayar {

StudyListModel::StudyListModel(QObject* parent) : QAbstractTableModel(parent) {}

std::vector<StudyListEntry> StudyListModel::read(ResultStore& store, const std::string& language) {
  std::vector<StudyListEntry> out;
  for (StoredStudy& study : store.listStudies()) {
    StudyListEntry entry;
    for (const StudyCell& cell : store.listStudyCells(study.id)) {
      ++entry.total;
      entry.done += cell.status == CellStatus::Done ? 1 : 0;
      entry.failed += cell.status == CellStatus::Failed || cell.status == CellStatus::FailedToStart ? 1 : 0;
    }
    try {
      const StudySpec spec = studyFromJson(study.spec, "study " + std::to_string(study.id));
      entry.title = QString::fromStdString(localized(spec.title, language, std::string()));
    } catch (const Error&) {
      // A study stored by a later version still lists, by its name.
    }
    entry.study = std::move(study);
    out.push_back(std::move(entry));
  }
  return out;
}

void StudyListModel::setStudies(std::vector<StudyListEntry> studies) {
  beginResetModel();
  m_studies = std::move(studies);
  endResetModel();
}

const StudyListEntry* StudyListModel::studyAt(int row) const {
  return row >= 0 && row < rowCount() ? &m_studies[static_cast<std::size_t>(row)] : nullptr;
}

int StudyListModel::rowOfStudy(qint64 id) const {
  for (std::size_t i = 0; i < m_studies.size(); ++i) {
    if (m_studies[i].study.id == id) return static_cast<int>(i);
  }
  return -1;
}

int StudyListModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(m_studies.size());
}

int StudyListModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant StudyListModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const StudyListEntry& entry = m_studies[static_cast<std::size_t>(index.row())];
  const QLocale locale;
  if (role == StudyIdRole) return QVariant::fromValue<qint64>(entry.study.id);
  if (role == StatusRole) return static_cast<int>(entry.study.status);
  if (role == Qt::ToolTipRole && index.column() == Name && !entry.title.isEmpty()) return entry.title;
  if (role == Qt::ToolTipRole && index.column() == Status &&
      (entry.study.status == RunStatus::Interrupted || entry.study.status == RunStatus::Cancelled))
    return tr("Resume continues it; finished cells are kept");
  if (role == Qt::ForegroundRole && index.column() == Status &&
      (entry.study.status == RunStatus::Interrupted || entry.study.status == RunStatus::Failed))
    return QColor(215, 60, 50);
  if (role == Qt::TextAlignmentRole && (index.column() == Id || index.column() == Cells))
    return QVariant(Qt::AlignRight | Qt::AlignVCenter);
  if (role != Qt::DisplayRole) return {};
  switch (index.column()) {
    case Id:
      return QString::number(entry.study.id);
    case Name:
      return entry.title.isEmpty()
                 ? QString::fromStdString(entry.study.name)
                 : QString::fromStdString(entry.study.name) + QStringLiteral(" — ") + entry.title;
    case Status:
      return HistoryModel::statusText(entry.study.status);
    case Cells: {
      QString text = tr("%1 of %2").arg(locale.toString(entry.done), locale.toString(entry.total));
      if (entry.failed > 0) text += QStringLiteral(" · ") + tr("%n failed", nullptr, entry.failed);
      return text;
    }
    case Started:
      return HistoryModel::dateText(entry.study.createdAt);
    default:
      return {};
  }
}

QVariant StudyListModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Id:
      return tr("Study");
    case Name:
      return tr("Name");
    case Status:
      return tr("Status");
    case Cells:
      return tr("Cells done");
    case Started:
      return tr("Started");
    default:
      return {};
  }
}

}  // namespace ayar
