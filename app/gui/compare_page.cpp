#include "app/gui/compare_page.h"

#include <QApplication>
#include <QCheckBox>
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
#include <QMenu>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

#include "app/gui/history_model.h"
#include "app/gui/report_charts.h"
#include "app/report/report_export.h"
#include "core/error.h"
#include "core/metrics/latency_values.h"
#include "core/report/message_text.h"
#include "core/study/study_report.h"
#include "widgets/box_plot_chart.h"
#include "widgets/comparison_table_model.h"
#include "widgets/comparison_table_view.h"
#include "widgets/distribution_chart.h"
#include "widgets/form_field.h"

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
  m_metric->setObjectName(QStringLiteral("distributionFigure"));
  for (int i = 0; i < 4; ++i)
    m_metric->addItem(QString());
  m_logScale = new QCheckBox(this);
  m_logScale->setObjectName(QStringLiteral("logScale"));
  m_compare = new QPushButton(this);
  // Which figures the table and the exported report list: a checkable entry per figure, kept in the
  // settings.
  m_figures = new QToolButton(this);
  m_figures->setObjectName(QStringLiteral("compareFigures"));
  m_figures->setPopupMode(QToolButton::InstantPopup);
  m_figures->setToolButtonStyle(Qt::ToolButtonTextOnly);
  m_figures->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
  m_figuresMenu = new QMenu(m_figures);
  {
    const QStringList saved = QSettings().value(QStringLiteral("compare/figures")).toStringList();
    std::vector<RunFigure> chosen = ComparisonTableModel::defaultFigures();
    if (!saved.isEmpty()) {
      chosen.clear();
      for (const QString& key : saved) {
        try {
          chosen.push_back(parseRunFigure(key.toStdString()));
        } catch (const Error&) {  // a key of another version: dropped
        }
      }
      if (chosen.empty()) chosen = ComparisonTableModel::defaultFigures();
    }
    for (const RunFigure figure : kAllRunFigures) {
      QAction* action = m_figuresMenu->addAction(QString());
      action->setCheckable(true);
      action->setData(QString::fromUtf8(runFigureKey(figure).data()));
      action->setChecked(std::find(chosen.begin(), chosen.end(), figure) != chosen.end());
      connect(action, &QAction::toggled, this, [this, action](bool checked) {
        if (!checked && chosenFigures().empty()) {  // the table keeps at least one figure
          const QSignalBlocker blocker(action);
          action->setChecked(true);
          return;
        }
        saveFigures();
        showFigures();
      });
    }
  }
  m_figures->setMenu(m_figuresMenu);
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
  choose->addWidget(m_logScale, 0, 4);
  choose->addWidget(m_candidatesLabel, 1, 0, Qt::AlignTop);
  choose->addWidget(m_candidates, 1, 1, 1, 4);
  auto* buttons = new QVBoxLayout;
  buttons->addWidget(m_compare);
  buttons->addWidget(m_figures);
  buttons->addWidget(m_copy);
  buttons->addWidget(m_export);
  buttons->addWidget(m_reportLanguageLabel);
  buttons->addWidget(m_reportLanguage);
  buttons->addStretch(1);
  choose->addLayout(buttons, 0, 5, 2, 1);
  choose->setColumnStretch(1, 1);

  // The table shows every row and the charts keep a readable size: beside each other in a wide
  // window, one above the other in a narrow one, where the area scrolls rather than squeezing either.
  auto* content = new QWidget(this);
  m_charts = new QSplitter(Qt::Horizontal, content);
  m_charts->addWidget(m_cdf);
  m_charts->addWidget(m_box);
  m_charts->setChildrenCollapsible(false);
  m_charts->setStretchFactor(0, 1);
  m_charts->setStretchFactor(1, 1);
  m_table->setParent(content);
  m_table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  // What differs between the runs comes first: the figures below read against it.
  m_differences = new QLabel(content);
  m_differences->setObjectName(QStringLiteral("differences"));
  m_differences->setTextFormat(Qt::RichText);
  m_differences->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_differences->setVisible(false);
  auto* column = new QVBoxLayout(content);
  column->setContentsMargins(0, 0, 0, 0);
  column->addWidget(m_differences);
  // The mark a ratio within the runs' spread carries, said in words above the table.
  m_noiseLegend = new QLabel(content);
  m_noiseLegend->setObjectName(QStringLiteral("noiseLegend"));
  m_noiseLegend->setVisible(false);
  column->addWidget(m_noiseLegend);
  m_body = new QBoxLayout(QBoxLayout::TopToBottom);
  column->addLayout(m_body, 1);
  m_body->setContentsMargins(0, 0, 0, 0);
  m_body->addWidget(m_table, 0, Qt::AlignTop);
  m_body->addWidget(m_charts, 1);
  m_scroll = new QScrollArea(this);
  m_scroll->setObjectName(QStringLiteral("compareScroll"));
  m_scroll->setWidget(content);
  m_scroll->setWidgetResizable(true);
  m_scroll->setFrameShape(QFrame::NoFrame);
  m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(choose);
  layout->addWidget(m_scroll, 1);
  connect(m_model, &QAbstractItemModel::modelReset, this, &ComparePage::arrange);
  const auto showLegend = [this] {
    m_noiseLegend->setText(m_model->noiseLegend());
    m_noiseLegend->setVisible(!m_noiseLegend->text().isEmpty());
  };
  connect(m_model, &QAbstractItemModel::modelReset, this, showLegend);
  connect(m_model, &ComparisonTableModel::intervalsReady, this, showLegend);
  connect(m_model, &QAbstractItemModel::headerDataChanged, this, showLegend);
  connect(m_model, &QAbstractItemModel::headerDataChanged, this, &ComparePage::arrange);
  arrange();

  connect(m_history, &QAbstractItemModel::modelReset, this, &ComparePage::refillChoices);
  connect(m_compare, &QPushButton::clicked, this, &ComparePage::compareChosen);
  connect(m_metric, &QComboBox::currentIndexChanged, this, [this] {
    chooseScale();
    showMetric();
  });
  connect(m_logScale, &QCheckBox::toggled, this, [this](bool logarithmic) {
    m_cdf->setLogScale(logarithmic);
    m_box->setLogScale(logarithmic);
  });
  connect(m_baseline, &QComboBox::currentIndexChanged, this, [this] { fillCandidates(checkedCandidates()); });
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
  m_logScale->setText(tr("Logarithmic axis"));
  m_logScale->setToolTip(
      tr("Powers of ten on the value axis, for runs far apart; chosen when the "
         "medians differ tenfold or more"));
  m_metric->setItemText(0, QStringLiteral("TTFT"));
  m_metric->setItemText(1, QStringLiteral("TPOT"));
  m_metric->setItemText(2, QStringLiteral("ITL"));
  m_metric->setItemText(3, tr("End-to-end latency"));
  m_compare->setText(tr("Compare"));
  m_copy->setText(tr("Copy table"));
  m_figures->setText(tr("Figures"));
  m_figures->setToolTip(tr("The figures the table and the exported report list"));
  for (QAction* action : m_figuresMenu->actions()) {
    const RunFigure figure = parseRunFigure(action->data().toString().toStdString());
    action->setText(QString::fromUtf8(runFigureLabel(figure, uiReportLanguage()).data()));
  }
  m_export->setText(tr("Export report…"));
  m_export->setToolTip(
      tr("PDF, HTML (charts embedded), Markdown, CSV or JSON, in the report language below"));
  m_reportLanguageLabel->setText(tr("Report language"));
  const ReportLanguage uiLanguage = uiReportLanguage();
  m_model->setLanguage(uiLanguage, QLocale());
  if (!m_runs.empty()) {
    std::vector<QString> candidates;
    for (std::size_t i = 1; i < m_runs.size(); ++i)
      candidates.push_back(tableName(m_runs[i]));
    m_model->setRunNames(tableName(m_runs.front()), candidates);
  }
  if (!m_reportLanguageChosen)
    m_reportLanguage->setCurrentIndex(uiLanguage == ReportLanguage::Turkish ? 1 : 0);
  m_cdf->setTitle(tr("CDF"));
  m_box->setTitle(tr("Box plot"));
  refillChoices();  // the runs' statuses are words of the UI language
  showMetric();
  showDifferences();
}

void ComparePage::showDifferences() {
  const ReportLanguage language = uiReportLanguage();
  std::vector<RunSetup> setups;
  for (const LoadedRun& run : m_runs)
    setups.push_back(storedRunSetup(run.run));
  std::vector<const RunSetup*> candidates;
  for (std::size_t i = 1; i < setups.size(); ++i)
    candidates.push_back(&setups[i]);
  const SetupDifferences differences =
      setups.empty() ? SetupDifferences{} : setupDifferences(setups.front(), candidates, language);
  m_differences->setVisible(differences.compared);
  if (!differences.compared) return;
  const auto catalogue = [&](ReportText id) {
    return fromCatalogue(reportText(id, language)).toHtmlEscaped();
  };
  QString html =
      QStringLiteral("<b>") + catalogue(ReportText::ComparisonDifferences) + QStringLiteral("</b>");
  if (differences.rows.empty()) {
    m_differences->setText(html + QStringLiteral(": ") + catalogue(ReportText::ComparisonSameSetup));
    return;
  }
  html += QStringLiteral("<table cellspacing=\"0\" cellpadding=\"3\"><tr><th align=\"left\">") +
          catalogue(ReportText::ColumnSetting) + QStringLiteral("</th>");
  for (const LoadedRun& run : m_runs)
    html += QStringLiteral("<th align=\"left\">") + run.shortName.toHtmlEscaped() + QStringLiteral("</th>");
  html += QStringLiteral("</tr>");
  for (const auto& row : differences.rows) {
    html += QStringLiteral("<tr>");
    for (const std::string& cell : row)
      html += QStringLiteral("<td>") + QString::fromStdString(cell).toHtmlEscaped() + QStringLiteral("</td>");
    html += QStringLiteral("</tr>");
  }
  m_differences->setText(html + QStringLiteral("</table>"));
}

void ComparePage::arrange() {
  // From the page's own width: in its resize event the scroll area inside still has its old size.
  const QMargins margins = layout()->contentsMargins();
  const int width =
      this->width() - margins.left() - margins.right() - style()->pixelMetric(QStyle::PM_ScrollBarExtent);
  const int tableWidth = m_table->widthForAllColumns();
  const bool sideBySide = width - tableWidth - m_body->spacing() >= kChartWidthBesideTable;
  m_table->setFixedHeight(m_table->heightForAllRows());
  const Qt::Orientation orientation = sideBySide ? Qt::Vertical : Qt::Horizontal;
  if (m_charts->orientation() != orientation) {
    m_charts->setOrientation(orientation);
    m_charts->setSizes({1, 1});  // the two charts alike
  }
  if (sideBySide) {
    m_body->setDirection(QBoxLayout::LeftToRight);
    m_table->setFixedWidth(tableWidth);
    m_charts->setMinimumHeight(2 * kChartHeightBesideTable);
  } else {
    m_body->setDirection(QBoxLayout::TopToBottom);
    m_table->setMinimumWidth(0);
    m_table->setMaximumWidth(QWIDGETSIZE_MAX);
    m_charts->setMinimumHeight(kChartHeightBelowTable);
  }
}

bool ComparePage::chartsBesideTable() const {
  return m_body->direction() == QBoxLayout::LeftToRight;
}

void ComparePage::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  arrange();
}

void ComparePage::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslate();
  QWidget::changeEvent(event);
}

void ComparePage::setDark(bool dark) {
  m_cdf->setDark(dark);
  m_box->setDark(dark);
}

QList<qint64> ComparePage::checkedCandidates() const {
  QList<qint64> checked;
  for (int i = 0; i < m_candidates->count(); ++i) {
    if (m_candidates->item(i)->checkState() == Qt::Checked)
      checked.append(m_candidates->item(i)->data(Qt::UserRole).toLongLong());
  }
  return checked;
}

void ComparePage::refillChoices() {
  const QVariant previous = m_baseline->currentData();
  const QList<qint64> checked = checkedCandidates();
  {
    const QSignalBlocker blocker(m_baseline);
    m_baseline->clear();
    int newestCompleted = -1;
    for (const StoredRun& run : m_history->runs()) {
      if (run.status == RunStatus::Running) continue;
      if (newestCompleted < 0 && run.status == RunStatus::Completed) newestCompleted = m_baseline->count();
      m_baseline->addItem(choiceText(run), QVariant::fromValue<qint64>(run.id));
      m_baseline->setItemData(m_baseline->count() - 1, choiceToolTip(run), Qt::ToolTipRole);
    }
    // The runs come newest first. Without an earlier choice, the newest run that completed is the
    // baseline: a stopped, failed or interrupted run measured only part of its load.
    const int index = previous.isValid() ? m_baseline->findData(previous) : -1;
    m_baseline->setCurrentIndex(index >= 0 ? index : std::max(0, newestCompleted));
  }
  fillCandidates(checked);
}

void ComparePage::fillCandidates(const QList<qint64>& checked) {
  const qint64 baseline = m_baseline->currentIndex() >= 0 ? m_baseline->currentData().toLongLong() : -1;
  m_candidates->clear();
  for (const StoredRun& run : m_history->runs()) {
    // A run is not its own candidate.
    if (run.status == RunStatus::Running || run.id == baseline) continue;
    auto* item = new QListWidgetItem(choiceText(run), m_candidates);
    item->setData(Qt::UserRole, QVariant::fromValue<qint64>(run.id));
    item->setToolTip(choiceToolTip(run));
    item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
    item->setCheckState(checked.contains(run.id) ? Qt::Checked : Qt::Unchecked);
    if (run.status != RunStatus::Completed) {
      // Set apart (in either theme): its figures cover only part of its load.
      QFont font = item->font();
      font.setItalic(true);
      item->setFont(font);
    }
  }
}

QString ComparePage::choiceText(const StoredRun& run) {
  const QString text = tr("%1 · %2").arg(HistoryModel::runName(run), HistoryModel::statusText(run.status));
  return runFacts(run).simulated ? tr("%1 · %2").arg(text, HistoryModel::simulatedMark()) : text;
}

QString ComparePage::choiceToolTip(const StoredRun& run) {
  const QString status = statusToolTip(run);
  return runFacts(run).simulated ? status + QLatin1Char('\n') + HistoryModel::simulatedNote() : status;
}

QString ComparePage::statusToolTip(const StoredRun& run) {
  switch (run.status) {
    case RunStatus::Completed:
      return tr("Every request of the run was sent and answered.");
    case RunStatus::Cancelled:
      return tr("Stopped: the figures cover the requests that finished before the stop.");
    case RunStatus::Interrupted:
      return tr("Interrupted when Ayar stopped: the figures cover the requests that finished.");
    case RunStatus::Failed:
      return tr("The run failed: its figures may be missing or partial.");
    case RunStatus::Running:
      break;
  }
  return {};
}

void ComparePage::chooseScale() {
  // Medians ten times apart squeeze the closer runs into a line on a linear axis.
  if (m_runs.empty()) return;
  const LatencyMetric metric = kAllLatencyMetrics[std::max(0, m_metric->currentIndex())];
  double lo = 0, hi = 0;
  for (const LoadedRun& run : m_runs) {
    const double median = BoxFigures::of(latencyValuesMs(run.records, metric)).median;
    if (!(median > 0)) continue;
    lo = lo > 0 ? std::min(lo, median) : median;
    hi = std::max(hi, median);
  }
  m_logScale->setChecked(lo > 0 && hi >= 10.0 * lo);
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
    emit failed(QString::fromStdString(errorText(e, uiReportLanguage())));
  }
}

// A run's name in the table: a simulated run's figures say so, as everywhere a figure of it appears, in
// the UI's language.
QString ComparePage::tableName(const LoadedRun& run) {
  return run.facts.simulated ? tr("%1 · %2").arg(run.name, HistoryModel::simulatedMark()) : run.name;
}

void ComparePage::compare(std::int64_t baseline, const std::vector<std::int64_t>& candidates) {
  if (!m_store) throw Error("no results store is open");
  std::vector<LoadedRun> runs;
  runs.push_back(loadStoredRun(*m_store, baseline));
  for (std::int64_t id : candidates)
    runs.push_back(loadStoredRun(*m_store, id));
  m_runs = std::move(runs);
  showFigures();
  // Show the choice the comparison was made of.
  {
    const QSignalBlocker blocker(m_baseline);
    const int index = m_baseline->findData(QVariant::fromValue<qint64>(baseline));
    if (index >= 0) m_baseline->setCurrentIndex(index);
  }
  fillCandidates(QList<qint64>(candidates.begin(), candidates.end()));
  chooseScale();
  showMetric();
  showDifferences();
}

std::vector<RunFigure> ComparePage::chosenFigures() const {
  std::vector<RunFigure> figures;
  for (const QAction* action : m_figuresMenu->actions()) {
    if (action->isChecked()) figures.push_back(parseRunFigure(action->data().toString().toStdString()));
  }
  return figures;
}

void ComparePage::saveFigures() {
  QStringList keys;
  for (const RunFigure figure : chosenFigures())
    keys.append(QString::fromUtf8(runFigureKey(figure).data()));
  QSettings().setValue(QStringLiteral("compare/figures"), keys);
}

void ComparePage::showFigures() {
  if (m_runs.empty()) return;
  std::vector<ComparedRun> compared;
  for (std::size_t i = 1; i < m_runs.size(); ++i)
    compared.push_back({tableName(m_runs[i]), m_runs[i].summary, latencyValuesByMetric(m_runs[i].records)});
  m_model->setComparison({tableName(m_runs[0]), m_runs[0].summary, latencyValuesByMetric(m_runs[0].records)},
                         std::move(compared), chosenFigures());
}

void ComparePage::showMetric() {
  const LatencyMetric metric = kAllLatencyMetrics[std::max(0, m_metric->currentIndex())];
  m_cdf->setFigure(m_metric->currentText(), QString(), tr("CDF (%)"));
  m_box->setFigure(m_metric->currentText());
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
    writeComparisonReportFile(m_runs, reportLanguage(), path, reportFileFormatFor(path), chosenFigures());
  } catch (const Error& e) {
    return QString::fromStdString(errorText(e, uiReportLanguage()));
  }
  emit message(tr("Report written to %1").arg(QDir::toNativeSeparators(QFileInfo(path).absoluteFilePath())));
  return {};
}

}  // namespace ayar
