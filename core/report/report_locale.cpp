#include "core/report/report_locale.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace ayar {

namespace {

// The digits of `digits` (no sign) with `separator` between groups of three, from the right.
std::string grouped(std::string_view digits, std::string_view separator) {
  if (separator.empty() || digits.size() <= 3) return std::string(digits);
  std::string out;
  const std::size_t lead = digits.size() % 3 == 0 ? 3 : digits.size() % 3;
  out.append(digits.substr(0, lead));
  for (std::size_t i = lead; i < digits.size(); i += 3) {
    out.append(separator);
    out.append(digits.substr(i, 3));
  }
  return out;
}

}  // namespace

char ReportLocale::decimalMark() const {
  return m_numbers == NumberStyle::Language && m_language == ReportLanguage::Turkish ? ',' : '.';
}

const char* ReportLocale::groupSeparator() const {
  if (m_numbers == NumberStyle::C) return "";
  return m_language == ReportLanguage::Turkish ? "." : ",";
}

std::string ReportLocale::number(double value, int decimals) const {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  decimals = std::clamp(decimals, 0, 17);
  // to_chars ignores LC_NUMERIC: always '.' and no grouping.
  char buffer[400];
  const auto result =
      std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, decimals);
  std::string_view text(buffer, static_cast<std::size_t>(result.ptr - buffer));
  bool negative = false;
  if (!text.empty() && text.front() == '-') {
    negative = true;
    text.remove_prefix(1);
  }
  const std::size_t point = text.find('.');
  const std::string_view whole = text.substr(0, point);
  const std::string_view fraction =
      point == std::string_view::npos ? std::string_view() : text.substr(point + 1);
  // A value that rounds to zero is written without its sign.
  if (negative && std::all_of(text.begin(), text.end(), [](char c) { return c == '0' || c == '.'; }))
    negative = false;
  std::string out = negative ? "-" : "";
  out += grouped(whole, groupSeparator());
  if (!fraction.empty()) {
    out += decimalMark();
    out.append(fraction);
  }
  return out;
}

std::string ReportLocale::integer(long long value) const {
  const auto magnitude = static_cast<unsigned long long>(value);
  const std::string digits = std::to_string(value < 0 ? 0ULL - magnitude : magnitude);
  return (value < 0 ? "-" : "") + grouped(digits, groupSeparator());
}

std::string ReportLocale::percent(double percent, int decimals) const {
  const std::string digits = number(percent, decimals);
  if (m_numbers == NumberStyle::Language && m_language == ReportLanguage::Turkish) {
    if (!digits.empty() && digits.front() == '-') return "-%" + digits.substr(1);
    return "%" + digits;
  }
  return digits + "%";
}

std::string ReportLocale::signedPercent(double percent, int decimals) const {
  const std::string text = this->percent(percent, decimals);
  return text.front() == '-' ? text : "+" + text;
}

}  // namespace ayar
