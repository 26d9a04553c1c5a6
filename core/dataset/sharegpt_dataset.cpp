#include "core/dataset/sharegpt_dataset.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>

#include "core/dataset/seeded_random.h"
#include "core/error.h"
#include "core/report/message_text.h"

namespace ayar {

namespace {

// The first two turns of one conversation, as offsets into the shared text arena.
struct ConversationStart {
  std::uint64_t promptOffset = 0;
  std::uint32_t promptSize = 0;
  std::uint64_t replyOffset = 0;
  std::uint32_t replySize = 0;
  bool hasPrompt = false;
  bool hasReply = false;
};

// Walks the JSON as a stream and keeps, per entry of the top-level list that has a "conversations"
// list of at least two turns, the "value" strings of turns 0 and 1. Everything else is skipped as it
// streams past, so memory stays near the size of those two turns.
class ShareGptScanner : public nlohmann::json_sax<nlohmann::json> {
 public:
  std::string arena;
  std::vector<ConversationStart> conversations;
  std::size_t entries = 0;
  std::optional<MessageArgument> error;

  bool null() override { return scalar(); }
  bool boolean(bool) override { return scalar(); }
  bool number_integer(number_integer_t) override { return scalar(); }
  bool number_unsigned(number_unsigned_t) override { return scalar(); }
  bool number_float(number_float_t, const string_t&) override { return scalar(); }
  bool binary(binary_t&) override { return scalar(); }

  bool string(string_t& value) override {
    if (m_stack.size() == 4 && m_stack.back() == Context::Turn && m_key == "value" && m_turn < 2) {
      if (value.size() > 0xffffffffu) return scalar();
      const std::uint64_t offset = arena.size();
      arena += value;
      if (m_turn == 0) {
        m_current.promptOffset = offset;
        m_current.promptSize = static_cast<std::uint32_t>(value.size());
        m_current.hasPrompt = true;
      } else {
        m_current.replyOffset = offset;
        m_current.replySize = static_cast<std::uint32_t>(value.size());
        m_current.hasReply = true;
      }
    }
    return scalar();
  }

  bool start_object(std::size_t) override {
    if (m_stack.empty()) return topLevelNotAList(MessageText::ShareGptTopLevelObject);
    countConversationElement();
    Context context = Context::Other;
    if (m_stack.size() == 1 && m_stack.back() == Context::Entries) {
      context = Context::Entry;
      ++entries;
      m_current = {};
      m_entryArenaStart = arena.size();
      m_turns = -1;
    } else if (m_stack.size() == 3 && m_stack.back() == Context::Conversation) {
      context = Context::Turn;
      m_turn = m_turns;
    }
    m_stack.push_back(context);
    m_key.clear();
    return true;
  }

  bool key(string_t& value) override {
    m_key = value;
    return true;
  }

  bool end_object() override {
    const Context context = m_stack.back();
    m_stack.pop_back();
    if (context == Context::Entry) {
      // vLLM keeps entries whose "conversations" holds at least two turns.
      if (m_turns + 1 >= 2) {
        conversations.push_back(m_current);
      } else {
        arena.resize(m_entryArenaStart);
      }
    }
    afterValue();
    return true;
  }

  bool start_array(std::size_t) override {
    countConversationElement();
    Context context = Context::Other;
    if (m_stack.empty()) {
      context = Context::Entries;
    } else if (m_stack.size() == 2 && m_stack.back() == Context::Entry && m_key == "conversations") {
      context = Context::Conversation;
      m_turns = -1;  // a repeated key counts its last list, as Python's json does
      m_current = {};
      arena.resize(m_entryArenaStart);
    }
    m_stack.push_back(context);
    return true;
  }

  bool end_array() override {
    m_stack.pop_back();
    afterValue();
    return true;
  }

  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& ex) override {
    error = Message{MessageText::ShareGptNotJsonAt, {std::to_string(position), std::string(ex.what())}}
                .asArgument();
    return false;
  }

 private:
  enum class Context { Entries, Entry, Conversation, Turn, Other };

  bool scalar() {
    if (m_stack.empty()) return topLevelNotAList(MessageText::ShareGptTopLevelValue);
    countConversationElement();
    afterValue();
    return true;
  }
  // Every element of a conversation list counts as a turn (Python's len()), objects or not.
  void countConversationElement() {
    if (m_stack.size() == 3 && m_stack.back() == Context::Conversation) ++m_turns;
  }
  void afterValue() {
    if (!m_stack.empty() && (m_stack.back() == Context::Entry || m_stack.back() == Context::Turn))
      m_key.clear();
  }
  bool topLevelNotAList(MessageText what) {
    error = Message{what, {}}.asArgument();
    return false;
  }

  std::vector<Context> m_stack;
  std::string m_key;
  ConversationStart m_current;
  std::size_t m_entryArenaStart = 0;
  int m_turns = -1;
  int m_turn = -1;
};

}  // namespace

bool isValidShareGptPair(int promptTokens, int outputTokens, bool skipMinOutputCheck) {
  constexpr int kMinLen = 4, kMaxPromptLen = 1024, kMaxTotalLen = 2048;
  const bool promptTooShort = promptTokens < kMinLen;
  const bool outputTooShort = !skipMinOutputCheck && outputTokens < kMinLen;
  const bool promptTooLong = promptTokens > kMaxPromptLen;
  const bool combinedTooLong = promptTokens + outputTokens > kMaxTotalLen;
  return !(promptTooShort || outputTooShort || promptTooLong || combinedTooLong);
}

std::vector<SampleRequest> loadShareGpt(const Tokenizer& tokenizer, const ShareGptOptions& options) {
  const std::string name = options.path.string();
  if (options.numPrompts < 1) {
    throw MessageError({MessageText::ShareGptNumPrompts, {std::to_string(options.numPrompts)}});
  }
  if (options.outputLen && *options.outputLen < 1) {
    throw MessageError({MessageText::ShareGptOutputLen, {std::to_string(*options.outputLen)}});
  }
  std::error_code ec;
  if (!std::filesystem::is_regular_file(options.path, ec)) {
    throw MessageError({MessageText::ShareGptMissing, {name}});
  }
  std::ifstream in(options.path, std::ios::binary);
  if (!in) throw MessageError({MessageText::ShareGptUnreadable, {name}});

  ShareGptScanner scanner;
  // The kept text never exceeds the file's size (JSON escapes only shrink when decoded): reserving
  // that much address space up front avoids the copies, and the doubled peak, of a growing string.
  // Untouched pages cost no memory.
  const std::uintmax_t fileSize = std::filesystem::file_size(options.path, ec);
  try {
    if (!ec) scanner.arena.reserve(static_cast<std::size_t>(fileSize));
  } catch (const std::exception&) {
    // Grow as needed instead.
  }
  const bool parsed = nlohmann::json::sax_parse(in, &scanner, nlohmann::json::input_format_t::json, true);
  if (!parsed || scanner.error) {
    throw MessageError(
        {MessageText::ShareGptBadShape,
         {name, scanner.error ? *scanner.error : Message{MessageText::ShareGptNotParsed, {}}.asArgument()}});
  }

  std::vector<std::uint32_t> order(scanner.conversations.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    order[i] = static_cast<std::uint32_t>(i);
  PythonRandom random(options.seed);
  random.shuffle(order);

  std::vector<SampleRequest> samples;
  const auto view = [&](std::uint64_t offset, std::uint32_t size) {
    return std::string_view(scanner.arena).substr(offset, size);
  };
  for (std::uint32_t index : order) {
    if (static_cast<int>(samples.size()) >= options.numPrompts) break;
    const ConversationStart& c = scanner.conversations[index];
    if (!c.hasPrompt || !c.hasReply) continue;
    const std::string_view prompt = view(c.promptOffset, c.promptSize);
    std::vector<TokenId> promptIds = tokenizer.encode(prompt);
    const int promptTokens = static_cast<int>(promptIds.size());
    const int outputTokens =
        options.outputLen ? *options.outputLen
                          : static_cast<int>(tokenizer.encode(view(c.replyOffset, c.replySize)).size());
    if (!isValidShareGptPair(promptTokens, outputTokens, options.outputLen.has_value())) continue;
    SampleRequest sample;
    sample.prompt = std::string(prompt);
    sample.promptTokens = promptTokens;
    sample.expectedOutputTokens = outputTokens;
    sample.promptTokenIds = std::move(promptIds);
    samples.push_back(std::move(sample));
  }
  if (static_cast<int>(samples.size()) < options.numPrompts) {
    throw MessageError({MessageText::ShareGptTooFew,
                        {name, std::to_string(samples.size()), std::to_string(scanner.entries),
                         std::to_string(options.numPrompts)}});
  }
  return samples;
}

}  // namespace ayar
