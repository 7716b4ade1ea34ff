#include "wdl/model/published_models.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "wdl/util/error.hpp"

namespace wdl::model {
namespace detail {
extern const std::string_view kStockfishModelHistory;
}

namespace {

// PawnValueEg of every release whose model took x = 100 * v / PawnValueEg (SF 12 to 15; the
// first model's own commit had 206 before SF 12 was tagged): the facts' evalUnits.
constexpr double kPawnValueEg = 208;

std::string release_name(const std::string& release) {
    // "sf_17.1" -> "sf17.1"
    std::string name = release;
    name.erase(std::remove(name.begin(), name.end(), '_'), name.end());
    return name;
}

WdlModel model_of(const nlohmann::json& entry) {
    WdlModel model;
    model.as = entry.at("as").get<Poly3>();
    model.bs = entry.at("bs").get<Poly3>();
    auto type = mom_type_from_name(entry.at("momType").get<std::string>());
    if (!type) throw Error("the model registry names an unknown momType");
    model.mom_type = *type;
    model.mom_target = entry.at("momTarget").get<int>();
    if (entry.contains("momMin") && entry["momMin"].is_number())
        model.mom_min = entry["momMin"].get<double>();
    if (entry.contains("momMax") && entry["momMax"].is_number())
        model.mom_max = entry["momMax"].get<double>();
    if (entry.at("evalUnits").get<std::string>().find("PawnValueEg") != std::string::npos)
        model.eval_scale = kPawnValueEg / 100;
    return model;
}

std::vector<PublishedModel> read_registry() {
    auto history = nlohmann::json::parse(detail::kStockfishModelHistory);
    std::vector<PublishedModel> models;
    for (const auto& entry : history) {
        PublishedModel published;
        published.commit = entry.at("commit").get<std::string>();
        published.date = entry.at("date").get<std::string>();
        published.subject = entry.at("subject").get<std::string>();
        for (const auto& release : entry.at("releases"))
            published.releases.push_back(release_name(release.get<std::string>()));
        published.name =
            published.releases.empty() ? "sf@" + published.date : published.releases.back();
        published.model = model_of(entry);
        const auto& stated = entry.at("NormalizeToPawnValue_constant");
        if (stated.is_number_integer()) published.stated_pawn_value = stated.get<int>();
        published.mom_expression = entry.at("mom_expression").get<std::string>();
        published.eval_units = entry.at("evalUnits").get<std::string>();
        models.push_back(std::move(published));
    }
    return models;
}

bool is_hex_prefix(std::string_view text) {
    return text.size() >= 4 && text.find_first_not_of("0123456789abcdef") == std::string::npos;
}

}  // namespace

const std::vector<PublishedModel>& published_models() {
    static const std::vector<PublishedModel> models = read_registry();
    return models;
}

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
