#include "app/gui/history_model.h"

#include <QColor>
#include <QDateTime>
#include <QFont>
#include <QLocale>

#include "core/report/report_text.h"
#include "core/study/profile_spec.h"
#include "widgets/form_field.h"

namespace ayar {

namespace {

QString fromStd(const std::string& text) {
  return QString::fromStdString(text);
}

QString engineText(const StoredRun& run) {
  if (const auto imported = runImportFacts(run.info))
    return HistoryModel::tr("imported (%1)").arg(fromStd(imported->tool));
  if (!run.info.engine.is_object() || run.info.engine.empty()) return fromStd(run.info.baseUrl);
  const RunEngineFacts engine = runEngineFacts(run);
  if (engine.kind == "remote") return fromStd(engine.baseUrl.empty() ? run.info.baseUrl : engine.baseUrl);
  QString text = fromStd(engine.engine);
  if (!engine.device.empty()) text += QStringLiteral(" · ") + fromStd(engine.device);
  return text;
}

QString flagsText(const StoredRun& run) {
  QStringList parts;
  for (const auto& [name, value] : runEngineFacts(run).flags) {
    QString part = fromStd(name);
    if (value) part += QLatin1Char('=') + fromStd(*value);
    parts.append(part);
  }
  return parts.join(QLatin1Char(' '));
}

QString profileText(const StoredRun& run) {
  if (!run.info.profile.is_object()) return {};
  const RunProfileName profile = runProfileName(run);
  if (!profile.name.empty()) return fromStd(profile.name);
  if (!profile.editedFrom.empty()) return HistoryModel::tr("%1, edited").arg(fromStd(profile.editedFrom));
  return fromStd(run.info.dataset);
}

// What the profile sent and when ("sharegpt x6, rate 4 req/s, ..."); empty when it is not one Ayar
// wrote (an import).
QString profileDescription(const StoredRun& run) {
  if (!run.info.profile.is_object() || run.info.profile.empty()) return {};
  try {
    ProfileSpec profile;
    from_json(run.info.profile, profile);
    return fromStd(profile.describe());
  } catch (const std::exception&) {
    return {};
  }
}

std::optional<double> summaryNumber(const StoredRun& run, const char* key) {
  if (!run.summary.is_object()) return std::nullopt;
  const auto it = run.summary.find(key);
  if (it == run.summary.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

// The stored summary is the run's result object with vLLM's keys.
std::optional<double> meanTtft(const StoredRun& run) {
  return summaryNumber(run, "mean_ttft_ms");
}

}  // namespace

HistoryModel::HistoryModel(QObject* parent) : QAbstractTableModel(parent) {}

void HistoryModel::setRuns(std::vector<StoredRun> runs, std::map<std::int64_t, std::string> studyNames) {
  beginResetModel();
  m_runs = std::move(runs);
  m_studyNames = std::move(studyNames);
  endResetModel();
}

const StoredRun* HistoryModel::runAt(int row) const {
  return row >= 0 && row < rowCount() ? &m_runs[static_cast<std::size_t>(row)] : nullptr;
}

int HistoryModel::rowOfRun(qint64 id) const {
  for (std::size_t i = 0; i < m_runs.size(); ++i) {
    if (m_runs[i].id == id) return static_cast<int>(i);
  }
  return -1;
}

int HistoryModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(m_runs.size());
}

int HistoryModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QString HistoryModel::statusText(RunStatus status) {
  switch (status) {
    case RunStatus::Running:
      return tr("running");
    case RunStatus::Completed:
      return tr("completed");
    case RunStatus::Interrupted:
      return tr("interrupted");
    case RunStatus::Failed:
      return tr("failed");
    case RunStatus::Cancelled:
      return tr("stopped");
  }
  return {};
}

QString HistoryModel::dateText(double secondsSinceEpoch) {
  const QDateTime when = QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(secondsSinceEpoch * 1000.0));
  const bool turkish = QLocale().language() == QLocale::Turkish;
  return when.toString(turkish ? QStringLiteral("dd.MM.yyyy HH:mm") : QStringLiteral("yyyy-MM-dd HH:mm"));
}

QString HistoryModel::simulatedMark() {
  return tr("SIMULATED");
}

QString HistoryModel::simulatedNote() {
  const auto note = reportText(ReportText::NoteSimulated, uiReportLanguage());
  return QString::fromUtf8(note.data(), static_cast<qsizetype>(note.size()));
}

QString HistoryModel::runName(const StoredRun& run) {
  QString name = QStringLiteral("#%1").arg(run.id);
  if (!run.info.label.empty()) name += QLatin1Char(' ') + fromStd(run.info.label);
  const std::string& model = run.info.servedModelName.empty() ? run.info.model : run.info.servedModelName;
  if (!model.empty()) name += QStringLiteral(" (") + fromStd(model) + QLatin1Char(')');
  return name;
}

QVariant HistoryModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const StoredRun& run = m_runs[static_cast<std::size_t>(index.row())];
  const QLocale locale;
  if (role == RunIdRole) return QVariant::fromValue<qint64>(run.id);
  if (role == SearchTextRole) {
    QStringList all;
    for (int c = 0; c < ColumnCount; ++c)
      all.append(data(this->index(index.row(), c), Qt::DisplayRole).toString());
    all.append(flagsText(run));
    all.append(profileDescription(run));
    all.append(fromStd(run.info.notes));
    return all.join(QLatin1Char(' '));
  }
  if (role == SortRole) {
    switch (index.column()) {
      case Id:
        return QVariant::fromValue<qint64>(run.id);
      case Date:
        return run.createdAt;
      case Requests:
        return QVariant::fromValue<qint64>(run.storedRequests);
      case MeanTtft:
        if (auto v = meanTtft(run)) return *v;
        return {};
      case OutputThroughput:
        if (auto v = summaryNumber(run, "output_throughput")) return *v;
        return {};
      default:
        return data(index, Qt::DisplayRole);
    }
  }
  if (role == Qt::ToolTipRole && index.column() == Engine) return flagsText(run);
  if (role == Qt::ToolTipRole && index.column() == Profile) return profileDescription(run);
  const bool figure = index.column() == MeanTtft || index.column() == OutputThroughput;
  if (runFacts(run).simulated && (index.column() == Status || figure)) {
    if (role == Qt::ToolTipRole) return simulatedNote();
    if (role == Qt::FontRole && figure) {
      QFont italic;
      italic.setItalic(true);
      return italic;
    }
  }
  if (role == Qt::ForegroundRole && index.column() == Status &&
      (run.status == RunStatus::Interrupted || run.status == RunStatus::Failed))
    return QColor(215, 60, 50);
  if (role == Qt::TextAlignmentRole && (index.column() == Id || index.column() >= Requests))
    return QVariant(Qt::AlignRight | Qt::AlignVCenter);
  if (role != Qt::DisplayRole) return {};
  switch (index.column()) {
    case Id:
      return QString::number(run.id);
    case Date:
      return dateText(run.createdAt);
    case Status:
      return runFacts(run).simulated ? tr("%1 · %2").arg(statusText(run.status), simulatedMark())
                                     : statusText(run.status);
    case Label:
      return fromStd(run.info.label);
    case Study: {
      if (!run.info.studyId) return {};
      const auto it = m_studyNames.find(*run.info.studyId);
      const QString number = QStringLiteral("#%1").arg(*run.info.studyId);
      return it == m_studyNames.end() ? number : number + QLatin1Char(' ') + fromStd(it->second);
    }
    case Model:
      return fromStd(run.info.servedModelName.empty() ? run.info.model : run.info.servedModelName);
    case Engine:
      return engineText(run);
    case Profile:
      return profileText(run);
    case Requests:
      return locale.toString(static_cast<qlonglong>(run.storedRequests));
    case MeanTtft:
      if (auto v = meanTtft(run)) return locale.toString(*v, 'f', 1);
      return {};
    case OutputThroughput:
      if (auto v = summaryNumber(run, "output_throughput")) return locale.toString(*v, 'f', 1);
      return {};
    default:
      return {};
  }
}

QVariant HistoryModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Id:
      return tr("Run");
    case Date:
      return tr("Started");
    case Status:
      return tr("Status");
    case Label:
      return tr("Label");
    case Study:
      return tr("Study");
    case Model:
      return tr("Model");
    case Engine:
      return tr("Engine");
    case Profile:
      return tr("Profile");
    case Requests:
      return tr("Requests");
    case MeanTtft:
      return tr("Mean TTFT (ms)");
    case OutputThroughput:
      return tr("Output (tok/s)");
    default:
      return {};
  }
}

HistoryFilter::HistoryFilter(QObject* parent) : QSortFilterProxyModel(parent) {
  setSortRole(HistoryModel::SortRole);
  setFilterCaseSensitivity(Qt::CaseInsensitive);
}

void HistoryFilter::setSearchText(const QString& text) {
  m_words = text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
  invalidateFilter();
}

void HistoryFilter::setStatus(std::optional<RunStatus> status) {
  m_status = status;
  invalidateFilter();
}

bool HistoryFilter::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
  auto* model = static_cast<const HistoryModel*>(sourceModel());
  const StoredRun* run = model->runAt(sourceRow);
  if (!run) return false;
  if (m_status && run->status != *m_status) return false;
  if (m_words.isEmpty()) return true;
  const QString text = model->index(sourceRow, 0, sourceParent).data(HistoryModel::SearchTextRole).toString();
  for (const QString& word : m_words) {
    if (!text.contains(word, Qt::CaseInsensitive)) return false;
  }
  return true;
}

}  // namespace ayar
