#include "core/interop/vllm_result_export.h"

#include <set>

#include "core/error.h"
#include "core/report/result_json.h"

namespace ayar {

namespace {

using ordered_json = nlohmann::ordered_json;

// The keys vLLM writes as strings; every other top-level string "Infinity"/"NaN" stands for a float.
const std::set<std::string, std::less<>> kStringKeys = {"date",     "endpoint_type", "backend",     "label",
                                                        "model_id", "tokenizer_id",  "request_rate"};

bool isNonFiniteToken(const ordered_json& value) {
  if (!value.is_string()) return false;
  const auto& text = value.get_ref<const std::string&>();
  return text == "Infinity" || text == "-Infinity" || text == "NaN";
}

void writeValue(const ordered_json& value, std::string& out) {
  switch (value.type()) {
    case ordered_json::value_t::object: {
      out += '{';
      bool first = true;
      for (const auto& [key, item] : value.items()) {
        if (!first) out += ", ";
        first = false;
        out += ordered_json(key).dump(-1, ' ', true);
        out += ": ";
        writeValue(item, out);
      }
      out += '}';
      break;
    }
    case ordered_json::value_t::array: {
      out += '[';
      for (std::size_t i = 0; i < value.size(); ++i) {
        if (i > 0) out += ", ";
        writeValue(value[i], out);
      }
      out += ']';
      break;
    }
    default:
      out += value.dump(-1, ' ', true, ordered_json::error_handler_t::replace);
  }
}

ordered_json importedOriginal(const nlohmann::json& ayar) {
  const auto original = ayar.find("imported_original");
  if (original == ayar.end() || !original->is_object()) return nullptr;
  ordered_json out = ordered_json::object();
  if (const auto order = ayar.find("imported_original_key_order"); order != ayar.end() && order->is_array()) {
    for (const auto& key : *order) {
      if (key.is_string() && original->contains(key.get<std::string>())) {
        out[key.get<std::string>()] = ordered_json::parse((*original)[key.get<std::string>()].dump());
      }
    }
  }
  for (const auto& [key, value] : original->items()) {
    if (!out.contains(key)) out[key] = ordered_json::parse(value.dump());
  }
  return out;
}

}  // namespace

std::optional<std::string> importedOriginalText(const nlohmann::json& storedResult) {
  if (!storedResult.is_object()) return std::nullopt;
  const auto ayar = storedResult.find("ayar");
  if (ayar == storedResult.end() || !ayar->is_object()) return std::nullopt;
  const auto text = ayar->find("imported_original_text");
  if (text == ayar->end() || !text->is_string()) return std::nullopt;
  return text->get<std::string>();
}

ordered_json vllmResultOf(const nlohmann::json& storedResult, std::span<const RequestRecord> records) {
  if (!storedResult.is_object())
    throw Error("the run has no result to export (it holds " + std::string(storedResult.type_name()) + ")");
  if (auto text = importedOriginalText(storedResult))
    return parseResultObjects(*text, "the stored run").front();
  if (const auto ayar = storedResult.find("ayar"); ayar != storedResult.end() && ayar->is_object()) {
    ordered_json original = importedOriginal(*ayar);
    if (!original.is_null()) {
      original.erase("ayar");
      return original;
    }
  }
  const ResultFile parsed = readResultObject(ordered_json::parse(storedResult.dump()), "the stored run");
  ordered_json out = resultJson(parsed.setup, parsed.summary, records, /*detailed=*/true);
  out.erase("ayar");
  // vLLM keeps burstiness a float, so Python writes an infinite one as Infinity.
  if (const auto it = out.find("burstiness"); it != out.end() && it->is_string() && *it == "inf")
    *it = "Infinity";
  return out;
}

std::string vllmResultText(const ordered_json& result) {
  std::string out;
  if (!result.is_object()) {
    writeValue(result, out);
    return out;
  }
  out += '{';
  bool first = true;
  for (const auto& [key, value] : result.items()) {
    if (!first) out += ", ";
    first = false;
    out += ordered_json(key).dump(-1, ' ', true);
    out += ": ";
    if (!kStringKeys.contains(key) && isNonFiniteToken(value)) {
      out += value.get<std::string>();
    } else {
      writeValue(value, out);
    }
  }
  out += '}';
  return out;
}

}  // namespace ayar
