#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/report/message_text.h"

// Checks every reader of another program's JSON makes before trusting it: how deep the text nests,
// and whether a figure can be true at all.
namespace ayar::json_input {

// Deeper than any result file nests, far shallower than what exhausts the stack of a recursive
// parser or writer.
inline constexpr std::size_t kMaxDepth = 100;

// Throws MessageError(JsonTooDeep) naming `source` and `maxDepth` when `text` nests arrays and
// objects deeper than `maxDepth`. Counts brackets on the bytes, outside strings, without recursion,
// so that it can run before anything recursive sees the text.
void requireDepthAtMost(std::string_view text, std::string_view source, std::size_t maxDepth = kMaxDepth);

// The text of each top-level object or array of `text` (several when results were appended one
// after another), found by brackets outside strings. A text that holds one value gives the whole
// text, the whitespace around it included, so that writing it back gives the same bytes.
std::vector<std::string_view> topLevelTexts(std::string_view text);

// Why a value cannot be true, in both languages, for failImpossible.
MessageArgument negativeReason();
MessageArgument notFiniteReason();
MessageArgument nullInListReason();
MessageArgument tooLargeReason(long long largest);
MessageArgument notWholeReason();
MessageArgument beforeStartReason();
MessageArgument outsideClockReason();

// Throws MessageError(ImportImpossibleValue): `source`'s `field` is `value` (as written), which
// cannot be true for `reason`.
[[noreturn]] void failImpossible(std::string_view source, std::string_view field, std::string_view value,
                                 const MessageArgument& reason);

// `value` (at `field`) when it is a finite number >= 0; else failImpossible.
double requireNonNegative(double value, std::string_view source, std::string_view field);
// `value` when it is a whole number in [0, INT_MAX]; else failImpossible.
int requireCount(double value, std::string_view source, std::string_view field);

// How a number is written in a message: "-3", "1e+30", "nan".
std::string numberText(double value);

}  // namespace ayar::json_input
