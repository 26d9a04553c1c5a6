#include "core/tokenizer/regex_splitter.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <memory>
#include <stdexcept>
#include <utility>

#include "core/error.h"
#include "core/report/message_text.h"
#include "core/tokenizer/utf8.h"

namespace ayar {

namespace {

// Per-thread matching state shared by all splitters: match data with room for the whole match only
// (captures are not used), and a JIT stack large enough for long runs of one character class.
struct ThreadMatchState {
  pcre2_match_data* matchData = pcre2_match_data_create(1, nullptr);
  pcre2_jit_stack* jitStack = pcre2_jit_stack_create(32 * 1024, 16 * 1024 * 1024, nullptr);
  pcre2_match_context* context = pcre2_match_context_create(nullptr);

  ThreadMatchState() {
    if (context && jitStack) pcre2_jit_stack_assign(context, nullptr, jitStack);
  }
  ~ThreadMatchState() {
    pcre2_match_context_free(context);
    pcre2_jit_stack_free(jitStack);
    pcre2_match_data_free(matchData);
  }
  ThreadMatchState(const ThreadMatchState&) = delete;
  ThreadMatchState& operator=(const ThreadMatchState&) = delete;
};

ThreadMatchState& threadMatchState() {
  thread_local ThreadMatchState state;
  return state;
}

std::string errorMessage(int code) {
  PCRE2_UCHAR buffer[256];
  pcre2_get_error_message(code, buffer, sizeof buffer);
  return reinterpret_cast<const char*>(buffer);
}

}  // namespace

RegexSplitter::CompileError::CompileError(std::string pattern_, std::size_t offset_, std::string why_)
    : std::invalid_argument("regex " + pattern_ + " does not compile at offset " + std::to_string(offset_) +
                            ": " + why_),
      pattern(std::move(pattern_)),
      offset(offset_),
      why(std::move(why_)) {}

RegexSplitter::RegexSplitter(const std::string& pattern, bool literal) {
  int errorCode = 0;
  PCRE2_SIZE errorOffset = 0;
  std::uint32_t options = PCRE2_UTF | PCRE2_UCP;
  if (literal) options |= PCRE2_LITERAL;
  m_code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(), options, &errorCode,
                         &errorOffset, nullptr);
  if (!m_code) {
    throw CompileError(pattern, errorOffset, errorMessage(errorCode));
  }
  // Without JIT (an unsupported CPU) the interpreter gives the same matches, only slower.
  m_jit = pcre2_jit_compile(m_code, PCRE2_JIT_COMPLETE) == 0;
}

RegexSplitter::~RegexSplitter() {
  pcre2_code_free(m_code);
}

void RegexSplitter::split(std::string_view text, std::vector<std::string_view>& pieces) const {
  ThreadMatchState& state = threadMatchState();
  if (!state.matchData || !state.context) throw std::bad_alloc();
  const auto* subject = reinterpret_cast<PCRE2_SPTR>(text.data());
  PCRE2_SIZE* ovector = pcre2_get_ovector_pointer(state.matchData);
  std::size_t gapStart = 0;
  std::size_t searchFrom = 0;
  while (searchFrom <= text.size()) {
    const int rc =
        m_jit ? pcre2_jit_match(m_code, subject, text.size(), searchFrom, 0, state.matchData, state.context)
              : pcre2_match(m_code, subject, text.size(), searchFrom, PCRE2_NO_UTF_CHECK, state.matchData,
                            state.context);
    if (rc == PCRE2_ERROR_NOMATCH) break;
    if (rc < 0) throw MessageError({MessageText::TokenizerRegexFailed, {errorMessage(rc)}});
    const std::size_t start = ovector[0];
    const std::size_t end = ovector[1];
    if (end == start) {
      // An empty match cuts nothing; step over one character so the search moves on.
      if (start >= text.size()) break;
      searchFrom = start + std::max<std::size_t>(1, utf8::validSequenceLength(text, start));
      continue;
    }
    if (start > gapStart) pieces.push_back(text.substr(gapStart, start - gapStart));
    pieces.push_back(text.substr(start, end - start));
    gapStart = end;
    searchFrom = end;
  }
  if (gapStart < text.size()) pieces.push_back(text.substr(gapStart));
}

}  // namespace ayar
