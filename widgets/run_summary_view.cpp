#include "widgets/run_summary_view.h"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QTableView>

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
  m_table->setModel(m_model);
  m_table->verticalHeader()->setVisible(false);
  m_table->horizontalHeader()->setSectionResizeMode(RunSummaryModel::Figure, QHeaderView::Stretch);
  m_table->horizontalHeader()->setSectionResizeMode(RunSummaryModel::Value, QHeaderView::ResizeToContents);
  m_table->horizontalHeader()->setSectionResizeMode(RunSummaryModel::Unit, QHeaderView::ResizeToContents);
  m_table->setAlternatingRowColors(true);
  auto* splitter = new QSplitter(Qt::Horizontal, this);
  splitter->addWidget(m_text);
  splitter->addWidget(m_table);
  splitter->setStretchFactor(0, 3);
  splitter->setStretchFactor(1, 2);
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(splitter);
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
