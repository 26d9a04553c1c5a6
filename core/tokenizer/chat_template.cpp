// Qwen3's chat template (tokenizer_config.json's chat_template) for messages without tools, written
// out by hand: the Jinja source is the specification, and each branch below names the part of it
// that it mirrors.
#include <string>
#include <string_view>

#include "core/tokenizer/tokenizer.h"

namespace ayar {

namespace {

constexpr std::string_view kThinkOpen = "<think>";
constexpr std::string_view kThinkClose = "</think>";

bool startsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}
bool endsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

std::string_view lstripNewlines(std::string_view text) {
  while (!text.empty() && text.front() == '\n')
    text.remove_prefix(1);
  return text;
}
std::string_view rstripNewlines(std::string_view text) {
  while (!text.empty() && text.back() == '\n')
    text.remove_suffix(1);
  return text;
}

// Python's text.split(separator)[0] and [-1].
std::string_view beforeFirst(std::string_view text, std::string_view separator) {
  const std::size_t at = text.find(separator);
  return at == std::string_view::npos ? text : text.substr(0, at);
}
std::string_view afterLast(std::string_view text, std::string_view separator) {
  const std::size_t at = text.rfind(separator);
  return at == std::string_view::npos ? text : text.substr(at + separator.size());
}

bool isToolResponse(std::string_view content) {
  return startsWith(content, "<tool_response>") && endsWith(content, "</tool_response>");
}

}  // namespace

std::string applyChatTemplate(std::span<const ChatMessage> messages, const ChatTemplateOptions& options) {
  std::string out;
  const std::size_t count = messages.size();
  if (count > 0 && messages[0].role == "system") {
    out += "<|im_start|>system\n" + messages[0].content + "<|im_end|>\n";
  }

  // The last user query that is not a tool response: assistant turns after it keep their reasoning.
  std::size_t lastQueryIndex = count == 0 ? 0 : count - 1;
  for (std::size_t i = count; i-- > 0;) {
    if (messages[i].role == "user" && !isToolResponse(messages[i].content)) {
      lastQueryIndex = i;
      break;
    }
  }

  for (std::size_t i = 0; i < count; ++i) {
    const ChatMessage& message = messages[i];
    if (message.role == "user" || (message.role == "system" && i != 0)) {
      out += "<|im_start|>" + message.role + "\n" + message.content + "<|im_end|>\n";
    } else if (message.role == "assistant") {
      std::string_view content = message.content;
      std::string_view reasoning;
      if (content.find(kThinkClose) != std::string_view::npos) {
        content = lstripNewlines(afterLast(message.content, kThinkClose));
        reasoning =
            lstripNewlines(afterLast(rstripNewlines(beforeFirst(message.content, kThinkClose)), kThinkOpen));
      }
      out += "<|im_start|>assistant\n";
      if (i > lastQueryIndex && (i + 1 == count || !reasoning.empty())) {
        out += "<think>\n";
        out += lstripNewlines(rstripNewlines(reasoning));
        out += "\n</think>\n\n";
        out += lstripNewlines(content);
      } else {
        out += content;
      }
      out += "<|im_end|>\n";
    } else if (message.role == "tool") {
      if (i == 0 || messages[i - 1].role != "tool") out += "<|im_start|>user";
      out += "\n<tool_response>\n" + message.content + "\n</tool_response>";
      if (i + 1 == count || messages[i + 1].role != "tool") out += "<|im_end|>\n";
    }
    // Other roles render nothing, as in the template.
  }

  if (options.addGenerationPrompt) {
    out += "<|im_start|>assistant\n";
    if (!options.enableThinking) out += "<think>\n\n</think>\n\n";
  }
  return out;
}

}  // namespace ayar
