#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace ayar::test {

// Collects a child's output lines (from Process's output thread) and lets a test wait for one that
// contains a text: the child tells the test it reached a point, no sleeping involved.
class LineWatch {
 public:
  std::function<void(std::string_view)> callback() {
    return [this](std::string_view line) {
      std::lock_guard lock(m_mutex);
      m_lines.emplace_back(line);
      m_changed.notify_all();
    };
  }

  // The first line containing `text`, waiting for it at most `timeout`; empty when none came.
  std::string waitFor(std::string_view text, std::chrono::milliseconds timeout = std::chrono::seconds(20)) {
    std::unique_lock lock(m_mutex);
    std::string found;
    m_changed.wait_for(lock, timeout, [&] {
      for (const auto& line : m_lines) {
        if (line.find(text) != std::string::npos) {
          found = line;
          return true;
        }
      }
      return false;
    });
    return found;
  }

  std::vector<std::string> lines() const {
    std::lock_guard lock(m_mutex);
    return m_lines;
  }

 private:
  mutable std::mutex m_mutex;
  std::condition_variable m_changed;
  std::vector<std::string> m_lines;
};

}  // namespace ayar::test
