#include "core/interop/json_field.h"

#include <cmath>
#include <limits>

#include "core/error.h"
#include "core/report/json_input.h"
#include "core/report/json_type_name.h"

namespace ayar {

JsonField::JsonField(const nlohmann::json& root, std::string source, MessageText expected)
    : m_value(&root), m_source(std::move(source)), m_expected(expected) {}

JsonField::JsonField(const nlohmann::json* value, std::string path, const JsonField& parent)
    : m_value(value), m_path(std::move(path)), m_source(parent.m_source), m_expected(parent.m_expected) {}

void JsonField::fail(const Message& problem) const {
  const Message field =
      m_path.empty() ? Message{MessageText::ImportTopLevel, {}} : Message{MessageText::ImportField, {m_path}};
  throw MessageError(
      {MessageText::ImportFieldProblem,
       {m_source, field.asArgument(), problem.asArgument(), Message{m_expected, {}}.asArgument()}});
}

namespace {

// "is a number, not a list", in each language.
Message wrongType(const nlohmann::json& value, MessageText wanted) {
  return {MessageText::ImportWrongType, {jsonTypeName(value), Message{wanted, {}}.asArgument()}};
}

}  // namespace

void JsonField::requireObject() const {
  if (!m_value->is_object()) fail(wrongType(*m_value, MessageText::ImportWantObject));
}

std::optional<JsonField> JsonField::find(std::string_view key) const {
  requireObject();
  const auto it = m_value->find(key);
  if (it == m_value->end() || it->is_null()) return std::nullopt;
  return JsonField(&*it, m_path.empty() ? std::string(key) : m_path + "." + std::string(key), *this);
}

std::optional<JsonField> JsonField::findAny(std::initializer_list<std::string_view> keys) const {
  for (std::string_view key : keys) {
    if (auto field = find(key)) return field;
  }
  return std::nullopt;
}

JsonField JsonField::requireAny(std::initializer_list<std::string_view> keys) const {
  if (auto field = findAny(keys)) return *field;
  return (*this)[*keys.begin()];
}

JsonField JsonField::operator[](std::string_view key) const {
  if (auto field = find(key)) return *field;
  JsonField(m_value, m_path.empty() ? std::string(key) : m_path + "." + std::string(key), *this)
      .fail({MessageText::ImportIsMissing, {}});
}

JsonField JsonField::operator[](std::size_t index) const {
  if (!m_value->is_array()) fail(wrongType(*m_value, MessageText::ImportWantList));
  const std::string path = m_path + "[" + std::to_string(index) + "]";
  if (index >= m_value->size()) JsonField(m_value, path, *this).fail({MessageText::ImportIsMissing, {}});
  return JsonField(&(*m_value)[index], path, *this);
}

double JsonField::number() const {
  if (m_value->is_number()) return m_value->get<double>();
  if (m_value->is_string()) {
    const auto& text = m_value->get_ref<const std::string&>();
    if (text == "inf" || text == "Infinity") return std::numeric_limits<double>::infinity();
    if (text == "-inf" || text == "-Infinity") return -std::numeric_limits<double>::infinity();
    if (text == "nan" || text == "NaN") return std::nan("");
  }
  fail(wrongType(*m_value, MessageText::ImportWantNumber));
}

std::int64_t JsonField::integer() const {
  if (m_value->is_number_integer()) return m_value->get<std::int64_t>();
  const double value = number();
  if (!std::isfinite(value) || value != std::trunc(value) || std::fabs(value) > 9e15) {
    fail({MessageText::ImportNotWholeNumber, {m_value->dump()}});
  }
  return static_cast<std::int64_t>(value);
}

double JsonField::nonNegative() const {
  if (m_value->is_null())
    json_input::failImpossible(m_source, m_path, "null", json_input::nullInListReason());
  return json_input::requireNonNegative(number(), m_source, m_path);
}

int JsonField::count() const {
  if (m_value->is_null())
    json_input::failImpossible(m_source, m_path, "null", json_input::nullInListReason());
  return json_input::requireCount(number(), m_source, m_path);
}

std::string JsonField::string() const {
  if (!m_value->is_string()) fail(wrongType(*m_value, MessageText::ImportWantString));
  return m_value->get<std::string>();
}

bool JsonField::boolean() const {
  if (!m_value->is_boolean()) fail(wrongType(*m_value, MessageText::ImportWantBoolean));
  return m_value->get<bool>();
}

std::size_t JsonField::size() const {
  if (!m_value->is_array()) fail(wrongType(*m_value, MessageText::ImportWantList));
  return m_value->size();
}

std::vector<JsonField> JsonField::items() const {
  std::vector<JsonField> out;
  const std::size_t n = size();
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i)
    out.push_back((*this)[i]);
  return out;
}

std::optional<double> JsonField::optionalNumber(std::string_view key) const {
  if (auto field = find(key)) return field->number();
  return std::nullopt;
}

std::optional<std::string> JsonField::optionalString(std::string_view key) const {
  if (auto field = find(key)) return field->string();
  return std::nullopt;
}

}  // namespace ayar
