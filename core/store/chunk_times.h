#pragma once

#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

namespace ayar {

// How `requests.chunk_times` is stored: little-endian IEEE-754 float64, 8 bytes per chunk, no
// header, in arrival order, each value the seconds after the request's start_s. float64 keeps the
// steady clock's nanoseconds exactly for runs of any length (float32 would lose microseconds after
// a few minutes), and 500 chunks still fit in 4 KB. Round trips are bit-exact, NaN included.
std::vector<std::byte> encodeChunkTimes(std::span<const double> chunkTimesS);

// The inverse of encodeChunkTimes. A blob whose size is not a multiple of 8 is not one this code
// wrote: throws ayar::Error naming `what` (e.g. "run 3, request 17").
std::vector<double> decodeChunkTimes(std::span<const std::byte> blob, std::string_view what);

}  // namespace ayar
