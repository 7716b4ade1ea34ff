#include "wdl/scan/game_grouping.hpp"

#include <iterator>
#include <set>

#include "wdl/fishtest/layout.hpp"

namespace wdl::scan {

GameGrouping::GameGrouping(const counts::Grouping& grouping,
                           const std::vector<std::filesystem::path>& files,
                           const std::filesystem::path& base,
                           const std::vector<std::filesystem::path>& listed)
    : grouping_(grouping) {
    // "data", "data/" and "./data" name one folder: compare normalized absolute paths.
    auto normal = [](const std::filesystem::path& path) {
        return std::filesystem::absolute(path).lexically_normal();
    };
    std::filesystem::path folder = base.empty() ? base : normal(base);  // empty: paths as given
    std::set<std::string> test_ids;
    for (const auto& file : listed) test_ids.insert(fishtest::test_id_of(file));
    for (const auto& file : files) {
        names_.push_back(base.empty() ? file.generic_string()
                                      : normal(file).lexically_relative(folder).generic_string());
        test_ids.insert(fishtest::test_id_of(file));  // a file not listed still gets a number
    }
    for (const auto& file : files) {
        auto number = std::distance(test_ids.begin(), test_ids.find(fishtest::test_id_of(file)));
        test_groups_.push_back(int(number % grouping.groups));
    }
}

}  // namespace wdl::scan
