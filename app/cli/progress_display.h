#pragma once

#include <chrono>
#include <cstdio>
#include <mutex>
#include <string>

#include "core/load/load_runner.h"

namespace ayar::cli {

// Thread-safe: the run's threads print messages while the main thread draws the bar.
// Shows a run's progress on stderr: a bar with counts and ETA redrawn in place on a terminal, a plain
// line every few seconds otherwise (logs, CI).
class ProgressDisplay {
 public:
  explicit ProgressDisplay(std::FILE* out = stderr);
  // Call often (e.g. every 100 ms); draws when it is time.
  void update(const LoadProgress& progress);
  // Ends the bar's line so that what follows starts on a fresh one.
  void finish(const LoadProgress& progress);
  // Prints a message on its own line without breaking the bar.
  void message(const std::string& text);

 private:
  std::string render(const LoadProgress& progress) const;

  std::mutex m_mutex;
  std::FILE* m_out;
  bool m_terminal;
  bool m_barShown = false;
  std::chrono::steady_clock::time_point m_start = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point m_lastDraw{};
};

}  // namespace ayar::cli
