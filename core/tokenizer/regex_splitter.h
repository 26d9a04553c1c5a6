#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

struct pcre2_real_code_8;

namespace ayar {

// A Hugging Face "Split" pre-tokenizer step with behavior "Isolated": the text is cut at every match
// of the pattern, and both the matches and the gaps between them become pieces. Compiled once with
// PCRE2 (UTF, UCP, JIT); matching is thread-safe (match data is per thread).
class RegexSplitter {
 public:
  // A pattern that does not compile: where, and PCRE2's words for why.
  struct CompileError : std::invalid_argument {
    CompileError(std::string pattern_, std::size_t offset_, std::string why_);
    std::string pattern;
    std::size_t offset;
    std::string why;
  };

  // Throws CompileError when the pattern does not compile.
  // `literal` compiles the pattern as a plain string (a Split with a "String" pattern).
  explicit RegexSplitter(const std::string& pattern, bool literal = false);
  ~RegexSplitter();
  RegexSplitter(const RegexSplitter&) = delete;
  RegexSplitter& operator=(const RegexSplitter&) = delete;

  // Appends the pieces of `text` (well-formed UTF-8) to `pieces`, in order; empty pieces are dropped.
  void split(std::string_view text, std::vector<std::string_view>& pieces) const;

 private:
  pcre2_real_code_8* m_code = nullptr;
  bool m_jit = false;
};

}  // namespace ayar
