#pragma once

// What a run asks of the server it measures, beside the load itself: the models it serves (once a
// run), whether its tokenizer counts the prompts as Ayar does, whether the longest request fits its
// context, and vLLM's profiler switch.

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/engines/engine_launcher.h"
#include "core/report/message_text.h"

namespace ayar {

struct BuiltRequests;
struct ProfileSpec;

using StageFunction = std::function<void(const Message&)>;

// What the server says of the models it serves (GET /v1/models), asked once a run: the model to
// ask for when none is given, whether it is simulated, and each model's context length.
struct ServedModels {
  HttpProbe probe;
  nlohmann::json data = nlohmann::json::array();  // the "data" list, when the answer had one

  static ServedModels ask(const std::string& baseUrl, const std::string& apiKey);
  // The model id the server lists first (what vLLM's client does when no model is given). Throws
  // ayar::Error when the server does not answer or lists none.
  std::string first(const std::string& baseUrl) const;
  // The context length the server gives `model` (vLLM's `max_model_len`); none when it does not say.
  std::optional<std::int64_t> contextLength(const std::string& model) const;
  // True when the server says what it serves is simulated (the bundled engine's sim backend).
  bool simulated() const;
};

// Without a tokenizer for a remote server, Ayar counts with Qwen3's. vLLM checks its prompts against
// the server's /tokenize for its random and prefix-repetition sets; Ayar does the same: when the
// server counts the first prompt otherwise, every prompt the server finds longer is cut to its
// length and turned back into text with /detokenize. Without /tokenize, the output says how the
// lengths were counted and how to give the right tokenizer.
void alignPromptsWithServer(BuiltRequests& built, const std::string& baseUrl, const std::string& model,
                            const std::string& apiKey, const StageFunction& stage);

// Refuses a run whose longest request the server cannot take, before any is sent: each would fail
// alone, and the run would measure errors.
void checkContext(const BuiltRequests& built, const ProfileSpec& profile, const ServedModels& models,
                  const std::string& model);

// vLLM's --profile: the server's profiler is switched on before the run and off after it.
void postProfilerSwitch(const std::string& url, const std::string& apiKey, const StageFunction& stage);

}  // namespace ayar
