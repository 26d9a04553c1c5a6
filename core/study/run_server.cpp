#include "core/study/run_server.h"

#include <algorithm>
#include <chrono>
#include <vector>

#include "core/error.h"
#include "core/load/openai_request.h"
#include "core/store/secret_scrubber.h"
#include "core/study/profile_spec.h"
#include "core/study/request_builder.h"

namespace ayar {
namespace {

constexpr auto kTokenizeTimeout = std::chrono::seconds(30);

// The server's /tokenize of `prompt` (vLLM's API); none when the server has no such route.
std::optional<std::vector<nlohmann::json>> serverTokens(const std::string& baseUrl, const std::string& model,
                                                        const std::string& prompt,
                                                        const std::string& apiKey) {
  const nlohmann::json request = {{"model", model}, {"prompt", prompt}, {"add_special_tokens", false}};
  const HttpProbe probe = httpPost(baseUrl + "/tokenize", request.dump(), kTokenizeTimeout, apiKey);
  if (probe.status != 200) return std::nullopt;
  try {
    const auto json = nlohmann::json::parse(probe.body);
    if (!json.contains("tokens") || !json["tokens"].is_array()) return std::nullopt;
    return json["tokens"].get<std::vector<nlohmann::json>>();
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

// The fields that set a request's length, to name in an error.
std::string lengthFields(const ProfileSpec& profile) {
  if (profile.datasetName == "random") return "--random-input-len / --random-output-len";
  if (profile.datasetName == "prefix-repetition")
    return "--prefix-repetition-prefix-len / --prefix-repetition-suffix-len / --prefix-repetition-output-len";
  return "--sharegpt-output-len";
}

}  // namespace

ServedModels ServedModels::ask(const std::string& baseUrl, const std::string& apiKey) {
  ServedModels models{httpGet(baseUrl + "/v1/models", std::chrono::seconds(10), apiKey)};
  if (models.probe.status != 200) return models;
  try {
    const auto json = nlohmann::json::parse(models.probe.body);
    const auto data = json.find("data");
    if (data != json.end() && data->is_array()) models.data = *data;
  } catch (const std::exception&) {
  }
  return models;
}

std::string ServedModels::first(const std::string& baseUrl) const {
  if (probe.status != 200) {
    throw MessageError({MessageText::RunModelsUnanswered,
                        {redactUrlCredentials(baseUrl),
                         probe.status ? "HTTP " + std::to_string(probe.status) : probe.error}});
  }
  if (data.empty() || !data.front().is_object() || !data.front().contains("id") ||
      !data.front().at("id").is_string())
    throw MessageError({MessageText::RunModelsEmpty, {redactUrlCredentials(baseUrl)}});
  return data.front().at("id").get<std::string>();
}

std::optional<std::int64_t> ServedModels::contextLength(const std::string& model) const {
  for (const auto& entry : data) {
    if (!entry.is_object() || entry.value("id", std::string()) != model) continue;
    const auto found = entry.find("max_model_len");
    if (found != entry.end() && found->is_number_integer() && found->get<std::int64_t>() > 0)
      return found->get<std::int64_t>();
  }
  return std::nullopt;
}

bool ServedModels::simulated() const {
  for (const auto& model : data) {
    if (!model.is_object()) continue;
    if (model.value("simulated", false)) return true;
    const auto owner = model.find("owned_by");
    if (owner != model.end() && owner->is_string() && owner->get<std::string>() == "ayar-sim") return true;
  }
  return false;
}

void alignPromptsWithServer(BuiltRequests& built, const std::string& baseUrl, const std::string& model,
                            const std::string& apiKey, const StageFunction& stage) {
  if (built.requests.empty()) return;
  LoadRequest& first = built.requests.front();
  const auto firstTokens = serverTokens(baseUrl, model, first.prompt, apiKey);
  if (!firstTokens) {
    stage({MessageText::StageWarning,
           {Message{MessageText::StageNoTokenize, {redactUrlCredentials(baseUrl)}}.asArgument()}});
    return;
  }
  if (firstTokens->size() == static_cast<std::size_t>(first.promptTokens)) {
    stage({MessageText::StageTokenizeAgrees, {}});
    return;
  }
  const std::vector<MessageArgument> counts{std::to_string(firstTokens->size()),
                                            std::to_string(first.promptTokens)};
  if (built.datasetName != "random" && built.datasetName != "prefix-repetition") {
    stage({MessageText::StageWarning, {Message{MessageText::StageTokenizeDiffersKept, counts}.asArgument()}});
    return;
  }
  stage({MessageText::StageTokenizeDiffersCut, counts});
  int cut = 0;
  for (LoadRequest& request : built.requests) {
    const auto tokens = serverTokens(baseUrl, model, request.prompt, apiKey);
    if (!tokens || tokens->size() <= static_cast<std::size_t>(request.promptTokens)) continue;
    const nlohmann::json kept =
        std::vector<nlohmann::json>(tokens->begin(), tokens->begin() + request.promptTokens);
    const HttpProbe probe =
        httpPost(baseUrl + "/detokenize", nlohmann::json{{"model", model}, {"tokens", kept}}.dump(),
                 kTokenizeTimeout, apiKey);
    if (probe.status != 200) continue;
    try {
      request.prompt = nlohmann::json::parse(probe.body).at("prompt").get<std::string>();
      ++cut;
    } catch (const nlohmann::json::exception&) {
    }
  }
  stage({MessageText::StagePromptsCut, {std::to_string(cut), std::to_string(built.requests.size())}});
}

void checkContext(const BuiltRequests& built, const ProfileSpec& profile, const ServedModels& models,
                  const std::string& model) {
  const std::optional<std::int64_t> context = models.contextLength(model);
  if (!context || built.requests.empty()) return;
  const auto longest = std::max_element(built.requests.begin(), built.requests.end(),
                                        [](const LoadRequest& a, const LoadRequest& b) {
                                          return std::int64_t{a.promptTokens} + a.expectedOutputTokens <
                                                 std::int64_t{b.promptTokens} + b.expectedOutputTokens;
                                        });
  if (std::int64_t{longest->promptTokens} + longest->expectedOutputTokens <= *context) return;
  throw MessageError({MessageText::RunBeyondContext,
                      {countArgument(longest->promptTokens), countArgument(longest->expectedOutputTokens),
                       model, countArgument(*context), lengthFields(profile)}});
}

void postProfilerSwitch(const std::string& url, const std::string& apiKey, const StageFunction& stage) {
  const HttpProbe probe = httpPost(url, "{}", std::chrono::seconds(60), apiKey);
  if (probe.status == 200) {
    stage({MessageText::StageProfilerDone, {redactUrlCredentials(url)}});
  } else {
    const Message failed{
        MessageText::StageProfilerFailed,
        {redactUrlCredentials(url), probe.status ? "HTTP " + std::to_string(probe.status) : probe.error}};
    stage({MessageText::StageWarning, {failed.asArgument()}});
  }
}

}  // namespace ayar
