#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace ayar::test {

// Defaults for every stream; a request's body may override them per request (see SseTestServer).
struct SseTestServerOptions {
  double ttftMs = 0;           // request fully received -> first chunk
  double itlMs = 0;            // between chunks; 0 streams as fast as the socket takes it
  int tokensPerChunk = 1;      // tokens carried by each chunk (the last one may carry fewer)
  bool recordRequests = true;  // keep a ServedRequest per request (benchmarks turn it off)
  // Serve vLLM's POST /tokenize and /detokenize with a byte-level tokenizer (each UTF-8 byte one
  // token, as ByT5 counts): a server whose tokenizer is not Qwen3's. Off: both are 404, as on a
  // server without them.
  bool byteTokenizer = false;
};

// What the server did for one request. Times are std::chrono::steady_clock, taken on the server thread.
struct ServedRequest {
  std::size_t connectionId = 0;
  std::string method;
  std::string path;
  std::string authorization;  // the Authorization header as received, "" when absent
  std::string requestId;      // the x-request-id header as received, "" when absent
  std::vector<std::pair<std::string, std::string>> headers;  // every header, names in lower case
  std::string body;
  int status = 0;                                    // 0 while no response was sent (e.g. "no_response")
  std::chrono::steady_clock::time_point receivedAt;  // the whole request had arrived
  // Just before the write() that carried each chunk with non-empty choices, in order.
  std::vector<std::chrono::steady_clock::time_point> chunkSentAt;
  int completionTokens = 0;  // what the usage chunk says (or would have said)
};

// A loopback OpenAI-compatible streaming server for the load generator's tests and benchmarks:
// single-threaded epoll on its own thread, bound to 127.0.0.1 on a free port. HTTP/1.1 keep-alive,
// Content-Length request bodies, chunked streaming responses.
//
// POST /v1/completions and /v1/chat/completions stream: headers at once, the first chunk TTFT after
// the request arrived, then one chunk every ITL, ceil(N / tokensPerChunk) chunks for N = max_tokens
// (completions) or max_completion_tokens (chat, else max_tokens; default 16); chat streams first a
// role chunk with empty content, as vLLM does. Then a usage chunk when stream_options.include_usage,
// then `data: [DONE]`. GET /health answers 200. Timers are a deadline heap on a timerfd (~0.1 ms).
//
// Per request, an "ayar_test" object in the body overrides or injects:
//   ttft_ms, itl_ms, tokens_per_chunk, token_text (default " tok"),
//   status: 401 | 404 | 429 | 500 ...  -> that status with an OpenAI error body, no stream
//   error_after_chunks: k              -> an {"error": {...}} event after k chunks, then [DONE]
//   drop_after_chunks: k               -> the connection closes after k chunks (drop_with_reset: RST)
//   no_response: true                  -> the request is read and never answered
//   no_done: true                      -> the stream ends cleanly but without [DONE]
//   extra_tokens: n                    -> n tokens more than the request's limit, as a server that
//                                         ignores max_tokens sends (usage counts them too)
//   garbage_after_chunks: k            -> after k chunks, a line of raw bytes that is not an SSE field
//   usage_completion_tokens: n         -> the usage chunk reports n completion tokens
//   close_after_response: true         -> after the response the connection closes, unannounced (no
//                                         "Connection: close"), as an idle keep-alive timeout does
//   wait_for_open_streams: n           -> no chunk until n streams are open at once (or 10 s passed)
class SseTestServer {
 public:
  using Clock = std::chrono::steady_clock;

  explicit SseTestServer(SseTestServerOptions options = {});
  ~SseTestServer();  // stops the thread and closes every connection
  SseTestServer(const SseTestServer&) = delete;
  SseTestServer& operator=(const SseTestServer&) = delete;

  int port() const { return m_port; }
  std::string baseUrl() const { return "http://127.0.0.1:" + std::to_string(m_port); }

  // Requests in arrival order, with what was sent so far. Thread-safe.
  std::vector<ServedRequest> servedRequests() const;
  std::size_t openStreams() const { return m_openStreams.load(); }
  std::size_t peakOpenStreams() const { return m_peakOpenStreams.load(); }
  std::size_t connectionsAccepted() const { return m_connectionsAccepted.load(); }
  std::uint64_t chunksSent() const { return m_chunksSent.load(); }

  void stop();

 private:
  struct Loop;
  friend struct Loop;

  SseTestServerOptions m_options;
  int m_port = 0;
  std::unique_ptr<Loop> m_loop;
  std::thread m_thread;
  mutable std::mutex m_servedMutex;
  std::vector<ServedRequest> m_served;
  std::atomic<std::size_t> m_openStreams{0};
  std::atomic<std::size_t> m_peakOpenStreams{0};
  std::atomic<std::size_t> m_connectionsAccepted{0};
  std::atomic<std::uint64_t> m_chunksSent{0};
};

}  // namespace ayar::test
