#include "core/report/json_input.h"

#include <climits>
#include <cmath>
#include <cstdio>

namespace ayar::json_input {

void requireDepthAtMost(std::string_view text, std::string_view source, std::size_t maxDepth) {
  std::size_t depth = 0;
  bool inString = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (inString) {
      if (c == '\\') {
        ++i;  // an escaped quote does not end the string
      } else if (c == '"') {
        inString = false;
      }
      continue;
    }
    switch (c) {
      case '"':
        inString = true;
        break;
      case '[':
      case '{':
        if (++depth > maxDepth) {
          throw MessageError(
              Message{MessageText::JsonTooDeep, {std::string(source), std::to_string(maxDepth)}});
        }
        break;
      case ']':
      case '}':
        if (depth > 0) --depth;  // unbalanced text is the parser's to report
        break;
      default:
        break;
    }
  }
}

std::vector<std::string_view> topLevelTexts(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t depth = 0;
  std::size_t start = 0;
  bool inString = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (inString) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        inString = false;
      }
      continue;
    }
    if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (depth++ == 0) start = i;
    } else if ((c == ']' || c == '}') && depth > 0 && --depth == 0) {
      out.push_back(text.substr(start, i + 1 - start));
    }
  }
  if (out.size() == 1) out[0] = text;
  return out;
}

MessageArgument negativeReason() {
  return {"it cannot be negative", "negatif olamaz"};
}

MessageArgument notFiniteReason() {
  return {"it is not a finite number", "sonlu bir sayı değil"};
}

MessageArgument nullInListReason() {
  return {"a list of figures cannot hold null", "bir ölçüm listesi null içeremez"};
}

MessageArgument tooLargeReason(long long largest) {
  return {"no count can be that large (" + std::to_string(largest) + " at most)",
          "hiçbir sayım bu kadar büyük olamaz (en fazla " + std::to_string(largest) + ")"};
}

MessageArgument notWholeReason() {
  return {"a count is a whole number", "bir sayım tam sayı olmalı"};
}

MessageArgument outsideClockReason() {
  return {"it puts the run outside the years 1970 to 2262, which is all a clock here can hold",
          "koşuyu 1970 ile 2262 yılları dışına taşıyor; buradaki saat yalnızca bu aralığı tutabilir"};
}

MessageArgument beforeStartReason() {
  return {"it is earlier than the request's start", "isteğin başlangıcından daha erken"};
}

void failImpossible(std::string_view source, std::string_view field, std::string_view value,
                    const MessageArgument& reason) {
  throw MessageError(Message{MessageText::ImportImpossibleValue,
                             {std::string(source), std::string(field), std::string(value), reason}});
}

std::string numberText(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  char text[32];
  std::snprintf(text, sizeof text, "%.10g", value);
  return text;
}

double requireNonNegative(double value, std::string_view source, std::string_view field) {
  if (!std::isfinite(value)) failImpossible(source, field, numberText(value), notFiniteReason());
  if (value < 0.0) failImpossible(source, field, numberText(value), negativeReason());
  return value;
}

int requireCount(double value, std::string_view source, std::string_view field) {
  requireNonNegative(value, source, field);
  if (value != std::trunc(value)) failImpossible(source, field, numberText(value), notWholeReason());
  if (value > static_cast<double>(INT_MAX))
    failImpossible(source, field, numberText(value), tooLargeReason(INT_MAX));
  return static_cast<int>(value);
}

}  // namespace ayar::json_input
