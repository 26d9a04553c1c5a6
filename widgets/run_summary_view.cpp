#include "widgets/run_summary_view.h"

#include <QFontDatabase>
#include <QHeaderView>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "core/report/text_block.h"
#include "widgets/run_summary_model.h"

namespace ayar {

RunSummaryView::RunSummaryView(QWidget* parent) : QWidget(parent) {
  m_text = new QPlainTextEdit(this);
  m_text->setReadOnly(true);
  m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
  m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  m_model = new RunSummaryModel(this);
  m_table = new QTableView(this);
  m_table->setObjectName(QStringLiteral("runFigures"));
  m_table->setModel(m_model);
  m_table->verticalHeader()->setVisible(false);
  // Rows as tall as a line of text: the figures are what a reader scans.
  m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
  m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
  m_table->horizontalHeader()->setSectionResizeMode(RunSummaryModel::Figure, QHeaderView::Stretch);
  m_table->horizontalHeader()->setSectionResizeMode(RunSummaryModel::Value, QHeaderView::ResizeToContents);
  m_table->horizontalHeader()->setSectionResizeMode(RunSummaryModel::Unit, QHeaderView::ResizeToContents);
  m_table->setAlternatingRowColors(true);
  m_table->setWordWrap(false);
  m_splitter = new QSplitter(Qt::Vertical, this);
  m_splitter->addWidget(m_table);
  m_splitter->addWidget(m_text);
  m_splitter->setStretchFactor(0, 0);
  m_splitter->setStretchFactor(1, 1);
  m_splitter->setChildrenCollapsible(false);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(m_splitter);
  connect(m_model, &QAbstractItemModel::modelReset, this, &RunSummaryView::fitTable);
}

int RunSummaryView::tableHeightForAllRows() const {
  const int rows = std::max(m_model->rowCount(), 1);
  return m_table->horizontalHeader()->sizeHint().height() +
         rows * m_table->verticalHeader()->defaultSectionSize() + 2 * m_table->frameWidth();
}

int RunSummaryView::tableWidthForAllColumns() const {
  int width = 2 * m_table->frameWidth() + m_table->verticalScrollBar()->sizeHint().width();
  const QFontMetrics metrics(m_table->font());
  for (int c = 0; c < m_model->columnCount(); ++c) {
    int column = m_table->horizontalHeader()->sectionSizeHint(c);
    for (int r = 0; r < m_model->rowCount(); ++r)
      column = std::max(column, metrics.horizontalAdvance(m_model->index(r, c).data().toString()) + 24);
    width += column;
  }
  return width;
}

void RunSummaryView::setOrientation(Qt::Orientation orientation) {
  if (m_splitter->orientation() == orientation) return;
  m_splitter->setOrientation(orientation);
  fitTable();
}

Qt::Orientation RunSummaryView::orientation() const {
  return m_splitter->orientation();
}

void RunSummaryView::fitTable() {
  if (m_splitter->orientation() == Qt::Horizontal) {
    // Side by side: the table as wide as its figures, up to half; the text block the rest.
    const int total = m_splitter->width();
    if (total <= 0) return;
    const int table = std::min(tableWidthForAllColumns(), total / 2);
    m_splitter->setSizes({table, std::max(0, total - table)});
    return;
  }
  // Every figure in view when there is room; the text block takes what is left (at least a few lines).
  const int total = m_splitter->height();
  if (total <= 0) return;
  const int minimumText = m_text->fontMetrics().lineSpacing() * 4;
  const int table = std::min(tableHeightForAllRows(), std::max(total / 2, total - minimumText));
  m_splitter->setSizes({table, std::max(0, total - table)});
}

void RunSummaryView::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  fitTable();
}

void RunSummaryView::setSummary(const RunSummary& summary, std::optional<double> requestRate,
                                bool syntheticDataset) {
  m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
  TextBlockOptions options;
  options.requestRate = requestRate;
  options.syntheticDataset = syntheticDataset;
  m_text->setPlainText(QString::fromStdString(formatServingBenchmarkResult(summary, options)));
  m_model->setSummary(summary);
}

void RunSummaryView::setLanguage(ReportLanguage language) {
  m_model->setLanguage(language, QLocale());
}

void RunSummaryView::showNote(const QString& note) {
  m_model->clear();
  m_text->setLineWrapMode(QPlainTextEdit::WidgetWidth);
  m_text->setPlainText(note);
}

void RunSummaryView::clear() {
  m_text->clear();
  m_model->clear();
}

QString RunSummaryView::textBlock() const {
  return m_text->toPlainText();
}

}  // namespace ayar
