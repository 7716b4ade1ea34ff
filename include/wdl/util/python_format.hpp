#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

// Numbers and values spelled as Python prints them: the printed lines of scoreWDL must match
// those of the original scoreWDL.py character for character.
namespace wdl::util {

// repr() of a float: the shortest digits that round-trip, always with a '.' or an exponent.
std::string python_float_repr(double value);

// repr() of the value that json.loads() would make of `value` (dicts keep their key order).
std::string python_repr(const nlohmann::ordered_json& value);

// str() of a 1-D numpy integer array: "[ 70  71 ...]", elements right-aligned to the widest,
// wrapped at 75 columns with a one-space hanging indent.
std::string numpy_int_array(const std::vector<int>& values);

}  // namespace wdl::util
