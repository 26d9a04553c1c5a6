#include "core/load/stream_client.h"

#include <curl/curl.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <cassert>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <system_error>

#include "core/error.h"
#include "core/load/openai_stream.h"

namespace ayar {

namespace {

using Clock = StreamClient::Clock;

// An error body is read only for its message; a server that sends more is cut off here.
constexpr std::size_t kMaxErrorBodyBytes = 64 * 1024;
// Events handled per poll. Each costs a few microseconds (recv, parse); the runner dispatches due
// requests only between polls, so a small batch keeps dispatch lag well under a millisecond even
// when thousands of streams are ready at once.
constexpr int kMaxEpollEvents = 32;
// A server's error message is kept whole up to this size, then cut: records should stay small.
constexpr std::size_t kMaxMessageBytes = 1000;

double secondsBetween(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

void initCurlOnce() {
  static std::once_flag once;
  static CURLcode result = CURLE_OK;
  std::call_once(once, [] { result = curl_global_init(CURL_GLOBAL_DEFAULT); });
  if (result != CURLE_OK) {
    throw Error(std::string("libcurl could not be initialised: ") + curl_easy_strerror(result));
  }
}

std::string osErrorText(long osErrno) {
  if (osErrno == 0) return {};
  return std::error_code(static_cast<int>(osErrno), std::generic_category()).message();
}

std::string trimmedExcerpt(std::string_view text, std::size_t limit = 300) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  text = text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
  if (text.size() <= limit) return std::string(text);
  return std::string(text.substr(0, limit)) + "...";
}

// The message of an OpenAI error body ({"error": {"message": ...}}), vLLM's older top-level form, or
// FastAPI's {"detail": ...}; otherwise the start of the body itself.
std::string errorBodyMessage(const std::string& body) {
  const nlohmann::json json = nlohmann::json::parse(body, nullptr, false);
  if (json.is_object()) {
    const auto error = json.find("error");
    if (error != json.end()) {
      if (error->is_object()) {
        const auto message = error->find("message");
        if (message != error->end() && message->is_string()) {
          return trimmedExcerpt(message->get<std::string>(), kMaxMessageBytes);
        }
      }
      if (error->is_string()) return trimmedExcerpt(error->get<std::string>(), kMaxMessageBytes);
    }
    for (const char* key : {"message", "detail"}) {
      const auto value = json.find(key);
      if (value == json.end()) continue;
      if (value->is_string()) return trimmedExcerpt(value->get<std::string>(), kMaxMessageBytes);
      return trimmedExcerpt(value->dump(), kMaxMessageBytes);
    }
  }
  return trimmedExcerpt(body);
}

}  // namespace

struct StreamClient::Impl {
  struct Transfer {
    CURL* easy = nullptr;
    Impl* owner = nullptr;
    OpenAiStreamReader reader;
    RequestRecord record;
    Clock::time_point start;
    long status = -1;  // -1 until the first body byte: then the HTTP status is known
    std::string errorBody;
    std::size_t activeIndex = 0;
    char errorBuffer[CURL_ERROR_SIZE] = {};
  };

  StreamClientConfig config;
  FinishedHandler onFinished;
  CURLM* multi = nullptr;
  curl_slist* headers = nullptr;
  int epollFd = -1;
  int timerFd = -1;
  int wakeFd = -1;
  Clock::time_point origin = Clock::now();
  std::optional<Clock::time_point> curlDeadline;
  std::optional<Clock::time_point> armedDeadline;
  std::string noProxy;
  std::vector<std::unique_ptr<Transfer>> transfers;
  std::vector<Transfer*> idle;
  std::vector<Transfer*> active;
  epoll_event events[kMaxEpollEvents] = {};

  Impl(StreamClientConfig clientConfig, FinishedHandler handler)
      : config(std::move(clientConfig)), onFinished(std::move(handler)) {
    initCurlOnce();
    epollFd = epoll_create1(EPOLL_CLOEXEC);
    timerFd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    wakeFd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (epollFd < 0 || timerFd < 0 || wakeFd < 0) {
      const int savedErrno = errno;
      closeFds();
      throw Error("The load client could not create its event loop: " + osErrorText(savedErrno));
    }
    for (int fd : {timerFd, wakeFd}) {
      epoll_event event{};
      event.events = EPOLLIN;
      event.data.fd = fd;
      epoll_ctl(epollFd, EPOLL_CTL_ADD, fd, &event);
    }
    multi = curl_multi_init();
    if (!multi) {
      closeFds();
      throw Error("libcurl could not create a multi handle (out of memory?)");
    }
    curl_multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, &Impl::onSocket);
    curl_multi_setopt(multi, CURLMOPT_SOCKETDATA, this);
    curl_multi_setopt(multi, CURLMOPT_TIMERFUNCTION, &Impl::onTimer);
    curl_multi_setopt(multi, CURLMOPT_TIMERDATA, this);
    // Every stream keeps its own keep-alive connection: a pool as large as the concurrency, and no
    // per-host or total cap (0 = unlimited) that would queue transfers inside libcurl.
    curl_multi_setopt(multi, CURLMOPT_MAXCONNECTS,
                      static_cast<long>(std::max<std::size_t>(config.connectionPoolSize, 1)));
    curl_multi_setopt(multi, CURLMOPT_MAX_HOST_CONNECTIONS, 0L);
    curl_multi_setopt(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, 0L);

    headers = curl_slist_append(headers, "Content-Type: application/json");
    headers = curl_slist_append(headers, "Expect:");  // no 100-continue round trip before large prompts
    if (!config.apiKey.empty()) {
      headers = curl_slist_append(headers, ("Authorization: Bearer " + config.apiKey).c_str());
    }
    // Loopback never goes through a proxy; other hosts follow the environment's no_proxy.
    for (const char* name : {"no_proxy", "NO_PROXY"}) {
      if (const char* value = std::getenv(name); value && *value) {
        noProxy = value;
        break;
      }
    }
    noProxy += noProxy.empty() ? "" : ",";
    noProxy += "localhost,127.0.0.1,::1";
  }

  ~Impl() {
    for (Transfer* transfer : active)
      curl_multi_remove_handle(multi, transfer->easy);
    active.clear();
    for (auto& transfer : transfers)
      curl_easy_cleanup(transfer->easy);
    curl_multi_cleanup(multi);  // closes the pooled connections through onSocket, so before the fds go
    curl_slist_free_all(headers);
    closeFds();
  }

  void closeFds() {
    for (int* fd : {&epollFd, &timerFd, &wakeFd}) {
      if (*fd >= 0) ::close(*fd);
      *fd = -1;
    }
  }

  static int onSocket(CURL*, curl_socket_t socket, int what, void* userp, void* socketp) {
    auto* self = static_cast<Impl*>(userp);
    if (what == CURL_POLL_REMOVE) {
      if (socketp) epoll_ctl(self->epollFd, EPOLL_CTL_DEL, socket, nullptr);
      return 0;
    }
    epoll_event event{};
    event.events = ((what & CURL_POLL_IN) ? EPOLLIN : 0u) | ((what & CURL_POLL_OUT) ? EPOLLOUT : 0u);
    event.data.fd = socket;
    if (socketp) {
      epoll_ctl(self->epollFd, EPOLL_CTL_MOD, socket, &event);
    } else {
      if (epoll_ctl(self->epollFd, EPOLL_CTL_ADD, socket, &event) != 0 && errno == EEXIST) {
        epoll_ctl(self->epollFd, EPOLL_CTL_MOD, socket, &event);
      }
      curl_multi_assign(self->multi, socket, self);  // any non-null marks "registered"
    }
    return 0;
  }

  static int onTimer(CURLM*, long timeoutMs, void* userp) {
    auto* self = static_cast<Impl*>(userp);
    if (timeoutMs < 0) {
      self->curlDeadline.reset();
    } else {
      self->curlDeadline = Clock::now() + std::chrono::milliseconds(timeoutMs);
    }
    return 0;
  }

  static std::size_t onWrite(char* data, std::size_t size, std::size_t count, void* userp) {
    // The arrival time first: parsing must not delay it.
    const Clock::time_point now = Clock::now();
    auto* transfer = static_cast<Transfer*>(userp);
    const std::size_t bytes = size * count;
    try {
      if (transfer->status < 0) curl_easy_getinfo(transfer->easy, CURLINFO_RESPONSE_CODE, &transfer->status);
      if (transfer->status >= 200 && transfer->status < 300) {
        transfer->reader.feed(std::string_view(data, bytes), secondsBetween(transfer->start, now));
      } else if (transfer->errorBody.size() < kMaxErrorBodyBytes) {
        transfer->errorBody.append(data, std::min(bytes, kMaxErrorBodyBytes - transfer->errorBody.size()));
      }
    } catch (...) {
      return 0;  // (out of memory) nothing may unwind through libcurl; 0 aborts this transfer
    }
    return bytes;
  }

  Transfer* acquire() {
    if (!idle.empty()) {
      Transfer* transfer = idle.back();
      idle.pop_back();
      return transfer;
    }
    auto transfer = std::make_unique<Transfer>();
    transfer->owner = this;
    transfer->easy = curl_easy_init();
    if (!transfer->easy) throw Error("libcurl could not create a transfer (out of memory?)");
    CURL* easy = transfer->easy;
    curl_easy_setopt(easy, CURLOPT_URL, config.url.c_str());
    curl_easy_setopt(easy, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(easy, CURLOPT_USERAGENT, "ayar");
    curl_easy_setopt(easy, CURLOPT_HTTP_VERSION, static_cast<long>(CURL_HTTP_VERSION_1_1));
    curl_easy_setopt(easy, CURLOPT_TCP_NODELAY, 1L);
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, CURLOPT_NOPROXY, noProxy.c_str());
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, &Impl::onWrite);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, transfer.get());
    curl_easy_setopt(easy, CURLOPT_PRIVATE, transfer.get());
    curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, transfer->errorBuffer);
    if (config.requestTimeoutS > 0) {
      curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, static_cast<long>(config.requestTimeoutS * 1000.0 + 0.5));
    }
    transfers.push_back(std::move(transfer));
    return transfers.back().get();
  }

  void release(Transfer* transfer) {
    Transfer* last = active.back();
    active[transfer->activeIndex] = last;
    last->activeIndex = transfer->activeIndex;
    active.pop_back();
    transfer->reader.reset();
    transfer->errorBody.clear();
    transfer->status = -1;
    transfer->record = RequestRecord();
    idle.push_back(transfer);
  }

  void send(std::string_view body, RequestRecord record) {
    Transfer* transfer = acquire();
    transfer->record = std::move(record);
    transfer->errorBuffer[0] = '\0';
    curl_easy_setopt(transfer->easy, CURLOPT_POSTFIELDS, body.data());
    curl_easy_setopt(transfer->easy, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
    transfer->activeIndex = active.size();
    active.push_back(transfer);
    transfer->start = Clock::now();
    transfer->record.startS = secondsBetween(origin, transfer->start);
    const CURLMcode code = curl_multi_add_handle(multi, transfer->easy);
    if (code != CURLM_OK) {
      finish(transfer, std::string("could not start the request: ") + curl_multi_strerror(code));
    }
  }

  // Moves what the transfer collected into its record, decides success, and reports it.
  void finish(Transfer* transfer, std::optional<std::string> failure) {
    RequestRecord record = std::move(transfer->record);
    OpenAiStreamReader& reader = transfer->reader;
    long status = 0;
    curl_easy_getinfo(transfer->easy, CURLINFO_RESPONSE_CODE, &status);
    record.httpStatus = static_cast<int>(status);
    record.chunkTimesS = reader.takeChunkTimes();
    record.generatedText = reader.takeText();
    const std::size_t chunks = record.chunkTimesS.size();
    if (!failure) {
      if (status < 200 || status >= 300) {
        const std::string message = errorBodyMessage(transfer->errorBody);
        failure =
            "HTTP " + std::to_string(status) + (message.empty() ? " with an empty body" : ": " + message);
      } else if (reader.failed()) {
        failure = reader.error();
      } else if (chunks == 0) {
        failure =
            "stream ended early: no chunk with choices (" + std::to_string(reader.eventCount()) + " events)";
      } else if (!reader.sawDone()) {
        failure = "stream ended early: no [DONE] after " + std::to_string(chunks) + " chunks";
      }
    }
    record.success = !failure;
    record.error = failure ? std::move(*failure) : std::string();
    if (reader.completionTokens() >= 0) {
      record.outputTokens = static_cast<int>(reader.completionTokens());
      record.outputTokensFromUsage = true;
    } else {
      record.outputTokensFromUsage = false;
      record.outputTokens =
          config.countTokens ? config.countTokens(record.generatedText) : static_cast<int>(chunks);
    }
    if (reader.promptTokens() >= 0) record.promptTokens = static_cast<int>(reader.promptTokens());
    release(transfer);
    onFinished(std::move(record));
  }

  std::string describeTransportError(CURLcode code, Transfer* transfer) {
    long osErrno = 0;
    curl_easy_getinfo(transfer->easy, CURLINFO_OS_ERRNO, &osErrno);
    const std::string detail = transfer->errorBuffer[0] ? transfer->errorBuffer : curl_easy_strerror(code);
    const std::string cause = osErrno ? " (" + osErrorText(osErrno) + ")" : "";
    const std::size_t chunks = transfer->reader.chunkTimesS().size();
    char timeout[64];
    switch (code) {
      case CURLE_OPERATION_TIMEDOUT:
        std::snprintf(timeout, sizeof timeout, "%.3g", config.requestTimeoutS);
        return std::string("timed out after ") + timeout + " s (the per-request timeout), " +
               std::to_string(chunks) + " chunks received";
      case CURLE_COULDNT_CONNECT:
        return "could not connect" + cause + ": " + detail;
      case CURLE_COULDNT_RESOLVE_HOST:
        return "could not resolve the host: " + detail;
      case CURLE_GOT_NOTHING:
        return "the server closed the connection without a response: " + detail;
      case CURLE_PARTIAL_FILE:
      case CURLE_RECV_ERROR:
      case CURLE_SEND_ERROR:
        return "the connection broke mid-stream after " + std::to_string(chunks) + " chunks" + cause + ": " +
               detail;
      default:
        return std::string("transfer failed (") + curl_easy_strerror(code) + ")" + cause + ": " + detail;
    }
  }

  void handleCompletions() {
    int left = 0;
    while (CURLMsg* message = curl_multi_info_read(multi, &left)) {
      if (message->msg != CURLMSG_DONE) continue;
      Transfer* transfer = nullptr;
      curl_easy_getinfo(message->easy_handle, CURLINFO_PRIVATE, &transfer);
      const CURLcode result = message->data.result;
      curl_multi_remove_handle(multi, transfer->easy);  // `message` is gone after this
      std::optional<std::string> failure;
      if (result != CURLE_OK) failure = describeTransportError(result, transfer);
      finish(transfer, std::move(failure));
    }
  }

  void armTimer(Clock::time_point deadline) {
    // A timer already set to fire no later than needed will do: at worst poll() wakes early once and
    // finds nothing due. Re-arming on every poll (libcurl moves its deadline by microseconds with each
    // call) would cost a system call per chunk.
    if (armedDeadline && *armedDeadline <= deadline) return;
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(deadline.time_since_epoch()).count();
    itimerspec spec{};
    spec.it_value.tv_sec = static_cast<time_t>(ns / 1'000'000'000);
    spec.it_value.tv_nsec = static_cast<long>(ns % 1'000'000'000);
    if (spec.it_value.tv_sec == 0 && spec.it_value.tv_nsec == 0) spec.it_value.tv_nsec = 1;  // 0 disarms
    timerfd_settime(timerFd, TFD_TIMER_ABSTIME, &spec, nullptr);
    armedDeadline = deadline;
  }

  void runCurlTimeoutIfDue(Clock::time_point now) {
    if (!curlDeadline || now < *curlDeadline) return;
    curlDeadline.reset();
    int running = 0;
    curl_multi_socket_action(multi, CURL_SOCKET_TIMEOUT, 0, &running);
  }

  void poll(Clock::time_point wakeAt) {
    Clock::time_point deadline = wakeAt;
    if (curlDeadline && *curlDeadline < deadline) deadline = *curlDeadline;
    int timeoutMs = -1;
    if (deadline <= Clock::now()) {
      timeoutMs = 0;
    } else if (deadline != Clock::time_point::max()) {
      armTimer(deadline);
    }
    int ready = epoll_wait(epollFd, events, kMaxEpollEvents, timeoutMs);
    if (ready < 0) ready = 0;  // EINTR: just look again
    for (int i = 0; i < ready; ++i) {
      const int fd = events[i].data.fd;
      const std::uint32_t flags = events[i].events;
      std::uint64_t counter = 0;
      if (fd == timerFd) {
        if (::read(timerFd, &counter, sizeof counter) > 0) armedDeadline.reset();
      } else if (fd == wakeFd) {
        [[maybe_unused]] const auto ignored = ::read(wakeFd, &counter, sizeof counter);
      } else {
        int action = 0;
        if (flags & (EPOLLIN | EPOLLHUP)) action |= CURL_CSELECT_IN;
        if (flags & EPOLLOUT) action |= CURL_CSELECT_OUT;
        if (flags & EPOLLERR) action |= CURL_CSELECT_ERR;
        int running = 0;
        curl_multi_socket_action(multi, fd, action, &running);
      }
    }
    runCurlTimeoutIfDue(Clock::now());
    handleCompletions();
  }

  void abortAll(std::string_view reason) {
    const std::vector<Transfer*> aborted = active;
    for (Transfer* transfer : aborted) {
      curl_multi_remove_handle(multi, transfer->easy);
      finish(transfer, std::string(reason));
    }
  }
};

StreamClient::StreamClient(StreamClientConfig config, FinishedHandler onFinished)
    : m_impl(std::make_unique<Impl>(std::move(config), std::move(onFinished))) {}

StreamClient::~StreamClient() = default;

void StreamClient::setOrigin(Clock::time_point origin) {
  m_impl->origin = origin;
}
StreamClient::Clock::time_point StreamClient::origin() const {
  return m_impl->origin;
}
void StreamClient::send(std::string_view body, RequestRecord record) {
  m_impl->send(body, std::move(record));
}
void StreamClient::poll(Clock::time_point wakeAt) {
  m_impl->poll(wakeAt);
}

void StreamClient::wake() {
  const std::uint64_t one = 1;
  [[maybe_unused]] const auto ignored = ::write(m_impl->wakeFd, &one, sizeof one);
}

void StreamClient::abortAll(std::string_view reason) {
  m_impl->abortAll(reason);
}
std::size_t StreamClient::inFlight() const {
  return m_impl->active.size();
}

}  // namespace ayar
