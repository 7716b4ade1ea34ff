#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "program_runner.hpp"
#include "test_data.hpp"
#include "wdl/model/model_file.hpp"
#include "wdl/model/model_lookup.hpp"
#include "wdl/model/published_models.hpp"
#include "wdl/model/stockfish_source.hpp"
#include "wdl/util/error.hpp"

namespace fs = std::filesystem;
using namespace wdl::model;
using wdl::testing::read_text_file;

namespace {

// The models of the bundled registry file, as JSON.
nlohmann::json facts() {
    return nlohmann::json::parse(read_text_file(
        wdl::testing::source_directory() / "data/models/stockfish_wdl_history.json"))["models"];
}

// A uci.cpp holding a model as the facts describe its source lines.
std::string source_of(const nlohmann::json& entry) {
    auto list = [](const nlohmann::json& c) {
        return fmt::format("{}, {}, {}, {}", c[0].dump(), c[1].dump(), c[2].dump(), c[3].dump());
    };
    std::string eval = entry["eval_expression"].is_string()
                           ? entry["eval_expression"].get<std::string>()
                           : std::string("double(v)");
    return fmt::format(
        "// constexpr double as[] = {{1, 2, 3, 4}};  (an old comment)\n"
        "WinRateParams win_rate_params(const Position& pos) {{\n"
        "    double m = {};\n    double x = {};\n"
        "    constexpr double as[] = {{{}}};\n    constexpr double bs[] = {{{}}};\n}}\n",
        entry["mom_expression"].get<std::string>(), eval, list(entry["as"]), list(entry["bs"]));
}

}  // namespace

TEST_CASE("the registry holds every model of the facts file", "[model][registry]") {
    auto history = facts();
    const auto& models = published_models();
    REQUIRE(models.size() == history.size());
    for (std::size_t i = 0; i < models.size(); ++i) {
        const auto& entry = history[i];
        const auto& model = models[i].model;
        CAPTURE(entry["date"]);
        CHECK(models[i].commit == entry["commit"]);
        CHECK(model.as == entry["as"].get<Coefficients>());
        CHECK(model.bs == entry["bs"].get<Coefficients>());
        CHECK(mom_type_name(model.mom_type) == entry["momType"].get<std::string>());
        CHECK(model.mom_target == entry["momTarget"].get<int>());
        CHECK(model.mom_max == entry["momMax"].get<double>());
        // contains() first: operator[] of a const json on a missing key is undefined.
        if (entry.contains("momMin") && entry["momMin"].is_number())
            CHECK(model.mom_min == entry["momMin"].get<double>());
        else
            CHECK_FALSE(model.mom_min);
        bool pawn_value_eg =
            entry["evalUnits"].get<std::string>().find("PawnValueEg") != std::string::npos;
        CHECK(model.eval_scale == (pawn_value_eg ? 2.08 : 1.0));
    }
}

TEST_CASE("p_a at the target is the NormalizeToPawnValue the source states", "[model][registry]") {
    int stated = 0;
    for (const auto& published : published_models()) {
        if (!published.stated_pawn_value) continue;
        ++stated;
        double sum = curve_at_target({}, published.model.as);
        CAPTURE(published.date, sum, *published.stated_pawn_value);
        // Until SF 16 the source asserted the truncated sum, from SF 16.1 on the rounded one.
        bool truncated = published.model.mom_type == MomType::Ply;
        CHECK(*published.stated_pawn_value == (truncated ? int(sum) : int(std::lround(sum))));
        if (!truncated) CHECK(published.model.pawn_value() == *published.stated_pawn_value);
    }
    CHECK(stated == 7);
}

TEST_CASE("models are found by the names users give them", "[model][registry]") {
    CHECK(find_published_model("sf18")->date == "2026-01-15");
    CHECK(find_published_model("sf")->date == "2026-01-15");
    CHECK(find_published_model("sf17.1")->model.pawn_value() == 377);
    CHECK(find_published_model("sf17")->model.pawn_value() == 372);
    CHECK(find_published_model("sf16.1")->model.mom_type == MomType::Move);
    CHECK(find_published_model("sf16")->model.mom_type == MomType::Ply);
    CHECK(find_published_model("sf12") == find_published_model("sf13"));
    CHECK(find_published_model("sf14.1")->commit.starts_with("dc498332"));
    CHECK(find_published_model("sf@2024-05-30")->model.mom_min == 17);
    CHECK(find_published_model("sf@9b92ada9")->model.mom_min == 10);
    CHECK(find_published_model("sf@9b92ada9")->name == "sf@2024-03-20");
    for (const char* unknown : {"sf19", "stockfish", "sf@2019-01-01", "sf@zz", ""})
        CHECK(find_published_model(unknown) == nullptr);
    CHECK_THAT(published_model_names(), Catch::StartsWith("sf12, sf13, sf14, sf14.1, sf15,"));
}

TEST_CASE("the model of every era is read back from source lines", "[model][source]") {
    auto history = facts();
    const auto& models = published_models();
    for (std::size_t i = 0; i < models.size(); ++i) {
        CAPTURE(history[i]["date"]);
        auto parsed = parse_stockfish_model(source_of(history[i]));
        REQUIRE(parsed);
        const auto& expected = models[i].model;
        CHECK(parsed->as == expected.as);
        CHECK(parsed->bs == expected.bs);
        CHECK(parsed->mom_type == expected.mom_type);
        CHECK(parsed->mom_target == expected.mom_target);
        CHECK(parsed->mom_min == expected.mom_min);
        CHECK(parsed->mom_max == expected.mom_max);
        CHECK(parsed->eval_scale == expected.eval_scale);
    }
    CHECK_FALSE(parse_stockfish_model("int main() { return 0; }"));
    CHECK_THROWS_AS(
        parse_stockfish_model("double m = std::sqrt(material);\n"
                              "double as[] = {1, 2, 3, 4}; double bs[] = {1, 2, 3, 4};"),
        wdl::Error);
}

TEST_CASE("a model is loaded from a name, a JSON file, a source tree or a revision",
          "[model][lookup]") {
    CHECK(load_model("sf17").model.as == find_published_model("sf17")->model.as);
    CHECK_THAT(load_model("sf17").description, Catch::Contains("2024-09-03"));

    auto dir = wdl::testing::fresh_directory("model_lookup");
    WdlModel fitted;
    fitted.as = {1, 2, 3, 300};
    fitted.bs = {4, 5, 6, 70};
    wdl::testing::write_text_file(dir / "fit.json",
                                  nlohmann::json{{"model", model_json(fitted)}}.dump());
    CHECK(load_model((dir / "fit.json").string()).model.bs == fitted.bs);

    auto history = facts();
    fs::create_directories(dir / "sf/src");
    wdl::testing::write_text_file(dir / "sf/src/uci.cpp", source_of(history[5]));
    CHECK(load_model((dir / "sf").string()).model.as == published_models()[5].model.as);

    // A revision of a git checkout: the model committed first, then another one on top.
    auto git = [&](const std::string& arguments) {
        return std::system(
            ("git -C '" + (dir / "sf").string() + "' " + arguments + " >/dev/null 2>&1").c_str());
    };
    REQUIRE(git("init -q") == 0);
    REQUIRE(git("-c user.name=t -c user.email=t@t add -A") == 0);
    REQUIRE(git("-c user.name=t -c user.email=t@t commit -q -m first") == 0);
    wdl::testing::write_text_file(dir / "sf/src/uci.cpp", source_of(history.back()));
    REQUIRE(git("-c user.name=t -c user.email=t@t commit -q -a -m second") == 0);
    CHECK(load_model((dir / "sf").string() + "@HEAD~1").model.as == published_models()[5].model.as);
    CHECK(load_model((dir / "sf").string() + "@HEAD").model.as ==
          published_models().back().model.as);
    CHECK_THROWS_WITH(load_model((dir / "sf").string() + "@nosuchrev"),
                      Catch::Contains("no src/uci.h or src/uci.cpp"));

    CHECK_THROWS_WITH(load_model("sf19"),
                      Catch::Contains("unknown model \"sf19\"") && Catch::Contains("sf18"));
    // A file's spelling that names no file: the file is missing, not an unknown name.
    CHECK_THROWS_WITH(load_model("nosuch.json"),
                      Catch::StartsWith("unknown model \"nosuch.json\": the file nosuch.json "
                                        "does not exist"));
    CHECK_THROWS_WITH(load_model((dir / "nosuch").string()),
                      Catch::Contains("the file " + (dir / "nosuch").string() + " does not exist"));
    CHECK_THROWS_WITH(load_model("sf14.2"), Catch::Contains("registry name (sf12"));
    wdl::testing::write_text_file(dir / "broken.json", "{\"as\": [1, 2]}");
    CHECK_THROWS_WITH(load_model((dir / "broken.json").string()), Catch::Contains("broken.json"));
}
