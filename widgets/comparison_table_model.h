#pragma once

#include <QAbstractTableModel>
#include <QLocale>
#include <QString>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/metrics/latency_values.h"
#include "core/metrics/run_figure.h"
#include "core/metrics/run_summary.h"
#include "core/report/report_text.h"

namespace ayar {

// A run as a comparison shows it.
struct ComparedRun {
  QString name;  // "#12 baseline"
  RunSummary summary;
  LatencyValuesByMetric values = {};  // its requests' latencies, behind the intervals; empty without them
};

// The seed documents' table: scenario | baseline | candidate | ratio | interval, one row per figure
// and candidate. Ratios read as core's report catalogue words them ("1.26x faster" / "1.26x daha
// hızlı"): baseline/candidate for latencies, candidate/baseline for throughputs, so above 1 the
// candidate is better. A latency ratio carries its 95% bootstrap interval (as the exported report does)
// when both runs have their requests; one whose interval holds 1 is marked "≈", its tooltip says "no
// clear difference", and it is not coloured as a gain or a loss. Values are shown in the UI locale; the ratio
// words in the report language.
class ComparisonTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { Scenario, Baseline, Candidate, Ratio, Interval, ColumnCount };
  enum Role {
    SortRole = Qt::UserRole + 1,  // the number behind a cell (the ratio; the interval's low end)
    RatioRole,                    // the ratio as a double, absent when it says nothing
    ClearRole,                    // whether the interval leaves 1 out; absent without an interval
  };

  explicit ComparisonTableModel(QObject* parent = nullptr);

  // The figures and ratios at once; the intervals (a bootstrap over every request of both runs, tens of
  // milliseconds for runs of 10,000 requests) on a worker thread, so that the window never waits for
  // them: until they arrive an interval cell reads "…" and its ratio is left uncoloured, then
  // intervalsReady() is emitted. A comparison set meanwhile drops the older one's results.
  void setComparison(ComparedRun baseline, std::vector<ComparedRun> candidates,
                     std::vector<RunFigure> figures = defaultFigures());
  // Whether the current comparison's intervals are still being computed.
  bool intervalsPending() const;
  void setLanguage(ReportLanguage language, const QLocale& locale = QLocale());
  // New names for the runs compared (the baseline's, then the candidates' in order), as after a change
  // of the UI language: the figures and intervals stay.
  void setRunNames(const QString& baseline, const std::vector<QString>& candidates);
  void clear();
  // What the "≈" mark means, when a ratio shown has it; empty otherwise.
  QString noiseLegend() const;

  int rowCount(const QModelIndex& parent = QModelIndex()) const override;
  int columnCount(const QModelIndex& parent = QModelIndex()) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  // The figures the seeds compare: mean latency, TTFT, TPOT, throughput.
  static std::vector<RunFigure> defaultFigures();

 signals:
  // The intervals of the comparison last set are in the table.
  void intervalsReady();

 private:
  struct Row {
    RunFigure figure;
    std::size_t candidate;
    std::optional<SpeedupInterval> interval;
    bool intervalPending = false;  // computed on a worker, not back yet
  };
  std::optional<double> value(const RunSummary& summary, RunFigure figure) const;
  // The ratio the table shows for a row (speedup of the summaries' figure), none where either lacks it.
  std::optional<double> summaryRatio(const Row& row) const;
  void startIntervals();
  void takeIntervals(std::uint64_t generation, std::vector<std::optional<SpeedupInterval>> intervals);

  ComparedRun m_baseline;
  std::vector<ComparedRun> m_candidates;
  std::vector<Row> m_rows;
  ReportLanguage m_language = ReportLanguage::English;
  QLocale m_locale;
  std::uint64_t m_generation = 0;  // of the comparison set last; a worker's results for another are dropped
};

}  // namespace ayar
