#pragma once

#include <QObject>
#include <QString>
#include <optional>
#include <vector>

#include "core/report/report_text.h"

class QWidget;

namespace ayar {

// A field of a form whose value cannot run: the field, and what is wrong with it and what would be
// right, in the UI language, starting with the label the form shows.
struct FieldProblem {
  QWidget* field = nullptr;
  QString message;
};
using FieldProblems = std::vector<FieldProblem>;

// Marks a field as wrong (a red tint and the problem as its tooltip) or, with an empty problem,
// clears the mark and gives the field its own tooltip back. The problem is also the field's
// "ayarProblem" property.
void markField(QWidget* field, const QString& problem);
// The field's mark; empty when it has none.
QString fieldProblem(const QWidget* field);

// A number typed in the UI's language ("2,5" in Turkish, "2.5" in English) or in the C locale (a
// Turkish user pasting "2.5"); "inf" and "∞" when `infinityAllowed`. Empty or anything else: nullopt.
std::optional<double> parseUiNumber(const QString& text, bool infinityAllowed = false);
// A number as the UI's language writes it: "2,5" in Turkish, "inf" for infinity, no trailing zeros.
QString formatUiNumber(double value);

// The UI's language (QLocale's default) as core's messages and reports name it.
ReportLanguage uiReportLanguage();

// Combo boxes and spin boxes under a widget take the mouse wheel only when they have the focus, so
// that scrolling a long form never changes a value on the way; the wheel then scrolls the form.
// Call it again after editors are added under `root`.
void guardWheel(QWidget* root);

}  // namespace ayar
