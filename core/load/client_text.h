#pragma once

// Words the load client puts into a failed request's error: the system's name for an errno, and a
// number of seconds as the timeout messages write it. One definition for the pool and the transfers.

#include <cstdio>
#include <string>
#include <system_error>

namespace ayar {

// The system's text for `osErrno`; empty for 0.
inline std::string osErrorText(long osErrno) {
  if (osErrno == 0) return {};
  return std::error_code(static_cast<int>(osErrno), std::generic_category()).message();
}

// Seconds in three significant digits ("30", "0.25", "2.16e+04").
inline std::string secondsText(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", seconds);
  return text;
}

}  // namespace ayar
