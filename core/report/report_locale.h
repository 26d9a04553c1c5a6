#pragma once

#include <string>

namespace ayar {

// The language a report is written in. Independent of the GUI's language: a user may work in one and
// send a report in the other.
enum class ReportLanguage { English, Turkish };

// How a report writes its numbers.
enum class NumberStyle {
  // For people (Markdown, HTML, PDF, the workbench): the report language's convention, as the
  // workbench shows numbers: English 1,234.56, Turkish 1.234,56.
  Language,
  // For files machines read (CSV, JSON): 1234.56 in any language, as the C locale writes it.
  C,
};

// The language of a report and how it writes numbers. A language alone writes its people's numbers.
// Core has no Qt: the separators are written here, the same as QLocale's for English and Turkish.
// Whatever the process locale (LC_NUMERIC), the output is the same.
class ReportLocale {
 public:
  // Implicit on purpose: a ReportLanguage is a report for people in that language.
  ReportLocale(ReportLanguage language = ReportLanguage::English,  // NOLINT(google-explicit-constructor)
               NumberStyle numbers = NumberStyle::Language)
      : m_language(language), m_numbers(numbers) {}

  ReportLanguage language() const { return m_language; }
  NumberStyle numbers() const { return m_numbers; }

  // `decimals` digits after the decimal mark, the integer part grouped by thousands ("6.073,75",
  // "6,073.75"; C: "6073.75"). -0 is written as 0; nan and inf as "nan", "inf", "-inf".
  std::string number(double value, int decimals = 2) const;
  // A count: "1.000" / "1,000" (C: "1000").
  std::string integer(long long value) const;
  // A percentage (95.5 is 95.5%): English "95.5%", Turkish "%95,5" (the sign comes first in
  // Turkish); C: "95.5%".
  std::string percent(double percent, int decimals = 1) const;
  // As percent(), always signed: "+58.1%", "+%58,1", "-%3,0".
  std::string signedPercent(double percent, int decimals = 1) const;

 private:
  char decimalMark() const;
  const char* groupSeparator() const;  // empty for none

  ReportLanguage m_language;
  NumberStyle m_numbers;
};

}  // namespace ayar
