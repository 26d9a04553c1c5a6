// A stand-alone loopback streaming server for trying the load generator by hand:
//   ayar_sse_test_server [--ttft-ms MS] [--itl-ms MS] [--tokens-per-chunk N]
// prints its URL and serves until SIGINT or SIGTERM.
#include <signal.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "tests/support/sse_server/sse_test_server.h"

int main(int argc, char** argv) {
  ayar::test::SseTestServerOptions options;
  options.recordRequests = false;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (i + 1 >= argc) {
      std::fprintf(stderr, "%s needs a value\n", flag.c_str());
      return 2;
    }
    const char* value = argv[++i];
    if (flag == "--ttft-ms") {
      options.ttftMs = std::atof(value);
    } else if (flag == "--itl-ms") {
      options.itlMs = std::atof(value);
    } else if (flag == "--tokens-per-chunk") {
      options.tokensPerChunk = std::atoi(value);
    } else {
      std::fprintf(stderr, "unknown flag %s (use --ttft-ms, --itl-ms, --tokens-per-chunk)\n", flag.c_str());
      return 2;
    }
  }
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);  // before the server thread starts, so it inherits it
  ayar::test::SseTestServer server(options);
  std::printf("%s\n", server.baseUrl().c_str());
  std::fflush(stdout);
  int received = 0;
  sigwait(&signals, &received);
  return 0;
}
