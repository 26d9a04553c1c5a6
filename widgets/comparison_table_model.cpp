#include "widgets/comparison_table_model.h"

#include <QBrush>
#include <QColor>
#include <QCoreApplication>
#include <QPointer>
#include <QThreadPool>
#include <algorithm>
#include <memory>
#include <utility>

#include "core/report/comparison_report.h"

namespace ayar {

namespace {

QString fromUtf8(std::string_view text) {
  return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

}  // namespace

ComparisonTableModel::ComparisonTableModel(QObject* parent) : QAbstractTableModel(parent) {}

std::vector<RunFigure> ComparisonTableModel::defaultFigures() {
  return defaultComparisonFigures();  // the exported report's, so that both list the same at first
}

void ComparisonTableModel::setComparison(ComparedRun baseline, std::vector<ComparedRun> candidates,
                                         std::vector<RunFigure> figures) {
  beginResetModel();
  m_baseline = std::move(baseline);
  m_candidates = std::move(candidates);
  m_rows.clear();
  for (std::size_t c = 0; c < m_candidates.size(); ++c) {
    for (RunFigure figure : figures) {
      const auto base = value(m_baseline.summary, figure);
      const auto cand = value(m_candidates[c].summary, figure);
      if (!base && !cand) continue;
      Row row{figure, c, std::nullopt, false};
      // An interval only beside a ratio the table shows, and only where both runs have the requests.
      row.intervalPending = summaryRatio(row).has_value() &&
                            figureHasSpeedupInterval(m_baseline.values, m_candidates[c].values, figure);
      m_rows.push_back(std::move(row));
    }
  }
  ++m_generation;
  endResetModel();
  startIntervals();
}

void ComparisonTableModel::startIntervals() {
  struct Job {
    LatencyValuesByMetric baseline;
    std::vector<LatencyValuesByMetric> candidates;
    std::vector<std::pair<RunFigure, std::size_t>> rows;  // per row: its figure and candidate (or none)
  };
  auto job = std::make_shared<Job>();
  for (const Row& row : m_rows)
    job->rows.emplace_back(row.figure, row.intervalPending ? row.candidate : m_candidates.size());
  if (!intervalsPending()) return;
  // Copies: the worker must not read what a later setComparison replaces.
  job->baseline = m_baseline.values;
  for (const ComparedRun& run : m_candidates)
    job->candidates.push_back(run.values);
  const QPointer<ComparisonTableModel> self(this);
  const std::uint64_t generation = m_generation;
  QThreadPool::globalInstance()->start([job, self, generation] {
    std::vector<std::optional<SpeedupInterval>> intervals;
    for (const auto& [figure, candidate] : job->rows) {
      intervals.push_back(candidate < job->candidates.size()
                              ? figureSpeedupInterval(job->baseline, job->candidates[candidate], figure)
                              : std::nullopt);
    }
    // Back on the GUI thread (the application's), where the model lives, if it still does.
    QMetaObject::invokeMethod(
        QCoreApplication::instance(),
        [self, generation, intervals = std::move(intervals)]() mutable {
          if (self) self->takeIntervals(generation, std::move(intervals));
        },
        Qt::QueuedConnection);
  });
}

void ComparisonTableModel::takeIntervals(std::uint64_t generation,
                                         std::vector<std::optional<SpeedupInterval>> intervals) {
  if (generation != m_generation || intervals.size() != m_rows.size()) return;  // a newer comparison
  for (std::size_t i = 0; i < m_rows.size(); ++i) {
    Row& row = m_rows[i];
    if (!row.intervalPending) continue;
    row.intervalPending = false;
    row.interval = intervals[i];
    // Worded in the sense of the ratio the table shows (the summary's figure).
    const auto ratio = summaryRatio(row);
    if (row.interval && ratio) row.interval->speedup = *ratio;
  }
  if (!m_rows.empty()) emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
  emit intervalsReady();
}

void ComparisonTableModel::setLanguage(ReportLanguage language, const QLocale& locale) {
  m_language = language;
  m_locale = locale;
  if (!m_rows.empty()) emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
  emit headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
}

void ComparisonTableModel::setRunNames(const QString& baseline, const std::vector<QString>& candidates) {
  m_baseline.name = baseline;
  for (std::size_t i = 0; i < candidates.size() && i < m_candidates.size(); ++i)
    m_candidates[i].name = candidates[i];
  if (!m_rows.empty()) emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
  emit headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
}

QString ComparisonTableModel::noiseLegend() const {
  for (const Row& row : m_rows) {
    if (!row.interval || row.interval->clear()) continue;
    return QString::fromStdString(
        formatReportText(ReportText::NoiseLegend, m_language,
                         {ReportLocale(m_language).number(row.interval->level * 100.0, 0)}));
  }
  return {};
}

void ComparisonTableModel::clear() {
  beginResetModel();
  m_candidates.clear();
  m_rows.clear();
  ++m_generation;
  endResetModel();
}

int ComparisonTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ComparisonTableModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

std::optional<double> ComparisonTableModel::value(const RunSummary& summary, RunFigure figure) const {
  return runFigureValue(summary, figure);
}

std::optional<double> ComparisonTableModel::summaryRatio(const Row& row) const {
  const auto base = value(m_baseline.summary, row.figure);
  const auto cand = value(m_candidates[row.candidate].summary, row.figure);
  return base && cand ? speedup(*base, *cand, runFigureBetter(row.figure)) : std::nullopt;
}

bool ComparisonTableModel::intervalsPending() const {
  return std::any_of(m_rows.begin(), m_rows.end(), [](const Row& row) { return row.intervalPending; });
}

QVariant ComparisonTableModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const Row& row = m_rows[static_cast<std::size_t>(index.row())];
  const ComparedRun& candidate = m_candidates[row.candidate];
  const auto base = value(m_baseline.summary, row.figure);
  const auto cand = value(candidate.summary, row.figure);
  // A plain double and a flag: GCC 12 misreads std::optional<double> copies here as uninitialised.
  double ratio = 0.0;
  bool hasRatio = false;
  if (base && cand) {
    if (auto r = speedup(*base, *cand, runFigureBetter(row.figure))) {
      ratio = *r;
      hasRatio = true;
    }
  }
  const bool hasInterval = row.interval.has_value();  // only beside a ratio
  // Within the runs' own spread: neither a gain nor a loss.
  const bool noise = hasInterval && !row.interval->clear();
  const QString noValue = fromUtf8(reportText(ReportText::NoteNoValue, m_language));
  auto number = [&](const std::optional<double>& v) { return v ? m_locale.toString(*v, 'f', 2) : noValue; };

  switch (role) {
    case Qt::DisplayRole:
      switch (index.column()) {
        case Scenario: {
          QString text = fromUtf8(runFigureLabel(row.figure, m_language)) + QStringLiteral(" (") +
                         fromUtf8(runFigureUnit(row.figure, m_language)) + QLatin1Char(')');
          if (m_candidates.size() > 1) text += QStringLiteral(" — ") + candidate.name;
          return text;
        }
        case Baseline:
          return number(base);
        case Candidate:
          return number(cand);
        case Ratio: {
          if (!hasRatio) return noValue;
          // Marked, not spelt out: the words would widen the column past the charts' room beside it;
          // noiseLegend() and the tooltip say them.
          const std::string words = formatSpeedup(ratio, m_language);
          return QString::fromStdString(
              noise ? formatReportText(ReportText::RatioWithinNoise, m_language, {words}) : words);
        }
        case Interval:
          if (row.intervalPending) return QStringLiteral("…");
          return hasInterval ? QString::fromStdString(formatIntervalRange(*row.interval, m_language))
                             : noValue;
        default:
          return {};
      }
    case SortRole:
      switch (index.column()) {
        case Scenario:
          return index.row();
        case Baseline:
          return base ? QVariant(*base) : QVariant();
        case Candidate:
          return cand ? QVariant(*cand) : QVariant();
        case Ratio:
          return hasRatio ? QVariant(ratio) : QVariant();
        case Interval:
          return hasInterval ? QVariant(row.interval->low) : QVariant();
        default:
          return {};
      }
    case RatioRole:
      return hasRatio ? QVariant(ratio) : QVariant();
    case ClearRole:
      return hasInterval ? QVariant(!noise) : QVariant();
    case Qt::ForegroundRole:
      // Green where the candidate is better, red where it is worse; both readable on light and dark. Not
      // before its interval has said whether the difference is real.
      if (index.column() == Ratio && hasRatio && ratio != 1.0 && !noise && !row.intervalPending)
        return QBrush(ratio > 1.0 ? QColor(0, 150, 90) : QColor(215, 60, 50));
      return {};
    case Qt::TextAlignmentRole:
      return index.column() == Scenario ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                        : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole:
      if ((index.column() == Ratio || index.column() == Interval) && row.intervalPending)
        return tr("Computing the confidence interval from both runs' requests…");
      if ((index.column() == Ratio || index.column() == Interval) && hasInterval)
        return QString::fromStdString(formatSpeedupInterval(*row.interval, m_language));
      if (index.column() == Candidate || index.column() == Scenario) return candidate.name;
      if (index.column() == Baseline) return m_baseline.name;
      return {};
    default:
      return {};
  }
}

QVariant ComparisonTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
  if (role == Qt::DisplayRole) {
    switch (section) {
      case Scenario:
        return fromUtf8(reportText(ReportText::ColumnScenario, m_language));
      case Baseline:
        return fromUtf8(reportText(ReportText::ColumnBaseline, m_language));
      case Candidate:
        return fromUtf8(reportText(ReportText::ColumnCandidate, m_language));
      case Ratio:
        return fromUtf8(reportText(ReportText::ColumnRatio, m_language));
      case Interval:
        return QString::fromStdString(formatIntervalColumn(BootstrapOptions{}, m_language));
      default:
        return {};
    }
  }
  if (role == Qt::ToolTipRole) {
    switch (section) {
      case Baseline:
        return m_baseline.name;
      case Candidate:
        return m_candidates.size() == 1 ? m_candidates.front().name : QString();
      case Ratio:
        return tr(
            "Latencies: baseline / candidate. Throughputs: candidate / baseline. Above 1 the "
            "candidate is better.");
      case Interval:
        return QString::fromStdString(formatIntervalNote(BootstrapOptions{}, m_language));
      default:
        return {};
    }
  }
  return {};
}

}  // namespace ayar
