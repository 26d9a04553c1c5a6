#pragma once

#include <QTableView>

namespace ayar {

class ComparisonTableModel;

// The comparison table as the seeds lay it out: sortable by the numbers behind the cells, the
// scenario column stretched, the ratio column coloured by the model, rows as tall as a line of text.
class ComparisonTableView : public QTableView {
  Q_OBJECT

 public:
  explicit ComparisonTableView(QWidget* parent = nullptr);
  void setComparisonModel(ComparisonTableModel* model);
  // The table as tab-separated text with its header, for the clipboard.
  QString toTabSeparated() const;
  // The height that shows every row without scrolling, and the width that shows every cell whole.
  int heightForAllRows() const;
  int widthForAllColumns() const;
};

}  // namespace ayar
