#pragma once

#include <stdexcept>
#include <string>

namespace ayar {

// A user error: bad input, a missing file, an unreachable endpoint. The message names the input and
// says what to do; callers print it as is. Bugs are asserts, not Errors.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace ayar
