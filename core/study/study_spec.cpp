#include "core/study/study_spec.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>

#include "core/engines/resources_dir.h"
#include "core/error.h"
#include "core/report/message_text.h"

namespace ayar {

namespace {

using nlohmann::json;

// Reads a study's fields; every failure names the source and the field.
class StudyReader {
 public:
  explicit StudyReader(MessageArgument source) : m_source(std::move(source)) {}

  [[noreturn]] void fail(const std::string& field, MessageArgument what) const {
    throw MessageError({MessageText::FieldProblem, {m_source, field, std::move(what)}});
  }
  [[noreturn]] void fail(const std::string& field, const Message& what) const {
    fail(field, what.asArgument());
  }
  [[noreturn]] void fail(const std::string& field, const std::exception& error) const {
    fail(field, errorArgument(error));
  }

  void onlyKeys(const json& object, const std::string& field, const std::set<std::string>& keys) const {
    for (const auto& [key, value] : object.items()) {
      if (keys.count(key)) continue;
      std::string known;
      for (const auto& name : keys)
        known += (known.empty() ? "" : ", ") + name;
      fail(field.empty() ? key : field + "." + key, Message{MessageText::StudyFieldUnknown, {known}});
    }
  }

  std::string string(const json& object, const std::string& field, const char* key, bool required) const {
    const std::string where = field.empty() ? key : field + "." + key;
    if (!object.contains(key) || object.at(key).is_null()) {
      if (required) fail(where, Message{MessageText::StudyFieldMissing, {}});
      return {};
    }
    if (!object.at(key).is_string())
      fail(where, Message{MessageText::StudyFieldNotString, {object.at(key).dump()}});
    std::string text = object.at(key).get<std::string>();
    if (required && text.empty()) fail(where, Message{MessageText::StudyFieldEmpty, {}});
    checkPrintable(where, text);
    return text;
  }

  // Names and titles are printed in lists and tables, on terminals too: a control character (an
  // escape sequence, a newline) there would break the line or drive the terminal.
  void checkPrintable(const std::string& where, std::string_view text, bool paragraphs = false) const {
    for (std::size_t i = 0; i < text.size(); ++i) {
      const auto byte = static_cast<unsigned char>(text[i]);
      if ((byte < 0x20 && !(paragraphs && byte == '\n')) || byte == 0x7F) {
        char code[8];
        std::snprintf(code, sizeof code, "\\x%02X", byte);
        fail(where, Message{MessageText::StudyFieldControlCharacter, {std::string(code), std::to_string(i)}});
      }
    }
  }

  LocalizedText text(const json& object, const std::string& field, const char* key) const {
    LocalizedText out;
    if (!object.contains(key) || object.at(key).is_null()) return out;
    const std::string where = field.empty() ? key : field + "." + key;
    const json& value = object.at(key);
    if (value.is_string()) {
      out["en"] = value.get<std::string>();
      checkPrintable(where, out["en"], std::string_view(key) == "goal");
      return out;
    }
    if (!value.is_object()) fail(where, Message{MessageText::StudyTextShape, {}});
    for (const auto& [language, words] : value.items()) {
      if (language != "en" && language != "tr")
        fail(where + "." + language, Message{MessageText::StudyTextLanguage, {}});
      if (!words.is_string()) fail(where + "." + language, Message{MessageText::StudyTextNotString, {}});
      out[language] = words.get<std::string>();
      checkPrintable(where + "." + language, out[language], std::string_view(key) == "goal");
    }
    return out;
  }

  EngineSpec engine(const json& value, const std::string& field) const {
    try {
      return value.get<EngineSpec>();
    } catch (const Error& error) {
      fail(field, error);
    } catch (const json::exception& error) {
      fail(field, error);
    }
  }

  std::vector<EngineFlag> flags(const json& object, const std::string& field, const char* key) const {
    std::vector<EngineFlag> out;
    if (!object.contains(key)) return out;
    const std::string where = field + "." + key;
    if (!object.at(key).is_array()) fail(where, Message{MessageText::StudyFlagsNotList, {}});
    std::size_t index = 0;
    for (const auto& item : object.at(key)) {
      const std::string at = where + "[" + std::to_string(index++) + "]";
      try {
        EngineFlag flag = item.get<EngineFlag>();
        if (flag.name.empty() || (!flag.raw && flag.name.front() != '-'))
          fail(at, Message{MessageText::StudyFlagDash, {}});
        out.push_back(std::move(flag));
      } catch (const Error& error) {
        if (std::string(error.what()).rfind(m_source.english, 0) == 0) throw;
        fail(at, error);
      }
    }
    return out;
  }

  ProfileSpec profile(const json& value, const std::string& field) const {
    if (value.is_string()) {
      try {
        return loadProfile(value.get<std::string>());
      } catch (const Error& error) {
        fail(field, error);
      }
    }
    if (!value.is_object()) fail(field, Message{MessageText::StudyProfileShape, {}});
    ProfileSpec profile;
    try {
      from_json(value, profile);
      profile.validate();
    } catch (const Error& error) {
      fail(field, error);
    }
    if (profile.name.empty()) fail(field + ".name", Message{MessageText::StudyInlineProfileName, {}});
    return profile;
  }

  std::vector<ProfileSpec> profiles(const json& object, const char* key, bool required) const {
    std::vector<ProfileSpec> out;
    if (!object.contains(key)) {
      if (required) fail(key, Message{MessageText::StudyProfilesMissing, {}});
      return out;
    }
    if (!object.at(key).is_array()) fail(key, Message{MessageText::StudyProfilesNotList, {}});
    std::size_t index = 0;
    for (const auto& item : object.at(key))
      out.push_back(profile(item, std::string(key) + "[" + std::to_string(index++) + "]"));
    if (required && out.empty()) fail(key, Message{MessageText::StudyProfilesEmpty, {}});
    return out;
  }

  std::optional<double> milliseconds(const json& object, const std::string& field, const char* key) const {
    if (!object.contains(key) || object.at(key).is_null()) return std::nullopt;
    const json& value = object.at(key);
    if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() <= 0.0)
      fail(field + "." + key, Message{MessageText::StudyMilliseconds, {value.dump()}});
    return value.get<double>();
  }

 private:
  MessageArgument m_source;
};

json textJson(const LocalizedText& text) {
  json out = json::object();
  for (const auto& [language, words] : text)
    out[language] = words;
  return out;
}

std::filesystem::path studiesDir() {
  return resourcesDir() / "studies";
}

}  // namespace

std::string localized(const LocalizedText& text, const std::string& language, const std::string& fallback) {
  if (auto found = text.find(language); found != text.end() && !found->second.empty()) return found->second;
  if (auto found = text.find("en"); found != text.end() && !found->second.empty()) return found->second;
  return fallback;
}

EngineSpec StudyVariant::resolve(const EngineSpec& baseline) const {
  if (engine) return *engine;
  EngineSpec out = baseline;
  auto& flags = out.flags;
  for (const std::string& removed : removeFlags) {
    flags.erase(std::remove_if(flags.begin(), flags.end(),
                               [&](const EngineFlag& flag) { return flag.name == removed; }),
                flags.end());
  }
  for (const EngineFlag& added : addFlags) {
    const auto same = std::find_if(flags.begin(), flags.end(), [&](const EngineFlag& flag) {
      return !flag.raw && !added.raw && flag.name == added.name;
    });
    if (same != flags.end()) {
      *same = added;
    } else {
      flags.push_back(added);
    }
  }
  return out;
}

std::vector<StudyConfiguration> StudySpec::configurations() const {
  std::vector<StudyConfiguration> out;
  out.push_back({baselineName, baselineTitle, baselineName, baselineTitle, baseline, true});
  for (const StudyVariant& variant : variants) {
    out.push_back({variant.name, variant.title, variant.group.empty() ? variant.name : variant.group,
                   variant.groupTitle.empty() ? variant.title : variant.groupTitle, variant.resolve(baseline),
                   false});
  }
  return out;
}

void StudySpec::validate() const {
  const MessageArgument source = Message{MessageText::StudySourceNamed, {name}}.asArgument();
  const auto problem = [&](const std::string& field, MessageArgument what) {
    return MessageError({MessageText::FieldProblem, {source, field, std::move(what)}});
  };
  if (name.empty()) throw MessageError({MessageText::StudyNameEmpty, {}});
  std::set<std::string> names{baselineName};
  try {
    baseline.validate();
  } catch (const Error& error) {
    throw problem("baseline.engine", errorArgument(error));
  }
  for (std::size_t i = 0; i < variants.size(); ++i) {
    const std::string field = "variants[" + std::to_string(i) + "]";
    if (variants[i].name.empty())
      throw problem(field + ".name", Message{MessageText::StudyFieldEmpty, {}}.asArgument());
    if (!names.insert(variants[i].name).second)
      throw problem(field + ".name", Message{MessageText::StudyNameTwice, {variants[i].name}}.asArgument());
    try {
      variants[i].resolve(baseline).validate();
    } catch (const Error& error) {
      throw problem(field, errorArgument(error));
    }
  }
  if (profiles.empty()) throw problem("profiles", Message{MessageText::StudyProfilesNone, {}}.asArgument());
  std::set<std::string> profileNames;
  for (const auto* list : {&profiles, &followUpProfiles}) {
    for (const ProfileSpec& profile : *list) {
      profile.validate();
      if (list == &profiles && !profileNames.insert(profile.name).second)
        throw problem("profiles", Message{MessageText::StudyProfileTwice, {profile.name}}.asArgument());
    }
  }
  if (warmupRequests < 0)
    throw problem("warmup_requests", Message{MessageText::StudyNotNegative, {}}.asArgument());
}

nlohmann::json studyToJson(const StudySpec& study) {
  json out = json::object();
  out["name"] = study.name;
  if (!study.title.empty()) out["title"] = textJson(study.title);
  if (!study.goal.empty()) out["goal"] = textJson(study.goal);
  json baseline = {{"name", study.baselineName}, {"engine", study.baseline}};
  if (!study.baselineTitle.empty()) baseline["title"] = textJson(study.baselineTitle);
  out["baseline"] = baseline;
  out["variants"] = json::array();
  for (const StudyVariant& variant : study.variants) {
    json item = {{"name", variant.name}};
    if (!variant.title.empty()) item["title"] = textJson(variant.title);
    if (!variant.group.empty()) item["group"] = variant.group;
    if (!variant.groupTitle.empty()) item["group_title"] = textJson(variant.groupTitle);
    if (!variant.addFlags.empty()) item["add_flags"] = variant.addFlags;
    if (!variant.removeFlags.empty()) item["remove_flags"] = variant.removeFlags;
    if (variant.engine) item["engine"] = *variant.engine;
    out["variants"].push_back(item);
  }
  out["profiles"] = study.profiles;
  if (!study.followUpProfiles.empty()) out["follow_up_profiles"] = study.followUpProfiles;
  out["deciding_figure"] = std::string(runFigureKey(study.decidingFigure));
  if (study.slo.any()) {
    json slo = json::object();
    if (study.slo.ttftMs) slo["ttft_ms"] = *study.slo.ttftMs;
    if (study.slo.tpotMs) slo["tpot_ms"] = *study.slo.tpotMs;
    if (study.slo.e2elMs) slo["e2el_ms"] = *study.slo.e2elMs;
    out["slo"] = slo;
  }
  out["warmup_requests"] = study.warmupRequests;
  if (!study.tokenizer.empty()) out["tokenizer"] = study.tokenizer;
  if (!study.hardware.empty()) out["hardware"] = study.hardware;
  return out;
}

StudySpec studyFromJson(const nlohmann::json& root, const MessageArgument& source) {
  const StudyReader reader(source);
  if (!root.is_object()) throw MessageError({MessageText::StudyNotObject, {source}});
  reader.onlyKeys(root, "",
                  {"name", "title", "goal", "baseline", "variants", "profiles", "follow_up_profiles",
                   "deciding_figure", "slo", "warmup_requests", "tokenizer", "hardware"});
  StudySpec study;
  study.name = reader.string(root, "", "name", true);
  study.title = reader.text(root, "", "title");
  study.goal = reader.text(root, "", "goal");

  if (!root.contains("baseline") || !root.at("baseline").is_object())
    reader.fail("baseline", Message{MessageText::StudyBaselineMissing, {}});
  const json& baseline = root.at("baseline");
  reader.onlyKeys(baseline, "baseline", {"name", "title", "engine"});
  const std::string baselineName = reader.string(baseline, "baseline", "name", false);
  if (!baselineName.empty()) study.baselineName = baselineName;
  study.baselineTitle = reader.text(baseline, "baseline", "title");
  if (!baseline.contains("engine"))
    reader.fail("baseline.engine", Message{MessageText::StudyFieldMissing, {}});
  study.baseline = reader.engine(baseline.at("engine"), "baseline.engine");

  std::set<std::string> names{study.baselineName};
  if (root.contains("variants")) {
    if (!root.at("variants").is_array()) reader.fail("variants", Message{MessageText::StudyNotList, {}});
    std::size_t index = 0;
    for (const auto& item : root.at("variants")) {
      const std::string field = "variants[" + std::to_string(index++) + "]";
      if (!item.is_object()) reader.fail(field, Message{MessageText::StudyVariantShape, {}});
      reader.onlyKeys(item, field,
                      {"name", "title", "group", "group_title", "add_flags", "remove_flags", "engine"});
      StudyVariant variant;
      variant.name = reader.string(item, field, "name", true);
      if (!names.insert(variant.name).second)
        reader.fail(field + ".name", Message{MessageText::StudyNameTwice, {variant.name}});
      variant.title = reader.text(item, field, "title");
      variant.group = reader.string(item, field, "group", false);
      variant.groupTitle = reader.text(item, field, "group_title");
      variant.addFlags = reader.flags(item, field, "add_flags");
      if (item.contains("remove_flags")) {
        if (!item.at("remove_flags").is_array())
          reader.fail(field + ".remove_flags", Message{MessageText::StudyRemoveFlagsShape, {}});
        for (const auto& name : item.at("remove_flags")) {
          if (!name.is_string())
            reader.fail(field + ".remove_flags", Message{MessageText::StudyRemoveFlagsShape, {}});
          variant.removeFlags.push_back(name.get<std::string>());
        }
      }
      if (item.contains("engine")) {
        if (!variant.addFlags.empty() || !variant.removeFlags.empty())
          reader.fail(field, Message{MessageText::StudyEngineOrFlags, {}});
        variant.engine = reader.engine(item.at("engine"), field + ".engine");
      }
      if (!variant.engine && variant.addFlags.empty() && variant.removeFlags.empty())
        reader.fail(field, Message{MessageText::StudyVariantChangesNothing, {}});
      try {
        variant.resolve(study.baseline).validate();
      } catch (const Error& error) {
        reader.fail(field, error);
      }
      study.variants.push_back(std::move(variant));
    }
  }

  study.profiles = reader.profiles(root, "profiles", true);
  std::set<std::string> profileNames;
  for (std::size_t i = 0; i < study.profiles.size(); ++i) {
    if (!profileNames.insert(study.profiles[i].name).second)
      reader.fail("profiles[" + std::to_string(i) + "]",
                  Message{MessageText::StudyProfileTwice, {study.profiles[i].name}});
  }
  study.followUpProfiles = reader.profiles(root, "follow_up_profiles", false);

  if (root.contains("deciding_figure")) {
    const std::string key = reader.string(root, "", "deciding_figure", true);
    try {
      study.decidingFigure = parseRunFigure(key);
    } catch (const Error& error) {
      reader.fail("deciding_figure", error);
    }
  }
  if (root.contains("slo")) {
    const json& slo = root.at("slo");
    if (!slo.is_object()) reader.fail("slo", Message{MessageText::StudySloShape, {}});
    reader.onlyKeys(slo, "slo", {"ttft_ms", "tpot_ms", "e2el_ms"});
    study.slo.ttftMs = reader.milliseconds(slo, "slo", "ttft_ms");
    study.slo.tpotMs = reader.milliseconds(slo, "slo", "tpot_ms");
    study.slo.e2elMs = reader.milliseconds(slo, "slo", "e2el_ms");
  }
  if (study.decidingFigure == RunFigure::RequestGoodput && !study.slo.any())
    reader.fail("deciding_figure", Message{MessageText::StudyGoodputNeedsSlo, {}});
  if (root.contains("warmup_requests")) {
    const json& warmup = root.at("warmup_requests");
    if (!warmup.is_number_integer() || warmup.get<long long>() < 0 || warmup.get<long long>() > 100000)
      reader.fail("warmup_requests", Message{MessageText::StudyWarmupRange, {warmup.dump()}});
    study.warmupRequests = warmup.get<int>();
  }
  study.tokenizer = reader.string(root, "", "tokenizer", false);
  study.hardware = reader.string(root, "", "hardware", false);
  return study;
}

StudySpec loadStudy(const std::string& nameOrPath) {
  const bool isPath =
      nameOrPath.find('/') != std::string::npos || (nameOrPath.size() > 5 && nameOrPath.ends_with(".json"));
  std::filesystem::path file =
      isPath ? std::filesystem::path(nameOrPath) : studiesDir() / (nameOrPath + ".json");
  if (!isPath && !std::filesystem::exists(file)) {
    std::string known;
    for (const auto& name : listStudyPresets())
      known += (known.empty() ? "" : ", ") + name;
    throw MessageError({MessageText::StudyUnknown, {nameOrPath, known}});
  }
  if (std::filesystem::is_directory(file))
    throw MessageError(
        {MessageText::InputIsFolder, {file.string(), Message{MessageText::InputKindStudy, {}}.asArgument()}});
  std::ifstream in(file);
  if (!in) throw MessageError({MessageText::StudyFileUnreadable, {file.string()}});
  json root;
  try {
    root = json::parse(in);
  } catch (const json::exception& error) {
    throw MessageError({MessageText::StudyFileNotJson, {file.string(), std::string(error.what())}});
  }
  return studyFromJson(root, Message{MessageText::StudySourceFile, {file.string()}}.asArgument());
}

std::vector<std::string> listStudyPresets() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(studiesDir(), ec)) {
    if (entry.path().extension() == ".json") names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace ayar
