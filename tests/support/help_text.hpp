#pragma once

#include <string>
#include <vector>

// Reading a program's --help as CLI11 prints it, and comparing texts line by line.
namespace wdl::testing {

// One option or positional argument of a --help text. CLI11 prints each as
// `  -o,--output TEXT=out.json  description`: the names and type in a column 30 wide, the
// description after it, or on the next line (indented by 30) if the names and type are wider.
struct HelpEntry {
    std::vector<std::string> names;  // {"-o", "--output"}; a positional: {"inputs"}
    std::string type;                // what follows the names in their column ("TEXT=out.json")
    std::string description;         // "" if the option has none
};

// The entries of every section of options ("Options:", "Positionals:", ...) of a --help text.
std::vector<HelpEntry> help_entries(const std::string& help);

// The entry with this name (e.g. "-r" or "--output"), matching whole names only; nullptr if
// there is none.
const HelpEntry* find_help_entry(const std::vector<HelpEntry>& entries, const std::string& name);

// The lines of `expected` and `actual` that differ, as a unified diff ("-" expected, "+"
// actual) with two lines of context; "" if the texts are equal.
std::string line_diff(const std::string& expected, const std::string& actual);

}  // namespace wdl::testing
