#include "core/load/openai_stream.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>

#include "core/tokenizer/utf8.h"

namespace ayar {

namespace {

// Deeper nesting than this is not an OpenAI chunk; the limit keeps hostile input off the stack.
constexpr int kMaxDepth = 64;

std::string excerpt(std::string_view text, std::size_t limit = 200) {
  if (text.size() <= limit) return std::string(text);
  return std::string(text.substr(0, limit)) + "...";
}

// Bytes from a server, written so that any byte can be read in an error message: printable ASCII as
// it is, everything else as \xNN.
std::string escapedExcerpt(std::string_view bytes) {
  std::string out;
  for (const char c : bytes) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte < 0x7F && byte != '\\') {
      out += c;
    } else {
      constexpr char kHex[] = "0123456789ABCDEF";
      out += "\\x";
      out += kHex[byte >> 4];
      out += kHex[byte & 0xF];
    }
  }
  return out;
}

constexpr std::uint32_t kReplacementCharacter = 0xFFFD;

// Bytes that stand for themselves inside a JSON string: anything but '"', '\\' and control characters.
// One table lookup per byte keeps string scanning, most of a chunk, cheap.
constexpr std::array<bool, 256> kPlainStringByte = [] {
  std::array<bool, 256> table{};
  for (int c = 0x20; c < 256; ++c)
    table[static_cast<std::size_t>(c)] = c != '"' && c != '\\';
  return table;
}();

bool isPlainStringByte(char c) {
  return kPlainStringByte[static_cast<unsigned char>(c)];
}

// A strict JSON reader over one buffer that extracts only what it is asked for and validates the rest.
class JsonScanner {
 public:
  explicit JsonScanner(std::string_view text) : m_pos(text.data()), m_end(text.data() + text.size()) {}

  const std::string& problem() const { return m_problem; }

  char peek() {
    skipWhitespace();
    return m_pos < m_end ? *m_pos : '\0';
  }

  bool atEnd() {
    skipWhitespace();
    return m_pos == m_end;
  }

  const char* position() const { return m_pos; }

  bool fail(const char* what) {
    if (m_problem.empty()) m_problem = what;
    return false;
  }

  // onMember(std::string_view key, int depth) must consume the member's value.
  template <class OnMember>
  bool readObject(int depth, OnMember&& onMember) {
    if (depth > kMaxDepth) return fail("nested too deeply");
    if (peek() != '{') return fail("expected an object");
    ++m_pos;
    if (peek() == '}') {
      ++m_pos;
      return true;
    }
    for (;;) {
      if (peek() != '"') return fail("expected a string key");
      std::string_view key;
      if (!readStringView(key)) return false;
      if (peek() != ':') return fail("expected ':' after a key");
      ++m_pos;
      if (!onMember(key, depth + 1)) return false;
      const char next = peek();
      if (next != ',' && next != '}') return fail("expected ',' or '}' in an object");
      ++m_pos;
      if (next == '}') return true;
    }
  }

  // onElement(std::size_t index, int depth) must consume the element.
  template <class OnElement>
  bool readArray(int depth, OnElement&& onElement) {
    if (depth > kMaxDepth) return fail("nested too deeply");
    if (peek() != '[') return fail("expected an array");
    ++m_pos;
    if (peek() == ']') {
      ++m_pos;
      return true;
    }
    for (std::size_t index = 0;; ++index) {
      if (!onElement(index, depth + 1)) return false;
      const char next = peek();
      if (next != ',' && next != ']') return fail("expected ',' or ']' in an array");
      ++m_pos;
      if (next == ']') return true;
    }
  }

  // Appends the unescaped string to `out` (when given). Expects the opening quote next.
  bool readString(std::string* out) {
    if (peek() != '"') return fail("expected a string");
    ++m_pos;
    for (;;) {
      const char* runStart = m_pos;
      while (m_pos < m_end && isPlainStringByte(*m_pos))
        ++m_pos;
      // JSON is UTF-8: a server that sends other bytes sent no JSON, as vLLM's client also finds.
      if (!utf8::isValid(std::string_view(runStart, static_cast<std::size_t>(m_pos - runStart))))
        return fail("invalid UTF-8 inside a string");
      if (out) out->append(runStart, m_pos);
      if (m_pos >= m_end) return fail("unterminated string");
      const char c = *m_pos++;
      if (c == '"') return true;
      if (c != '\\') return fail("control character inside a string");
      if (m_pos >= m_end) return fail("unterminated escape");
      const char escape = *m_pos++;
      char plain = 0;
      switch (escape) {
        case '"':
          plain = '"';
          break;
        case '\\':
          plain = '\\';
          break;
        case '/':
          plain = '/';
          break;
        case 'b':
          plain = '\b';
          break;
        case 'f':
          plain = '\f';
          break;
        case 'n':
          plain = '\n';
          break;
        case 'r':
          plain = '\r';
          break;
        case 't':
          plain = '\t';
          break;
        case 'u': {
          std::uint32_t codePoint = 0;
          if (!readHex4(codePoint)) return false;
          if (codePoint >= 0xD800 && codePoint <= 0xDBFF) {
            // A high surrogate must be followed by an escaped low one; otherwise it stands alone.
            std::uint32_t low = 0;
            if (m_end - m_pos >= 6 && m_pos[0] == '\\' && m_pos[1] == 'u') {
              const char* save = m_pos;
              m_pos += 2;
              if (!readHex4(low)) return false;
              if (low >= 0xDC00 && low <= 0xDFFF) {
                codePoint = 0x10000 + ((codePoint - 0xD800) << 10) + (low - 0xDC00);
              } else {
                m_pos = save;
                codePoint = kReplacementCharacter;
              }
            } else {
              codePoint = kReplacementCharacter;
            }
          } else if (codePoint >= 0xDC00 && codePoint <= 0xDFFF) {
            codePoint = kReplacementCharacter;
          }
          if (out) utf8::append(*out, static_cast<char32_t>(codePoint));
          continue;
        }
        default:
          return fail("invalid escape in a string");
      }
      if (out) out->push_back(plain);
    }
  }

  // Reads a number; `value` (when given) receives it as a double.
  bool readNumber(double* value) {
    skipWhitespace();
    const char* start = m_pos;
    if (m_pos < m_end && *m_pos == '-') ++m_pos;
    if (m_pos >= m_end) return fail("expected a number");
    if (*m_pos == '0') {
      ++m_pos;
    } else if (isDigit(*m_pos)) {
      skipDigits();
    } else {
      return fail("expected a value");
    }
    if (m_pos < m_end && *m_pos == '.') {
      ++m_pos;
      if (m_pos >= m_end || !isDigit(*m_pos)) return fail("expected digits after '.'");
      skipDigits();
    }
    if (m_pos < m_end && (*m_pos == 'e' || *m_pos == 'E')) {
      ++m_pos;
      if (m_pos < m_end && (*m_pos == '+' || *m_pos == '-')) ++m_pos;
      if (m_pos >= m_end || !isDigit(*m_pos)) return fail("expected digits in an exponent");
      skipDigits();
    }
    if (value) {
      const auto result = std::from_chars(start, m_pos, *value);
      if (result.ec != std::errc()) *value = HUGE_VAL;  // out of range: still valid JSON
    }
    return true;
  }

  bool readNull() { return readLiteral("null"); }

  // Keys and short values in OpenAI chunks never need unescaping, so they stay views into the input;
  // an escaped one is decoded into a scratch buffer, valid until the next call. Expects the quote next.
  bool readStringView(std::string_view& value) {
    const char* start = m_pos + 1;
    const char* cursor = start;
    while (cursor < m_end && isPlainStringByte(*cursor))
      ++cursor;
    if (cursor < m_end && *cursor == '"' &&
        utf8::isValid(std::string_view(start, static_cast<std::size_t>(cursor - start)))) {
      value = std::string_view(start, static_cast<std::size_t>(cursor - start));
      m_pos = cursor + 1;
      return true;
    }
    m_scratch.clear();
    if (!readString(&m_scratch)) return false;
    value = m_scratch;
    return true;
  }

  bool skipValue(int depth) {
    switch (peek()) {
      case '{':
        return readObject(depth, [this](std::string_view, int inner) { return skipValue(inner); });
      case '[':
        return readArray(depth, [this](std::size_t, int inner) { return skipValue(inner); });
      case '"':
        return readString(nullptr);
      case 't':
        return readLiteral("true");
      case 'f':
        return readLiteral("false");
      case 'n':
        return readLiteral("null");
      case '\0':
        if (m_pos >= m_end) return fail("unexpected end of input");
        return fail("unexpected character");
      default:
        return readNumber(nullptr);
    }
  }

 private:
  static bool isDigit(char c) { return c >= '0' && c <= '9'; }

  void skipDigits() {
    while (m_pos < m_end && isDigit(*m_pos))
      ++m_pos;
  }

  void skipWhitespace() {
    while (m_pos < m_end && (*m_pos == ' ' || *m_pos == '\n' || *m_pos == '\r' || *m_pos == '\t'))
      ++m_pos;
  }

  bool readLiteral(std::string_view literal) {
    skipWhitespace();
    if (static_cast<std::size_t>(m_end - m_pos) < literal.size() ||
        std::string_view(m_pos, literal.size()) != literal) {
      return fail("invalid literal");
    }
    m_pos += literal.size();
    return true;
  }

  bool readHex4(std::uint32_t& value) {
    if (m_end - m_pos < 4) return fail("short \\u escape");
    value = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = *m_pos++;
      std::uint32_t digit = 0;
      if (c >= '0' && c <= '9') {
        digit = static_cast<std::uint32_t>(c - '0');
      } else if (c >= 'a' && c <= 'f') {
        digit = static_cast<std::uint32_t>(c - 'a' + 10);
      } else if (c >= 'A' && c <= 'F') {
        digit = static_cast<std::uint32_t>(c - 'A' + 10);
      } else {
        return fail("invalid \\u escape");
      }
      value = value * 16 + digit;
    }
    return true;
  }

  const char* m_pos;
  const char* m_end;
  std::string m_problem;
  std::string m_scratch;
};

std::int64_t toTokenCount(double value) {
  if (!std::isfinite(value) || value < 0 || value > 1e15) return -1;
  return static_cast<std::int64_t>(value);
}

// A string or null appends its text; any other value is skipped.
bool readOptionalText(JsonScanner& scanner, std::string& text, int depth) {
  if (scanner.peek() == '"') return scanner.readString(&text);
  return scanner.skipValue(depth);
}

bool readChoice(JsonScanner& scanner, StreamChunk& chunk, int depth) {
  if (scanner.peek() != '{') return scanner.skipValue(depth);
  return scanner.readObject(depth, [&](std::string_view key, int inner) {
    if (key == "text") return readOptionalText(scanner, chunk.text, inner);
    if (key == "delta" && scanner.peek() == '{') {
      return scanner.readObject(inner, [&](std::string_view deltaKey, int deltaDepth) {
        if (deltaKey == "content" || deltaKey == "reasoning_content" || deltaKey == "reasoning") {
          return readOptionalText(scanner, chunk.text, deltaDepth);
        }
        return scanner.skipValue(deltaDepth);
      });
    }
    return scanner.skipValue(inner);
  });
}

bool readChoices(JsonScanner& scanner, StreamChunk& chunk, int depth) {
  chunk.text.clear();
  chunk.hasChoices = false;
  if (scanner.peek() != '[') return scanner.skipValue(depth);  // null or not a list: no choices
  return scanner.readArray(depth, [&](std::size_t index, int inner) {
    chunk.hasChoices = true;
    return index == 0 ? readChoice(scanner, chunk, inner) : scanner.skipValue(inner);
  });
}

bool readUsage(JsonScanner& scanner, StreamChunk& chunk, int depth) {
  if (scanner.peek() != '{') return scanner.skipValue(depth);
  chunk.hasUsage = true;
  return scanner.readObject(depth, [&](std::string_view key, int inner) {
    const bool wanted = key == "prompt_tokens" || key == "completion_tokens";
    const char next = scanner.peek();
    if (!wanted || !(next == '-' || (next >= '0' && next <= '9'))) return scanner.skipValue(inner);
    double value = 0;
    if (!scanner.readNumber(&value)) return false;
    (key == "prompt_tokens" ? chunk.promptTokens : chunk.completionTokens) = toTokenCount(value);
    return true;
  });
}

bool readError(JsonScanner& scanner, StreamChunk& chunk, int depth) {
  const char next = scanner.peek();
  if (next == 'n') return scanner.readNull();  // "error": null is no error
  chunk.isError = true;
  chunk.errorMessage.clear();
  if (next == '"') return scanner.readString(&chunk.errorMessage);
  const char* start = scanner.position();
  bool sawMessage = false;
  bool ok = false;
  if (next == '{') {
    ok = scanner.readObject(depth, [&](std::string_view key, int inner) {
      if (key == "message" && scanner.peek() == '"') {
        sawMessage = true;
        chunk.errorMessage.clear();
        return scanner.readString(&chunk.errorMessage);
      }
      return scanner.skipValue(inner);
    });
  } else {
    ok = scanner.skipValue(depth);
  }
  if (ok && !sawMessage) {
    chunk.errorMessage =
        excerpt(std::string_view(start, static_cast<std::size_t>(scanner.position() - start)));
  }
  return ok;
}

}  // namespace

bool parseStreamChunk(std::string_view json, StreamChunk& chunk, std::string& problem) {
  chunk.hasChoices = false;
  chunk.text.clear();
  chunk.hasUsage = false;
  chunk.promptTokens = -1;
  chunk.completionTokens = -1;
  chunk.isError = false;
  chunk.errorMessage.clear();

  JsonScanner scanner(json);
  if (scanner.peek() != '{') {
    problem = "not a JSON object";
    return false;
  }
  bool objectIsError = false;  // vLLM before 0.6 streamed {"object": "error", "message": ...}
  std::string topMessage;
  const bool ok = scanner.readObject(1, [&](std::string_view key, int depth) {
    if (key == "choices") return readChoices(scanner, chunk, depth);
    if (key == "usage") return readUsage(scanner, chunk, depth);
    if (key == "error") return readError(scanner, chunk, depth);
    if (key == "object" && scanner.peek() == '"') {
      std::string_view value;
      if (!scanner.readStringView(value)) return false;
      objectIsError = value == "error";
      return true;
    }
    if (key == "message" && scanner.peek() == '"') {
      topMessage.clear();
      return scanner.readString(&topMessage);
    }
    return scanner.skipValue(depth);
  });
  if (!ok) {
    problem = scanner.problem();
    return false;
  }
  if (!scanner.atEnd()) {
    problem = "unexpected characters after the object";
    return false;
  }
  if (objectIsError && !chunk.isError) {
    chunk.isError = true;
    chunk.errorMessage = topMessage.empty() ? std::string("error object without a message") : topMessage;
  }
  return true;
}

void OpenAiStreamReader::feed(std::string_view bytes, double arrivalS) {
  m_parser.feed(bytes, [this, arrivalS](std::string_view data) { onEvent(data, arrivalS); });
  if (m_parser.overflowed() && m_error.empty()) {
    m_error = "a stream event was larger than " + std::to_string(SseParser::kMaxEventBytes >> 20) + " MiB";
  }
  noteForeignLine();
}

void OpenAiStreamReader::noteForeignLine() {
  if (!m_parser.foreignLine().empty() && m_error.empty()) {
    m_error = "protocol error: the stream holds a line that is not a server-sent event: \"" +
              escapedExcerpt(m_parser.foreignLine()) + "\"";
  }
}

void OpenAiStreamReader::onEvent(std::string_view data, double arrivalS) {
  ++m_eventCount;
  // A foreign line before this event ends the reading here, however the body was cut into reads.
  noteForeignLine();
  if (m_sawDone || !m_error.empty()) return;
  if (data.find_first_not_of(" \t\r\n") == std::string_view::npos) return;  // empty events carry nothing
  if (isDoneMarker(data)) {
    m_sawDone = true;
    return;
  }
  if (!parseStreamChunk(data, m_chunk, m_problem)) {
    m_error = "invalid JSON in a stream event (" + m_problem + "): " + excerpt(data);
    return;
  }
  if (m_chunk.isError) {
    m_error = "error in the stream: " + m_chunk.errorMessage;
    return;
  }
  if (m_chunk.hasChoices) {
    m_chunkTimesS.push_back(arrivalS);
    m_text += m_chunk.text;
    if (!m_chunk.text.empty()) ++m_textChunks;
  }
  if (m_chunk.hasUsage) {
    if (m_chunk.promptTokens >= 0) m_promptTokens = m_chunk.promptTokens;
    if (m_chunk.completionTokens >= 0) m_completionTokens = m_chunk.completionTokens;
  }
}

void OpenAiStreamReader::reserve(std::size_t expectedChunks) {
  // A hint, never a promise: a request may ask for far more tokens than any server sends, and the
  // vectors grow as chunks arrive anyway; a cap keeps what is reserved ahead bounded.
  constexpr std::size_t kMostReserved = 16384;
  expectedChunks = std::min(expectedChunks, kMostReserved);
  // Chat streams add a role chunk and the usage chunk; ~4 bytes of text per token is typical.
  m_chunkTimesS.reserve(expectedChunks + 2);
  m_text.reserve(expectedChunks * 4);
}

void OpenAiStreamReader::reset() {
  m_parser.reset();
  m_chunkTimesS.clear();
  m_text.clear();
  m_error.clear();
  m_promptTokens = -1;
  m_completionTokens = -1;
  m_eventCount = 0;
  m_sawDone = false;
  m_textChunks = 0;
}

}  // namespace ayar
