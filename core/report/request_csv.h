#pragma once

#include <filesystem>
#include <span>
#include <string>
#include <string_view>

#include "core/record/request_record.h"

namespace ayar {

// Per-request export, one row per record in the order given, with a header row:
// index,scheduled_s,start_s,ttft_ms,tpot_ms,e2el_ms,itl_count,prompt_tokens,output_tokens,success,
// http_status,error. Numbers are written in the C locale whatever the process locale (seconds with
// 6 decimals, milliseconds with 3); ttft_ms and e2el_ms are empty without a chunk, tpot_ms unless
// the request succeeded with more than one output token. Fields are quoted as RFC 4180 says.
std::string requestsCsv(std::span<const RequestRecord> records);

// Writes requestsCsv(records) to `path`; throws ayar::Error naming the path when it cannot.
void writeRequestsCsv(const std::filesystem::path& path, std::span<const RequestRecord> records);

// One CSV field, quoted when it holds a comma, a quote, a line break or surrounding blanks.
std::string csvField(std::string_view text);

}  // namespace ayar
