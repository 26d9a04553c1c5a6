// A tiny HTTP server that behaves like an engine starting up, for the launcher's tests: it takes the
// bundled engine's command line (serve MODEL --host H --port P ...), answers GET /health with 503
// until --health-delay-ms has passed and 200 afterwards, lists the model on /v1/models (checking the
// key of --api-key, else of $AYAR_API_KEY, when given, as ayar-engine does), and on request fails like
// an engine does: --exit-after-ms N --exit-code C prints an error and exits, --ignore-sigterm makes it
// wait for SIGKILL.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct Options {
  std::string model = "test-model";
  std::string host = "127.0.0.1";
  int port = 0;
  long healthDelayMs = 0;
  long exitAfterMs = -1;
  int exitCode = 1;
  bool ignoreSigterm = false;
  bool noHealth = false;
  std::string apiKey;
  std::string servedModelName;
};

void say(const std::string& line, FILE* stream = stdout) {
  std::fprintf(stream, "%s\n", line.c_str());
  std::fflush(stream);
}

[[noreturn]] void usageError(const std::string& message) {
  say("health_server: " + message, stderr);
  std::exit(2);
}

long number(const std::string& flag, const char* text) {
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (end == text || *end != '\0') usageError(flag + " needs a number, not '" + text + "'");
  return value;
}

Options parse(int argc, char** argv) {
  Options options;
  std::vector<std::string> positional;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> const char* {
      if (i + 1 >= argc) usageError(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--host") {
      options.host = value();
    } else if (arg == "--port") {
      options.port = static_cast<int>(number(arg, value()));
    } else if (arg == "--health-delay-ms") {
      options.healthDelayMs = number(arg, value());
    } else if (arg == "--exit-after-ms") {
      options.exitAfterMs = number(arg, value());
    } else if (arg == "--exit-code") {
      options.exitCode = static_cast<int>(number(arg, value()));
    } else if (arg == "--ignore-sigterm") {
      options.ignoreSigterm = true;
    } else if (arg == "--no-health") {
      options.noHealth = true;
    } else if (arg == "--api-key") {
      options.apiKey = value();
    } else if (arg == "--served-model-name") {
      options.servedModelName = value();
    } else if (arg == "--device") {
      value();
    } else if (!arg.empty() && arg[0] == '-') {
      usageError("unknown flag " + arg);
    } else {
      positional.push_back(arg);
    }
  }
  if (const char* key = std::getenv("AYAR_API_KEY"); options.apiKey.empty() && key != nullptr)
    options.apiKey = key;
  if (!positional.empty() && positional[0] == "serve") positional.erase(positional.begin());
  if (!positional.empty()) options.model = positional[0];
  if (options.port <= 0) usageError("--port is required");
  return options;
}

std::string response(int status, const std::string& reason, const std::string& body) {
  return "HTTP/1.1 " + std::to_string(status) + " " + reason +
         "\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: " +
         std::to_string(body.size()) + "\r\n\r\n" + body;
}

void serve(int client, const Options& options, long elapsedMs) {
  std::string request;
  char buffer[4096];
  // Read the request head; a test client sends it at once.
  while (request.find("\r\n\r\n") == std::string::npos && request.size() < 65536) {
    pollfd fd{client, POLLIN, 0};
    if (::poll(&fd, 1, 2000) <= 0) return;
    const ssize_t count = ::read(client, buffer, sizeof buffer);
    if (count <= 0) return;
    request.append(buffer, static_cast<std::size_t>(count));
  }
  const std::size_t lineEnd = request.find("\r\n");
  const std::string requestLine = request.substr(0, lineEnd);
  std::string reply;
  if (requestLine.rfind("GET /health ", 0) == 0 && !options.noHealth) {
    reply = elapsedMs >= options.healthDelayMs
                ? response(200, "OK", "")
                : response(503, "Service Unavailable", "{\"status\":\"loading\"}");
  } else if (requestLine.rfind("GET /v1/models ", 0) == 0) {
    if (!options.apiKey.empty() &&
        request.find("Authorization: Bearer " + options.apiKey + "\r\n") == std::string::npos) {
      reply = response(401, "Unauthorized", "{\"error\":{\"message\":\"bad api key\"}}");
    } else {
      const std::string name = options.servedModelName.empty() ? options.model : options.servedModelName;
      reply = response(200, "OK",
                       "{\"object\":\"list\",\"data\":[{\"id\":\"" + name + "\",\"object\":\"model\"}]}");
    }
  } else {
    reply = response(404, "Not Found", "{\"error\":{\"message\":\"not found\"}}");
  }
  std::size_t sent = 0;
  while (sent < reply.size()) {
    const ssize_t count = ::send(client, reply.data() + sent, reply.size() - sent, MSG_NOSIGNAL);
    if (count <= 0) return;
    sent += static_cast<std::size_t>(count);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse(argc, argv);
  if (options.ignoreSigterm) ::signal(SIGTERM, SIG_IGN);
  const auto started = std::chrono::steady_clock::now();
  say("health_server: loading " + options.model + " on " + options.host + ":" + std::to_string(options.port));

  const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  const int reuse = 1;
  ::setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &reuse, sizeof reuse);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(options.port));
  if (::inet_pton(AF_INET, options.host.c_str(), &address.sin_addr) != 1)
    usageError("bad --host " + options.host);
  if (::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      ::listen(listener, 64) != 0) {
    say(std::string("health_server: cannot listen: ") + std::strerror(errno), stderr);
    return 1;
  }
  say("health_server: listening");

  bool announcedReady = false;
  while (true) {
    const long elapsedMs = static_cast<long>(
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started)
            .count());
    if (options.exitAfterMs >= 0 && elapsedMs >= options.exitAfterMs) {
      say("health_server: fatal: simulated engine failure", stderr);
      return options.exitCode;
    }
    if (!announcedReady && elapsedMs >= options.healthDelayMs) {
      say("health_server: ready");
      announcedReady = true;
    }
    // Wake in time for the next scheduled event (ready, exit); otherwise wait for a client.
    long waitMs = 1000;
    if (options.exitAfterMs >= 0) waitMs = std::min(waitMs, options.exitAfterMs - elapsedMs);
    if (!announcedReady) waitMs = std::min(waitMs, options.healthDelayMs - elapsedMs);
    pollfd fd{listener, POLLIN, 0};
    if (::poll(&fd, 1, static_cast<int>(std::max(0L, waitMs))) <= 0) continue;
    const int client = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    if (client < 0) continue;
    const long now = static_cast<long>(
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started)
            .count());
    serve(client, options, now);
    ::close(client);
  }
}
