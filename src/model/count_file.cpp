#include "wdl/model/count_file.hpp"

#include <fmt/format.h>
#include <simdjson.h>

#include <cmath>
#include <stdexcept>
#include <string>

namespace wdl::model {

namespace {

namespace od = simdjson::ondemand;

[[noreturn]] void fail_json(const std::filesystem::path& path, simdjson::error_code error) {
    throw std::runtime_error(fmt::format("Error: malformed JSON in {}: {}", path.string(),
                                         simdjson::error_message(error)));
}

// The count of one key: a non-negative integer (an integral float such as 3.0 is accepted).
std::int64_t read_count(const std::filesystem::path& path, std::string_view key, od::value value) {
    std::int64_t count = 0;
    auto error = value.get_int64().get(count);
    if (error == simdjson::INCORRECT_TYPE || error == simdjson::NUMBER_ERROR) {
        double number = 0;
        if (value.get_double().get(number) || std::floor(number) != number ||
            std::abs(number) > 9e18) {
            throw std::runtime_error(fmt::format(
                "Error: {}: the count of key \"{}\" is not an integer.", path.string(), key));
        }
        count = std::int64_t(number);
    } else if (error) {
        fail_json(path, error);
    }
    if (count < 0) {
        throw std::runtime_error(fmt::format("Error: {}: the count of key \"{}\" is negative ({}).",
                                             path.string(), key, count));
    }
    return count;
}

// The original scanner writes `null` when it counted no position.
bool is_null_document(std::string_view text) {
    constexpr std::string_view kSpace = " \t\r\n";
    std::size_t first = text.find_first_not_of(kSpace);
    if (first == std::string_view::npos) return false;
    return text.substr(first, text.find_last_not_of(kSpace) + 1 - first) == "null";
}

}  // namespace

void read_count_file(const std::filesystem::path& path, const CountSink& sink) {
    simdjson::padded_string text;
    if (auto error = simdjson::padded_string::load(path.string()).get(text)) {
        throw std::runtime_error(fmt::format("Error: cannot read {}: {}", path.string(),
                                             simdjson::error_message(error)));
    }
    if (is_null_document(text)) return;
    od::parser parser;
    od::document document;
    if (auto error = parser.iterate(text).get(document)) fail_json(path, error);
    od::object object;
    if (auto error = document.get_object().get(object)) fail_json(path, error);
    for (auto field_result : object) {
        od::field field;
        if (auto error = std::move(field_result).get(field)) fail_json(path, error);
        std::string_view key_text;
        if (auto error = field.unescaped_key().get(key_text)) fail_json(path, error);
        auto key = parse_key(key_text);
        if (!key) {
            throw std::runtime_error(
                fmt::format("Error: {}: key \"{}\" is not of the form ('W', move, material, eval).",
                            path.string(), key_text));
        }
        sink(*key, read_count(path, key_text, field.value()));
    }
    // Past the end of the document, asking for the current location is an error.
    if (!document.current_location().error()) {
        throw std::runtime_error(
            fmt::format("Error: malformed JSON in {}: trailing content", path.string()));
    }
}

}  // namespace wdl::model
