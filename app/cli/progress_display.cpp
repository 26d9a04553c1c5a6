#include "app/cli/progress_display.h"

#include <unistd.h>

#include <algorithm>

namespace ayar::cli {
namespace {

std::string formatDuration(double seconds) {
  if (!(seconds >= 0) || seconds > 359999) return "--:--";
  const int total = static_cast<int>(seconds + 0.5);
  char text[32];
  if (total >= 3600) {
    std::snprintf(text, sizeof text, "%d:%02d:%02d", total / 3600, total / 60 % 60, total % 60);
  } else {
    std::snprintf(text, sizeof text, "%02d:%02d", total / 60, total % 60);
  }
  return text;
}

}  // namespace

ProgressDisplay::ProgressDisplay(std::FILE* out) : m_out(out), m_terminal(::isatty(::fileno(out)) == 1) {}

std::string ProgressDisplay::render(const LoadProgress& p) const {
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
  const std::size_t done = p.completed + p.failed;
  const double eta = done > 0 && p.total > done
                         ? elapsed * static_cast<double>(p.total - done) / static_cast<double>(done)
                         : (p.total == done ? 0.0 : -1.0);
  char counts[200];
  std::snprintf(counts, sizeof counts,
                "%zu/%zu done, %zu failed, %zu in flight, %zu sent | %s elapsed, ETA %s", done, p.total,
                p.failed, p.inFlight, p.sent, formatDuration(elapsed).c_str(), formatDuration(eta).c_str());
  if (!m_terminal) return counts;
  constexpr int kWidth = 30;
  const int filled =
      p.total ? static_cast<int>(kWidth * static_cast<double>(done) / static_cast<double>(p.total)) : 0;
  std::string bar = "[" + std::string(std::clamp(filled, 0, kWidth), '#') +
                    std::string(kWidth - std::clamp(filled, 0, kWidth), '.') + "] ";
  return bar + counts;
}

void ProgressDisplay::update(const LoadProgress& progress) {
  std::lock_guard lock(m_mutex);
  const auto now = std::chrono::steady_clock::now();
  const auto interval = m_terminal ? std::chrono::milliseconds(200) : std::chrono::milliseconds(5000);
  if (now - m_lastDraw < interval) return;
  m_lastDraw = now;
  if (m_terminal) {
    std::fprintf(m_out, "\r\033[K%s", render(progress).c_str());
    m_barShown = true;
  } else {
    std::fprintf(m_out, "progress: %s\n", render(progress).c_str());
  }
  std::fflush(m_out);
}

void ProgressDisplay::finish(const LoadProgress& progress) {
  std::lock_guard lock(m_mutex);
  m_lastDraw = {};
  if (m_terminal) {
    std::fprintf(m_out, "\r\033[K%s\n", render(progress).c_str());
    m_barShown = false;
  } else {
    std::fprintf(m_out, "progress: %s\n", render(progress).c_str());
  }
  std::fflush(m_out);
}

void ProgressDisplay::message(const std::string& text) {
  std::lock_guard lock(m_mutex);
  if (m_terminal && m_barShown) {
    std::fprintf(m_out, "\r\033[K");
    m_barShown = false;
    m_lastDraw = {};
  }
  std::fprintf(m_out, "%s\n", text.c_str());
  std::fflush(m_out);
}

}  // namespace ayar::cli
