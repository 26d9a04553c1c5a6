#include "widgets/study_grid_view.h"

#include <QHeaderView>
#include <QPainter>
#include <QScrollBar>
#include <QStyledItemDelegate>
#include <algorithm>

#include "widgets/study_grid_model.h"

namespace ayar {

namespace {

// Paints a running cell's progress as a bar of the running tint from the left, under the text.
class StudyCellDelegate : public QStyledItemDelegate {
 public:
  using QStyledItemDelegate::QStyledItemDelegate;

  void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override {
    const QVariant progress = index.data(StudyGridModel::ProgressRole);
    if (progress.isValid()) {
      QRect bar = option.rect.adjusted(1, 1, -1, -1);
      bar.setWidth(static_cast<int>(bar.width() * progress.toDouble()));
      painter->fillRect(bar, QColor(45, 110, 180, 90));
    }
    QStyledItemDelegate::paint(painter, option, index);
  }
};

}  // namespace

StudyGridView::StudyGridView(QWidget* parent) : QTableView(parent) {
  setItemDelegate(new StudyCellDelegate(this));
  setSelectionMode(QAbstractItemView::SingleSelection);
  setSelectionBehavior(QAbstractItemView::SelectItems);
  setEditTriggers(QAbstractItemView::NoEditTriggers);
  setWordWrap(false);
  horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
  horizontalHeader()->setMinimumSectionSize(120);
  verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
  verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 12);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
  // activated(): a double click (or a single one where the style says so) and Enter.
  connect(this, &QAbstractItemView::activated, this, [this](const QModelIndex& index) {
    const QVariant run = index.data(StudyGridModel::RunIdRole);
    if (run.isValid() && index.data(StudyGridModel::StatusRole).toInt() == static_cast<int>(CellStatus::Done))
      emit runActivated(run.toLongLong());
  });
}

void StudyGridView::setGridModel(StudyGridModel* model) {
  setModel(model);
  connect(model, &QAbstractItemModel::modelReset, this, &QWidget::updateGeometry);
}

QSize StudyGridView::sizeHint() const {
  const int rows = std::clamp(model() ? model()->rowCount() : 0, 2, kMaxRowsShown);
  int height = horizontalHeader()->sizeHint().height() + rows * verticalHeader()->defaultSectionSize() +
               2 * frameWidth();
  const int columns = model() ? model()->columnCount() : 0;
  if (columns * horizontalHeader()->minimumSectionSize() + verticalHeader()->sizeHint().width() > width())
    height += horizontalScrollBar()->sizeHint().height();
  return {QTableView::sizeHint().width(), height};
}

QSize StudyGridView::minimumSizeHint() const {
  return {QTableView::minimumSizeHint().width(), sizeHint().height()};
}

}  // namespace ayar
