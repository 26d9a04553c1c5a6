#include "tests/support/sse_server/sse_test_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <queue>
#include <stdexcept>
#include <unordered_map>

namespace ayar::test {

namespace {

using Clock = SseTestServer::Clock;

constexpr std::uint64_t kListenId = 0;
constexpr std::uint64_t kWakeId = 1;
constexpr std::uint64_t kTimerId = 2;
constexpr std::uint64_t kFirstConnectionId = 16;
constexpr std::size_t kBatchBytes = 16 * 1024;  // one write() per stream per round, at most
constexpr std::size_t kMaxHeaderBytes = 64 * 1024;
constexpr std::size_t kMaxBodyBytes = std::size_t{64} << 20;
constexpr auto kParkLimit = std::chrono::seconds(10);

Clock::duration fromMs(double ms) {
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double, std::milli>(ms));
}

std::string jsonQuoted(const std::string& text) {
  return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string jsonEscaped(const std::string& text) {
  const std::string quoted = jsonQuoted(text);
  return quoted.substr(1, quoted.size() - 2);
}

const char* reasonPhrase(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 400:
      return "Bad Request";
    case 401:
      return "Unauthorized";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 413:
      return "Payload Too Large";
    case 429:
      return "Too Many Requests";
    case 500:
      return "Internal Server Error";
    case 503:
      return "Service Unavailable";
    default:
      return "Error";
  }
}

std::string errorMessageFor(int status, const std::string& model) {
  switch (status) {
    case 401:
      return "Unauthorized: the API key is missing or invalid";
    case 404:
      return "The model `" + model + "` does not exist.";
    case 429:
      return "Too many requests: rate limit exceeded, retry later";
    case 500:
      return "Internal server error: the engine failed";
    default:
      return "Simulated error " + std::to_string(status);
  }
}

int countWords(const std::string& text) {
  int words = 0;
  bool inWord = false;
  for (char c : text) {
    const bool space = c == ' ' || c == '\n' || c == '\t' || c == '\r';
    if (!space && !inWord) ++words;
    inWord = !space;
  }
  return words;
}

int promptTokensOf(const nlohmann::json& body) {
  const auto prompt = body.find("prompt");
  if (prompt != body.end()) {
    if (prompt->is_string()) return countWords(prompt->get<std::string>());
    if (prompt->is_array()) return static_cast<int>(prompt->size());
  }
  int total = 0;
  const auto messages = body.find("messages");
  if (messages != body.end() && messages->is_array()) {
    for (const auto& message : *messages) {
      if (!message.is_object() || !message.contains("content")) continue;
      const auto& content = message["content"];
      if (content.is_string()) total += countWords(content.get<std::string>());
      if (!content.is_array()) continue;
      for (const auto& part : content) {  // [{"type": "text", "text": ...}], as vLLM's client sends it
        if (part.is_object() && part.contains("text") && part["text"].is_string())
          total += countWords(part["text"].get<std::string>());
      }
    }
  }
  return total;
}

struct Stream {
  std::size_t servedIndex = SIZE_MAX;
  bool chat = false;
  std::string rolePayload;  // chat only: vLLM's first chunk, role and empty content
  std::string chunkPrefix;
  std::string chunkSuffix;
  std::string lastChunkSuffix;
  std::string usagePayload;
  std::string tokenText;  // JSON-escaped
  int totalTokens = 16;
  int tokensPerChunk = 1;
  int chunkCount = 1;
  int chunksSent = 0;
  bool roleSent = false;
  double ttftMs = 0;
  Clock::duration itl{};
  Clock::time_point firstAt;
  int errorAfter = -1;
  int dropAfter = -1;
  int garbageAfter = -1;
  bool dropWithReset = false;
  bool noDone = false;
  bool closeAfterResponse = false;  // unannounced: the way a server drops an idle keep-alive connection
  bool includeUsage = false;
  std::size_t parkUntilOpen = 0;  // 0: not parked
  std::uint64_t generation = 0;
  bool finished = false;
};

struct Connection {
  std::uint64_t id = 0;
  int fd = -1;
  std::string in;
  std::string out;
  std::size_t outPos = 0;
  bool wantWrite = false;
  bool closeAfterWrite = false;
  bool silent = false;  // a "no_response" request arrived: ignore everything until the peer closes
  bool closed = false;
  std::unique_ptr<Stream> stream;
};

struct Timer {
  Clock::time_point at;
  std::uint64_t connectionId;
  std::uint64_t generation;
  bool operator>(const Timer& other) const { return at > other.at; }
};

}  // namespace

struct SseTestServer::Loop {
  SseTestServer& server;
  int listenFd = -1;
  int epollFd = -1;
  int timerFd = -1;
  int wakeFd = -1;
  std::atomic<bool> stopping{false};
  std::unordered_map<std::uint64_t, std::unique_ptr<Connection>> connections;
  std::uint64_t nextConnectionId = kFirstConnectionId;
  std::uint64_t nextGeneration = 1;
  std::priority_queue<Timer, std::vector<Timer>, std::greater<>> timers;
  std::vector<std::uint64_t> ready;
  std::vector<std::uint64_t> parked;
  std::vector<std::uint64_t> closedIds;
  std::optional<Clock::time_point> armed;
  std::string scratch;

  explicit Loop(SseTestServer& owner) : server(owner) {
    listenFd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    epollFd = epoll_create1(EPOLL_CLOEXEC);
    timerFd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    wakeFd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (listenFd < 0 || epollFd < 0 || timerFd < 0 || wakeFd < 0) fail("creating sockets");
    const int yes = 1;
    setsockopt(listenFd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = 0;
    if (::bind(listenFd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) fail("bind");
    if (::listen(listenFd, SOMAXCONN) != 0) fail("listen");
    socklen_t length = sizeof address;
    getsockname(listenFd, reinterpret_cast<sockaddr*>(&address), &length);
    server.m_port = ntohs(address.sin_port);
    watch(listenFd, kListenId, EPOLLIN);
    watch(wakeFd, kWakeId, EPOLLIN);
    watch(timerFd, kTimerId, EPOLLIN);
  }

  ~Loop() {
    for (auto& [id, connection] : connections) {
      if (!connection->closed) ::close(connection->fd);
    }
    for (int fd : {listenFd, epollFd, timerFd, wakeFd}) {
      if (fd >= 0) ::close(fd);
    }
  }

  [[noreturn]] void fail(const char* what) {
    const std::string message = std::string("SseTestServer: ") + what + " failed: " + std::strerror(errno);
    for (int fd : {listenFd, epollFd, timerFd, wakeFd}) {
      if (fd >= 0) ::close(fd);
    }
    listenFd = epollFd = timerFd = wakeFd = -1;
    throw std::runtime_error(message);
  }

  void watch(int fd, std::uint64_t id, std::uint32_t events) {
    epoll_event event{};
    event.events = events;
    event.data.u64 = id;
    epoll_ctl(epollFd, EPOLL_CTL_ADD, fd, &event);
  }

  void setWantWrite(Connection& connection, bool want) {
    if (connection.wantWrite == want || connection.closed) return;
    connection.wantWrite = want;
    epoll_event event{};
    event.events = EPOLLIN | (want ? EPOLLOUT : 0u);
    event.data.u64 = connection.id;
    epoll_ctl(epollFd, EPOLL_CTL_MOD, connection.fd, &event);
  }

  Connection* find(std::uint64_t id) {
    const auto it = connections.find(id);
    return it == connections.end() || it->second->closed ? nullptr : it->second.get();
  }

  void run() {
    epoll_event events[256];
    while (!stopping.load()) {
      fireTimers();
      std::vector<std::uint64_t> round;
      round.swap(ready);
      for (std::uint64_t id : round) {
        if (Connection* connection = find(id)) pump(*connection);
      }
      eraseClosed();
      int timeoutMs = -1;
      if (!ready.empty()) {
        timeoutMs = 0;
      } else if (!timers.empty()) {
        armTimer(timers.top().at);
      }
      const int count = epoll_wait(epollFd, events, 256, timeoutMs);
      for (int i = 0; i < count; ++i) {
        const std::uint64_t id = events[i].data.u64;
        std::uint64_t counter = 0;
        if (id == kWakeId) {
          [[maybe_unused]] const auto ignored = ::read(wakeFd, &counter, sizeof counter);
        } else if (id == kTimerId) {
          if (::read(timerFd, &counter, sizeof counter) > 0) armed.reset();
        } else if (id == kListenId) {
          acceptAll();
        } else if (Connection* connection = find(id)) {
          if (events[i].events & EPOLLOUT) onWritable(*connection);
          if (!connection->closed && (events[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR)))
            onReadable(*connection);
        }
      }
      eraseClosed();
    }
  }

  void armTimer(Clock::time_point at) {
    if (armed == at) return;
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(at.time_since_epoch()).count();
    itimerspec spec{};
    spec.it_value.tv_sec = static_cast<time_t>(ns / 1'000'000'000);
    spec.it_value.tv_nsec = static_cast<long>(ns % 1'000'000'000);
    if (spec.it_value.tv_sec == 0 && spec.it_value.tv_nsec == 0) spec.it_value.tv_nsec = 1;
    timerfd_settime(timerFd, TFD_TIMER_ABSTIME, &spec, nullptr);
    armed = at;
  }

  void schedule(Connection& connection, Clock::time_point at) {
    connection.stream->generation = nextGeneration++;
    timers.push(Timer{at, connection.id, connection.stream->generation});
  }

  void fireTimers() {
    const Clock::time_point now = Clock::now();
    while (!timers.empty() && timers.top().at <= now) {
      const Timer timer = timers.top();
      timers.pop();
      Connection* connection = find(timer.connectionId);
      if (!connection || !connection->stream || connection->stream->generation != timer.generation) continue;
      if (connection->stream->parkUntilOpen > 0) {
        releaseParked();  // the 10 s limit passed: stream anyway, the test will see the low peak
      } else {
        ready.push_back(connection->id);
      }
    }
  }

  void acceptAll() {
    for (;;) {
      const int fd = ::accept4(listenFd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
      if (fd < 0) return;
      const int yes = 1;
      setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
      auto connection = std::make_unique<Connection>();
      connection->id = nextConnectionId++;
      connection->fd = fd;
      watch(fd, connection->id, EPOLLIN);
      connections.emplace(connection->id, std::move(connection));
      server.m_connectionsAccepted.fetch_add(1);
    }
  }

  void closeConnection(Connection& connection, bool reset = false) {
    if (connection.closed) return;
    if (connection.stream) endStream(connection);
    if (reset) {
      const linger abortive{1, 0};
      setsockopt(connection.fd, SOL_SOCKET, SO_LINGER, &abortive, sizeof abortive);
    }
    epoll_ctl(epollFd, EPOLL_CTL_DEL, connection.fd, nullptr);
    ::close(connection.fd);
    connection.closed = true;
    closedIds.push_back(connection.id);
  }

  void eraseClosed() {
    for (std::uint64_t id : closedIds)
      connections.erase(id);
    closedIds.clear();
  }

  void endStream(Connection& connection) {
    connection.stream.reset();
    server.m_openStreams.fetch_sub(1);
  }

  void onReadable(Connection& connection) {
    char buffer[64 * 1024];
    for (;;) {
      const ssize_t got = ::recv(connection.fd, buffer, sizeof buffer, 0);
      if (got > 0) {
        if (!connection.silent) connection.in.append(buffer, static_cast<std::size_t>(got));
        if (static_cast<std::size_t>(got) < sizeof buffer) break;
        continue;
      }
      if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
      if (got < 0 && errno == EINTR) continue;
      closeConnection(connection);  // the peer closed or reset
      return;
    }
    handleInput(connection);
  }

  void onWritable(Connection& connection) {
    if (!flushOut(connection)) return;
    if (connection.stream) ready.push_back(connection.id);
  }

  // Writes what is pending; false when the connection is gone.
  bool flushOut(Connection& connection) {
    while (connection.outPos < connection.out.size()) {
      const ssize_t sent = ::send(connection.fd, connection.out.data() + connection.outPos,
                                  connection.out.size() - connection.outPos, MSG_NOSIGNAL);
      if (sent > 0) {
        connection.outPos += static_cast<std::size_t>(sent);
        continue;
      }
      if (sent < 0 && errno == EINTR) continue;
      if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        setWantWrite(connection, true);
        return true;
      }
      closeConnection(connection);
      return false;
    }
    connection.out.clear();
    connection.outPos = 0;
    setWantWrite(connection, false);
    if (connection.closeAfterWrite && !connection.stream) {
      closeConnection(connection);
      return false;
    }
    return true;
  }

  void handleInput(Connection& connection) {
    while (!connection.closed && !connection.silent && !connection.stream) {
      const std::size_t headerEnd = connection.in.find("\r\n\r\n");
      if (headerEnd == std::string::npos) {
        if (connection.in.size() > kMaxHeaderBytes)
          respondAndClose(connection, 400, "request headers too large");
        return;
      }
      const std::string_view head(connection.in.data(), headerEnd);
      const std::size_t requestLineEnd = head.find("\r\n");
      const std::string_view requestLine = head.substr(0, requestLineEnd);
      const std::size_t firstSpace = requestLine.find(' ');
      const std::size_t secondSpace = firstSpace == std::string_view::npos
                                          ? std::string_view::npos
                                          : requestLine.find(' ', firstSpace + 1);
      if (secondSpace == std::string_view::npos) {
        respondAndClose(connection, 400, "malformed request line");
        return;
      }
      ServedRequest request;
      request.connectionId = connection.id;
      request.method = std::string(requestLine.substr(0, firstSpace));
      request.path = std::string(requestLine.substr(firstSpace + 1, secondSpace - firstSpace - 1));
      std::size_t contentLength = 0;
      bool closeRequested = false;
      std::size_t lineStart = requestLineEnd == std::string_view::npos ? head.size() : requestLineEnd + 2;
      while (lineStart < head.size()) {
        std::size_t lineEnd = head.find("\r\n", lineStart);
        if (lineEnd == std::string_view::npos) lineEnd = head.size();
        const std::string_view line = head.substr(lineStart, lineEnd - lineStart);
        lineStart = lineEnd + 2;
        const std::size_t colon = line.find(':');
        if (colon == std::string_view::npos) continue;
        std::string name(line.substr(0, colon));
        std::transform(name.begin(), name.end(), name.begin(),
                       [](unsigned char c) { return std::tolower(c); });
        std::string_view value = line.substr(colon + 1);
        while (!value.empty() && value.front() == ' ')
          value.remove_prefix(1);
        request.headers.emplace_back(name, std::string(value));
        if (name == "content-length") {
          contentLength = static_cast<std::size_t>(std::strtoull(std::string(value).c_str(), nullptr, 10));
        } else if (name == "authorization") {
          request.authorization = std::string(value);
        } else if (name == "x-request-id") {
          request.requestId = std::string(value);
        } else if (name == "connection") {
          closeRequested = value.find("close") != std::string_view::npos;
        } else if (name == "transfer-encoding") {
          respondAndClose(connection, 400, "chunked request bodies are not supported by the test server");
          return;
        }
      }
      if (contentLength > kMaxBodyBytes) {
        respondAndClose(connection, 413, "request body too large");
        return;
      }
      const std::size_t total = headerEnd + 4 + contentLength;
      if (connection.in.size() < total) return;  // the rest of the body has not arrived yet
      request.body = connection.in.substr(headerEnd + 4, contentLength);
      connection.in.erase(0, total);
      connection.closeAfterWrite = closeRequested;
      request.receivedAt = Clock::now();
      try {
        route(connection, std::move(request));
      } catch (const nlohmann::json::exception& error) {  // a field of the wrong type
        respondAndClose(connection, 400, std::string("bad request body: ") + error.what());
        return;
      }
    }
  }

  std::size_t record(ServedRequest request) {
    if (!server.m_options.recordRequests) return SIZE_MAX;
    std::lock_guard lock(server.m_servedMutex);
    server.m_served.push_back(std::move(request));
    return server.m_served.size() - 1;
  }

  void setRecordedStatus(std::size_t index, int status) {
    if (index == SIZE_MAX) return;
    std::lock_guard lock(server.m_servedMutex);
    server.m_served[index].status = status;
  }

  void respond(Connection& connection, int status, const std::string& contentType, const std::string& body) {
    connection.out += "HTTP/1.1 " + std::to_string(status) + " " + reasonPhrase(status) +
                      "\r\nContent-Type: " + contentType +
                      "\r\nContent-Length: " + std::to_string(body.size()) +
                      (connection.closeAfterWrite ? "\r\nConnection: close" : "") + "\r\n\r\n" + body;
    flushOut(connection);
  }

  std::string errorBody(int status, const std::string& message) {
    const char* type = status == 401   ? "AuthenticationError"
                       : status == 404 ? "NotFoundError"
                       : status == 429 ? "RateLimitError"
                       : status >= 500 ? "InternalServerError"
                                       : "BadRequestError";
    return nlohmann::json{
        {"error", {{"message", message}, {"type", type}, {"param", nullptr}, {"code", status}}}}
        .dump();
  }

  void respondAndClose(Connection& connection, int status, const std::string& message) {
    connection.closeAfterWrite = true;
    respond(connection, status, "application/json", errorBody(status, message));
    if (!connection.closed && connection.out.empty()) closeConnection(connection);
  }

  void route(Connection& connection, ServedRequest request) {
    if (request.method == "GET" && request.path == "/health") {
      request.status = 200;
      record(std::move(request));
      respond(connection, 200, "text/plain", "");
      return;
    }
    if (server.m_options.byteTokenizer && request.method == "POST" &&
        (request.path == "/tokenize" || request.path == "/detokenize")) {
      const nlohmann::json body = nlohmann::json::parse(request.body, nullptr, false);
      nlohmann::json answer;
      if (request.path == "/tokenize" && body.is_object() && body.contains("prompt") &&
          body["prompt"].is_string()) {
        nlohmann::json tokens = nlohmann::json::array();
        for (unsigned char byte : body["prompt"].get<std::string>())
          tokens.push_back(static_cast<int>(byte));
        answer = {{"count", tokens.size()}, {"max_model_len", 32768}, {"tokens", tokens}};
      } else if (request.path == "/detokenize" && body.is_object() && body.contains("tokens") &&
                 body["tokens"].is_array()) {
        std::string text;
        for (const auto& token : body["tokens"])
          text.push_back(static_cast<char>(token.get<int>()));
        answer = {{"prompt", text}};
      }
      request.status = answer.is_null() ? 400 : 200;
      record(std::move(request));
      if (answer.is_null()) {
        respond(connection, 400, "application/json", errorBody(400, "expected vLLM's tokenize request"));
      } else {
        respond(connection, 200, "application/json",
                answer.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
      }
      return;
    }
    const bool chat = request.path == "/v1/chat/completions";
    if (request.method != "POST" || (!chat && request.path != "/v1/completions")) {
      request.status = 404;
      const std::string message = "Not found: " + request.method + " " + request.path;
      record(std::move(request));
      respond(connection, 404, "application/json", errorBody(404, message));
      return;
    }
    const nlohmann::json body = nlohmann::json::parse(request.body, nullptr, false);
    if (!body.is_object()) {
      request.status = 400;
      record(std::move(request));
      respond(connection, 400, "application/json", errorBody(400, "the request body is not a JSON object"));
      return;
    }
    nlohmann::json directives = body.value("ayar_test", nlohmann::json::object());
    if (!directives.is_object()) directives = nlohmann::json::object();
    const std::string model = body.value("model", std::string("test-model"));
    const int status = directives.value("status", 0);
    if (status != 0) {
      request.status = status;
      record(std::move(request));
      respond(connection, status, "application/json", errorBody(status, errorMessageFor(status, model)));
      return;
    }
    if (directives.value("no_response", false)) {
      connection.silent = true;
      connection.in.clear();
      record(std::move(request));
      return;
    }

    auto stream = std::make_unique<Stream>();
    stream->chat = chat;
    int maxTokens = body.value("max_tokens", 16);
    if (chat) maxTokens = body.value("max_completion_tokens", maxTokens);
    stream->totalTokens = std::max(1, maxTokens) + std::max(0, directives.value("extra_tokens", 0));
    stream->tokensPerChunk =
        std::max(1, directives.value("tokens_per_chunk", server.m_options.tokensPerChunk));
    stream->chunkCount = (stream->totalTokens + stream->tokensPerChunk - 1) / stream->tokensPerChunk;
    stream->ttftMs = directives.value("ttft_ms", server.m_options.ttftMs);
    stream->itl = fromMs(directives.value("itl_ms", server.m_options.itlMs));
    stream->errorAfter = directives.value("error_after_chunks", -1);
    stream->garbageAfter = directives.value("garbage_after_chunks", -1);
    stream->dropAfter = directives.value("drop_after_chunks", -1);
    stream->dropWithReset = directives.value("drop_with_reset", false);
    stream->noDone = directives.value("no_done", false);
    stream->closeAfterResponse = directives.value("close_after_response", false);
    stream->tokenText = jsonEscaped(directives.value("token_text", std::string(" tok")));
    const auto options = body.find("stream_options");
    stream->includeUsage =
        options != body.end() && options->is_object() && options->value("include_usage", false);
    const int promptTokens = promptTokensOf(body);

    const std::string id = (chat ? "chatcmpl-" : "cmpl-") + std::to_string(connection.id);
    const std::string head = "{\"id\":\"" + id + "\",\"object\":\"" +
                             (chat ? "chat.completion.chunk" : "text_completion") +
                             "\",\"created\":1700000000,\"model\":" + jsonQuoted(model) + ",\"choices\":[";
    if (chat) {
      stream->rolePayload =
          head +
          "{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"logprobs\":null,"
          "\"finish_reason\":null}]}";
      stream->chunkPrefix = head + "{\"index\":0,\"delta\":{\"content\":\"";
      stream->chunkSuffix = "\"},\"logprobs\":null,\"finish_reason\":null}]}";
      stream->lastChunkSuffix = "\"},\"logprobs\":null,\"finish_reason\":\"length\",\"stop_reason\":null}]}";
    } else {
      stream->chunkPrefix = head + "{\"index\":0,\"text\":\"";
      stream->chunkSuffix =
          "\",\"logprobs\":null,\"finish_reason\":null,\"stop_reason\":null}],\"usage\":null}";
      stream->lastChunkSuffix =
          "\",\"logprobs\":null,\"finish_reason\":\"length\",\"stop_reason\":null}],\"usage\":null}";
    }
    stream->usagePayload = head + "],\"usage\":{\"prompt_tokens\":" + std::to_string(promptTokens) +
                           ",\"total_tokens\":" + std::to_string(promptTokens + stream->totalTokens) +
                           ",\"completion_tokens\":" +
                           std::to_string(directives.value("usage_completion_tokens", stream->totalTokens)) +
                           "}}";

    request.status = 200;
    request.completionTokens = stream->totalTokens;
    stream->servedIndex = record(std::move(request));
    const Clock::time_point receivedAt = Clock::now();
    connection.stream = std::move(stream);
    const std::size_t open = server.m_openStreams.fetch_add(1) + 1;
    std::size_t peak = server.m_peakOpenStreams.load();
    while (open > peak && !server.m_peakOpenStreams.compare_exchange_weak(peak, open)) {
    }

    connection.out +=
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
        "Transfer-Encoding: chunked\r\n\r\n";
    if (!flushOut(connection)) return;

    const int parkUntil = directives.value("wait_for_open_streams", 0);
    if (parkUntil > 0) {
      connection.stream->parkUntilOpen = static_cast<std::size_t>(parkUntil);
      parked.push_back(connection.id);
      schedule(connection, receivedAt + kParkLimit);
      if (open >= connection.stream->parkUntilOpen) releaseParked();
      return;
    }
    connection.stream->firstAt = receivedAt + fromMs(connection.stream->ttftMs);
    schedule(connection, connection.stream->firstAt);
  }

  void releaseParked() {
    const Clock::time_point now = Clock::now();
    for (std::uint64_t id : parked) {
      Connection* connection = find(id);
      if (!connection || !connection->stream) continue;
      connection->stream->parkUntilOpen = 0;
      connection->stream->firstAt = now + fromMs(connection->stream->ttftMs);
      schedule(*connection, connection->stream->firstAt);
    }
    parked.clear();
  }

  void appendEvent(Connection& connection, std::string_view payload) {
    char size[32];
    const int length = std::snprintf(size, sizeof size, "%zx\r\n", payload.size() + 8);
    connection.out.append(size, static_cast<std::size_t>(length));
    connection.out += "data: ";
    connection.out += payload;
    connection.out += "\n\n\r\n";
  }

  // Sends everything of this stream that is due, up to one batch, and schedules the rest.
  void pump(Connection& connection) {
    if (connection.outPos < connection.out.size()) return;  // EPOLLOUT brings it back
    Stream& stream = *connection.stream;
    const Clock::time_point now = Clock::now();
    int chunksInBatch = 0;
    bool drop = false;
    bool moreDue = false;
    while (!stream.finished) {
      if (connection.out.size() >= kBatchBytes) {
        moreDue = true;
        break;
      }
      const Clock::time_point due = stream.firstAt + stream.itl * stream.chunksSent;
      if (due > now) {
        schedule(connection, due);
        break;
      }
      if (stream.chunksSent == stream.errorAfter) {
        appendEvent(connection,
                    "{\"error\":{\"object\":\"error\",\"message\":\"simulated engine failure after " +
                        std::to_string(stream.chunksSent) +
                        " chunks\",\"type\":\"InternalServerError\",\"param\":null,\"code\":500}}");
        appendEvent(connection, "[DONE]");
        connection.out += "0\r\n\r\n";
        stream.finished = true;
        break;
      }
      if (stream.chunksSent == stream.dropAfter) {
        drop = true;
        break;
      }
      if (stream.chunksSent == stream.garbageAfter) {
        // A line of raw bytes (a PNG signature, an escape sequence): not a field of the format.
        constexpr std::string_view kGarbage = "\x89PNG\x1b[31m\x01\xff\xfe\n";
        char size[32];
        const int length = std::snprintf(size, sizeof size, "%zx\r\n", kGarbage.size());
        connection.out.append(size, static_cast<std::size_t>(length));
        connection.out += kGarbage;
        connection.out += "\r\n";
        stream.garbageAfter = -1;
      }
      if (stream.chat && !stream.roleSent) {
        appendEvent(connection, stream.rolePayload);
        stream.roleSent = true;
        ++chunksInBatch;
      }
      const int tokensLeft = stream.totalTokens - stream.chunksSent * stream.tokensPerChunk;
      const int tokens = std::min(stream.tokensPerChunk, tokensLeft);
      const bool last = stream.chunksSent + 1 == stream.chunkCount;
      scratch.assign(stream.chunkPrefix);
      for (int i = 0; i < tokens; ++i)
        scratch += stream.tokenText;
      scratch += last ? stream.lastChunkSuffix : stream.chunkSuffix;
      appendEvent(connection, scratch);
      ++stream.chunksSent;
      ++chunksInBatch;
      if (last) {
        if (stream.includeUsage) appendEvent(connection, stream.usagePayload);
        if (!stream.noDone) appendEvent(connection, "[DONE]");
        connection.out += "0\r\n\r\n";
        stream.finished = true;
      }
    }
    if (chunksInBatch > 0) {
      const Clock::time_point sentAt = Clock::now();
      if (stream.servedIndex != SIZE_MAX) {
        std::lock_guard lock(server.m_servedMutex);
        auto& times = server.m_served[stream.servedIndex].chunkSentAt;
        times.insert(times.end(), static_cast<std::size_t>(chunksInBatch), sentAt);
      }
      server.m_chunksSent.fetch_add(static_cast<std::uint64_t>(chunksInBatch));
    }
    const bool finished = stream.finished;
    if (!connection.out.empty() && !flushOut(connection)) return;
    if (drop) {
      closeConnection(connection, stream.dropWithReset);
      return;
    }
    if (finished) {
      const bool closeNow = stream.closeAfterResponse;
      endStream(connection);
      if ((connection.closeAfterWrite || closeNow) && connection.out.empty()) {
        closeConnection(connection);
        return;
      }
      handleInput(connection);  // a keep-alive client may already have sent its next request
      return;
    }
    if (moreDue && !connection.wantWrite) ready.push_back(connection.id);
  }
};

SseTestServer::SseTestServer(SseTestServerOptions options) : m_options(options) {
  m_loop = std::make_unique<Loop>(*this);
  m_thread = std::thread([this] { m_loop->run(); });
}

SseTestServer::~SseTestServer() {
  stop();
}

void SseTestServer::stop() {
  if (!m_thread.joinable()) return;
  m_loop->stopping.store(true);
  const std::uint64_t one = 1;
  [[maybe_unused]] const auto ignored = ::write(m_loop->wakeFd, &one, sizeof one);
  m_thread.join();
  m_loop.reset();
}

std::vector<ServedRequest> SseTestServer::servedRequests() const {
  std::lock_guard lock(m_servedMutex);
  return m_served;
}

}  // namespace ayar::test
