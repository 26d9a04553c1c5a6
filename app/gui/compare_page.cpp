#include "app/gui/compare_page.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>

#include "app/gui/history_model.h"
#include "app/gui/report_charts.h"
#include "app/report/report_export.h"
#include "core/error.h"
#include "core/metrics/latency_values.h"
#include "widgets/box_plot_chart.h"
#include "widgets/comparison_table_model.h"
#include "widgets/comparison_table_view.h"
#include "widgets/distribution_chart.h"

namespace ayar {

ComparePage::ComparePage(HistoryModel* history, QWidget* parent) : QWidget(parent), m_history(history) {
  m_baselineLabel = new QLabel(this);
  m_baseline = new QComboBox(this);
  m_baseline->setObjectName(QStringLiteral("baselineRun"));
  m_baseline->setMinimumContentsLength(24);
  m_baseline->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  m_candidatesLabel = new QLabel(this);
  m_candidates = new QListWidget(this);
  m_candidates->setObjectName(QStringLiteral("candidateRuns"));
  m_candidates->setMaximumHeight(72);
  m_metricLabel = new QLabel(this);
  m_metric = new QComboBox(this);
  for (int i = 0; i < 4; ++i)
    m_metric->addItem(QString());
  m_compare = new QPushButton(this);
  m_copy = new QPushButton(this);
  m_export = new QPushButton(this);
  m_export->setObjectName(QStringLiteral("exportReport"));
  m_reportLanguageLabel = new QLabel(this);
  m_reportLanguage = new QComboBox(this);
  m_reportLanguage->setObjectName(QStringLiteral("reportLanguage"));
  // Each language named in itself. The report follows the UI language until one is picked here.
  m_reportLanguage->addItem(QStringLiteral("English"), QStringLiteral("en"));
  m_reportLanguage->addItem(QStringLiteral("Türkçe"), QStringLiteral("tr"));
  m_model = new ComparisonTableModel(this);
  m_table = new ComparisonTableView(this);
  m_table->setComparisonModel(m_model);
  m_cdf = new DistributionChart(this);
  m_box = new BoxPlotChart(this);

  auto* choose = new QGridLayout;
  choose->addWidget(m_baselineLabel, 0, 0);
  choose->addWidget(m_baseline, 0, 1);
  choose->addWidget(m_metricLabel, 0, 2);
  choose->addWidget(m_metric, 0, 3);
  choose->addWidget(m_candidatesLabel, 1, 0, Qt::AlignTop);
  choose->addWidget(m_candidates, 1, 1, 1, 3);
  auto* buttons = new QVBoxLayout;
  buttons->addWidget(m_compare);
  buttons->addWidget(m_copy);
  buttons->addWidget(m_export);
  buttons->addWidget(m_reportLanguageLabel);
  buttons->addWidget(m_reportLanguage);
  buttons->addStretch(1);
  choose->addLayout(buttons, 0, 4, 2, 1);
  choose->setColumnStretch(1, 1);

  auto* charts = new QSplitter(Qt::Horizontal, this);
  charts->addWidget(m_cdf);
  charts->addWidget(m_box);
  auto* splitter = new QSplitter(Qt::Vertical, this);
  splitter->addWidget(m_table);
  splitter->addWidget(charts);
  splitter->setStretchFactor(0, 2);
  splitter->setStretchFactor(1, 3);
  splitter->setSizes({300, 480});
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(choose);
  layout->addWidget(splitter, 1);

  connect(m_history, &QAbstractItemModel::modelReset, this, &ComparePage::refillChoices);
  connect(m_compare, &QPushButton::clicked, this, &ComparePage::compareChosen);
  connect(m_metric, &QComboBox::currentIndexChanged, this, &ComparePage::showMetric);
  connect(m_export, &QPushButton::clicked, this, [this] {
    if (m_runs.empty()) {
      emit failed(tr("Compare runs first, then export the comparison."));
      return;
    }
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export report"), QStringLiteral("ayar-comparison.pdf"),
        tr("PDF (*.pdf);;HTML (*.html);;Markdown (*.md);;CSV (*.csv);;JSON (*.json)"));
    if (path.isEmpty()) return;
    const QString error = exportReport(path);
    if (!error.isEmpty()) emit failed(error);
  });
  connect(m_reportLanguage, &QComboBox::activated, this, [this] { m_reportLanguageChosen = true; });
  connect(m_copy, &QPushButton::clicked, this,
          [this] { QApplication::clipboard()->setText(m_table->toTabSeparated()); });
  retranslate();
  refillChoices();
}

void ComparePage::retranslate() {
  m_baselineLabel->setText(tr("Baseline"));
  m_candidatesLabel->setText(tr("Candidates"));
  m_metricLabel->setText(tr("Distribution"));
  m_metric->setItemText(0, QStringLiteral("TTFT"));
  m_metric->setItemText(1, QStringLiteral("TPOT"));
  m_metric->setItemText(2, QStringLiteral("ITL"));
  m_metric->setItemText(3, tr("End-to-end latency"));
  m_compare->setText(tr("Compare"));
  m_copy->setText(tr("Copy table"));
  m_export->setText(tr("Export report…"));
  m_export->setToolTip(
      tr("PDF, HTML (charts embedded), Markdown, CSV or JSON, in the report language below"));
  m_reportLanguageLabel->setText(tr("Report language"));
  const ReportLanguage uiLanguage =
      QLocale().language() == QLocale::Turkish ? ReportLanguage::Turkish : ReportLanguage::English;
  m_model->setLanguage(uiLanguage, QLocale());
  if (!m_reportLanguageChosen)
    m_reportLanguage->setCurrentIndex(uiLanguage == ReportLanguage::Turkish ? 1 : 0);
  m_cdf->setTitle(tr("CDF"));
  m_box->setTitle(tr("Box plot"));
  showMetric();
}

void ComparePage::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslate();
  QWidget::changeEvent(event);
}

void ComparePage::setDark(bool dark) {
  m_cdf->setDark(dark);
  m_box->setDark(dark);
}

void ComparePage::refillChoices() {
  const qint64 baseline = m_baseline->currentData().toLongLong();
  QList<qint64> checked;
  for (int i = 0; i < m_candidates->count(); ++i) {
    if (m_candidates->item(i)->checkState() == Qt::Checked)
      checked.append(m_candidates->item(i)->data(Qt::UserRole).toLongLong());
  }
  m_baseline->clear();
  m_candidates->clear();
  for (const StoredRun& run : m_history->runs()) {
    if (run.status == RunStatus::Running) continue;
    const QString name = HistoryModel::runName(run);
    m_baseline->addItem(name, QVariant::fromValue<qint64>(run.id));
    auto* item = new QListWidgetItem(name, m_candidates);
    item->setData(Qt::UserRole, QVariant::fromValue<qint64>(run.id));
    item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
    item->setCheckState(checked.contains(run.id) ? Qt::Checked : Qt::Unchecked);
  }
  const int index = m_baseline->findData(QVariant::fromValue<qint64>(baseline));
  if (index >= 0) m_baseline->setCurrentIndex(index);
}

void ComparePage::compareChosen() {
  std::vector<std::int64_t> candidates;
  for (int i = 0; i < m_candidates->count(); ++i) {
    if (m_candidates->item(i)->checkState() == Qt::Checked)
      candidates.push_back(m_candidates->item(i)->data(Qt::UserRole).toLongLong());
  }
  if (m_baseline->currentIndex() < 0 || candidates.empty()) {
    emit failed(tr("Choose a baseline and tick at least one candidate."));
    return;
  }
  try {
    compare(m_baseline->currentData().toLongLong(), candidates);
  } catch (const Error& e) {
    emit failed(QString::fromUtf8(e.what()));
  }
}

void ComparePage::compare(std::int64_t baseline, const std::vector<std::int64_t>& candidates) {
  if (!m_store) throw Error("no results store is open");
  std::vector<LoadedRun> runs;
  runs.push_back(loadStoredRun(*m_store, baseline));
  for (std::int64_t id : candidates)
    runs.push_back(loadStoredRun(*m_store, id));
  m_runs = std::move(runs);
  std::vector<ComparedRun> compared;
  for (std::size_t i = 1; i < m_runs.size(); ++i)
    compared.push_back({m_runs[i].name, m_runs[i].summary});
  m_model->setComparison({m_runs[0].name, m_runs[0].summary}, std::move(compared));
  // Show the choice the comparison was made of.
  const int index = m_baseline->findData(QVariant::fromValue<qint64>(baseline));
  if (index >= 0) m_baseline->setCurrentIndex(index);
  for (int i = 0; i < m_candidates->count(); ++i) {
    const qint64 id = m_candidates->item(i)->data(Qt::UserRole).toLongLong();
    const bool chosen = std::find(candidates.begin(), candidates.end(), id) != candidates.end();
    m_candidates->item(i)->setCheckState(chosen ? Qt::Checked : Qt::Unchecked);
  }
  showMetric();
}

void ComparePage::showMetric() {
  const LatencyMetric metric = kAllLatencyMetrics[std::max(0, m_metric->currentIndex())];
  const QString unit = m_metric->currentText() + tr(" (ms)");
  m_cdf->setAxisTitles(unit, tr("requests"), tr("CDF (%)"));
  m_box->setValueTitle(unit);
  if (m_runs.empty()) return;
  QList<Distribution> distributions, boxes;
  for (const LoadedRun& run : m_runs) {
    distributions.append({run.name, latencyValuesMs(run.records, metric)});
    boxes.append({run.shortName, distributions.back().values});
  }
  m_cdf->setDistributions(distributions);
  m_box->setDistributions(boxes);
}

void ComparePage::setReportLanguage(ReportLanguage language) {
  m_reportLanguage->setCurrentIndex(language == ReportLanguage::Turkish ? 1 : 0);
  m_reportLanguageChosen = true;
}

ReportLanguage ComparePage::reportLanguage() const {
  return m_reportLanguage->currentData().toString() == QLatin1String("tr") ? ReportLanguage::Turkish
                                                                           : ReportLanguage::English;
}

QString ComparePage::exportReport(const QString& path) {
  if (m_runs.empty()) return tr("Compare runs first, then export the comparison.");
  // Every latency's charts, drawn offscreen in the report's language, whatever the page shows.
  try {
    writeComparisonReportFile(m_runs, reportLanguage(), path, reportFileFormatFor(path));
  } catch (const Error& e) {
    return QString::fromUtf8(e.what());
  }
  emit message(tr("Report written to %1").arg(QDir::toNativeSeparators(QFileInfo(path).absoluteFilePath())));
  return {};
}

}  // namespace ayar
