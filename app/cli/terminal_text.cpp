#include "app/cli/terminal_text.h"

#include <unistd.h>

#include <cstdio>
#include <iostream>

namespace ayar::cli {
namespace {

// The length of the UTF-8 sequence that `lead` starts (1 for ASCII), 0 for a byte that cannot start
// one (a continuation byte, an overlong lead, or beyond U+10FFFF).
std::size_t sequenceLength(unsigned char lead) {
  if (lead < 0x80) return 1;
  if (lead >= 0xC2 && lead <= 0xDF) return 2;
  if (lead >= 0xE0 && lead <= 0xEF) return 3;
  if (lead >= 0xF0 && lead <= 0xF4) return 4;
  return 0;
}

// Whether bytes[0..n) is one valid UTF-8 sequence of length n, as RFC 3629 defines it (no overlongs,
// no surrogates).
bool validSequence(std::string_view bytes) {
  const auto at = [&](std::size_t i) { return static_cast<unsigned char>(bytes[i]); };
  for (std::size_t i = 1; i < bytes.size(); ++i) {
    if ((at(i) & 0xC0) != 0x80) return false;
  }
  if (bytes.size() == 3) {
    if (at(0) == 0xE0 && at(1) < 0xA0) return false;  // overlong
    if (at(0) == 0xED && at(1) > 0x9F) return false;  // a surrogate
  }
  if (bytes.size() == 4) {
    if (at(0) == 0xF0 && at(1) < 0x90) return false;  // overlong
    if (at(0) == 0xF4 && at(1) > 0x8F) return false;  // beyond U+10FFFF
  }
  return true;
}

void escapeByte(std::string& out, unsigned char byte) {
  char code[5];
  std::snprintf(code, sizeof code, "\\x%02X", byte);
  out += code;
}

// Escapes `text`; a sequence cut at its end is left in `rest` (when given) instead of escaped.
void appendSafe(std::string& out, std::string_view text, bool keepLineBreaks, std::string* rest) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto byte = static_cast<unsigned char>(text[i]);
    const std::size_t length = sequenceLength(byte);
    if (length == 1) {
      const bool control = byte < 0x20 || byte == 0x7F;
      if (control && !(keepLineBreaks && (byte == '\n' || byte == '\t'))) {
        escapeByte(out, byte);
      } else {
        out += static_cast<char>(byte);
      }
      ++i;
      continue;
    }
    if (length == 0) {
      escapeByte(out, byte);
      ++i;
      continue;
    }
    if (i + length > text.size()) {
      if (rest && validSequence(text.substr(i))) {
        *rest = std::string(text.substr(i));
        return;
      }
      escapeByte(out, byte);
      ++i;
      continue;
    }
    const std::string_view sequence = text.substr(i, length);
    if (!validSequence(sequence)) {
      escapeByte(out, byte);
      ++i;
      continue;
    }
    // U+0080..U+009F: the C1 controls, some of which terminals obey (CSI is U+009B).
    if (length == 2 && byte == 0xC2 && static_cast<unsigned char>(sequence[1]) < 0xA0) {
      escapeByte(out, byte);
      escapeByte(out, static_cast<unsigned char>(sequence[1]));
    } else {
      out += sequence;
    }
    i += length;
  }
}

}  // namespace

std::string terminalSafe(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  appendSafe(out, text, /*keepLineBreaks=*/true, nullptr);
  return out;
}

std::string oneLine(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  appendSafe(out, text, /*keepLineBreaks=*/false, nullptr);
  return out;
}

TerminalSafeBuffer::~TerminalSafeBuffer() {
  flushPending();
}

void TerminalSafeBuffer::put(std::string_view bytes) {
  std::string joined = std::move(m_pending);
  m_pending.clear();
  joined.append(bytes);
  std::string out;
  out.reserve(joined.size());
  appendSafe(out, joined, /*keepLineBreaks=*/true, &m_pending);
  m_target->sputn(out.data(), static_cast<std::streamsize>(out.size()));
  m_target->pubsync();
}

void TerminalSafeBuffer::flushPending() {
  if (m_pending.empty()) return;
  std::string out;
  for (char c : m_pending)
    escapeByte(out, static_cast<unsigned char>(c));
  m_pending.clear();
  m_target->sputn(out.data(), static_cast<std::streamsize>(out.size()));
  m_target->pubsync();
}

TerminalSafeBuffer::int_type TerminalSafeBuffer::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  const char byte = traits_type::to_char_type(c);
  put(std::string_view(&byte, 1));
  return c;
}

std::streamsize TerminalSafeBuffer::xsputn(const char* s, std::streamsize n) {
  put(std::string_view(s, static_cast<std::size_t>(n)));
  return n;
}

int TerminalSafeBuffer::sync() {
  return m_target->pubsync();
}

TerminalGuard::TerminalGuard() {
  if (::isatty(STDOUT_FILENO) == 1) {
    m_out = std::make_unique<TerminalSafeBuffer>(std::cout.rdbuf());
    m_oldOut = std::cout.rdbuf(m_out.get());
  }
  if (::isatty(STDERR_FILENO) == 1) {
    m_err = std::make_unique<TerminalSafeBuffer>(std::cerr.rdbuf());
    m_oldErr = std::cerr.rdbuf(m_err.get());
  }
}

TerminalGuard::~TerminalGuard() {
  if (m_oldOut) std::cout.rdbuf(m_oldOut);
  if (m_oldErr) std::cerr.rdbuf(m_oldErr);
}

}  // namespace ayar::cli
