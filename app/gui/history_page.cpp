#include "app/gui/history_page.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include "app/gui/history_model.h"

namespace ayar {

namespace {

constexpr int kUndoMs = 8000;
const RunStatus kStatuses[] = {RunStatus::Completed, RunStatus::Cancelled, RunStatus::Interrupted,
                               RunStatus::Failed, RunStatus::Running};

// Hides runs waiting to be deleted on top of the search and status filter.
class PendingDeleteFilter : public HistoryFilter {
 public:
  PendingDeleteFilter(const std::set<qint64>* pending, QObject* parent)
      : HistoryFilter(parent), m_pending(pending) {}
  void refresh() { invalidateFilter(); }

 protected:
  bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override {
    const auto* run = static_cast<const HistoryModel*>(sourceModel())->runAt(sourceRow);
    if (run && m_pending->count(run->id)) return false;
    return HistoryFilter::filterAcceptsRow(sourceRow, sourceParent);
  }

 private:
  const std::set<qint64>* m_pending;
};

}  // namespace

HistoryPage::HistoryPage(HistoryModel* model, QWidget* parent) : QWidget(parent), m_model(model) {
  m_filter = new PendingDeleteFilter(&m_pendingDeletes, this);
  m_filter->setSourceModel(model);
  m_search = new QLineEdit(this);
  m_search->setObjectName(QStringLiteral("historySearch"));
  m_search->setClearButtonEnabled(true);
  m_status = new QComboBox(this);
  m_status->setObjectName(QStringLiteral("statusFilter"));
  // As wide as its longest item in either language: the item texts change with the language.
  m_status->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  for (int i = 0; i <= static_cast<int>(std::size(kStatuses)); ++i)
    m_status->addItem(QString());
  m_table = new QTableView(this);
  m_table->setModel(m_filter);
  m_table->setSortingEnabled(true);
  m_table->sortByColumn(HistoryModel::Id, Qt::DescendingOrder);
  m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
  m_table->setAlternatingRowColors(true);
  m_table->verticalHeader()->setVisible(false);
  m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  m_table->horizontalHeader()->setStretchLastSection(true);
  m_open = new QPushButton(this);
  m_setUpAgain = new QPushButton(this);
  m_compare = new QPushButton(this);
  m_delete = new QPushButton(this);
  m_import = new QPushButton(this);
  m_refresh = new QPushButton(this);
  m_undoText = new QLabel(this);
  m_undo = new QPushButton(this);
  m_undoText->hide();
  m_undo->hide();
  m_deleteTimer = new QTimer(this);
  m_deleteTimer->setSingleShot(true);
  m_deleteTimer->setInterval(kUndoMs);

  auto* top = new QHBoxLayout;
  top->addWidget(m_search, 1);
  top->addWidget(m_status);
  top->addWidget(m_refresh);
  auto* buttons = new QHBoxLayout;
  for (QPushButton* b : {m_open, m_setUpAgain, m_compare, m_delete, m_import})
    buttons->addWidget(b);
  buttons->addStretch(1);
  buttons->addWidget(m_undoText);
  buttons->addWidget(m_undo);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(top);
  layout->addWidget(m_table, 1);
  layout->addLayout(buttons);

  connect(m_search, &QLineEdit::textChanged, m_filter, &HistoryFilter::setSearchText);
  connect(m_status, &QComboBox::currentIndexChanged, this, [this](int index) {
    m_filter->setStatus(index <= 0 ? std::nullopt : std::optional<RunStatus>(kStatuses[index - 1]));
  });
  connect(m_table, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
    emit openRequested(index.data(HistoryModel::RunIdRole).toLongLong());
  });
  connect(m_open, &QPushButton::clicked, this, [this] {
    const auto runs = selectedRuns();
    if (!runs.empty()) emit openRequested(runs.front());
  });
  connect(m_setUpAgain, &QPushButton::clicked, this, [this] {
    const auto runs = selectedRuns();
    if (!runs.empty()) emit setUpAgainRequested(runs.front());
  });
  connect(m_compare, &QPushButton::clicked, this, [this] {
    const auto runs = selectedRuns();
    if (runs.size() >= 2)
      emit compareRequested(runs.front(), std::vector<qint64>(runs.begin() + 1, runs.end()));
  });
  connect(m_delete, &QPushButton::clicked, this, &HistoryPage::deleteSelected);
  connect(m_import, &QPushButton::clicked, this, &HistoryPage::importRequested);
  connect(m_refresh, &QPushButton::clicked, this, &HistoryPage::refreshRequested);
  connect(m_undo, &QPushButton::clicked, this, &HistoryPage::undoDelete);
  connect(m_deleteTimer, &QTimer::timeout, this, &HistoryPage::commitDeletes);
  retranslate();
}

void HistoryPage::retranslate() {
  m_search->setPlaceholderText(tr("Search label, model, engine, flag, profile, date…"));
  m_status->setItemText(0, tr("every status"));
  for (std::size_t i = 0; i < std::size(kStatuses); ++i)
    m_status->setItemText(static_cast<int>(i) + 1, HistoryModel::statusText(kStatuses[i]));
  m_open->setText(tr("Show"));
  m_setUpAgain->setText(tr("Set up again"));
  m_setUpAgain->setToolTip(
      tr("Put the selected run's engine, flags and profile into Setup, to run it again"));
  m_compare->setText(tr("Compare selected"));
  m_compare->setToolTip(tr("The first selected run is the baseline"));
  m_delete->setText(tr("Delete"));
  m_import->setText(tr("Import results…"));
  m_import->setToolTip(
      tr("vLLM, guidellm, AIPerf and genai-perf result files; you can also drop them on the window"));
  m_refresh->setText(tr("Refresh"));
  m_undo->setText(tr("Undo"));
  if (!m_pendingDeletes.empty())
    m_undoText->setText(tr("%n run(s) deleted", nullptr, static_cast<int>(m_pendingDeletes.size())));
}

void HistoryPage::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslate();
  QWidget::changeEvent(event);
}

std::vector<qint64> HistoryPage::selectedRuns() const {
  std::vector<qint64> out;
  QModelIndexList rows = m_table->selectionModel()->selectedRows();
  std::sort(rows.begin(), rows.end(),
            [](const QModelIndex& a, const QModelIndex& b) { return a.row() < b.row(); });
  for (const QModelIndex& index : rows)
    out.push_back(index.data(HistoryModel::RunIdRole).toLongLong());
  return out;
}

void HistoryPage::deleteSelected() {
  const auto runs = selectedRuns();
  if (runs.empty()) return;
  commitDeletes();  // an earlier deletion is final once another starts
  m_pendingDeletes.insert(runs.begin(), runs.end());
  static_cast<PendingDeleteFilter*>(m_filter)->refresh();
  m_undoText->setText(tr("%n run(s) deleted", nullptr, static_cast<int>(m_pendingDeletes.size())));
  m_undoText->show();
  m_undo->show();
  m_deleteTimer->start();
}

void HistoryPage::undoDelete() {
  m_deleteTimer->stop();
  m_pendingDeletes.clear();
  static_cast<PendingDeleteFilter*>(m_filter)->refresh();
  m_undoText->hide();
  m_undo->hide();
}

void HistoryPage::commitDeletes() {
  m_deleteTimer->stop();
  m_undoText->hide();
  m_undo->hide();
  if (m_pendingDeletes.empty()) return;
  std::vector<qint64> runs(m_pendingDeletes.begin(), m_pendingDeletes.end());
  m_pendingDeletes.clear();
  emit deleteRequested(runs);
}

}  // namespace ayar
