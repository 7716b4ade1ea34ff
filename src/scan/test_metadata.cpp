#include "wdl/scan/test_metadata.hpp"

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

namespace wdl::scan {
namespace {

std::optional<std::string> string_field(const nlohmann::json& object, const char* name) {
    auto it = object.find(name);
    if (it == object.end() || !it->is_string()) return std::nullopt;
    return it->get<std::string>();
}

std::optional<int> integer_field(const nlohmann::json& object, const char* name) {
    auto it = object.find(name);
    if (it == object.end()) return std::nullopt;
    if (it->is_number_integer()) return it->get<int>();
    if (it->is_string()) {
        try {
            return std::stoi(it->get<std::string>());
        } catch (const std::exception&) {
        }
    }
    return std::nullopt;
}

std::optional<std::array<std::int64_t, 5>> pentanomial_field(const nlohmann::json& results) {
    auto it = results.find("pentanomial");
    if (it == results.end() || !it->is_array() || it->size() != 5) return std::nullopt;
    std::array<std::int64_t, 5> counts{};
    for (std::size_t i = 0; i < 5; ++i) {
        if (!(*it)[i].is_number_integer()) return std::nullopt;
        counts[i] = (*it)[i].get<std::int64_t>();
    }
    return counts;
}

}  // namespace

TestMetadata parse_test_metadata(const std::string& json_text) {
    auto document = nlohmann::json::parse(json_text);
    if (!document.is_object()) throw std::runtime_error("metadata is not a JSON object");
    static const nlohmann::json empty = nlohmann::json::object();
    const auto& args =
        document.contains("args") && document["args"].is_object() ? document["args"] : empty;
    const auto& results = document.contains("results") && document["results"].is_object()
                              ? document["results"]
                              : empty;
    TestMetadata metadata;
    metadata.book = string_field(args, "book");
    metadata.tc = string_field(args, "tc");
    metadata.new_tc = string_field(args, "new_tc");
    metadata.threads = integer_field(args, "threads");
    metadata.resolved_base = string_field(args, "resolved_base");
    metadata.resolved_new = string_field(args, "resolved_new");
    metadata.sprt = args.contains("sprt");
    metadata.pentanomial = pentanomial_field(results);
    return metadata;
}

std::string test_id_of(const std::filesystem::path& game_file) {
    std::string name = game_file.filename().string();
    return name.substr(0, name.find_first_of("-."));
}

std::filesystem::path test_stem_of(const std::filesystem::path& game_file) {
    return game_file.parent_path() / test_id_of(game_file);
}

double normalized_elo(const std::array<std::int64_t, 5>& pentanomial) {
    double pairs = 0;
    for (auto count : pentanomial) pairs += double(count);
    if (pairs <= 0) return std::nan("");
    static constexpr double kPairScores[5] = {0.0, 0.25, 0.5, 0.75, 1.0};
    double score = 0;
    for (int i = 0; i < 5; ++i) score += kPairScores[i] * double(pentanomial[i]) / pairs;
    double variance = 0;
    for (int i = 0; i < 5; ++i) {
        double deviation = kPairScores[i] - score;
        variance += double(pentanomial[i]) / pairs * deviation * deviation;
    }
    return (score - 0.5) / std::sqrt(2 * variance) * (800 / std::log(10.0));
}

MetadataByTest load_metadata(const std::vector<std::filesystem::path>& game_files,
                             std::vector<std::string>& warnings) {
    MetadataByTest metadata;
    std::map<std::filesystem::path, bool> seen;
    for (const auto& file : game_files) {
        auto stem = test_stem_of(file);
        if (!seen.emplace(stem, true).second) continue;
        auto json_path = stem;
        json_path += ".json";
        std::ifstream in(json_path);
        if (!in) continue;
        std::stringstream text;
        text << in.rdbuf();
        try {
            metadata.emplace(stem, parse_test_metadata(text.str()));
        } catch (const std::exception& error) {
            warnings.push_back("Warning: ignoring malformed metadata " + json_path.string() + ": " +
                               error.what());
        }
    }
    return metadata;
}

}  // namespace wdl::scan
