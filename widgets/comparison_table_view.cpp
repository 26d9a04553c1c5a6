#include "widgets/comparison_table_view.h"

#include <QHeaderView>
#include <QScrollBar>
#include <QSortFilterProxyModel>

#include "widgets/comparison_table_model.h"

namespace ayar {

ComparisonTableView::ComparisonTableView(QWidget* parent) : QTableView(parent) {
  setAlternatingRowColors(true);
  setSelectionBehavior(QAbstractItemView::SelectRows);
  setSortingEnabled(true);
  verticalHeader()->setVisible(false);
  verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
  verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
  setWordWrap(false);
  horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  horizontalHeader()->setStretchLastSection(false);
}

void ComparisonTableView::setComparisonModel(ComparisonTableModel* model) {
  auto* proxy = new QSortFilterProxyModel(this);
  proxy->setSourceModel(model);
  proxy->setSortRole(ComparisonTableModel::SortRole);
  setModel(proxy);
  horizontalHeader()->setSectionResizeMode(ComparisonTableModel::Scenario, QHeaderView::Stretch);
  sortByColumn(-1, Qt::AscendingOrder);
}

int ComparisonTableView::heightForAllRows() const {
  const int rows = model() ? std::max(model()->rowCount(), 1) : 1;
  const int scrollBar = horizontalScrollBar()->isVisible() ? horizontalScrollBar()->height() : 0;
  return horizontalHeader()->sizeHint().height() + rows * verticalHeader()->defaultSectionSize() +
         2 * frameWidth() + scrollBar;
}

int ComparisonTableView::widthForAllColumns() const {
  int width = 2 * frameWidth();
  if (!model()) return width;
  for (int c = 0; c < model()->columnCount(); ++c)
    width += std::max(sizeHintForColumn(c), horizontalHeader()->sectionSizeHint(c));
  return width;
}

QString ComparisonTableView::toTabSeparated() const {
  const QAbstractItemModel* m = model();
  if (!m) return {};
  QStringList lines;
  QStringList header;
  for (int c = 0; c < m->columnCount(); ++c)
    header.append(m->headerData(c, Qt::Horizontal).toString());
  lines.append(header.join(QLatin1Char('\t')));
  for (int r = 0; r < m->rowCount(); ++r) {
    QStringList cells;
    for (int c = 0; c < m->columnCount(); ++c)
      cells.append(m->index(r, c).data().toString());
    lines.append(cells.join(QLatin1Char('\t')));
  }
  return lines.join(QLatin1Char('\n'));
}

}  // namespace ayar
