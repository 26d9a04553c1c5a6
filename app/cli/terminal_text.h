#pragma once

#include <memory>
#include <ostream>
#include <streambuf>
#include <string>
#include <string_view>

namespace ayar::cli {

// Text from outside (study and run names, server bodies, file contents) shown on a terminal as text:
// control characters (ESC and the rest of C0 but newline and tab, DEL, the C1 controls) and bytes that
// are not UTF-8 are written as \xNN, so that what a file or a server says cannot move the cursor,
// recolour the screen or rewrite a line. Valid UTF-8 (Turkish letters) passes as it is.
std::string terminalSafe(std::string_view text);

// The same for one field of a table row or a list line: a newline or tab is escaped too.
std::string oneLine(std::string_view text);

// A stream buffer that writes what it is given to `target`, made terminal-safe as above. It keeps an
// unfinished UTF-8 sequence until its last byte arrives, and flushes on every write so that its
// output stays in order with stdio's (the progress line).
class TerminalSafeBuffer : public std::streambuf {
 public:
  explicit TerminalSafeBuffer(std::streambuf* target) : m_target(target) {}
  ~TerminalSafeBuffer() override;

 protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;
  int sync() override;

 private:
  void put(std::string_view bytes);
  void flushPending();

  std::streambuf* m_target;
  std::string m_pending;  // the start of a UTF-8 sequence whose end has not arrived
};

// Routes std::cout and std::cerr through a TerminalSafeBuffer when they go to a terminal; files and
// pipes keep the bytes as they are. Undone when the returned guard is destroyed.
class TerminalGuard {
 public:
  TerminalGuard();
  ~TerminalGuard();
  TerminalGuard(const TerminalGuard&) = delete;
  TerminalGuard& operator=(const TerminalGuard&) = delete;

 private:
  std::unique_ptr<TerminalSafeBuffer> m_out, m_err;
  std::streambuf* m_oldOut = nullptr;
  std::streambuf* m_oldErr = nullptr;
};

}  // namespace ayar::cli
