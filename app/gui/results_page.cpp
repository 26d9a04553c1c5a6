#include "app/gui/results_page.h"

#include <QEvent>
#include <QGridLayout>
#include <QLabel>
#include <QLocale>
#include <QSplitter>
#include <QVBoxLayout>

#include "app/gui/history_model.h"
#include "core/metrics/latency_values.h"
#include "widgets/distribution_chart.h"
#include "widgets/run_summary_view.h"

namespace ayar {

ResultsPage::ResultsPage(QWidget* parent) : QWidget(parent) {
  m_heading = new QLabel(this);
  QFont font = m_heading->font();
  font.setBold(true);
  m_heading->setFont(font);
  m_summary = new RunSummaryView(this);
  auto* chartsBox = new QWidget(this);
  auto* grid = new QGridLayout(chartsBox);
  grid->setContentsMargins(0, 0, 0, 0);
  for (std::size_t i = 0; i < std::size(kAllLatencyMetrics); ++i) {
    auto* chart = new DistributionChart(chartsBox);
    m_charts.push_back(chart);
    grid->addWidget(chart, static_cast<int>(i / 2), static_cast<int>(i % 2));
  }
  auto* splitter = new QSplitter(Qt::Vertical, this);
  splitter->addWidget(m_summary);
  splitter->addWidget(chartsBox);
  splitter->setStretchFactor(0, 2);
  splitter->setStretchFactor(1, 5);
  splitter->setSizes({260, 620});
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(m_heading);
  layout->addWidget(splitter, 1);
  retranslate();
}

DistributionChart* ResultsPage::chart(LatencyMetric metric) const {
  return m_charts.at(static_cast<std::size_t>(metric));
}

void ResultsPage::retranslate() {
  const QString names[] = {QStringLiteral("TTFT"), QStringLiteral("TPOT"), QStringLiteral("ITL"),
                           tr("End-to-end latency")};
  for (std::size_t i = 0; i < m_charts.size(); ++i) {
    m_charts[i]->setTitle(names[i]);
    m_charts[i]->setAxisTitles(names[i] + tr(" (ms)"), tr("requests"), tr("CDF (%)"));
  }
  m_heading->setText(heading());
  setReportLanguageFromUi();
  if (!m_failure.isEmpty()) showFailure(m_failure, m_failureLog);
}

QString ResultsPage::heading() const {
  if (m_title.isEmpty()) return tr("No run shown yet: start one from Setup or open one from History.");
  QString text = m_status ? m_title + QStringLiteral(" · ") + HistoryModel::statusText(*m_status) : m_title;
  if (m_facts.simulated) text += QStringLiteral(" · ") + HistoryModel::simulatedMark();
  return text;
}

QString ResultsPage::headingText() const {
  return m_heading->text();
}

void ResultsPage::showFailure(const QString& error, const QString& engineLog) {
  m_failure = error;
  m_failureLog = engineLog;
  QString note = tr("The run failed before its first request:\n%1").arg(error);
  if (!engineLog.isEmpty()) note += QStringLiteral("\n\n") + tr("The engine's log: %1").arg(engineLog);
  m_summary->showNote(note);
}

void ResultsPage::setRunFacts(const RunFacts& facts) {
  m_facts = facts;
  m_heading->setText(heading());
  m_heading->setToolTip(facts.simulated ? HistoryModel::simulatedNote() : QString());
  if (!m_title.isEmpty()) m_summary->setSummary(m_summaryShown, m_rateShown, facts.syntheticDataset);
}

void ResultsPage::setReportLanguageFromUi() {
  m_summary->setLanguage(QLocale().language() == QLocale::Turkish ? ReportLanguage::Turkish
                                                                  : ReportLanguage::English);
}

void ResultsPage::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslate();
  QWidget::changeEvent(event);
}

void ResultsPage::setDark(bool dark) {
  for (auto* chart : m_charts)
    chart->setDark(dark);
}

void ResultsPage::showRun(const QString& title, std::span<const RequestRecord> records,
                          const RunSummary& summary, std::optional<double> requestRate,
                          std::optional<RunStatus> status,
                          const std::vector<std::vector<double>>* sortedValues) {
  m_title = title;
  m_status = status;
  m_facts = {};
  m_failure.clear();
  m_failureLog.clear();
  m_summaryShown = summary;
  m_rateShown = requestRate;
  m_heading->setText(heading());
  m_heading->setToolTip(QString());
  m_summary->setSummary(summary, requestRate);
  setReportLanguageFromUi();
  const std::vector<double> percentiles =
      summary.percentiles.empty() ? std::vector<double>{50, 90, 99} : summary.percentiles;
  for (std::size_t i = 0; i < m_charts.size(); ++i) {
    const LatencyMetric metric = kAllLatencyMetrics[i];
    if (sortedValues && sortedValues->size() == m_charts.size()) {
      m_charts[i]->setDistributions({{title, (*sortedValues)[i], true}}, percentiles);
    } else {
      m_charts[i]->setDistributions({{title, latencyValuesMs(records, metric)}}, percentiles);
    }
  }
}

void ResultsPage::clear() {
  m_title.clear();
  m_status.reset();
  m_facts = {};
  m_summary->clear();
  for (auto* chart : m_charts)
    chart->clear();
  retranslate();
}

}  // namespace ayar
