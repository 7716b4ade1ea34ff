#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

// The labels of a grouped count file whose groups keep units apart (docs/formats.md, "Labelled
// groups"): one label per unit (a fishtest test, a game file, a synthetic draw), each unit owning
// `groups_per_label` consecutive groups. Kept apart from the counts so that another encoding of
// the counts can carry the same labels.
namespace wdl::counts {

// What is known of one unit; an empty string or no number is unknown.
struct GroupLabel {
    std::string id;    // the test id (or the file's name): what tells units apart
    std::string date;  // YYYY-MM-DD: the test's start, or the file's last change
    std::string base_revision, new_revision;
    std::string tc;
    std::optional<int> threads;
    std::string book;
    std::string file;  // a game file of the unit, relative to the scanned folder

    friend bool operator==(const GroupLabel&, const GroupLabel&) = default;
};

struct GroupLabels {
    int groups_per_label = 1;  // unit i owns groups i * groups_per_label ... + groups_per_label - 1
    std::vector<GroupLabel> units;

    int label_of_group(int group) const { return group / groups_per_label; }
    // 64 bits: a damaged file's numbers may multiply beyond an int.
    std::int64_t group_count() const {
        return std::int64_t(units.size()) * std::int64_t(groups_per_label);
    }
    friend bool operator==(const GroupLabels&, const GroupLabels&) = default;
};

// {"groupsPerLabel": K, "units": [{"id": ..., "date": ..., "base": ..., "new": ..., "tc": ...,
// "threads": ..., "book": ..., "file": ...}, ...]}, unknown fields as null.
nlohmann::ordered_json labels_json(const GroupLabels& labels);

// The labels of labels_json; fields beyond these are ignored, missing ones unknown. Throws
// wdl::Error naming `file` when the JSON is not of that form.
GroupLabels labels_from_json(const nlohmann::json& json, const std::filesystem::path& file);

// Sets a label's field by its name in labels_json ("id", "date", "base", "new", "tc",
// "threads", "book", "file"); throws wdl::Error for another name, a threads that is not a
// positive integer or a date not of the form YYYY-MM-DD.
void set_label_field(GroupLabel& label, const std::string& name, const std::string& value);

// True for YYYY-MM-DD with plausible numbers.
bool is_label_date(const std::string& date);

// YYYY-MM-DD (UTC) of the file's last change: the date of a unit without metadata. Empty if it
// cannot be read.
std::string file_change_date(const std::filesystem::path& file);

}  // namespace wdl::counts
