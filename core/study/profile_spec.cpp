#include "core/study/profile_spec.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <type_traits>
#include <utility>

#include "core/engines/resources_dir.h"
#include "core/error.h"
#include "core/report/message_text.h"

namespace ayar {
namespace {

std::string formatNumber(double value) {
  if (std::isinf(value)) return "inf";
  std::ostringstream out;
  out.imbue(std::locale::classic());
  out << value;
  return out.str();
}

nlohmann::json rateToJson(double value) {
  if (std::isinf(value)) return "inf";
  return value;
}

double rateFromJson(const nlohmann::json& json, const char* key) {
  if (json.is_string() && (json.get<std::string>() == "inf" || json.get<std::string>() == "Infinity")) {
    return ProfileSpec::kInfinity;
  }
  if (json.is_number()) return json.get<double>();
  throw MessageError({MessageText::ProfileFieldNotRate, {key, json.dump()}});
}

template <typename T>
void read(const nlohmann::json& json, const char* key, T& out) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    // A count is a whole number within its type: 2.5 is not rounded and 1e30 does not wrap around.
    using Limits = std::numeric_limits<T>;
    bool fits = false;
    if (json.is_number_unsigned()) {
      fits = std::in_range<T>(json.get<std::uint64_t>());
    } else if (json.is_number_integer()) {
      fits = std::in_range<T>(json.get<std::int64_t>());
    } else if (json.is_number_float()) {
      const double value = json.get<double>();
      const double above = static_cast<double>(Limits::max()) + 1.0;  // a power of two: exact
      fits = std::isfinite(value) && value == std::trunc(value) &&
             value >= static_cast<double>(Limits::min()) && value < above;
    }
    if (!fits) {
      throw MessageError(
          {MessageText::ProfileWholeNumber,
           {std::string(key), json.dump(), std::to_string(Limits::min()), std::to_string(Limits::max())}});
    }
    out = json.is_number_float() ? static_cast<T>(json.get<double>()) : json.get<T>();
  } else {
    try {
      out = json.get<T>();
    } catch (const nlohmann::json::exception&) {
      throw MessageError({MessageText::ProfileFieldWrongType, {key, json.dump()}});
    }
  }
}

template <typename T>
void readOptional(const nlohmann::json& json, const char* key, std::optional<T>& out) {
  if (json.is_null()) {
    out.reset();
    return;
  }
  T value{};
  read(json, key, value);
  out = value;
}

void readLanguageMap(const nlohmann::json& json, const char* key, std::map<std::string, std::string>& out) {
  if (json.is_string()) {
    out["en"] = json.get<std::string>();
    return;
  }
  if (!json.is_object()) throw MessageError({MessageText::ProfileFieldLanguages, {key}});
  for (const auto& [lang, text] : json.items()) {
    if (!text.is_string()) throw MessageError({MessageText::ProfileFieldNotString, {key + ("." + lang)}});
    out[lang] = text.get<std::string>();
  }
}

void require(bool ok, Message message) {
  if (!ok) throw MessageError(std::move(message));
}

}  // namespace

std::string_view toString(LoadMode mode) {
  switch (mode) {
    case LoadMode::Rate:
      return "rate";
    case LoadMode::Concurrent:
      return "concurrent";
    case LoadMode::Throughput:
      return "throughput";
    case LoadMode::Sweep:
      return "sweep";
  }
  return "rate";
}

LoadMode parseLoadMode(std::string_view text) {
  for (LoadMode mode : {LoadMode::Rate, LoadMode::Concurrent, LoadMode::Throughput, LoadMode::Sweep}) {
    if (toString(mode) == text) return mode;
  }
  throw MessageError({MessageText::ProfileLoadModeUnknown, {std::string(text)}});
}

std::string ProfileSpec::describe() const {
  std::ostringstream out;
  out.imbue(std::locale::classic());
  if (!name.empty()) out << name << ": ";
  if (name.empty() && !editedFrom.empty()) out << editedFrom << ", edited: ";
  out << datasetName;
  if (datasetName == "random") {
    out << ' ' << randomInputLen << "->" << randomOutputLen;
  } else if (datasetName == "prefix-repetition") {
    out << ' ' << prefixRepetitionNumPrefixes << "x(" << prefixRepetitionPrefixLen << '+'
        << prefixRepetitionSuffixLen << ")->" << prefixRepetitionOutputLen;
  }
  out << " x" << numPrompts << ", ";
  switch (loadMode) {
    case LoadMode::Rate:
      if (!rampUpStrategy.empty()) {
        out << rampUpStrategy << " ramp-up " << rampUpStartRps << " to " << rampUpEndRps << " req/s";
        break;
      }
      out << "rate " << formatNumber(requestRate);
      if (!std::isinf(requestRate)) out << " req/s, burstiness " << formatNumber(burstiness);
      break;
    case LoadMode::Concurrent:
      out << "concurrent " << concurrency;
      break;
    case LoadMode::Throughput:
      out << "throughput";
      break;
    case LoadMode::Sweep:
      out << "sweep of " << sweepPoints << " rates";
      break;
  }
  if (maxConcurrency) out << ", max concurrency " << *maxConcurrency;
  return out.str();
}

void ProfileSpec::validate() const {
  static const std::set<std::string> datasets{"sharegpt", "random", "prefix-repetition",
                                              "synthetic-sharegpt"};
  require(datasets.count(datasetName) == 1, {MessageText::ProfileDatasetUnknown, {datasetName}});
  require(numPrompts > 0, {MessageText::ProfileNumPrompts, {std::to_string(numPrompts)}});
  require(!sharegptOutputLen || *sharegptOutputLen > 0,
          {MessageText::ProfileAtLeastOne, {"--sharegpt-output-len"}});
  require(randomInputLen > 0, {MessageText::ProfileAtLeastOne, {"--random-input-len"}});
  require(randomOutputLen > 0, {MessageText::ProfileAtLeastOne, {"--random-output-len"}});
  require(randomRangeRatio >= 0.0 && randomRangeRatio < 1.0, {MessageText::ProfileRangeRatio, {}});
  require(randomPrefixLen >= 0, {MessageText::ProfileNotNegative, {"--random-prefix-len"}});
  require(prefixRepetitionPrefixLen >= 0 && prefixRepetitionSuffixLen > 0 && prefixRepetitionOutputLen > 0 &&
              prefixRepetitionNumPrefixes > 0,
          {MessageText::ProfilePrefixRepetition, {}});
  require(!temperature || *temperature >= 0.0, {MessageText::ProfileNotNegative, {"--temperature"}});
  require(!topP || (*topP > 0.0 && *topP <= 1.0), {MessageText::ProfileTopP, {}});
  require(!minP || (*minP >= 0.0 && *minP <= 1.0), {MessageText::ProfileMinP, {}});
  require(!repetitionPenalty || *repetitionPenalty > 0.0, {MessageText::ProfileRepetitionPenalty, {}});
  require(rampUpStrategy.empty() || rampUpStrategy == "linear" || rampUpStrategy == "exponential",
          {MessageText::ProfileRampUpUnknown, {rampUpStrategy}});
  if (!rampUpStrategy.empty()) {
    require(std::isinf(requestRate), {MessageText::ProfileRampUpWithRate, {}});
    require(rampUpStartRps >= 0 && rampUpEndRps >= 0, {MessageText::ProfileRampUpNegative, {}});
    require(rampUpStartRps <= rampUpEndRps, {MessageText::ProfileRampUpOrder, {}});
    require(rampUpStartRps > 0, {MessageText::ProfileRampUpStart, {}});
    require(loadMode == LoadMode::Rate, {MessageText::ProfileRampUpMode, {}});
  }
  require(requestRate > 0.0, {MessageText::ProfileRequestRate, {}});
  require(burstiness > 0.0, {MessageText::ProfileBurstiness, {}});
  require(!maxConcurrency || *maxConcurrency > 0, {MessageText::ProfileAtLeastOne, {"--max-concurrency"}});
  require(concurrency > 0, {MessageText::ProfileAtLeastOne, {"--concurrency"}});
  require(sweepPoints >= 0, {MessageText::ProfileNotNegative, {"--sweep-points"}});
  require(backend.empty() || backend == "openai" || backend == "openai-chat",
          {MessageText::ProfileBackendUnknown, {backend}});
  checkMemoryBounds();
}

void ProfileSpec::checkMemoryBounds() const {
  if (numPrompts > kMaxPrompts) {
    throw MessageError(
        {MessageText::ProfileTooManyPrompts, {countArgument(numPrompts), countArgument(kMaxPrompts)}});
  }
  // Upper bounds, as the datasets draw them: a random length is at most len * (1 + range ratio).
  const auto most = [this](int length) {
    return static_cast<std::int64_t>(std::ceil(static_cast<double>(length) * (1.0 + randomRangeRatio)));
  };
  std::int64_t request = 0;  // the longest request's prompt and output
  std::int64_t prompt = 0;   // the longest prompt
  std::string fields;
  if (datasetName == "random") {
    prompt = randomPrefixLen + most(randomInputLen);
    request = prompt + most(randomOutputLen);
    fields = "--random-input-len, --random-output-len, --random-prefix-len and --random-range-ratio";
  } else if (datasetName == "prefix-repetition") {
    prompt = static_cast<std::int64_t>(prefixRepetitionPrefixLen) + prefixRepetitionSuffixLen;
    request = prompt + prefixRepetitionOutputLen;
    fields =
        "--prefix-repetition-prefix-len, --prefix-repetition-suffix-len and --prefix-repetition-output-len";
  } else if (sharegptOutputLen) {
    request = *sharegptOutputLen;  // the prompts come from the file, which bounds them itself
    fields = "--sharegpt-output-len";
  }
  if (request > kMaxRequestTokens) {
    throw MessageError({MessageText::ProfileRequestTooLong,
                        {fields, countArgument(request), countArgument(kMaxRequestTokens)}});
  }
  const std::int64_t prompts = prompt * numPrompts;
  if (prompts > kMaxPromptTokens) {
    throw MessageError(
        {MessageText::ProfilePromptsTooLarge,
         {"--num-prompts, " + fields, countArgument(prompts), countArgument(kMaxPromptTokens)}});
  }
}

void nameEditedProfile(ProfileSpec& profile, const ProfileSpec& preset) {
  const auto load = [](const ProfileSpec& p) {
    nlohmann::json json = p;
    for (const char* key : {"name", "edited_from", "title", "purpose"})
      json.erase(key);
    return json;
  };
  if (load(profile) == load(preset)) {
    profile.name = preset.name;
    profile.editedFrom.clear();
    profile.title = preset.title;
    profile.purpose = preset.purpose;
    return;
  }
  profile.name.clear();
  profile.editedFrom = preset.name;
  profile.title.clear();
  profile.purpose.clear();
}

void to_json(nlohmann::json& json, const ProfileSpec& p) {
  json = nlohmann::json::object();
  if (!p.name.empty()) json["name"] = p.name;
  if (!p.editedFrom.empty()) json["edited_from"] = p.editedFrom;
  if (!p.title.empty()) json["title"] = p.title;
  if (!p.purpose.empty()) json["purpose"] = p.purpose;
  if (!p.backend.empty()) json["backend"] = p.backend;
  if (!p.endpoint.empty()) json["endpoint"] = p.endpoint;
  json["dataset_name"] = p.datasetName;
  if (!p.datasetPath.empty()) json["dataset_path"] = p.datasetPath;
  json["num_prompts"] = p.numPrompts;
  if (p.sharegptOutputLen) json["sharegpt_output_len"] = *p.sharegptOutputLen;
  json["random_input_len"] = p.randomInputLen;
  json["random_output_len"] = p.randomOutputLen;
  json["random_range_ratio"] = p.randomRangeRatio;
  json["random_prefix_len"] = p.randomPrefixLen;
  json["prefix_repetition_prefix_len"] = p.prefixRepetitionPrefixLen;
  json["prefix_repetition_suffix_len"] = p.prefixRepetitionSuffixLen;
  json["prefix_repetition_num_prefixes"] = p.prefixRepetitionNumPrefixes;
  json["prefix_repetition_output_len"] = p.prefixRepetitionOutputLen;
  json["ignore_eos"] = p.ignoreEos;
  if (p.temperature) json["temperature"] = *p.temperature;
  if (p.topP) json["top_p"] = *p.topP;
  if (p.topK) json["top_k"] = *p.topK;
  if (p.minP) json["min_p"] = *p.minP;
  if (p.frequencyPenalty) json["frequency_penalty"] = *p.frequencyPenalty;
  if (p.presencePenalty) json["presence_penalty"] = *p.presencePenalty;
  if (p.repetitionPenalty) json["repetition_penalty"] = *p.repetitionPenalty;
  json["load_mode"] = std::string(toString(p.loadMode));
  json["request_rate"] = rateToJson(p.requestRate);
  json["burstiness"] = rateToJson(p.burstiness);
  if (!p.rampUpStrategy.empty()) {
    json["ramp_up_strategy"] = p.rampUpStrategy;
    json["ramp_up_start_rps"] = p.rampUpStartRps;
    json["ramp_up_end_rps"] = p.rampUpEndRps;
  }
  if (p.maxConcurrency) json["max_concurrency"] = *p.maxConcurrency;
  json["concurrency"] = p.concurrency;
  json["sweep_points"] = p.sweepPoints;
  json["seed"] = p.seed;
}

void from_json(const nlohmann::json& json, ProfileSpec& p) {
  if (!json.is_object()) throw MessageError({MessageText::ProfileNotObject, {}});
  for (const auto& [key, value] : json.items()) {
    if (key == "name")
      read(value, "name", p.name);
    else if (key == "edited_from")
      read(value, "edited_from", p.editedFrom);
    else if (key == "title")
      readLanguageMap(value, "title", p.title);
    else if (key == "purpose")
      readLanguageMap(value, "purpose", p.purpose);
    else if (key == "backend")
      read(value, "backend", p.backend);
    else if (key == "endpoint")
      read(value, "endpoint", p.endpoint);
    else if (key == "dataset_name")
      read(value, "dataset_name", p.datasetName);
    else if (key == "dataset_path")
      read(value, "dataset_path", p.datasetPath);
    else if (key == "num_prompts")
      read(value, "num_prompts", p.numPrompts);
    else if (key == "sharegpt_output_len")
      readOptional(value, "sharegpt_output_len", p.sharegptOutputLen);
    else if (key == "random_input_len")
      read(value, "random_input_len", p.randomInputLen);
    else if (key == "random_output_len")
      read(value, "random_output_len", p.randomOutputLen);
    else if (key == "random_range_ratio")
      read(value, "random_range_ratio", p.randomRangeRatio);
    else if (key == "random_prefix_len")
      read(value, "random_prefix_len", p.randomPrefixLen);
    else if (key == "prefix_repetition_prefix_len")
      read(value, key.c_str(), p.prefixRepetitionPrefixLen);
    else if (key == "prefix_repetition_suffix_len")
      read(value, key.c_str(), p.prefixRepetitionSuffixLen);
    else if (key == "prefix_repetition_num_prefixes")
      read(value, key.c_str(), p.prefixRepetitionNumPrefixes);
    else if (key == "prefix_repetition_output_len")
      read(value, key.c_str(), p.prefixRepetitionOutputLen);
    else if (key == "ignore_eos")
      read(value, "ignore_eos", p.ignoreEos);
    else if (key == "temperature")
      readOptional(value, "temperature", p.temperature);
    else if (key == "top_p")
      readOptional(value, "top_p", p.topP);
    else if (key == "top_k")
      readOptional(value, "top_k", p.topK);
    else if (key == "min_p")
      readOptional(value, "min_p", p.minP);
    else if (key == "frequency_penalty")
      readOptional(value, "frequency_penalty", p.frequencyPenalty);
    else if (key == "presence_penalty")
      readOptional(value, "presence_penalty", p.presencePenalty);
    else if (key == "repetition_penalty")
      readOptional(value, "repetition_penalty", p.repetitionPenalty);
    else if (key == "ramp_up_strategy")
      read(value, "ramp_up_strategy", p.rampUpStrategy);
    else if (key == "ramp_up_start_rps")
      read(value, "ramp_up_start_rps", p.rampUpStartRps);
    else if (key == "ramp_up_end_rps")
      read(value, "ramp_up_end_rps", p.rampUpEndRps);
    else if (key == "load_mode") {
      std::string mode;
      read(value, "load_mode", mode);
      p.loadMode = parseLoadMode(mode);
    } else if (key == "request_rate")
      p.requestRate = rateFromJson(value, "request_rate");
    else if (key == "burstiness")
      p.burstiness = rateFromJson(value, "burstiness");
    else if (key == "max_concurrency")
      readOptional(value, "max_concurrency", p.maxConcurrency);
    else if (key == "concurrency")
      read(value, "concurrency", p.concurrency);
    else if (key == "sweep_points")
      read(value, "sweep_points", p.sweepPoints);
    else if (key == "seed")
      read(value, "seed", p.seed);
    else
      throw MessageError({MessageText::ProfileFieldUnknown, {key}});
  }
}

namespace {

std::filesystem::path profilesDir() {
  return resourcesDir() / "profiles";
}

ProfileSpec loadProfileFile(const std::filesystem::path& file) {
  if (std::filesystem::is_directory(file))
    throw MessageError({MessageText::InputIsFolder,
                        {file.string(), Message{MessageText::InputKindProfile, {}}.asArgument()}});
  std::ifstream in(file);
  if (!in) throw MessageError({MessageText::ProfileFileUnreadable, {file.string()}});
  ProfileSpec profile;
  try {
    const nlohmann::json json = nlohmann::json::parse(in);
    from_json(json, profile);
  } catch (const nlohmann::json::exception& e) {
    throw MessageError({MessageText::ProfileFileNotJson, {file.string(), std::string(e.what())}});
  } catch (const Error& e) {
    throw MessageError({MessageText::ProfileFileProblem, {file.string(), errorArgument(e)}});
  }
  if (profile.name.empty()) profile.name = file.stem().string();
  try {
    profile.validate();
  } catch (const Error& e) {
    throw MessageError({MessageText::ProfileFileProblem, {file.string(), errorArgument(e)}});
  }
  return profile;
}

}  // namespace

ProfileSpec loadProfile(const std::string& nameOrPath) {
  const bool isPath =
      nameOrPath.find('/') != std::string::npos || (nameOrPath.size() > 5 && nameOrPath.ends_with(".json"));
  if (isPath) return loadProfileFile(nameOrPath);
  const auto file = profilesDir() / (nameOrPath + ".json");
  if (!std::filesystem::exists(file)) {
    std::string known;
    for (const auto& profile : listProfiles())
      known += (known.empty() ? "" : ", ") + profile.name;
    throw MessageError({MessageText::ProfileUnknown, {nameOrPath, known}});
  }
  return loadProfileFile(file);
}

std::vector<ProfileSpec> listProfiles() {
  std::vector<ProfileSpec> out;
  const auto dir = profilesDir();
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (entry.path().extension() == ".json") out.push_back(loadProfileFile(entry.path()));
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return out;
}

}  // namespace ayar
