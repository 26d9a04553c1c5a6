#include "widgets/form_field.h"

#include <QAbstractSpinBox>
#include <QComboBox>
#include <QEvent>
#include <QLocale>
#include <QPalette>
#include <QWidget>
#include <cmath>
#include <limits>

namespace ayar {

namespace {

const char* const kProblemProperty = "ayarProblem";
const char* const kOwnToolTipProperty = "ayarOwnToolTip";

QColor mixed(const QColor& a, const QColor& b, double share) {
  return QColor::fromRgbF(static_cast<float>(a.redF() * (1 - share) + b.redF() * share),
                          static_cast<float>(a.greenF() * (1 - share) + b.greenF() * share),
                          static_cast<float>(a.blueF() * (1 - share) + b.blueF() * share));
}

// Ignores the wheel over an editor without focus; an ignored wheel event goes on to the parents, so
// the scroll area around the form scrolls instead.
class WheelFilter : public QObject {
 public:
  using QObject::QObject;

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override {
    if (event->type() == QEvent::Wheel) {
      auto* widget = qobject_cast<QWidget*>(watched);
      if (widget && !widget->hasFocus()) {
        event->ignore();
        return true;
      }
    }
    return QObject::eventFilter(watched, event);
  }
};

}  // namespace

void markField(QWidget* field, const QString& problem) {
  if (!field) return;
  const bool marked = !field->property(kProblemProperty).toString().isEmpty();
  if (problem.isEmpty()) {
    if (!marked) return;
    field->setProperty(kProblemProperty, QString());
    field->setPalette(QPalette());
    field->setToolTip(field->property(kOwnToolTipProperty).toString());
    return;
  }
  if (!marked) field->setProperty(kOwnToolTipProperty, field->toolTip());
  field->setProperty(kProblemProperty, problem);
  QPalette palette = field->palette();
  const QColor red(215, 60, 50);
  for (auto role : {QPalette::Base, QPalette::Button})
    palette.setColor(role, mixed(palette.color(role), red, 0.35));
  field->setPalette(palette);
  field->setToolTip(problem);
}

QString fieldProblem(const QWidget* field) {
  return field ? field->property(kProblemProperty).toString() : QString();
}

std::optional<double> parseUiNumber(const QString& typed, bool infinityAllowed) {
  const QString text = typed.trimmed();
  if (text.isEmpty()) return std::nullopt;
  if (text.compare(QStringLiteral("inf"), Qt::CaseInsensitive) == 0 || text == QStringLiteral("∞"))
    return infinityAllowed ? std::optional<double>(std::numeric_limits<double>::infinity()) : std::nullopt;
  bool ok = false;
  double value = QLocale().toDouble(text, &ok);
  if (!ok) value = QLocale::c().toDouble(text, &ok);
  if (!ok || !std::isfinite(value)) return std::nullopt;
  return value;
}

QString formatUiNumber(double value) {
  if (std::isinf(value)) return QStringLiteral("inf");
  QLocale locale;
  locale.setNumberOptions(QLocale::OmitGroupSeparator);
  return locale.toString(value, 'g', 12);
}

ReportLanguage uiReportLanguage() {
  return QLocale().language() == QLocale::Turkish ? ReportLanguage::Turkish : ReportLanguage::English;
}

void guardWheel(QWidget* root) {
  if (!root) return;
  // Found by name: WheelFilter has no meta-object of its own for findChild to tell it apart.
  const QString name = QStringLiteral("ayarWheelGuard");
  QObject* filter = root->findChild<QObject*>(name, Qt::FindDirectChildrenOnly);
  if (!filter) {
    filter = new WheelFilter(root);
    filter->setObjectName(name);
  }
  const auto guard = [filter](QWidget* editor) {
    editor->setFocusPolicy(Qt::StrongFocus);
    editor->removeEventFilter(filter);
    editor->installEventFilter(filter);
  };
  for (QComboBox* combo : root->findChildren<QComboBox*>())
    guard(combo);
  for (QAbstractSpinBox* spin : root->findChildren<QAbstractSpinBox*>())
    guard(spin);
}

}  // namespace ayar
