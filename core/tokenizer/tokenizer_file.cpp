#include "core/tokenizer/tokenizer_file.h"

#include <charconv>
#include <fstream>

#include "core/error.h"
#include "core/report/message_text.h"
#include "core/tokenizer/utf8.h"

namespace ayar {

namespace {

using Json = nlohmann::json;

std::string readBytes(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw MessageError({MessageText::TokenizerCannotOpen, {file.string()}});
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  in.seekg(0, std::ios::beg);
  std::string bytes(size > 0 ? static_cast<std::size_t>(size) : 0, '\0');
  if (size > 0 && !in.read(bytes.data(), size))
    throw MessageError({MessageText::TokenizerCannotRead, {file.string()}});
  return bytes;
}

// A small JSON reader for tokenizer.json: a generic parser for the settings, plus streaming of
// model.vocab and model.merges straight into flat lists. nlohmann's parser (DOM or SAX) spends most
// of a load on these two members; this keeps loading fast, notably in Debug and sanitizer builds.
class TokenizerJsonReader {
 public:
  TokenizerJsonReader(TokenizerFile& out, const std::filesystem::path& file)
      : m_begin(out.text.data()),
        m_p(out.text.data()),
        m_end(out.text.data() + out.text.size()),
        m_file(file),
        m_out(out) {}

  void read() {
    TokenizerFile& out = m_out;
    skipWhitespace();
    if (!consume('{')) {
      out.settings = readValue(0);  // not an object: the caller reports it
      finish();
      return;
    }
    out.settings = Json::object();
    readMembers([&](std::string&& key) {
      if (key == "model" && peek() == '{') {
        readModel(out);
      } else {
        out.settings[key] = readValue(1);
      }
    });
    finish();
  }

 private:
  static constexpr int kMaxDepth = 256;

  [[noreturn]] void fail(const Message& what) const {
    throw MessageError({MessageText::TokenizerNotJsonAt,
                        {m_file.string(), std::to_string(m_p - m_begin), what.asArgument()}});
  }
  [[noreturn]] void failContent(const Message& what) const {
    throw MessageError({MessageText::TokenizerContent, {m_file.string(), what.asArgument()}});
  }

  void skipWhitespace() {
    while (m_p < m_end && (*m_p == ' ' || *m_p == '\n' || *m_p == '\r' || *m_p == '\t'))
      ++m_p;
  }
  char peek() {
    skipWhitespace();
    return m_p < m_end ? *m_p : '\0';
  }
  bool consume(char c) {
    if (peek() != c) return false;
    ++m_p;
    return true;
  }
  void expect(char c) {
    if (!consume(c)) fail({MessageText::TokenizerJsonExpected, {std::string(1, c)}});
  }
  void finish() {
    skipWhitespace();
    if (m_p != m_end) fail({MessageText::TokenizerJsonTrailing, {}});
  }

  // Calls onKey for each member of the object whose '{' was just consumed; onKey reads the value.
  template <typename OnKey>
  void readMembers(OnKey&& onKey) {
    if (consume('}')) return;
    do {
      std::string key = readString();
      expect(':');
      onKey(std::move(key));
    } while (consume(','));
    expect('}');
  }
  template <typename OnElement>
  void readElements(OnElement&& onElement) {
    if (consume(']')) return;
    do {
      onElement();
    } while (consume(','));
    expect(']');
  }

  void readModel(TokenizerFile& out) {
    expect('{');
    Json& model = out.settings["model"] = Json::object();
    readMembers([&](std::string&& key) {
      if (key == "vocab" && peek() == '{') {
        readVocab(out);
      } else if (key == "merges" && peek() == '[') {
        readMerges(out);
      } else {
        model[key] = readValue(2);
      }
    });
  }

  void readVocab(TokenizerFile& out) {
    expect('{');
    out.hasVocab = true;
    // About 10 bytes per entry in a typical file; a good guess saves most of the regrowth.
    out.vocab.reserve(out.text.size() / 80);
    if (consume('}')) return;
    do {
      const std::string_view token = readStringView();
      expect(':');
      const char* start = m_p;
      const Json id = peek() == '-' || (peek() >= '0' && peek() <= '9') ? readNumber() : Json();
      if (!id.is_number_integer() || id.get<std::int64_t>() < 0) {
        m_p = start;
        failContent({MessageText::TokenizerVocabId, {std::string(token), readValue(3).dump()}});
      }
      out.vocab.emplace_back(token, id.get<std::int64_t>());
    } while (consume(','));
    expect('}');
  }

  void readMerges(TokenizerFile& out) {
    expect('[');
    out.hasMerges = true;
    out.merges.reserve(out.text.size() / 80);
    auto notTwoTokens = [&](const std::string& shown) {
      failContent({MessageText::TokenizerMergeNotTwo, {std::to_string(out.merges.size()), shown}});
    };
    readElements([&] {
      if (peek() == '"') {
        // The older format "left right": byte-level tokens never hold a plain space.
        const std::string_view merge = readStringView();
        const std::size_t space = merge.find(' ');
        if (space == std::string_view::npos || merge.find(' ', space + 1) != std::string_view::npos) {
          notTwoTokens(" \"" + std::string(merge) + "\"");
        }
        out.merges.emplace_back(merge.substr(0, space), merge.substr(space + 1));
      } else if (consume('[')) {
        if (peek() != '"') notTwoTokens("");
        const std::string_view left = readStringView();
        if (!consume(',') || peek() != '"') notTwoTokens("");
        const std::string_view right = readStringView();
        if (!consume(']')) notTwoTokens("");
        out.merges.emplace_back(left, right);
      } else {
        notTwoTokens(" " + readValue(3).dump());
      }
    });
  }

  // A string as a view into the file when it has no escapes (nearly always), else decoded into
  // the file's list of unescaped strings.
  std::string_view readStringView() {
    if (!consume('"')) fail({MessageText::TokenizerJsonExpectedString, {}});
    const char* start = m_p;
    while (m_p < m_end && *m_p != '"' && *m_p != '\\' && static_cast<unsigned char>(*m_p) >= 0x20)
      ++m_p;
    if (m_p < m_end && *m_p == '"') return std::string_view(start, static_cast<std::size_t>(m_p++ - start));
    m_p = start - 1;
    return m_out.unescaped.emplace_back(readString());
  }

  Json readValue(int depth) {
    if (depth > kMaxDepth) fail({MessageText::TokenizerJsonTooDeep, {}});
    switch (peek()) {
      case '{': {
        ++m_p;
        Json object = Json::object();
        readMembers([&](std::string&& key) { object[key] = readValue(depth + 1); });
        return object;
      }
      case '[': {
        ++m_p;
        Json array = Json::array();
        readElements([&] { array.push_back(readValue(depth + 1)); });
        return array;
      }
      case '"':
        return readString();
      case 't':
        return readLiteral("true", Json(true));
      case 'f':
        return readLiteral("false", Json(false));
      case 'n':
        return readLiteral("null", Json());
      default:
        return readNumber();
    }
  }

  Json readLiteral(std::string_view word, Json value) {
    if (static_cast<std::size_t>(m_end - m_p) < word.size() || std::string_view(m_p, word.size()) != word) {
      fail({MessageText::TokenizerJsonUnexpected, {}});
    }
    m_p += word.size();
    return value;
  }

  Json readNumber() {
    skipWhitespace();
    const char* start = m_p;
    auto digits = [&] {
      const char* first = m_p;
      while (m_p < m_end && *m_p >= '0' && *m_p <= '9')
        ++m_p;
      return m_p != first;
    };
    if (m_p < m_end && *m_p == '-') ++m_p;
    if (m_p < m_end && *m_p == '0') {
      ++m_p;
    } else if (!digits()) {
      fail(
          {m_p < m_end ? MessageText::TokenizerJsonUnexpected : MessageText::TokenizerJsonUnexpectedEnd, {}});
    }
    bool integer = true;
    if (m_p < m_end && *m_p == '.') {
      ++m_p;
      if (!digits()) fail({MessageText::TokenizerJsonDigitsAfterPoint, {}});
      integer = false;
    }
    if (m_p < m_end && (*m_p == 'e' || *m_p == 'E')) {
      ++m_p;
      if (m_p < m_end && (*m_p == '+' || *m_p == '-')) ++m_p;
      if (!digits()) fail({MessageText::TokenizerJsonExponent, {}});
      integer = false;
    }
    if (integer) {
      std::int64_t value = 0;
      if (std::from_chars(start, m_p, value).ec == std::errc()) return value;
    }
    double value = 0;
    std::from_chars(start, m_p, value);
    return value;
  }

  std::string readString() {
    if (!consume('"')) fail({MessageText::TokenizerJsonExpectedString, {}});
    std::string out;
    while (true) {
      const char* run = m_p;
      while (m_p < m_end && *m_p != '"' && *m_p != '\\' && static_cast<unsigned char>(*m_p) >= 0x20)
        ++m_p;
      out.append(run, m_p);
      if (m_p == m_end) fail({MessageText::TokenizerJsonUnterminated, {}});
      const char c = *m_p++;
      if (c == '"') return out;
      if (c != '\\') fail({MessageText::TokenizerJsonControl, {}});
      if (m_p == m_end) fail({MessageText::TokenizerJsonUnterminated, {}});
      switch (*m_p++) {
        case '"':
          out.push_back('"');
          break;
        case '\\':
          out.push_back('\\');
          break;
        case '/':
          out.push_back('/');
          break;
        case 'b':
          out.push_back('\b');
          break;
        case 'f':
          out.push_back('\f');
          break;
        case 'n':
          out.push_back('\n');
          break;
        case 'r':
          out.push_back('\r');
          break;
        case 't':
          out.push_back('\t');
          break;
        case 'u':
          utf8::append(out, readEscapedCodePoint());
          break;
        default:
          fail({MessageText::TokenizerJsonEscape, {}});
      }
    }
  }

  // After "\u": four hex digits, combined with a following low surrogate escape when it is a
  // high surrogate. A lone surrogate has no UTF-8 form and becomes U+FFFD.
  char32_t readEscapedCodePoint() {
    const char32_t first = readHex4();
    if (first >= 0xD800 && first <= 0xDBFF && m_end - m_p >= 6 && m_p[0] == '\\' && m_p[1] == 'u') {
      const char* save = m_p;
      m_p += 2;
      const char32_t second = readHex4();
      if (second >= 0xDC00 && second <= 0xDFFF) return 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
      m_p = save;
    }
    if (first >= 0xD800 && first <= 0xDFFF) return utf8::kReplacementCharacter;
    return first;
  }

  char32_t readHex4() {
    if (m_end - m_p < 4) fail({MessageText::TokenizerJsonUnicodeCut, {}});
    char32_t value = 0;
    for (int i = 0; i < 4; ++i, ++m_p) {
      const char c = *m_p;
      const int digit = c >= '0' && c <= '9'   ? c - '0'
                        : c >= 'a' && c <= 'f' ? c - 'a' + 10
                        : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                               : -1;
      if (digit < 0) fail({MessageText::TokenizerJsonUnicodeInvalid, {}});
      value = value * 16 + static_cast<char32_t>(digit);
    }
    return value;
  }

  const char* m_begin;
  const char* m_p;
  const char* m_end;
  const std::filesystem::path& m_file;
  TokenizerFile& m_out;
};

}  // namespace

void readTokenizerFile(const std::filesystem::path& file, TokenizerFile& out) {
  out.text = readBytes(file);
  // Strings are taken byte for byte, so the whole file is checked for UTF-8 once, up front.
  if (!utf8::isValid(out.text)) throw MessageError({MessageText::TokenizerNotUtf8, {file.string()}});
  TokenizerJsonReader(out, file).read();
}

nlohmann::json readJsonFile(const std::filesystem::path& file) {
  const std::string bytes = readBytes(file);
  try {
    return Json::parse(bytes);
  } catch (const Json::parse_error& e) {
    throw MessageError({MessageText::TokenizerNotJson, {file.string(), std::string(e.what())}});
  }
}

}  // namespace ayar
