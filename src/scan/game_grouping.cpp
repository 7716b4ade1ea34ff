#include "wdl/scan/game_grouping.hpp"

#include <iterator>
#include <set>

#include "wdl/fishtest/layout.hpp"

namespace wdl::scan {

std::filesystem::path grouping_base(const games::GameFileSource& source) {
    if (source.file_list) return {};
    return source.file ? source.file->parent_path() : source.dir;
}

namespace {

// The number of each file's test among `test_ids` (sorted, holding every file's test).
std::vector<std::size_t> test_numbers(const std::vector<std::filesystem::path>& files,
                                      const std::set<std::string>& test_ids) {
    std::vector<std::size_t> numbers;
    for (const auto& file : files) {
        numbers.push_back(std::size_t(
            std::distance(test_ids.begin(), test_ids.find(fishtest::test_id_of(file)))));
    }
    return numbers;
}

}  // namespace

void GameGrouping::name_files(const std::vector<std::filesystem::path>& files,
                              const std::filesystem::path& base) {
    // "data", "data/" and "./data" name one folder: compare normalized absolute paths.
    auto normal = [](const std::filesystem::path& path) {
        return std::filesystem::absolute(path).lexically_normal();
    };
    std::filesystem::path folder = base.empty() ? base : normal(base);  // empty: paths as given
    for (const auto& file : files) {
        names_.push_back(base.empty() ? file.generic_string()
                                      : normal(file).lexically_relative(folder).generic_string());
    }
}

GameGrouping::GameGrouping(const counts::Grouping& grouping,
                           const std::vector<std::filesystem::path>& files,
                           const std::filesystem::path& base,
                           const std::vector<std::filesystem::path>& listed)
    : grouping_(grouping) {
    name_files(files, base);
    if (grouping.by == counts::GroupBy::Game) {
        first_groups_.assign(files.size(), 0);
        hashed_groups_ = grouping.groups;
        return;
    }
    std::set<std::string> test_ids;
    for (const auto& file : listed) test_ids.insert(fishtest::test_id_of(file));
    for (const auto& file : files)
        test_ids.insert(fishtest::test_id_of(file));  // a file not listed still gets a number
    for (std::size_t number : test_numbers(files, test_ids))
        first_groups_.push_back(int(number % std::size_t(grouping.groups)));
}

GameGrouping GameGrouping::per_test(int groups_per_test,
                                    const std::vector<std::filesystem::path>& files,
                                    const std::filesystem::path& base) {
    GameGrouping grouping;
    grouping.name_files(files, base);
    std::set<std::string> test_ids;
    for (const auto& file : files) test_ids.insert(fishtest::test_id_of(file));
    grouping.test_ids_.assign(test_ids.begin(), test_ids.end());
    for (std::size_t number : test_numbers(files, test_ids))
        grouping.first_groups_.push_back(int(number) * groups_per_test);
    grouping.hashed_groups_ = groups_per_test;
    grouping.grouping_ = {groups_per_test == 1 ? counts::GroupBy::Test : counts::GroupBy::Game,
                          int(test_ids.size()) * groups_per_test};
    return grouping;
}

counts::GroupLabels GameGrouping::test_labels(const std::vector<std::filesystem::path>& files,
                                              const fishtest::MetadataByFile& metadata) const {
    counts::GroupLabels labels;
    labels.groups_per_label = hashed_groups_;
    for (const auto& id : test_ids_) {
        counts::GroupLabel label;
        label.id = id;
        labels.units.push_back(std::move(label));
    }
    // Each test is labelled from its first file in the scan's order.
    std::vector<bool> labelled(test_ids_.size(), false);
    for (std::size_t i = 0; i < files.size(); ++i) {
        auto unit = std::size_t(first_groups_[i] / hashed_groups_);
        if (labelled[unit]) continue;
        labelled[unit] = true;
        counts::GroupLabel& label = labels.units[unit];
        label.file = names_[i];
        auto run = metadata.find(fishtest::metadata_file_of(files[i]));
        if (run == metadata.end()) {
            label.date = counts::file_change_date(files[i]);
            continue;
        }
        const fishtest::RunMetadata& meta = run->second;
        std::string start = meta.start_time.value_or("").substr(0, 10);
        label.date = counts::is_label_date(start) ? start : counts::file_change_date(files[i]);
        label.base_revision = meta.resolved_base.value_or("");
        label.new_revision = meta.resolved_new.value_or("");
        label.tc = meta.tc.value_or("");
        label.threads = meta.threads;
        label.book = meta.book.value_or("");
    }
    return labels;
}

}  // namespace wdl::scan
