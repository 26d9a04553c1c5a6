#pragma once

#include <nlohmann/json.hpp>

#include "core/report/message_text.h"

namespace ayar {

// A JSON value's type as a person reads it ("number", "sayı"), for messages about a file's fields.
inline MessageArgument jsonTypeName(const nlohmann::json& value) {
  using Type = nlohmann::json::value_t;
  switch (value.type()) {
    case Type::number_integer:
    case Type::number_unsigned:
    case Type::number_float:
      return Message{MessageText::JsonTypeNumber, {}}.asArgument();
    case Type::object:
      return Message{MessageText::JsonTypeObject, {}}.asArgument();
    case Type::array:
      return Message{MessageText::JsonTypeArray, {}}.asArgument();
    case Type::string:
      return Message{MessageText::JsonTypeString, {}}.asArgument();
    case Type::boolean:
      return Message{MessageText::JsonTypeBoolean, {}}.asArgument();
    default:
      return std::string(value.type_name());
  }
}

}  // namespace ayar
