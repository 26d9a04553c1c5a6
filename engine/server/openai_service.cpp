#include "engine/server/openai_service.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <utility>

#include "core/error.h"
#include "engine/common/splitmix64.h"
#include "engine/server/api_error.h"
#include "engine/server/generation_stream.h"

#ifndef AYAR_VERSION
#define AYAR_VERSION "0.0.0"
#endif

namespace ayar::engine {

namespace {

constexpr std::string_view kJson = "application/json";

std::int64_t unixSeconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Compares without an early exit, so that the time taken does not tell how much of a key was right.
bool equalKeys(std::string_view given, std::string_view expected) {
  unsigned char difference = given.size() == expected.size() ? 0 : 1;
  for (std::size_t i = 0; i < given.size(); ++i) {
    difference |=
        static_cast<unsigned char>(given[i] ^ expected[i % std::max<std::size_t>(1, expected.size())]);
  }
  return difference == 0;
}

}  // namespace

// Carries engine events from the loop thread to one io thread. The loop's sink only appends under a
// mutex and posts a drain when none is pending; the drain then handles every event that arrived
// meanwhile and writes each connection once.
class OpenAiService::EventInbox {
 public:
  EventInbox(OpenAiService& service, std::size_t worker) : m_service(service), m_worker(worker) {}

  // On the loop thread. `stream` is the sink's own reference: every request ends with a final event on
  // the same sink, delivered after all its others and drained in order, so only that final delivery
  // needs to keep the stream alive (the sink may be destroyed right after it); the others point to it.
  void push(const std::shared_ptr<GenerationStream>& stream, GenerationEvent&& event) {
    const auto now = Clock::now();
    const bool final = event.finish != FinishReason::kNone;
    bool postDrain = false;
    {
      std::lock_guard lock(m_mutex);
      m_pending.push_back({stream.get(), final ? stream : nullptr, std::move(event), now});
      postDrain = !m_drainPosted;
      m_drainPosted = true;
    }
    if (postDrain) m_service.m_server.post(m_worker, [this] { drain(); });
  }

 private:
  struct Delivery {
    GenerationStream* stream;
    std::shared_ptr<GenerationStream> keepAlive;  // set on the final event only
    GenerationEvent event;
    Clock::time_point deliveredAt;
  };

  void drain() {
    {
      std::lock_guard lock(m_mutex);
      m_draining.swap(m_pending);
      m_drainPosted = false;
    }
    for (Delivery& delivery : m_draining) {
      GenerationStream& stream = *delivery.stream;
      if (stream.onEvent(delivery.event, delivery.deliveredAt) ==
          GenerationStream::EventResult::kAbortEngineRequest) {
        m_aborts.push_back(stream.responseId());
      }
      if (stream.needsFlush() && !stream.queuedForFlush()) {
        // Alive until the end of this drain: its final delivery, if any, is in m_draining too.
        stream.setQueuedForFlush(true);
        m_toFlush.push_back(&stream);
      }
    }
    for (GenerationStream* stream : m_toFlush) {
      stream->setQueuedForFlush(false);
      stream->flush();
    }
    m_toFlush.clear();
    for (const std::string& id : m_aborts)
      m_service.m_loop.abort(id);
    m_aborts.clear();
    m_draining.clear();
  }

  OpenAiService& m_service;
  std::size_t m_worker;
  std::mutex m_mutex;
  std::vector<Delivery> m_pending;  // guarded by m_mutex
  bool m_drainPosted = false;       // guarded by m_mutex
  // Used by the io thread only; kept between drains so their capacity is reused.
  std::vector<Delivery> m_draining;
  std::vector<GenerationStream*> m_toFlush;
  std::vector<std::string> m_aborts;
};

OpenAiService::OpenAiService(ServedModel model, std::shared_ptr<const Tokenizer> tokenizer, EngineLoop& loop,
                             HttpServer& server, ServerMetrics& metrics)
    : m_model(std::move(model)),
      m_tokenizer(std::move(tokenizer)),
      m_loop(loop),
      m_server(server),
      m_metrics(metrics),
      m_startedAt(unixSeconds()) {
  // Qwen3 ends a turn with <|im_end|> and a document with <|endoftext|> (generation_config.json lists both).
  if (auto eos = m_tokenizer->eosTokenId()) m_eosTokenIds.push_back(*eos);
  for (const char* token : {"<|im_end|>", "<|endoftext|>"}) {
    if (auto id = m_tokenizer->tokenToId(token)) {
      if (std::find(m_eosTokenIds.begin(), m_eosTokenIds.end(), *id) == m_eosTokenIds.end()) {
        m_eosTokenIds.push_back(*id);
      }
    }
  }
  std::random_device entropy;
  m_idPrefix = (std::uint64_t{entropy()} << 32) ^ entropy();
  for (std::size_t i = 0; i < server.workerCount(); ++i)
    m_inboxes.push_back(std::make_unique<EventInbox>(*this, i));
}

OpenAiService::~OpenAiService() = default;

void OpenAiService::respondError(HttpConnection& connection, const ApiError& error,
                                 std::string_view extraHeaders) {
  m_metrics.countHttpError();
  connection.respond(error.status, kJson, error.toJson(), extraHeaders);
}

bool OpenAiService::authorized(const HttpRequest& request) const {
  if (m_model.apiKey.empty()) return true;
  return equalKeys(request.authorization, "Bearer " + m_model.apiKey);
}

std::string OpenAiService::newResponseId(ApiRoute route) {
  const std::uint64_t counter = m_nextId.fetch_add(1, std::memory_order_relaxed);
  // splitmix64 of (prefix + counter): unique in this process, not guessable from a neighbour's id.
  const std::uint64_t mixed = splitmix64Mix(m_idPrefix + counter * kSplitMix64Gamma);
  char hex[40];
  std::snprintf(hex, sizeof hex, "%016llx%016llx", static_cast<unsigned long long>(m_idPrefix),
                static_cast<unsigned long long>(mixed));
  return (route == ApiRoute::kCompletions ? "cmpl-" : "chatcmpl-") + std::string(hex);
}

std::string OpenAiService::modelsJson() const {
  using nlohmann::json;
  json ayar = {{"device", m_model.device},
               {"simulated", m_model.simulated},
               {"num_kv_blocks", m_model.numBlocks},
               {"block_size", m_model.blockSize}};
  if (m_model.simulated) ayar["sim_profile"] = m_model.simProfile;
  json card = {{"id", m_model.servedName},
               {"object", "model"},
               {"created", m_startedAt},
               {"owned_by", m_model.simulated ? "ayar-sim" : "ayar"},
               {"root", m_model.root},
               {"parent", nullptr},
               {"max_model_len", m_model.maxModelLen},
               {"simulated", m_model.simulated},
               {"ayar", std::move(ayar)}};
  json list = {{"object", "list"}, {"data", json::array({std::move(card)})}};
  return list.dump(-1, ' ', false, json::error_handler_t::replace);
}

void OpenAiService::handle(const std::shared_ptr<HttpConnection>& connection, HttpRequest&& request) {
  const std::string& path = request.path;
  // HEAD is answered as GET, and the server leaves the body out.
  const std::string method = request.method == "HEAD" ? std::string("GET") : request.method;
  struct Route {
    std::string_view path;
    std::string_view method;
  };
  static constexpr Route kRoutes[] = {{"/v1/completions", "POST"}, {"/v1/chat/completions", "POST"},
                                      {"/v1/models", "GET"},       {"/health", "GET"},
                                      {"/metrics", "GET"},         {"/version", "GET"}};
  // As vLLM: /health, /metrics and /version stay open when an API key is set; /v1 needs it. The key is
  // checked before the route, so that a client without it learns nothing of what routes exist.
  if ((path == "/v1" || path.starts_with("/v1/")) && !authorized(request)) {
    return respondError(
        *connection,
        ApiError::unauthorized("Unauthorized: send the header 'Authorization: Bearer <key>' with the "
                               "key the server was started with (--api-key, --api-key-file or "
                               "AYAR_API_KEY)."));
  }
  const Route* route = nullptr;
  for (const Route& candidate : kRoutes) {
    if (candidate.path == path) route = &candidate;
  }
  if (route == nullptr) {
    return respondError(*connection,
                        ApiError::notFound("Not Found: ayar-engine has no route " + path +
                                           ". It serves POST /v1/completions, POST /v1/chat/completions, GET "
                                           "/v1/models, GET /health, GET /metrics and GET /version."));
  }
  if (route->method != method) {
    return respondError(
        *connection,
        ApiError::methodNotAllowed("Method Not Allowed: " + path + " takes " + std::string(route->method) +
                                   ", not " + request.method + "."),
        route->method == "GET" ? "Allow: GET, HEAD\r\n" : "Allow: POST\r\n");
  }
  if (path == "/health") {
    if (m_shuttingDown.load()) {
      return respondError(*connection, ApiError::unavailable("The server is shutting down."));
    }
    return connection->respond(200, "text/plain; charset=utf-8", {}, {});
  }
  if (path == "/metrics") {
    m_metrics.setOpenConnections(m_server.openConnections());
    return connection->respond(200, "text/plain; version=0.0.4; charset=utf-8",
                               m_metrics.renderPrometheus(m_loop.stats()), {});
  }
  if (path == "/version") return connection->respond(200, kJson, R"({"version":")" AYAR_VERSION R"("})", {});
  if (path == "/v1/models") return connection->respond(200, kJson, modelsJson(), {});
  handleGeneration(path == "/v1/completions" ? ApiRoute::kCompletions : ApiRoute::kChatCompletions,
                   connection, std::move(request));
}

void OpenAiService::handleGeneration(ApiRoute route, const std::shared_ptr<HttpConnection>& connection,
                                     HttpRequest&& httpRequest) {
  if (m_shuttingDown.load()) {
    return respondError(*connection, ApiError::unavailable("The server is shutting down."));
  }
  CompletionRequest request;
  std::vector<TokenId> prompt;
  try {
    request = parseCompletionRequest(route, httpRequest.body, m_model.samplingDefaults);
    if (!request.model.empty() && request.model != m_model.servedName) {
      ApiError error = ApiError::notFound("The model `" + request.model + "` does not exist.");
      error.param = "model";
      throw error;
    }
    if (route == ApiRoute::kChatCompletions) {
      ChatTemplateOptions options;
      options.addGenerationPrompt = request.addGenerationPrompt;
      options.enableThinking = request.enableThinking;
      prompt = m_tokenizer->encode(applyChatTemplate(request.messages, options));
    } else if (request.promptText) {
      prompt = m_tokenizer->encode(*request.promptText);
    } else {
      prompt = std::move(request.promptTokenIds);
      for (TokenId id : prompt) {
        if (id >= m_model.vocabSize) {
          throw ApiError::badRequest("Token id " + std::to_string(id) +
                                         " is out of vocabulary: the model has " +
                                         std::to_string(m_model.vocabSize) + " tokens.",
                                     "prompt");
        }
      }
    }
    if (prompt.empty()) throw ApiError::badRequest("The prompt is empty after tokenization.", "prompt");
    const int promptLength = static_cast<int>(prompt.size());
    if (promptLength >= m_model.maxModelLen) {
      throw ApiError::badRequest("This model's maximum context length is " +
                                 std::to_string(m_model.maxModelLen) + " tokens. However, your request has " +
                                 std::to_string(promptLength) +
                                 " input tokens. Please reduce the length of the input messages.");
    }
    if (request.maxTokens && *request.maxTokens > m_model.maxModelLen - promptLength) {
      const std::string asked = std::to_string(*request.maxTokens);
      throw ApiError::badRequest(
          "'max_tokens' or 'max_completion_tokens' is too large: " + asked +
              ". This model's maximum context length is " + std::to_string(m_model.maxModelLen) +
              " tokens and your request has " + std::to_string(promptLength) + " input tokens (" + asked +
              " > " + std::to_string(m_model.maxModelLen) + " - " + std::to_string(promptLength) + ").",
          "max_tokens");
    }
    if (!request.maxTokens) request.maxTokens = m_model.maxModelLen - promptLength;
    if (request.minTokens > *request.maxTokens) {
      throw ApiError::badRequest("min_tokens (" + std::to_string(request.minTokens) +
                                     ") is larger than the tokens the request may generate (" +
                                     std::to_string(*request.maxTokens) + ").",
                                 "min_tokens");
    }
  } catch (const ApiError& error) {
    return respondError(*connection, error);
  } catch (const ayar::Error& error) {
    return respondError(*connection, ApiError::badRequest(error.what()));
  }

  GenerationStreamSetup setup;
  setup.route = route;
  setup.responseId = newResponseId(route);
  setup.created = unixSeconds();
  setup.arrival = httpRequest.receivedAt;
  setup.model = m_model.servedName;
  setup.stream = request.stream;
  setup.includeUsage = request.includeUsage;
  setup.promptTokens = static_cast<int>(prompt.size());
  setup.minTokens = request.minTokens;
  setup.stop = std::move(request.stop);
  setup.skipSpecialTokens = request.skipSpecialTokens;
  if (route == ApiRoute::kChatCompletions && m_model.qwen3ReasoningParser) {
    Qwen3ReasoningParser::ThinkTokens thinkTokens;
    if (auto id = m_tokenizer->tokenToId("<|im_start|>")) thinkTokens.imStart = *id;
    if (auto id = m_tokenizer->tokenToId("<think>")) thinkTokens.thinkStart = *id;
    if (auto id = m_tokenizer->tokenToId("</think>")) thinkTokens.thinkEnd = *id;
    setup.reasoning.emplace(thinkTokens, prompt);
  }

  GenerationRequest generation;
  generation.requestId = setup.responseId;
  generation.maxTokens = *request.maxTokens;
  generation.minTokens = request.minTokens;
  // ignore_eos drops only the end-of-sequence tokens; the request's own stop_token_ids still end it
  // (as in vLLM), so the loop's ignoreEos, which would ignore every stop token, is set only without them.
  generation.ignoreEos = request.ignoreEos && request.stopTokenIds.empty();
  generation.stopTokenIds = request.ignoreEos ? std::vector<TokenId>{} : m_eosTokenIds;
  generation.stopTokenIds.insert(generation.stopTokenIds.end(), request.stopTokenIds.begin(),
                                 request.stopTokenIds.end());
  generation.sampling = request.sampling;
  generation.arrival = setup.arrival;
  generation.promptTokens = std::move(prompt);

  auto stream = std::make_shared<GenerationStream>(std::move(setup), *m_tokenizer, m_metrics, connection);
  EventInbox* inbox = m_inboxes[connection->worker()].get();
  // The sink runs on the loop thread: it only hands the event over. The io thread cannot drain before
  // this function returns, so the stream is fully set up before it sees its first event.
  const auto submitted = m_loop.submit(std::move(generation), [inbox, stream](GenerationEvent&& event) {
    inbox->push(stream, std::move(event));
  });
  if (submitted == EngineLoop::SubmitResult::kQueueFull) {
    return respondError(*connection,
                        ApiError::unavailable("The server is at capacity: too many requests are waiting "
                                              "(--max-waiting-requests). Retry later or raise the limit."));
  }
  if (submitted == EngineLoop::SubmitResult::kTooLong) {
    return respondError(*connection,
                        ApiError::badRequest("The request needs more KV cache than the server has (" +
                                             std::to_string(m_model.numBlocks) + " blocks of " +
                                             std::to_string(m_model.blockSize) +
                                             " tokens): send a shorter prompt or a smaller max_tokens."));
  }
  connection->setCancelHandler([this, weak = std::weak_ptr<GenerationStream>(stream)] {
    if (auto cancelled = weak.lock(); cancelled && !cancelled->done()) {
      cancelled->cancel();
      m_loop.abort(cancelled->responseId());
    }
  });
  stream->start();
}

}  // namespace ayar::engine
