#include "core/engines/engine_launcher.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <mutex>

#include "core/engines/resources_dir.h"
#include "core/error.h"
#include "core/report/message_text.h"
#include "core/store/secret_scrubber.h"

namespace ayar {

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr std::size_t kMaxProbeBody = 4096;
constexpr milliseconds kHealthPollInterval{100};
constexpr milliseconds kHealthRequestTimeout{2000};
constexpr int kPortAttempts = 3;

struct CollectedBody {
  std::string* body;
  std::size_t limit;
};

std::size_t collectBody(char* data, std::size_t size, std::size_t count, void* user) {
  auto* collected = static_cast<CollectedBody*>(user);
  std::string& body = *collected->body;
  const std::size_t bytes = size * count;
  if (body.size() < collected->limit) body.append(data, std::min(bytes, collected->limit - body.size()));
  return bytes;
}

bool isLoopbackUrl(const std::string& url) {
  for (const char* prefix :
       {"http://127.", "http://localhost", "http://[::1]", "https://127.", "https://localhost"}) {
    if (url.rfind(prefix, 0) == 0) return true;
  }
  return false;
}

std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

std::string seconds(milliseconds duration) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g s", static_cast<double>(duration.count()) / 1000.0);
  return buffer;
}

std::string describeProbe(const HttpProbe& probe) {
  if (probe.status != 0) return "HTTP " + std::to_string(probe.status);
  return probe.error.empty() ? "no answer" : probe.error;
}

// The address a client uses to reach an engine listening on `host`.
std::string connectHost(const std::string& host) {
  if (host == "0.0.0.0" || host.empty()) return "127.0.0.1";
  if (host == "::" || host == "[::]") return "[::1]";
  if (host.find(':') != std::string::npos && host.front() != '[') return "[" + host + "]";
  return host;
}

std::filesystem::path defaultLogPath(const std::string& engine) {
  static std::atomic<unsigned> counter{0};
  std::error_code ec;
  auto dir = std::filesystem::temp_directory_path(ec);
  if (ec) dir = "/tmp";
  return dir / ("ayar-engine-" + engine + "-" + std::to_string(::getpid()) + "-" + std::to_string(++counter) +
                ".log");
}

// One GET, or a POST of `jsonBody` when given, keeping at most `maxBody` bytes of the answer.
HttpProbe httpExchange(const std::string& url, const std::string* jsonBody, milliseconds timeout,
                       const std::string& bearerToken, std::size_t maxBody) {
  static std::once_flag curlInitialised;
  std::call_once(curlInitialised, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  HttpProbe probe;
  std::unique_ptr<CURL, void (*)(CURL*)> curl(curl_easy_init(), curl_easy_cleanup);
  if (!curl) {
    probe.error = "libcurl could not create a handle";
    return probe;
  }
  char errorBuffer[CURL_ERROR_SIZE] = {};
  CollectedBody collected{&probe.body, maxBody};
  const long timeoutMs = std::max<long>(1, static_cast<long>(timeout.count()));
  curl_easy_setopt(curl.get(), CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl.get(), CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl.get(), CURLOPT_TIMEOUT_MS, timeoutMs);
  curl_easy_setopt(curl.get(), CURLOPT_CONNECTTIMEOUT_MS, timeoutMs);
  curl_easy_setopt(curl.get(), CURLOPT_WRITEFUNCTION, collectBody);
  curl_easy_setopt(curl.get(), CURLOPT_WRITEDATA, &collected);
  curl_easy_setopt(curl.get(), CURLOPT_ERRORBUFFER, errorBuffer);
  // A proxy from the environment must not stand between Ayar and an engine on this machine.
  if (isLoopbackUrl(url)) curl_easy_setopt(curl.get(), CURLOPT_NOPROXY, "*");
  curl_slist* headers = nullptr;
  if (!bearerToken.empty()) {
    const std::string authorization = "Authorization: Bearer " + bearerToken;
    headers = curl_slist_append(headers, authorization.c_str());
  }
  if (jsonBody) {
    headers = curl_slist_append(headers, "Content-Type: application/json");
    curl_easy_setopt(curl.get(), CURLOPT_POSTFIELDS, jsonBody->c_str());
    curl_easy_setopt(curl.get(), CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(jsonBody->size()));
  }
  if (headers) curl_easy_setopt(curl.get(), CURLOPT_HTTPHEADER, headers);
  const CURLcode result = curl_easy_perform(curl.get());
  if (result == CURLE_OK) {
    long status = 0;
    curl_easy_getinfo(curl.get(), CURLINFO_RESPONSE_CODE, &status);
    probe.status = static_cast<int>(status);
  } else {
    probe.error = errorBuffer[0] != '\0' ? errorBuffer : curl_easy_strerror(result);
  }
  curl_slist_free_all(headers);
  return probe;
}

}  // namespace

HttpProbe httpGet(const std::string& url, milliseconds timeout, const std::string& bearerToken) {
  return httpExchange(url, nullptr, timeout, bearerToken, kMaxProbeBody);
}

HttpProbe httpPost(const std::string& url, const std::string& jsonBody, milliseconds timeout,
                   const std::string& bearerToken, std::size_t maxResponseBytes) {
  return httpExchange(url, &jsonBody, timeout, bearerToken, maxResponseBytes);
}

int pickFreePort(const std::string& host) {
  const bool ipv6 = host.find(':') != std::string::npos;
  const int fd = ::socket(ipv6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw MessageError({MessageText::PortSocketFailed, {std::string(std::strerror(errno))}});
  sockaddr_storage storage{};
  socklen_t length = 0;
  std::string bare = host;
  if (!bare.empty() && bare.front() == '[') bare = bare.substr(1, bare.size() - 2);
  int ok = 0;
  if (ipv6) {
    auto* address = reinterpret_cast<sockaddr_in6*>(&storage);
    address->sin6_family = AF_INET6;
    ok = ::inet_pton(AF_INET6, bare.c_str(), &address->sin6_addr);
    length = sizeof(sockaddr_in6);
  } else {
    auto* address = reinterpret_cast<sockaddr_in*>(&storage);
    address->sin_family = AF_INET;
    ok = ::inet_pton(AF_INET, bare == "localhost" ? "127.0.0.1" : bare.c_str(), &address->sin_addr);
    length = sizeof(sockaddr_in);
  }
  if (ok != 1) {
    ::close(fd);
    throw MessageError({MessageText::PortHostNotIp, {host}});
  }
  if (::bind(fd, reinterpret_cast<sockaddr*>(&storage), length) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&storage), &length) != 0) {
    const int error = errno;
    ::close(fd);
    throw MessageError({MessageText::PortBindFailed, {host, std::string(std::strerror(error))}});
  }
  const int port = ipv6 ? ntohs(reinterpret_cast<sockaddr_in6*>(&storage)->sin6_port)
                        : ntohs(reinterpret_cast<sockaddr_in*>(&storage)->sin_port);
  ::close(fd);
  return port;
}

EngineLauncher::EngineLauncher(EngineSpec spec, const EngineCatalogue& catalogue, LaunchOptions options)
    : m_spec(std::move(spec)), m_options(std::move(options)) {
  m_spec.validate();
  m_apiKey = m_spec.resolveApiKey();
  if (m_spec.kind == EngineKind::Remote) return;
  if (m_spec.kind == EngineKind::Bundled && m_spec.engine != "ayar") {
    throw MessageError({MessageText::LauncherBundledIsAyar, {m_spec.engine}});
  }
  m_template = catalogue.at(m_spec.engine);
  if (!m_template.devices.empty() && std::find(m_template.devices.begin(), m_template.devices.end(),
                                               m_spec.device) == m_template.devices.end()) {
    std::string devices;
    for (const auto& device : m_template.devices)
      devices += (devices.empty() ? "" : ", ") + device;
    throw MessageError(
        {MessageText::LauncherDeviceUnknown, {m_spec.device, m_template.displayName, devices}});
  }
  m_flagWarnings = validateFlags(m_template, m_spec.flags);
}

EngineLauncher::~EngineLauncher() {
  stop();
}

std::string EngineLauncher::displayCommand() const {
  return displayCommandLine(m_commandLine,
                            m_apiKey.empty() ? std::vector<std::string>{} : std::vector{m_apiKey});
}

namespace {

// ayar-engine (or the template's name) beside this executable, else in PATH.
std::string findBesideUsOrInPath(const std::string& name) {
  const std::filesystem::path exe = currentExecutablePath();
  if (!exe.empty()) {
    const auto besideUs = exe.parent_path() / name;
    if (::access(besideUs.c_str(), X_OK) == 0) return besideUs.string();
  }
  try {
    return findExecutable(name, currentPathVariable()).string();
  } catch (const Error&) {
    throw MessageError({MessageText::LauncherBundledMissing,
                        {name,
                         exe.empty() ? Message{MessageText::LauncherThisProgram, {}}.asArgument()
                                     : MessageArgument(exe.parent_path().string()),
                         currentPathVariable()}});
  }
}

}  // namespace

std::string EngineLauncher::findBundledEngine() const {
  if (!m_options.bundledEngine.empty()) return findExecutable(m_options.bundledEngine.string(), "").string();
  if (!m_spec.executable.empty()) return findExecutable(m_spec.executable, currentPathVariable()).string();
  return findBesideUsOrInPath(m_template.executable);
}

std::string bundledEngineDevice(const std::filesystem::path& bundledEngine) {
  try {
    const std::string engine = bundledEngine.empty() ? findBesideUsOrInPath("ayar-engine")
                                                     : findExecutable(bundledEngine.string(), "").string();
    ProcessOptions options;
    options.args = {engine, "device"};
    options.tailLines = 4;
    Process probe(std::move(options));
    const std::optional<ProcessExit> exit = probe.wait(std::chrono::seconds(30));
    if (!exit || !exit->succeeded()) return {};
    const std::vector<std::string> lines = probe.tail();
    return lines.empty() ? std::string() : lines.back();
  } catch (const Error&) {
    return {};
  }
}

void EngineLauncher::start() {
  if (m_spec.kind == EngineKind::Remote) {
    checkRemote();
    return;
  }
  stop();
  m_logPath = m_options.logPath.empty() ? defaultLogPath(m_template.name) : m_options.logPath;
  const bool pick = !m_spec.port.has_value();
  for (int attempt = 1;; ++attempt) {
    const int port =
        pick ? pickFreePort(m_spec.host == "localhost" ? "127.0.0.1" : m_spec.host) : *m_spec.port;
    // A picked port can be taken by someone else before the engine binds it; then try another.
    if (startOnce(port, attempt, pick && attempt < kPortAttempts)) return;
  }
}

bool EngineLauncher::startOnce(int port, int attempt, bool retryIfPortTaken) {
  m_port = port;
  m_baseUrl = "http://" + connectHost(m_spec.host) + ":" + std::to_string(port);
  const std::string executable = m_spec.kind == EngineKind::Bundled ? findBundledEngine() : std::string();
  m_commandLine = engineCommandLine(m_spec, m_template, port, executable);

  ProcessOptions options;
  options.args = m_commandLine;
  options.logPath = m_logPath;
  options.appendToLog = attempt > 1;
  // The key goes in the engine's environment, which only its user can read, never on its command line,
  // which every local user can. A key variable this process happens to have is not passed on, so that
  // the engine never requires a key Ayar does not send; ayar-engine reads vLLM's variable as well.
  if (m_spec.kind == EngineKind::Bundled) options.environment.emplace_back("VLLM_API_KEY", std::nullopt);
  if (!m_template.apiKeyEnv.empty()) options.environment.emplace_back(m_template.apiKeyEnv, std::nullopt);
  for (const auto& [name, value] : m_spec.environment)
    options.environment.emplace_back(name, value);
  // The bundled engine stops by itself when this process dies without stopping it (SIGKILL).
  if (m_spec.kind == EngineKind::Bundled)
    options.environment.emplace_back("AYAR_PARENT_PID", std::to_string(::getpid()));
  if (!m_template.apiKeyEnv.empty() && !m_apiKey.empty())
    options.environment.emplace_back(m_template.apiKeyEnv, m_apiKey);
  options.onOutputLine = m_options.onLogLine;
  options.destructorGrace = m_options.stopGrace;
  try {
    m_process = std::make_unique<Process>(std::move(options));
  } catch (const Error& error) {
    throw MessageError(
        {MessageText::LauncherStartFailed, {errorArgument(error), m_template.displayName, displayCommand()}});
  }

  const milliseconds timeout =
      m_options.startupTimeout.value_or(std::chrono::duration_cast<milliseconds>(m_template.startupTimeout));
  const auto deadline = Clock::now() + timeout;
  const std::string healthUrl = m_baseUrl + m_template.healthPath;
  // What went wrong, then the command, the log file and the log's last lines, in each language.
  auto failure = [&](const Message& what) {
    m_process->stop(m_options.stopGrace);
    std::string tail = m_process->tailText("  ");
    if (!tail.empty() && tail.back() == '\n') tail.pop_back();
    const Message details{MessageText::EngineStartDetails, {displayCommand(), m_logPath.string()}};
    const Message log =
        tail.empty() ? Message{MessageText::EngineSilent, {}} : Message{MessageText::EngineLogTail, {tail}};
    MessageArgument text = what.asArgument();
    for (const Message& part : {details, log}) {
      text.english += "\n" + part.in(ReportLanguage::English);
      text.turkish += "\n" + part.in(ReportLanguage::Turkish);
    }
    return MessageError({MessageText::StageLines, {std::move(text)}});
  };
  HttpProbe probe;
  while (true) {
    if (m_cancelled) throw failure({MessageText::EngineStartCancelled, {m_template.displayName}});
    const auto left = std::chrono::duration_cast<milliseconds>(deadline - Clock::now());
    probe = httpGet(healthUrl, std::clamp(left, milliseconds(1), kHealthRequestTimeout), m_apiKey);
    if (probe.status == 200) return true;
    if (auto exit = m_process->wait(kHealthPollInterval)) {
      if (retryIfPortTaken &&
          lowercase(m_process->tailText()).find("address already in use") != std::string::npos) {
        m_process->stop(m_options.stopGrace);
        return false;
      }
      throw failure({MessageText::EngineExited, {m_template.displayName, exit->describe(), healthUrl}});
    }
    if (Clock::now() >= deadline) {
      throw failure({MessageText::EngineNotReady,
                     {m_template.displayName, healthUrl, seconds(timeout), describeProbe(probe)}});
    }
  }
}

void EngineLauncher::checkRemote() {
  m_remoteReachable = false;
  m_baseUrl = m_spec.normalizedBaseUrl();
  const HttpProbe health = httpGet(m_baseUrl + "/health", m_options.remoteTimeout, m_apiKey);
  if (health.status == 200) {
    m_remoteReachable = true;
    return;
  }
  const HttpProbe models = httpGet(m_baseUrl + "/v1/models", m_options.remoteTimeout, m_apiKey);
  if (models.status == 200) {
    m_remoteReachable = true;
    return;
  }
  if (models.status == 401 || models.status == 403) {
    const std::string status = std::to_string(models.status);
    if (m_apiKey.empty())
      throw MessageError({MessageText::RemoteWantsKey, {redactUrlCredentials(m_baseUrl), status}});
    throw MessageError({MessageText::RemoteKeyRefused,
                        {redactUrlCredentials(m_baseUrl), status,
                         m_spec.apiKeyEnv.empty() ? MessageArgument("the settings", "ayarlar")
                                                  : MessageArgument(m_spec.apiKeyEnv)}});
  }
  throw MessageError({MessageText::RemoteUnreachable,
                      {redactUrlCredentials(m_baseUrl), describeProbe(health), describeProbe(models)}});
}

void EngineLauncher::stop() {
  if (m_process) m_process->stop(m_options.stopGrace);
  m_remoteReachable = false;
}

bool EngineLauncher::isRunning() {
  if (m_spec.kind == EngineKind::Remote) return m_remoteReachable;
  return m_process != nullptr && m_process->isRunning();
}

}  // namespace ayar
