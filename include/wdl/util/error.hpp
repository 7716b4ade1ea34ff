#pragma once

#include <functional>
#include <stdexcept>
#include <string>

namespace wdl {

// The library's error for anything a user must fix (a missing file, a malformed count file, a
// bad option). Its message names the file, game or option concerned and has no "Error: "
// prefix: each program adds that once, in report_errors.
class Error : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

namespace util {

// Runs a program's body; an exception escaping it is printed to stderr as "Error: <message>"
// (after flushing stdout, so that the lines keep their order) and makes the exit code 1.
int report_errors(const std::function<int()>& body);

}  // namespace util
}  // namespace wdl
