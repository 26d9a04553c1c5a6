#include "core/engines/engine_catalogue.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "core/engines/resources_dir.h"
#include "core/error.h"
#include "core/report/json_type_name.h"
#include "core/report/message_text.h"

namespace ayar {

namespace {

using nlohmann::json;

const std::set<std::string> kPlaceholders = {"model",  "host",   "port", "served_model_name",
                                             "device", "api_key"};

std::string formatNumber(double value) {
  if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 1e15) {
    return std::to_string(static_cast<long long>(value));
  }
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

std::string joined(const std::vector<std::string>& items, std::string_view separator = ", ") {
  std::string text;
  for (const auto& item : items) {
    if (!text.empty()) text += separator;
    text += item;
  }
  return text;
}

bool isBoolWord(const std::string& text) {
  return text == "true" || text == "false" || text == "1" || text == "0" || text == "yes" || text == "no" ||
         text == "on" || text == "off";
}

std::optional<long long> parseInteger(const std::string& text) {
  long long value = 0;
  const char* end = text.data() + text.size();
  const auto result = std::from_chars(text.data(), end, value);
  if (text.empty() || result.ec != std::errc() || result.ptr != end) return std::nullopt;
  return value;
}

std::optional<double> parseFloat(const std::string& text) {
  double value = 0;
  const char* end = text.data() + text.size();
  const auto result = std::from_chars(text.data(), end, value);
  if (text.empty() || result.ec != std::errc() || result.ptr != end || !std::isfinite(value))
    return std::nullopt;
  return value;
}

// Checks one value against a flag's type; returns the problem, or nullopt. A value outside open
// choices is a warning, returned in `warning`.
std::optional<Message> checkValue(const FlagSpec& flag, const std::string& name, const std::string& value,
                                  std::optional<Message>& warning) {
  auto checkRange = [&](double number) -> std::optional<Message> {
    if ((flag.min && number < *flag.min) || (flag.max && number > *flag.max)) {
      if (flag.min && flag.max)
        return Message{MessageText::FlagRangeBetween,
                       {name, value, formatNumber(*flag.min), formatNumber(*flag.max)}};
      if (flag.min) return Message{MessageText::FlagRangeAtLeast, {name, value, formatNumber(*flag.min)}};
      return Message{MessageText::FlagRangeAtMost, {name, value, formatNumber(*flag.max)}};
    }
    return std::nullopt;
  };
  switch (flag.type) {
    case FlagType::Bool:
      if (!isBoolWord(value)) return Message{MessageText::FlagSwitchValue, {name, value}};
      return std::nullopt;
    case FlagType::Int: {
      const auto number = parseInteger(value);
      if (!number) return Message{MessageText::FlagWholeNumber, {name, value}};
      return checkRange(static_cast<double>(*number));
    }
    case FlagType::Float: {
      const auto number = parseFloat(value);
      if (!number) return Message{MessageText::FlagNumber, {name, value, std::string("0.9")}};
      return checkRange(*number);
    }
    case FlagType::Choice:
      if (std::find(flag.choices.begin(), flag.choices.end(), value) != flag.choices.end())
        return std::nullopt;
      if (flag.choicesOpen) {
        warning = Message{MessageText::FlagChoiceOpen, {name, value, joined(flag.choices)}};
        return std::nullopt;
      }
      return Message{MessageText::FlagChoice, {name, value, joined(flag.choices)}};
    case FlagType::String:
      if (value.empty()) return Message{MessageText::FlagEmpty, {name}};
      if (!flag.pattern.empty() && !std::regex_match(value, std::regex(flag.pattern))) {
        // The pattern is for the machine; the person reads the flag's description.
        return Message{MessageText::FlagPattern,
                       {name, value, MessageArgument(flag.descriptionEn, flag.descriptionTr)}};
      }
      return std::nullopt;
    case FlagType::Json: {
      const json parsed = json::parse(value, nullptr, false);
      if (parsed.is_discarded() || !parsed.is_object())
        return Message{MessageText::FlagJson, {name, value, std::string("{\"method\": \"ngram\"}")}};
      return std::nullopt;
    }
  }
  return std::nullopt;
}

// Reads a template file's fields, each failure naming the file and the field.
class TemplateReader {
 public:
  explicit TemplateReader(std::string source) : m_source(std::move(source)) {}

  // `where` is the place in the file ("flags[2] (--port)"), empty for the file as a whole.
  [[noreturn]] void fail(const std::string& where, const Message& what) const {
    if (where.empty()) throw MessageError({MessageText::TemplateProblem, {m_source, what.asArgument()}});
    throw MessageError({MessageText::FieldProblem, {m_source, where, what.asArgument()}});
  }

  void onlyKeys(const json& object, const std::string& where, const std::set<std::string>& keys) const {
    for (const auto& [key, value] : object.items()) {
      if (!keys.count(key)) {
        std::vector<std::string> known(keys.begin(), keys.end());
        fail(where, {MessageText::TemplateFieldUnknown, {key, joined(known)}});
      }
    }
  }

  std::string string(const json& object, const std::string& where, const char* key, bool required) const {
    if (!object.contains(key) || object.at(key).is_null()) {
      if (required) fail(where, {MessageText::TemplateFieldMissing, {key}});
      return {};
    }
    const json& value = object.at(key);
    if (!value.is_string()) {
      fail(where, {MessageText::TemplateFieldNotString, {key, jsonTypeName(value)}});
    }
    std::string text = value.get<std::string>();
    if (required && text.empty()) fail(where, {MessageText::TemplateFieldEmpty, {key}});
    return text;
  }

  std::string scalar(const json& value, const std::string& where, const std::string& field) const {
    if (value.is_string()) return value.get<std::string>();
    if (value.is_boolean()) return value.get<bool>() ? "true" : "false";
    if (value.is_number_integer()) return std::to_string(value.get<long long>());
    if (value.is_number()) return formatNumber(value.get<double>());
    fail(where, {MessageText::TemplateFieldNotScalar, {field, jsonTypeName(value)}});
  }

  std::vector<std::string> stringList(const json& object, const std::string& where, const char* key) const {
    std::vector<std::string> list;
    if (!object.contains(key)) return list;
    const json& value = object.at(key);
    if (!value.is_array()) fail(where, {MessageText::TemplateFieldNotList, {key}});
    for (const auto& item : value)
      list.push_back(scalar(item, where, key));
    return list;
  }

  void checkPlaceholders(const std::string& text, const std::string& where,
                         std::set<std::string>& seen) const {
    std::size_t position = 0;
    while ((position = text.find('{', position)) != std::string::npos) {
      const std::size_t close = text.find('}', position);
      if (close == std::string::npos) fail(where, {MessageText::TemplatePlaceholderOpen, {text}});
      const std::string name = text.substr(position + 1, close - position - 1);
      if (!kPlaceholders.count(name)) {
        std::vector<std::string> known;
        for (const auto& placeholder : kPlaceholders)
          known.push_back("{" + placeholder + "}");
        fail(where, {MessageText::TemplatePlaceholderUnknown, {name, joined(known)}});
      }
      seen.insert(name);
      position = close + 1;
    }
  }

  FlagSpec flag(const json& object, std::size_t index) const {
    std::string where = "flags[" + std::to_string(index) + "]";
    if (!object.is_object()) fail(where, {MessageText::TemplateFlagShape, {}});
    FlagSpec flag;
    flag.name = string(object, where, "name", true);
    where += " (" + flag.name + ")";
    onlyKeys(object, where,
             {"name", "aliases", "type", "choices", "choices_open", "min", "max", "pattern", "default",
              "false_flag", "description", "vllm_flag", "group"});
    if (flag.name.front() != '-') fail(where, {MessageText::TemplateFlagDash, {"name"}});
    flag.aliases = stringList(object, where, "aliases");

    static const std::map<std::string, FlagType> types = {
        {"bool", FlagType::Bool},     {"int", FlagType::Int},       {"float", FlagType::Float},
        {"string", FlagType::String}, {"choice", FlagType::Choice}, {"json", FlagType::Json}};
    const std::string type = string(object, where, "type", true);
    const auto found = types.find(type);
    if (found == types.end()) fail(where, {MessageText::TemplateFlagType, {type}});
    flag.type = found->second;

    flag.choices = stringList(object, where, "choices");
    if (flag.type == FlagType::Choice && flag.choices.empty())
      fail(where, {MessageText::TemplateChoicesNeeded, {}});
    if (flag.type != FlagType::Choice && !flag.choices.empty())
      fail(where, {MessageText::TemplateOnlyFor, {"choices", "choice"}});
    if (object.contains("choices_open")) {
      if (!object.at("choices_open").is_boolean())
        fail(where, {MessageText::TemplateFieldNotBoolean, {"choices_open"}});
      flag.choicesOpen = object.at("choices_open").get<bool>();
    }
    for (const char* key : {"min", "max"}) {
      if (!object.contains(key)) continue;
      if (flag.type != FlagType::Int && flag.type != FlagType::Float) {
        fail(where, {MessageText::TemplateOnlyFor, {key, "int / float"}});
      }
      if (!object.at(key).is_number()) fail(where, {MessageText::TemplateFieldNotNumber, {key}});
      (std::string(key) == "min" ? flag.min : flag.max) = object.at(key).get<double>();
    }
    if (flag.min && flag.max && *flag.min > *flag.max) fail(where, {MessageText::TemplateMinAboveMax, {}});
    flag.pattern = string(object, where, "pattern", false);
    if (!flag.pattern.empty()) {
      if (flag.type != FlagType::String) fail(where, {MessageText::TemplateOnlyFor, {"pattern", "string"}});
      try {
        std::regex check(flag.pattern);
      } catch (const std::regex_error& error) {
        fail(where, {MessageText::TemplatePatternInvalid, {std::string(error.what())}});
      }
    }
    flag.falseFlag = string(object, where, "false_flag", false);
    if (!flag.falseFlag.empty()) {
      if (flag.type != FlagType::Bool) fail(where, {MessageText::TemplateOnlyFor, {"false_flag", "bool"}});
      if (flag.falseFlag.front() != '-') fail(where, {MessageText::TemplateFlagDash, {"false_flag"}});
    }
    if (object.contains("default") && !object.at("default").is_null()) {
      flag.defaultValue = scalar(object.at("default"), where, "default");
      std::optional<Message> warning;
      if (auto problem = checkValue(flag, flag.name, *flag.defaultValue, warning)) {
        fail(where, {MessageText::TemplateDefaultMisfits, {problem->asArgument()}});
      }
    }
    if (!object.contains("description") || !object.at("description").is_object()) {
      fail(where, {MessageText::TemplateDescriptionShape, {}});
    }
    const json& description = object.at("description");
    onlyKeys(description, where + ": description", {"en", "tr"});
    flag.descriptionEn = string(description, where + ": description", "en", true);
    flag.descriptionTr = string(description, where + ": description", "tr", true);
    flag.vllmFlag = string(object, where, "vllm_flag", false);
    flag.group = string(object, where, "group", false);
    return flag;
  }

  EngineTemplate read(const json& root) const {
    if (!root.is_object()) fail("", {MessageText::TemplateNotObject, {}});
    onlyKeys(
        root, "",
        {"name", "display_name", "executable", "args", "health_path", "api_key_env", "devices",
         "model_presets", "startup_timeout_s", "complete_catalogue", "docs_url", "flags", "description"});
    EngineTemplate result;
    result.name = string(root, "", "name", true);
    result.displayName = string(root, "", "display_name", true);
    result.executable = string(root, "", "executable", true);
    result.description = string(root, "", "description", false);

    if (!root.contains("args") || !root.at("args").is_array()) {
      fail("args", {MessageText::TemplateArgsShape, {}});
    }
    std::set<std::string> placeholders;
    std::size_t index = 0;
    for (const auto& item : root.at("args")) {
      const std::string where = "args[" + std::to_string(index++) + "]";
      EngineTemplate::ArgumentGroup group;
      if (item.is_string()) {
        group.arguments.push_back(item.get<std::string>());
      } else if (item.is_array() && !item.empty()) {
        group.optional = true;
        for (const auto& argument : item) {
          if (!argument.is_string()) fail(where, {MessageText::TemplateGroupStringsOnly, {}});
          group.arguments.push_back(argument.get<std::string>());
        }
      } else {
        fail(where, {MessageText::TemplateArgumentShape, {}});
      }
      for (const auto& argument : group.arguments)
        checkPlaceholders(argument, where, placeholders);
      result.arguments.push_back(std::move(group));
    }
    // The launcher must be able to tell the engine which model and port, or it cannot find it.
    for (const char* required : {"model", "port"}) {
      if (!placeholders.count(required)) fail("args", {MessageText::TemplateArgsNeedPlaceholder, {required}});
    }

    result.healthPath = string(root, "", "health_path", false);
    if (result.healthPath.empty()) result.healthPath = "/health";
    if (result.healthPath.front() != '/') fail("health_path", {MessageText::TemplateHealthPath, {}});
    result.apiKeyEnv = string(root, "", "api_key_env", false);
    result.devices = stringList(root, "", "devices");
    result.modelPresets = stringList(root, "", "model_presets");
    if (root.contains("startup_timeout_s")) {
      const json& timeout = root.at("startup_timeout_s");
      if (!timeout.is_number_integer() || timeout.get<long long>() < 1) {
        fail("startup_timeout_s", {MessageText::TemplateStartupTimeout, {}});
      }
      result.startupTimeout = std::chrono::seconds(timeout.get<long long>());
    }
    if (root.contains("complete_catalogue")) {
      if (!root.at("complete_catalogue").is_boolean())
        fail("", {MessageText::TemplateFieldNotBoolean, {"complete_catalogue"}});
      result.completeCatalogue = root.at("complete_catalogue").get<bool>();
    }
    result.docsUrl = string(root, "", "docs_url", false);

    if (!root.contains("flags") || !root.at("flags").is_array())
      fail("flags", {MessageText::TemplateFlagsShape, {}});
    std::map<std::string, std::string> spellings;  // every spelling -> the flag it belongs to
    index = 0;
    for (const auto& item : root.at("flags")) {
      FlagSpec flag = this->flag(item, index);
      std::vector<std::string> names = flag.aliases;
      names.push_back(flag.name);
      if (!flag.falseFlag.empty()) names.push_back(flag.falseFlag);
      for (const auto& name : names) {
        if (const auto other = spellings.find(name); other != spellings.end()) {
          fail("flags[" + std::to_string(index) + "] (" + flag.name + ")",
               {MessageText::TemplateSpellingTaken, {name, other->second}});
        }
        spellings[name] = flag.name;
      }
      result.flags.push_back(std::move(flag));
      ++index;
    }
    return result;
  }

 private:
  std::string m_source;
};

}  // namespace

std::string_view toString(FlagType type) {
  switch (type) {
    case FlagType::Bool:
      return "bool";
    case FlagType::Int:
      return "int";
    case FlagType::Float:
      return "float";
    case FlagType::String:
      return "string";
    case FlagType::Choice:
      return "choice";
    case FlagType::Json:
      return "json";
  }
  return "string";
}

bool FlagSpec::matches(std::string_view flagName) const {
  if (flagName == name || (!falseFlag.empty() && flagName == falseFlag)) return true;
  return std::find(aliases.begin(), aliases.end(), flagName) != aliases.end();
}

const FlagSpec* EngineTemplate::findFlag(std::string_view flagName) const {
  for (const auto& flag : flags) {
    if (flag.matches(flagName)) return &flag;
  }
  return nullptr;
}

std::map<std::string, std::string> effectiveFlags(const EngineTemplate& engineTemplate,
                                                  const std::vector<EngineFlag>& flags) {
  const auto normalised = [](const FlagSpec& spec, const std::string& value) {
    if (spec.type != FlagType::Int && spec.type != FlagType::Float) return value;
    double number = 0.0;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
    if (error != std::errc() || end != value.data() + value.size()) return value;
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", number);
    return std::string(text);
  };
  std::map<std::string, std::string> settings;
  for (const FlagSpec& spec : engineTemplate.flags) {
    if (spec.defaultValue) settings[spec.name] = normalised(spec, *spec.defaultValue);
  }
  for (const EngineFlag& flag : flags) {
    const FlagSpec* spec = flag.raw ? nullptr : engineTemplate.findFlag(flag.name);
    if (!spec) {
      settings[flag.name] = flag.value.value_or("");
      continue;
    }
    if (spec->type == FlagType::Bool) {
      const bool negated = !spec->falseFlag.empty() && flag.name == spec->falseFlag;
      const bool on = flag.value ? (*flag.value != "false" && *flag.value != "0") : true;
      settings[spec->name] = on != negated ? "true" : "false";
    } else {
      settings[spec->name] = normalised(*spec, flag.value.value_or(""));
    }
  }
  return settings;
}

std::vector<std::string> EngineTemplate::reservedFlags() const {
  std::vector<std::string> reserved;
  for (const auto& group : arguments) {
    for (const auto& argument : group.arguments) {
      if (argument.rfind("-", 0) == 0 && argument.find('{') == std::string::npos)
        reserved.push_back(argument);
    }
  }
  return reserved;
}

std::vector<FlagIssue> checkFlags(const EngineTemplate& engineTemplate,
                                  const std::vector<EngineFlag>& flags) {
  using Severity = FlagIssue::Severity;
  std::vector<FlagIssue> issues;
  auto add = [&](Severity severity, const std::string& flag, Message text) {
    std::string message = text.in(ReportLanguage::English);
    issues.push_back({severity, flag, std::move(message), std::move(text)});
  };
  const std::vector<std::string> reserved = engineTemplate.reservedFlags();
  std::set<std::string> seen;
  for (const auto& flag : flags) {
    if (flag.raw) continue;
    const std::string& name = flag.name;
    if (name.empty() || name.front() != '-') {
      add(Severity::Error, name, {MessageText::FlagNeedsDash, {name}});
      continue;
    }
    if (std::find(reserved.begin(), reserved.end(), name) != reserved.end()) {
      add(Severity::Error, name, {MessageText::FlagSetByAyar, {name}});
      continue;
    }
    const FlagSpec* known = engineTemplate.findFlag(name);
    const std::string canonical = known != nullptr ? known->name : name;
    if (!seen.insert(canonical).second) {
      add(Severity::Error, name, {MessageText::FlagGivenTwice, {name}});
      continue;
    }
    if (known == nullptr) {
      if (engineTemplate.completeCatalogue) {
        std::vector<std::string> names;
        for (const auto& entry : engineTemplate.flags)
          names.push_back(entry.name);
        add(Severity::Error, name,
            {MessageText::FlagUnknown, {name, engineTemplate.displayName, joined(names)}});
      } else {
        add(Severity::Warning, name, {MessageText::FlagNotInCatalogue, {name, engineTemplate.displayName}});
      }
      continue;
    }
    if (known->type == FlagType::Bool) {
      if (name == known->falseFlag && flag.value) {
        add(Severity::Error, name, {MessageText::FlagNegationNoValue, {name, known->name}});
      } else if (flag.value) {
        std::optional<Message> warning;
        if (auto problem = checkValue(*known, name, *flag.value, warning))
          add(Severity::Error, name, std::move(*problem));
      }
      continue;
    }
    if (!flag.value) {
      add(Severity::Error, name, {MessageText::FlagNeedsValue, {name, std::string(toString(known->type))}});
      continue;
    }
    std::optional<Message> warning;
    if (auto problem = checkValue(*known, name, *flag.value, warning)) {
      add(Severity::Error, name, std::move(*problem));
    } else if (warning) {
      add(Severity::Warning, name, std::move(*warning));
    }
  }
  return issues;
}

std::vector<FlagIssue> validateFlags(const EngineTemplate& engineTemplate,
                                     const std::vector<EngineFlag>& flags) {
  std::vector<FlagIssue> issues = checkFlags(engineTemplate, flags);
  MessageArgument errors("");
  std::vector<FlagIssue> warnings;
  for (auto& issue : issues) {
    if (issue.severity == FlagIssue::Severity::Error) {
      const bool first = errors.english.empty();
      errors.english += (first ? "" : "\n") + issue.text.in(ReportLanguage::English);
      errors.turkish += (first ? "" : "\n") + issue.text.in(ReportLanguage::Turkish);
    } else {
      warnings.push_back(std::move(issue));
    }
  }
  if (!errors.english.empty()) throw MessageError({MessageText::StageLines, {std::move(errors)}});
  return warnings;
}

EngineTemplate EngineCatalogue::parse(const nlohmann::json& json, const std::string& source) {
  return TemplateReader(source).read(json);
}

EngineTemplate EngineCatalogue::loadFile(const std::filesystem::path& file) {
  if (std::filesystem::is_directory(file)) {
    throw MessageError({MessageText::InputIsFolder,
                        {file.string(), Message{MessageText::InputKindEngineTemplate, {}}.asArgument()}});
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) throw MessageError({MessageText::CatalogueUnreadable, {file.string()}});
  std::stringstream buffer;
  buffer << in.rdbuf();
  json root;
  try {
    root = json::parse(buffer.str());
  } catch (const json::parse_error& error) {
    throw MessageError({MessageText::CatalogueNotJson, {file.string(), std::string(error.what())}});
  }
  EngineTemplate result = parse(root, file.string());
  if (result.name != file.stem().string()) {
    throw MessageError(
        {MessageText::CatalogueNameMismatch, {file.string(), result.name, file.filename().string()}});
  }
  result.sourcePath = file;
  return result;
}

EngineCatalogue EngineCatalogue::loadFolder(const std::filesystem::path& folder) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) throw MessageError({MessageText::CatalogueNoFolder, {folder.string()}});
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(folder, ec)) {
    if (entry.path().extension() == ".json" && entry.is_regular_file(ec)) files.push_back(entry.path());
  }
  if (ec) throw MessageError({MessageText::CatalogueListFailed, {folder.string(), ec.message()}});
  if (files.empty()) throw MessageError({MessageText::CatalogueEmpty, {folder.string()}});
  std::sort(files.begin(), files.end());
  EngineCatalogue catalogue;
  for (const auto& file : files)
    catalogue.m_templates.push_back(loadFile(file));
  return catalogue;
}

EngineCatalogue EngineCatalogue::loadDefault() {
  return loadFolder(resourcesDir() / "engines");
}

const EngineTemplate* EngineCatalogue::find(std::string_view name) const {
  for (const auto& engineTemplate : m_templates) {
    if (engineTemplate.name == name) return &engineTemplate;
  }
  return nullptr;
}

const EngineTemplate& EngineCatalogue::at(std::string_view name) const {
  if (const EngineTemplate* found = find(name)) return *found;
  std::vector<std::string> names;
  for (const auto& engineTemplate : m_templates)
    names.push_back(engineTemplate.name);
  throw MessageError({MessageText::CatalogueUnknownEngine, {std::string(name), joined(names)}});
}

}  // namespace ayar
