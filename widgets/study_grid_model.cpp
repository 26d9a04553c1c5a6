#include "widgets/study_grid_model.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <algorithm>
#include <cmath>

namespace ayar {

namespace {

const char* const kFollowUpPhase = "follow-up";

QString fromUtf8(std::string_view text) {
  return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

}  // namespace

StudyGridModel::StudyGridModel(QObject* parent) : QAbstractTableModel(parent) {}

void StudyGridModel::setStudy(const StudySpec& study) {
  beginResetModel();
  m_studyName = study.name;
  m_figure = study.decidingFigure;
  m_rows = study.configurations();
  m_columns.clear();
  for (const ProfileSpec& profile : study.profiles)
    m_columns.push_back({profile.name, profile.title, false});
  for (const ProfileSpec& profile : study.followUpProfiles)
    m_columns.push_back({profile.name, profile.title, true});
  m_places.assign(m_rows.size() * m_columns.size(), Place{});
  m_recommended.clear();
  m_progress = 0.0;
  endResetModel();
}

void StudyGridModel::clear() {
  beginResetModel();
  m_studyName.clear();
  m_rows.clear();
  m_columns.clear();
  m_places.clear();
  m_recommended.clear();
  endResetModel();
}

QModelIndex StudyGridModel::cellIndex(const std::string& configuration, const std::string& profile,
                                      const std::string& phase) const {
  const bool followUp = phase == kFollowUpPhase;
  int row = -1;
  for (std::size_t r = 0; r < m_rows.size(); ++r) {
    if (m_rows[r].name == configuration) row = static_cast<int>(r);
  }
  for (std::size_t c = 0; row >= 0 && c < m_columns.size(); ++c) {
    if (m_columns[c].name == profile && m_columns[c].followUp == followUp)
      return index(row, static_cast<int>(c));
  }
  return {};
}

void StudyGridModel::setCells(const std::vector<StudyCell>& cells,
                              const std::map<std::int64_t, double>& figures) {
  std::vector<Place> places(m_places.size());
  for (const StudyCell& cell : cells) {
    const QModelIndex at = cellIndex(cell.configuration, cell.profile, cell.phase);
    if (!at.isValid()) continue;
    Place& place =
        places[static_cast<std::size_t>(at.row()) * m_columns.size() + static_cast<std::size_t>(at.column())];
    place.present = true;
    place.cell = cell;
    if (cell.status == CellStatus::Done && cell.runId) {
      const auto figure = figures.find(*cell.runId);
      if (figure != figures.end()) place.figure = figure->second;
    }
  }
  // A done cell changes its column's ratios too: compare whole columns.
  for (std::size_t c = 0; c < m_columns.size(); ++c) {
    bool changed = false;
    for (std::size_t r = 0; r < m_rows.size() && !changed; ++r) {
      const Place& before = m_places[r * m_columns.size() + c];
      const Place& after = places[r * m_columns.size() + c];
      changed = before.present != after.present || before.cell.status != after.cell.status ||
                before.cell.runId != after.cell.runId || before.figure != after.figure ||
                before.cell.error != after.cell.error;
    }
    if (!changed) continue;
    for (std::size_t r = 0; r < m_rows.size(); ++r)
      m_places[r * m_columns.size() + c] = places[r * m_columns.size() + c];
    if (!m_rows.empty())
      emit dataChanged(index(0, static_cast<int>(c)),
                       index(static_cast<int>(m_rows.size()) - 1, static_cast<int>(c)));
  }
}

void StudyGridModel::setRunningProgress(double fraction) {
  fraction = std::clamp(fraction, 0.0, 1.0);
  if (fraction == m_progress) return;
  m_progress = fraction;
  for (int r = 0; r < rowCount(); ++r) {
    for (int c = 0; c < columnCount(); ++c) {
      const Place& p = place(r, c);
      if (p.present && p.cell.status == CellStatus::Running)
        emit dataChanged(index(r, c), index(r, c), {Qt::DisplayRole, ProgressRole});
    }
  }
}

void StudyGridModel::setRecommended(const std::string& configuration) {
  if (configuration == m_recommended) return;
  m_recommended = configuration;
  if (!m_rows.empty()) emit headerDataChanged(Qt::Vertical, 0, rowCount() - 1);
}

void StudyGridModel::setLanguage(ReportLanguage language, const QLocale& locale) {
  m_language = language;
  m_locale = locale;
  if (!m_places.empty()) emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
  if (!m_columns.empty()) emit headerDataChanged(Qt::Horizontal, 0, columnCount() - 1);
  if (!m_rows.empty()) emit headerDataChanged(Qt::Vertical, 0, rowCount() - 1);
}

int StudyGridModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int StudyGridModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(m_columns.size());
}

int StudyGridModel::count(CellStatus status) const {
  return static_cast<int>(std::count_if(m_places.begin(), m_places.end(), [status](const Place& p) {
    return p.present && p.cell.status == status;
  }));
}

int StudyGridModel::cellCount() const {
  return static_cast<int>(
      std::count_if(m_places.begin(), m_places.end(), [](const Place& p) { return p.present; }));
}

const StudyGridModel::Place& StudyGridModel::place(int row, int column) const {
  return m_places[static_cast<std::size_t>(row) * m_columns.size() + static_cast<std::size_t>(column)];
}

std::optional<double> StudyGridModel::speedupAt(int row, int column) const {
  const Place& mine = place(row, column);
  if (!mine.figure || m_rows[static_cast<std::size_t>(row)].baseline) return std::nullopt;
  for (std::size_t r = 0; r < m_rows.size(); ++r) {
    if (!m_rows[r].baseline) continue;
    const Place& base = place(static_cast<int>(r), column);
    if (base.figure) return speedup(*base.figure, *mine.figure, runFigureBetter(m_figure));
  }
  return std::nullopt;
}

QString StudyGridModel::title(const LocalizedText& text, const std::string& fallback) const {
  return QString::fromStdString(localized(text, std::string(reportLanguageCode(m_language)), fallback));
}

QString StudyGridModel::statusText(CellStatus status) {
  switch (status) {
    case CellStatus::Pending:
      return tr("pending");
    case CellStatus::Running:
      return tr("running");
    case CellStatus::Done:
      return tr("done");
    case CellStatus::FailedToStart:
      return tr("engine did not start");
    case CellStatus::Failed:
      return tr("failed");
  }
  return {};
}

QVariant StudyGridModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const Place& p = place(index.row(), index.column());
  if (!p.present) {
    if (role == Qt::ToolTipRole)
      return tr(
          "Not part of the study: only the baseline and the recommended configuration run the follow-up "
          "profiles");
    return {};
  }
  const CellStatus status = p.cell.status;
  const QString unit = fromUtf8(runFigureUnit(m_figure, m_language));
  switch (role) {
    case Qt::DisplayRole:
      switch (status) {
        case CellStatus::Running:
          return tr("running… %1%").arg(std::lround(m_progress * 100.0));
        case CellStatus::Done:
          if (p.figure) return m_locale.toString(*p.figure, 'f', 2) + QLatin1Char(' ') + unit;
          return statusText(status);
        default:
          return statusText(status);
      }
    case Qt::ToolTipRole: {
      QStringList lines;
      if (p.figure) {
        lines << fromUtf8(runFigureLabel(m_figure, m_language)) + QStringLiteral(": ") +
                     m_locale.toString(*p.figure, 'f', 2) + QLatin1Char(' ') + unit;
        if (const auto s = speedupAt(index.row(), index.column())) {
          lines << tr("%1 than the baseline")
                       .arg(QString::fromStdString(
                           formatSpeedup(*s, m_language, !runFigureIsLatency(m_figure))));
        }
      } else {
        lines << statusText(status);
      }
      if (!p.cell.error.empty() && status != CellStatus::Done) {
        QString error = QString::fromStdString(p.cell.error);
        if (error.size() > 400) error = error.left(400) + QStringLiteral("…");
        lines << error;
      }
      if (p.cell.runId && status == CellStatus::Done)
        lines << tr("Run #%1: double-click to open it in Results").arg(*p.cell.runId);
      return lines.join(QLatin1Char('\n'));
    }
    case Qt::BackgroundRole:
      // Translucent tints: the palette's base shows through, so the text colour of either theme
      // stays readable on them.
      switch (status) {
        case CellStatus::Running:
          return QBrush(QColor(45, 110, 180, 60));
        case CellStatus::Done:
          return QBrush(QColor(0, 150, 90, 60));
        case CellStatus::FailedToStart:
        case CellStatus::Failed:
          return QBrush(QColor(215, 60, 50, 70));
        case CellStatus::Pending:
          return {};
      }
      return {};
    case Qt::ForegroundRole:
      // Mid grey reads on white and on the dark theme's base.
      if (status == CellStatus::Pending) return QBrush(QColor(128, 128, 132));
      return {};
    case Qt::TextAlignmentRole:
      return QVariant(Qt::AlignCenter);
    case StatusRole:
      return static_cast<int>(status);
    case RunIdRole:
      return p.cell.runId ? QVariant::fromValue<qint64>(*p.cell.runId) : QVariant();
    case FigureRole:
      return p.figure ? QVariant(*p.figure) : QVariant();
    case SpeedupRole:
      if (const auto s = speedupAt(index.row(), index.column())) return *s;
      return {};
    case ProgressRole:
      return status == CellStatus::Running ? QVariant(m_progress) : QVariant();
    case CellIndexRole:
      return p.cell.index;
    default:
      return {};
  }
}

QVariant StudyGridModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation == Qt::Horizontal) {
    if (section < 0 || section >= columnCount()) return {};
    const Column& column = m_columns[static_cast<std::size_t>(section)];
    const QString name = title(column.title, column.name);
    if (role == Qt::DisplayRole) return column.followUp ? tr("%1 (follow-up)").arg(name) : name;
    if (role == Qt::ToolTipRole) {
      return column.followUp
                 ? tr("Profile %1, run by the baseline and the recommended configuration once the "
                      "options are measured")
                       .arg(QString::fromStdString(column.name))
                 : tr("Profile %1, run by every configuration").arg(QString::fromStdString(column.name));
    }
    return {};
  }
  if (section < 0 || section >= rowCount()) return {};
  const StudyConfiguration& row = m_rows[static_cast<std::size_t>(section)];
  const bool recommended = !m_recommended.empty() && row.name == m_recommended;
  switch (role) {
    case Qt::DisplayRole: {
      const QString name = title(row.title, row.name);
      return recommended ? QStringLiteral("★ ") + name : name;
    }
    case Qt::ToolTipRole: {
      QStringList lines{QString::fromStdString(row.name)};
      if (row.baseline) lines << tr("The baseline: every option is measured against it");
      if (recommended) lines << tr("The recommended configuration");
      return lines.join(QLatin1Char('\n'));
    }
    case Qt::FontRole:
      if (recommended) {
        QFont font;
        font.setBold(true);
        return font;
      }
      return {};
    default:
      return {};
  }
}

}  // namespace ayar
