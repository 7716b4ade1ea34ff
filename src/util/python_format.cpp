#include "wdl/util/python_format.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace wdl::util {

std::string python_float_repr(double value) {
    std::string text = fmt::format("{}", value);
    if (text.find_first_of(".eni") == std::string::npos) text += ".0";
    return text;
}

namespace {

using OrderedJson = nlohmann::ordered_json;

std::string python_string_repr(const std::string& text) {
    bool has_single = text.find('\'') != std::string::npos;
    bool has_double = text.find('"') != std::string::npos;
    char quote = has_single && !has_double ? '"' : '\'';
    std::string out(1, quote);
    for (char c : text) {
        if (c == '\\' || c == quote) out += '\\';
        out += c;
    }
    out += quote;
    return out;
}

}  // namespace

std::string python_repr(const OrderedJson& value) {
    switch (value.type()) {
        case OrderedJson::value_t::null:
            return "None";
        case OrderedJson::value_t::boolean:
            return value.get<bool>() ? "True" : "False";
        case OrderedJson::value_t::number_integer:
        case OrderedJson::value_t::number_unsigned:
            return value.dump();
        case OrderedJson::value_t::number_float:
            return python_float_repr(value.get<double>());
        case OrderedJson::value_t::string:
            return python_string_repr(value.get<std::string>());
        case OrderedJson::value_t::array: {
            std::string out = "[";
            for (std::size_t i = 0; i < value.size(); ++i) {
                if (i) out += ", ";
                out += python_repr(value[i]);
            }
            return out + "]";
        }
        case OrderedJson::value_t::object: {
            std::string out = "{";
            bool first = true;
            for (const auto& [key, item] : value.items()) {
                if (!first) out += ", ";
                first = false;
                out += python_string_repr(key) + ": " + python_repr(item);
            }
            return out + "}";
        }
        default:
            return value.dump();
    }
}

std::string numpy_int_array(const std::vector<int>& values) {
    // numpy's layout: lines are built behind a one-space hanging indent (later replaced by
    // '[' on the first line) and wrap before exceeding 75 columns minus room for the ']'.
    constexpr std::size_t kLineWidth = 75 - 1;
    const std::string indent = " ";
    std::size_t width = 0;
    for (int value : values) width = std::max(width, fmt::format("{}", value).size());
    std::string text, line = indent;
    for (std::size_t i = 0; i < values.size(); ++i) {
        std::string word = fmt::format("{:>{}}", values[i], width);
        if (line.size() + word.size() > kLineWidth) {
            line.erase(line.find_last_not_of(' ') + 1);
            text.append(line).append("\n");
            line = indent;
        }
        line += word;
        if (i + 1 < values.size()) line += " ";
    }
    text.append(line);
    std::string array = "[";
    array.append(text, indent.size()).append("]");
    return array;
}

}  // namespace wdl::util
