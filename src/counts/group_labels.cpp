#include "wdl/counts/group_labels.hpp"

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <chrono>
#include <system_error>

#include "wdl/util/error.hpp"

namespace wdl::counts {
namespace {

nlohmann::ordered_json text_or_null(const std::string& text) {
    return text.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(text);
}

[[noreturn]] void fail_labels(const std::filesystem::path& file, const std::string& problem) {
    throw Error(fmt::format("{}: \"labels\" {}", file.string(), problem));
}

std::string text_field(const nlohmann::json& unit, const char* name,
                       const std::filesystem::path& file, std::size_t index) {
    auto found = unit.find(name);
    if (found == unit.end() || found->is_null()) return {};
    if (!found->is_string())
        fail_labels(file, fmt::format("unit {}: \"{}\" must be a string or null.", index, name));
    return found->get<std::string>();
}

}  // namespace

bool is_label_date(const std::string& date) {
    if (date.size() != 10 || date[4] != '-' || date[7] != '-') return false;
    for (std::size_t i : {0, 1, 2, 3, 5, 6, 8, 9})
        if (!std::isdigit(static_cast<unsigned char>(date[i]))) return false;
    int month = std::stoi(date.substr(5, 2)), day = std::stoi(date.substr(8, 2));
    return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

std::string file_change_date(const std::filesystem::path& file) {
    std::error_code error;
    auto changed = std::filesystem::last_write_time(file, error);
    if (error) return {};
    auto day = std::chrono::floor<std::chrono::days>(std::chrono::file_clock::to_sys(changed));
    std::chrono::year_month_day date(day);
    return fmt::format("{:04}-{:02}-{:02}", int(date.year()), unsigned(date.month()),
                       unsigned(date.day()));
}

nlohmann::ordered_json labels_json(const GroupLabels& labels) {
    nlohmann::ordered_json units = nlohmann::ordered_json::array();
    for (const auto& label : labels.units) {
        units.push_back({{"id", label.id},
                         {"date", text_or_null(label.date)},
                         {"base", text_or_null(label.base_revision)},
                         {"new", text_or_null(label.new_revision)},
                         {"tc", text_or_null(label.tc)},
                         {"threads", label.threads ? nlohmann::ordered_json(*label.threads)
                                                   : nlohmann::ordered_json()},
                         {"book", text_or_null(label.book)},
                         {"file", text_or_null(label.file)}});
    }
    return {{"groupsPerLabel", labels.groups_per_label}, {"units", units}};
}

GroupLabels labels_from_json(const nlohmann::json& json, const std::filesystem::path& file) {
    if (!json.is_object()) fail_labels(file, "must be an object {\"groupsPerLabel\", \"units\"}.");
    auto per = json.find("groupsPerLabel");
    if (per == json.end() || !per->is_number_integer() || per->get<long long>() < 1)
        fail_labels(file, "needs \"groupsPerLabel\", a positive integer.");
    auto units = json.find("units");
    if (units == json.end() || !units->is_array()) fail_labels(file, "needs \"units\", a list.");
    GroupLabels labels;
    labels.groups_per_label = int(std::min<long long>(per->get<long long>(), 1 << 30));
    for (std::size_t i = 0; i < units->size(); ++i) {
        const auto& unit = (*units)[i];
        if (!unit.is_object()) fail_labels(file, fmt::format("unit {} is not an object.", i));
        GroupLabel label;
        label.id = text_field(unit, "id", file, i);
        if (label.id.empty()) fail_labels(file, fmt::format("unit {} has no \"id\".", i));
        label.date = text_field(unit, "date", file, i);
        if (!label.date.empty() && !is_label_date(label.date))
            fail_labels(file, fmt::format("unit {}: \"date\" must be YYYY-MM-DD.", i));
        label.base_revision = text_field(unit, "base", file, i);
        label.new_revision = text_field(unit, "new", file, i);
        label.tc = text_field(unit, "tc", file, i);
        label.book = text_field(unit, "book", file, i);
        label.file = text_field(unit, "file", file, i);
        auto threads = unit.find("threads");
        if (threads != unit.end() && !threads->is_null()) {
            if (!threads->is_number_integer() || threads->get<long long>() < 1 ||
                threads->get<long long>() > 1 << 20)
                fail_labels(file,
                            fmt::format("unit {}: \"threads\" must be a positive integer.", i));
            label.threads = threads->get<int>();
        }
        labels.units.push_back(std::move(label));
    }
    return labels;
}

void set_label_field(GroupLabel& label, const std::string& name, const std::string& value) {
    if (name == "id") {
        label.id = value;
    } else if (name == "date") {
        if (!is_label_date(value))
            throw Error(fmt::format("label date \"{}\" is not of the form YYYY-MM-DD.", value));
        label.date = value;
    } else if (name == "base") {
        label.base_revision = value;
    } else if (name == "new") {
        label.new_revision = value;
    } else if (name == "tc") {
        label.tc = value;
    } else if (name == "threads") {
        int threads = 0;
        auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), threads);
        if (error != std::errc() || end != value.data() + value.size() || threads < 1)
            throw Error(fmt::format("label threads \"{}\" is not a positive integer.", value));
        label.threads = threads;
    } else if (name == "book") {
        label.book = value;
    } else if (name == "file") {
        label.file = value;
    } else {
        throw Error(
            fmt::format("no label field \"{}\" (id, date, base, new, tc, threads, book, "
                        "file).",
                        name));
    }
}

}  // namespace wdl::counts
