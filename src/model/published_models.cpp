#include "wdl/model/published_models.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "wdl/util/error.hpp"
#include "wdl/util/whole_file.hpp"

namespace wdl::model {
namespace detail {
extern const std::string_view kStockfishModelHistory;
}

namespace {

constexpr std::string_view kPawnValueEgUnits =
    "centipawns of PawnValueEg (x = 100 * v / PawnValueEg)";
constexpr std::string_view kInternalUnits = "internal";

template <typename T>
std::optional<T> optional_field(const nlohmann::json& entry, const char* key) {
    if (!entry.contains(key) || entry[key].is_null()) return std::nullopt;
    return entry[key].get<T>();
}

WdlModel model_of(const nlohmann::json& entry, const std::optional<int>& pawn_value_eg) {
    WdlModel model;
    model.as = entry.at("as").get<Coefficients>();
    model.bs = entry.at("bs").get<Coefficients>();
    check_coefficients(model.a_form, model.as, "as");
    check_coefficients(model.b_form, model.bs, "bs");
    auto type = mom_type_from_name(entry.at("momType").get<std::string>());
    if (!type) throw Error("unknown momType \"" + entry.at("momType").get<std::string>() + "\"");
    model.mom_type = *type;
    model.mom_target = entry.at("momTarget").get<int>();
    if (entry.contains("momMin") && entry["momMin"].is_number())
        model.mom_min = entry["momMin"].get<double>();
    if (entry.contains("momMax") && entry["momMax"].is_number())
        model.mom_max = entry["momMax"].get<double>();
    model.display =
        stockfish_display_rule(optional_field<int>(entry, "NormalizeToPawnValue_constant"),
                               optional_field<std::string>(entry, "eval_expression"));
    if (entry.at("evalUnits").get<std::string>().find("PawnValueEg") != std::string::npos)
        use_pawn_value_eg(model, pawn_value_eg.value_or(kReleasedPawnValueEg));
    return model;
}

PublishedModel published_model_of(const nlohmann::json& entry) {
    PublishedModel published;
    published.commit = entry.at("commit").get<std::string>();
    published.date = entry.at("date").get<std::string>();
    published.subject = entry.at("subject").get<std::string>();
    for (const auto& tag : entry.at("releases")) {
        published.release_tags.push_back(tag.get<std::string>());
        published.releases.push_back(release_name(published.release_tags.back()));
    }
    published.name = published_name(published.releases, published.date);
    published.pawn_value_eg = optional_field<int>(entry, "PawnValueEg");
    published.model = model_of(entry, published.pawn_value_eg);
    published.stated_pawn_value = optional_field<int>(entry, "NormalizeToPawnValue_constant");
    published.mom_expression = entry.at("mom_expression").get<std::string>();
    published.eval_expression = optional_field<std::string>(entry, "eval_expression");
    published.eval_units = entry.at("evalUnits").get<std::string>();
    return published;
}

// A clamp bound or target as the facts write it: 78, not 78.0.
nlohmann::ordered_json number_json(double value) {
    if (value == std::floor(value)) return std::int64_t(value);
    return value;
}

nlohmann::ordered_json entry_json(const PublishedModel& published) {
    const auto& model = published.model;
    nlohmann::ordered_json entry;
    entry["commit"] = published.commit;
    entry["date"] = published.date;
    entry["subject"] = published.subject;
    entry["releases"] = published.release_tags;
    entry["as"] = model.as;
    entry["bs"] = model.bs;
    entry["mom_expression"] = published.mom_expression;
    entry["eval_expression"] = published.eval_expression
                                   ? nlohmann::ordered_json(*published.eval_expression)
                                   : nlohmann::ordered_json();
    entry["NormalizeToPawnValue_constant"] =
        published.stated_pawn_value ? nlohmann::ordered_json(*published.stated_pawn_value)
                                    : nlohmann::ordered_json();
    entry["momType"] = mom_type_name(model.mom_type);
    if (model.mom_min) entry["momMin"] = number_json(*model.mom_min);
    if (model.mom_max) entry["momMax"] = number_json(*model.mom_max);
    entry["momTarget"] = model.mom_target;
    entry["evalUnits"] = published.eval_units;
    if (published.pawn_value_eg) entry["PawnValueEg"] = *published.pawn_value_eg;
    return entry;
}

const Registry& bundled_registry() {
    static const Registry registry =
        parse_registry(detail::kStockfishModelHistory, "the bundled registry");
    return registry;
}

std::optional<Registry>& registry_from_file() {
    static std::optional<Registry> registry;
    return registry;
}

bool is_hex_prefix(std::string_view text) {
    return text.size() >= 4 && text.find_first_not_of("0123456789abcdef") == std::string::npos;
}

}  // namespace

std::string_view pawn_value_eg_units(bool takes_pawn_value_eg) {
    return takes_pawn_value_eg ? kPawnValueEgUnits : kInternalUnits;
}

std::string release_name(std::string_view tag) {
    std::string name(tag);
    name.erase(std::remove(name.begin(), name.end(), '_'), name.end());
    return name;
}

std::string published_name(const std::vector<std::string>& releases, const std::string& date) {
    return releases.empty() ? "sf@" + date : releases.back();
}

Registry parse_registry(std::string_view text, const std::string& source) {
    try {
        auto document = nlohmann::json::parse(text);
        Registry registry;
        registry.source = source;
        const auto& models = document.is_array() ? document : document.at("models");
        if (document.is_object() && document.contains("walked")) {
            const auto& walked = document["walked"];
            registry.walked = RegistryOrigin{walked.at("commit").get<std::string>(),
                                             walked.at("date").get<std::string>()};
        }
        for (const auto& entry : models) registry.models.push_back(published_model_of(entry));
        if (registry.models.empty()) throw Error("it lists no model");
        return registry;
    } catch (const nlohmann::json::exception& error) {
        throw Error(source + " is not a model registry: " + error.what());
    } catch (const Error& error) {
        throw Error(source + " is not a model registry: " + error.what());
    }
}

std::string registry_text(const Registry& registry) {
    nlohmann::ordered_json document;
    if (registry.walked)
        document["walked"] = {{"commit", registry.walked->commit}, {"date", registry.walked->date}};
    document["models"] = nlohmann::ordered_json::array();
    for (const auto& published : registry.models)
        document["models"].push_back(entry_json(published));
    return document.dump(1) + "\n";
}

void use_registry_file(const std::filesystem::path& file) {
    auto text = util::read_whole_file(file);
    if (!text)
        throw Error("cannot read the registry file " + file.string() + ": " +
                    util::unreadable_reason(file));
    registry_from_file() = parse_registry(*text, "registry file " + file.string());
}

const Registry& active_registry() {
    const auto& from_file = registry_from_file();
    return from_file ? *from_file : bundled_registry();
}

const std::vector<PublishedModel>& published_models() { return active_registry().models; }

const PublishedModel* find_published_model(std::string_view name) {
    const auto& models = published_models();
    if (name == "sf") return &models.back();
    if (name.starts_with("sf@")) {
        std::string_view key = name.substr(3);
        const PublishedModel* found = nullptr;
        for (const auto& model : models) {
            bool matches =
                model.date == key || (is_hex_prefix(key) && model.commit.starts_with(key));
            if (!matches) continue;
            if (found) return nullptr;  // ambiguous
            found = &model;
        }
        return found;
    }
    for (const auto& model : models)
        for (const auto& release : model.releases)
            if (release == name) return &model;
    return nullptr;
}

std::string published_model_names() {
    std::string names;
    for (const auto& model : published_models())
        for (const auto& release : model.releases) names += (names.empty() ? "" : ", ") + release;
    return names + ", sf (the newest), sf@YYYY-MM-DD or sf@<commit> for any other";
}

}  // namespace wdl::model
