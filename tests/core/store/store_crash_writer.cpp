// The crash-safety test's child: `store_crash_writer STORE_PATH` writes records 0, 1, 2, ... to a new
// run until it is killed, and prints "<index>\n" to stdout for every record once the RunWriter has
// reported it committed. Exits 1 with a message on stderr when the store fails.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <exception>
#include <string>

#include "core/store/run_writer.h"
#include "tests/core/store/store_test_records.h"

namespace {

void writeAll(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) std::_Exit(2);  // the test stopped listening
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: store_crash_writer STORE_PATH\n");
    return 2;
  }
  try {
    ayar::RunWriterOptions options;
    options.onCommitted = [](std::span<const std::int64_t> indices) {
      std::string text;
      for (const std::int64_t index : indices)
        text += std::to_string(index) + "\n";
      writeAll(STDOUT_FILENO, text);
    };
    ayar::RunInfo info;
    info.label = "crash-test";
    info.model = "qwen3-tiny";
    ayar::RunWriter writer(argv[1], info, options);
    for (std::int64_t i = 0;; ++i) {
      writer.addRecord(ayar::test::makeStoreTestRecord(i));
      // Backpressure only: the 200 ms commits keep running between these.
      if (i % 200 == 199) writer.flush();
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "store_crash_writer: %s\n", e.what());
    return 1;
  }
}
