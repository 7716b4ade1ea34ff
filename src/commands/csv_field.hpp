#pragma once
// A text as one field of a CSV line: quoted, its quotes doubled, when it holds a comma, a quote
// or a line break (a private header of the commands).

#include <string>

namespace wdl::commands {

inline std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\n") == std::string::npos) return text;
    std::string quoted = "\"";
    for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

}  // namespace wdl::commands
