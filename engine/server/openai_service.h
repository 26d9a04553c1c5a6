#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/tokenizer/tokenizer.h"
#include "engine/scheduler/engine_loop.h"
#include "engine/server/completion_request.h"
#include "engine/server/http_server.h"
#include "engine/server/server_metrics.h"

namespace ayar::engine {

// What the routes say about the model being served.
struct ServedModel {
  std::string servedName;  // what clients send as "model"
  std::string root;        // the MODEL argument (preset name or folder)
  int maxModelLen = 0;
  int vocabSize = 151936;
  std::string device;  // "cpu", "sim", ...
  bool simulated = false;
  std::string simProfile;  // the --sim-profile value, when simulated
  int numBlocks = 0;
  int blockSize = 16;
  std::string apiKey;  // empty: no key required
  bool qwen3ReasoningParser = false;
  SamplingDefaults samplingDefaults;
};

// The OpenAI-compatible routes as vLLM serves them (/v1/completions, /v1/chat/completions,
// /v1/models, /health, /metrics, /version) on top of an EngineLoop: validates and tokenizes a request
// on the io thread, submits it, and streams the loop's events back. Events reach the io threads in
// batches (one post per thread per batch, not per token) and each connection gets one write per batch.
class OpenAiService {
 public:
  OpenAiService(ServedModel model, std::shared_ptr<const Tokenizer> tokenizer, EngineLoop& loop,
                HttpServer& server, ServerMetrics& metrics);
  ~OpenAiService();
  OpenAiService(const OpenAiService&) = delete;
  OpenAiService& operator=(const OpenAiService&) = delete;

  // The HttpHandler; runs on the connection's io thread.
  void handle(const std::shared_ptr<HttpConnection>& connection, HttpRequest&& request);

  // /health answers 503 from here on.
  void beginShutdown() { m_shuttingDown.store(true); }

 private:
  class EventInbox;

  void handleGeneration(ApiRoute route, const std::shared_ptr<HttpConnection>& connection,
                        HttpRequest&& request);
  void respondError(HttpConnection& connection, const struct ApiError& error,
                    std::string_view extraHeaders = {});
  bool authorized(const HttpRequest& request) const;
  std::string modelsJson() const;
  std::string newResponseId(ApiRoute route);

  ServedModel m_model;
  std::shared_ptr<const Tokenizer> m_tokenizer;
  EngineLoop& m_loop;
  HttpServer& m_server;
  ServerMetrics& m_metrics;
  std::vector<TokenId> m_eosTokenIds;
  std::int64_t m_startedAt = 0;
  std::uint64_t m_idPrefix = 0;
  std::atomic<std::uint64_t> m_nextId{0};
  std::atomic<bool> m_shuttingDown{false};
  std::vector<std::unique_ptr<EventInbox>> m_inboxes;  // one per io thread
};

}  // namespace ayar::engine
