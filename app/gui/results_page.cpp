#include "app/gui/results_page.h"

#include <QEvent>
#include <QGridLayout>
#include <QLabel>
#include <QLocale>
#include <QScrollArea>
#include <QStyle>
#include <QVBoxLayout>
#include <algorithm>

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
  m_notes = new QLabel(this);
  m_notes->setObjectName(QStringLiteral("runNotes"));
  m_notes->setWordWrap(true);
  m_notes->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_notes->hide();
  auto* content = new QWidget(this);
  m_summary = new RunSummaryView(content);
  m_chartsBox = new QWidget(content);
  m_chartsBox->setObjectName(QStringLiteral("distributions"));
  auto* grid = new QGridLayout(m_chartsBox);
  grid->setContentsMargins(0, 0, 0, 0);
  for (std::size_t i = 0; i < std::size(kAllLatencyMetrics); ++i) {
    auto* chart = new DistributionChart(m_chartsBox);
    m_charts.push_back(chart);
    grid->addWidget(chart, static_cast<int>(i / 2), static_cast<int>(i % 2));
  }
  m_body = new QBoxLayout(QBoxLayout::LeftToRight, content);
  m_body->setContentsMargins(0, 0, 0, 0);
  m_body->addWidget(m_summary);
  m_body->addWidget(m_chartsBox, 1);
  m_scroll = new QScrollArea(this);
  m_scroll->setObjectName(QStringLiteral("resultsScroll"));
  m_scroll->setWidget(content);
  m_scroll->setWidgetResizable(true);
  m_scroll->setFrameShape(QFrame::NoFrame);
  m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(m_heading);
  layout->addWidget(m_notes);
  layout->addWidget(m_scroll, 1);
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
    // ITL has a value per gap between two tokens, the other figures one per request.
    const bool perInterval = kAllLatencyMetrics[i] == LatencyMetric::Itl;
    m_charts[i]->setFigure(names[i], perInterval ? tr("token intervals") : tr("requests"), tr("CDF (%)"));
  }
  m_heading->setText(heading());
  setReportLanguageFromUi();
  showNotes();
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

void ResultsPage::setRunNotes(const RunNotes& notes, bool hasRequests, const QString& engineLog) {
  m_runNotes = notes;
  m_failedBeforeRequests = notes.failure && !hasRequests;
  m_failureLog = engineLog;
  showNotes();
}

QString ResultsPage::notesText() const {
  return m_notes->isHidden() ? QString() : m_notes->text();
}

void ResultsPage::showNotes() {
  const ReportLanguage language =
      QLocale().language() == QLocale::Turkish ? ReportLanguage::Turkish : ReportLanguage::English;
  const auto said = [language](const MessageArgument& text) {
    return QString::fromStdString(text.in(language));
  };
  const QString log = m_failureLog.isEmpty()
                          ? QString()
                          : QStringLiteral("\n\n") + tr("The engine's log: %1").arg(m_failureLog);
  if (m_failedBeforeRequests)
    m_summary->showNote(tr("The run failed before its first request:\n%1").arg(said(*m_runNotes.failure)) +
                        log);
  QStringList lines;
  if (m_runNotes.failure && !m_failedBeforeRequests)
    lines << tr("The run failed: %1").arg(said(*m_runNotes.failure)) + log;
  if (!m_runNotes.notes.empty()) lines << tr("How the file was read:");
  for (const MessageArgument& note : m_runNotes.notes)
    lines << QStringLiteral("• ") + said(note);
  m_notes->setText(lines.join(QLatin1Char('\n')));
  m_notes->setVisible(!lines.isEmpty());
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

void ResultsPage::arrange() {
  // Wide: the figures in a column beside the distributions, everything at a glance. Narrow: the
  // figures (table beside vLLM's block) above the distributions, each chart still large enough to
  // read, and the area scrolls.
  // From the page's own width: in its resize event the scroll area inside still has its old size.
  const QMargins margins = layout()->contentsMargins();
  const int width =
      this->width() - margins.left() - margins.right() - style()->pixelMetric(QStyle::PM_ScrollBarExtent);
  if (width <= 0) return;
  const int summaryWidth = std::max(m_summary->tableWidthForAllColumns(), 260);
  const bool sideBySide = width - summaryWidth >= 2 * kChartWidthBesideFigures;
  if (sideBySide) {
    m_body->setDirection(QBoxLayout::LeftToRight);
    m_summary->setOrientation(Qt::Vertical);
    m_summary->setMinimumHeight(0);
    m_summary->setMaximumHeight(QWIDGETSIZE_MAX);
    m_summary->setFixedWidth(summaryWidth);
    m_chartsBox->setMinimumHeight(2 * kChartHeightBesideFigures);
  } else {
    m_body->setDirection(QBoxLayout::TopToBottom);
    m_summary->setOrientation(Qt::Horizontal);
    m_summary->setMinimumWidth(0);
    m_summary->setMaximumWidth(QWIDGETSIZE_MAX);
    m_summary->setFixedHeight(m_summary->tableHeightForAllRows());
    m_chartsBox->setMinimumHeight(2 * kChartHeightBelowFigures);
  }
}

bool ResultsPage::figuresBesideCharts() const {
  return m_body->direction() == QBoxLayout::LeftToRight;
}

void ResultsPage::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  arrange();
}

void ResultsPage::showRun(const QString& title, std::span<const RequestRecord> records,
                          const RunSummary& summary, std::optional<double> requestRate,
                          std::optional<RunStatus> status,
                          const std::vector<std::vector<double>>* sortedValues) {
  m_title = title;
  m_status = status;
  m_facts = {};
  m_runNotes = {};
  m_failedBeforeRequests = false;
  m_failureLog.clear();
  showNotes();
  m_summaryShown = summary;
  m_rateShown = requestRate;
  m_heading->setText(heading());
  m_heading->setToolTip(QString());
  m_summary->setSummary(summary, requestRate);
  setReportLanguageFromUi();
  arrange();
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
  m_runNotes = {};
  m_failedBeforeRequests = false;
  m_failureLog.clear();
  m_summary->clear();
  for (auto* chart : m_charts)
    chart->clear();
  retranslate();
}

}  // namespace ayar
