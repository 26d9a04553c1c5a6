#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/report/message_text.h"

namespace ayar {

// One value inside another tool's result file, with its path from the root ("benchmarks[2].metrics"),
// so that every complaint names the file, the field and what the file was taken for. Reading a
// missing or mistyped field throws ayar::Error:
//   "run.json: field 'benchmarks[0].duration' is missing. Expected guidellm's benchmarks report ..."
class JsonField {
 public:
  // `source` names the file; `expected` (an ImportExpect* message) says what it was read as, for the
  // end of every error.
  JsonField(const nlohmann::json& root, std::string source, MessageText expected);

  const std::string& path() const { return m_path; }
  const nlohmann::json& value() const { return *m_value; }
  bool isNull() const { return m_value->is_null(); }

  // A member that must be there (and not null).
  JsonField operator[](std::string_view key) const;
  JsonField operator[](std::size_t index) const;
  // A member that may be absent or null.
  std::optional<JsonField> find(std::string_view key) const;
  // The first of several keys that is present and not null (older and newer names of one field).
  std::optional<JsonField> findAny(std::initializer_list<std::string_view> keys) const;
  // The same, required: missing, it fails naming the first key.
  JsonField requireAny(std::initializer_list<std::string_view> keys) const;

  double number() const;         // a JSON number, or "inf"/"Infinity"/"NaN" as a string
  std::int64_t integer() const;  // a whole number (1.0 counts)
  // A figure that cannot be below zero (a time, a rate): a finite number >= 0. Otherwise, and for
  // null inside a list, a MessageError (ImportImpossibleValue) naming the field.
  double nonNegative() const;
  // A count: a whole number from 0 to INT_MAX, refused the same way.
  int count() const;
  std::string string() const;
  bool boolean() const;
  std::size_t size() const;              // of an array
  std::vector<JsonField> items() const;  // of an array
  void requireObject() const;

  std::optional<double> optionalNumber(std::string_view key) const;
  std::optional<std::string> optionalString(std::string_view key) const;

  // Throws MessageError(ImportFieldProblem): the file, this field, `problem`, what was expected.
  [[noreturn]] void fail(const Message& problem) const;
  const std::string& source() const { return m_source; }

 private:
  JsonField(const nlohmann::json* value, std::string path, const JsonField& parent);

  const nlohmann::json* m_value;
  std::string m_path;
  std::string m_source;
  MessageText m_expected;
};

}  // namespace ayar
