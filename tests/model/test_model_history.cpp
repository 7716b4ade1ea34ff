#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>

#include "program_runner.hpp"
#include "wdl/model/model_history.hpp"
#include "wdl/model/published_models.hpp"
#include "wdl/util/process.hpp"

namespace fs = std::filesystem;
using namespace wdl::model;

namespace {

// A Stockfish-like repository made commit by commit, with fixed dates.
class FakeStockfish {
  public:
    explicit FakeStockfish(fs::path dir) : dir_(std::move(dir)) {
        fs::create_directories(dir_ / "src");
        git("init -q");
    }
    const fs::path& dir() const { return dir_; }

    void write(const std::string& file, const std::string& text) {
        wdl::testing::write_text_file(dir_ / file, text);
    }
    // Commits everything with author and committer date `date`; returns the commit's hash.
    std::string commit(const std::string& subject, const std::string& date) {
        git("add -A");
        std::string when = date + "T12:00:00+0000";
        git(fmt::format("-c user.name=t -c user.email=t@t commit -q -m '{}'", subject),
            "GIT_AUTHOR_DATE=" + when + " GIT_COMMITTER_DATE=" + when + " ");
        return head();
    }
    void tag(const std::string& name) { git("tag " + name); }
    std::string head() const {
        auto result = wdl::util::run_process({"git", "-C", dir_.string(), "rev-parse", "HEAD"});
        REQUIRE(result);
        return result->output.substr(0, 40);
    }

  private:
    void git(const std::string& arguments, const std::string& environment = "") const {
        std::string command =
            environment + "git -C '" + dir_.string() + "' " + arguments + " 2>/dev/null";
        REQUIRE(std::system(command.c_str()) == 0);
    }
    fs::path dir_;
};

std::string ply_model(const std::string& eval_line, const std::string& as) {
    return "int win_rate_model(Value v, int ply) {\n"
           "  size_t multiPV = std::min(size_t(options[\"MultiPV\"]), rootMoves.size());\n"
           "  double m = std::min(240, ply) / 64.0;\n"
           "  double as[] = {" +
           as +
           "};\n"
           "  double bs[] = {-3.37154371, 28.44489198, -56.67657741,  72.05858751};\n"
           "  double x = " +
           eval_line + ";\n}\n";
}

std::string material_model(const std::string& as) {
    return "WinRateParams win_rate_params(const Position& pos) {\n"
           "    int material = pos.count<PAWN>() + 3 * pos.count<KNIGHT>();\n"
           "    double m = std::clamp(material, 17, 78) / 58.0;\n"
           "    constexpr double as[] = {" +
           as +
           "};\n"
           "    constexpr double bs[] = {83.86794042, -136.06112997, 69.98820887, "
           "47.62901433};\n}\n";
}

}  // namespace

TEST_CASE("the history walk finds every model change and the releases that shipped it",
          "[model][history]") {
    FakeStockfish sf(wdl::testing::fresh_directory("model_history"));
    sf.write("src/uci.cpp", "// no WDL model yet\nint main() {}\n");
    sf.write("src/types.h", "enum Value : int { PawnValueMg = 124,   PawnValueEg = 206 };\n");
    sf.commit("Start", "2019-05-01");
    const std::string old_as = "-8.24404295, 64.23892342, -95.73056462, 153.86478679";
    sf.write("src/uci.cpp",
             ply_model("Utility::clamp(double(100 * v) / PawnValueEg, -1000.0, 1000.0)", old_as));
    auto first = sf.commit("Provide WDL statistics", "2020-07-01");
    // PawnValueEg changes under the first model: no new model, the entry keeps the newer value.
    sf.write("src/types.h", "enum Value : int { PawnValueMg = 126,   PawnValueEg = 208 };\n");
    sf.commit("Tuned pawn values", "2020-08-06");
    sf.tag("sf_12");
    // Reformatted, and Utility::clamp spelled std::clamp: still the same model.
    sf.write("src/uci.cpp", ply_model("std::clamp(double(100*v)/PawnValueEg,  -1000.0, 1000.0)",
                                      "-8.24404295,64.23892342,-95.73056462,153.86478679"));
    sf.commit("Small trivial cleanups", "2020-09-01");
    sf.tag("sf_13");
    sf.tag("sf_dd");  // not a release: no digits
    const std::string new_as = "-72.32565836, 185.93832038, -144.58862193, 416.44950446";
    sf.write("src/uci.cpp", material_model(new_as));
    auto second = sf.commit("Update the WDL model", "2026-01-15");
    sf.tag("sf_18");
    sf.write("src/uci.h", "constexpr int NormalizeToPawnValue = 386;\n");
    auto third = sf.commit("State the pawn value", "2026-02-01");
    sf.write("README.md", "unrelated\n");
    auto last = sf.commit("Docs", "2026-03-01");

    int reported = 0;
    auto walk = walk_model_history(sf.dir(), "HEAD", [&](int done, int) { reported = done; });
    CHECK(walk.warnings.empty());
    CHECK(walk.commits_read == 6);  // the README commit touches no model file
    CHECK(reported == 6);
    REQUIRE(walk.registry.walked);
    CHECK(walk.registry.walked->commit == last);
    CHECK(walk.registry.walked->date == "2026-03-01");
    const auto& models = walk.registry.models;
    REQUIRE(models.size() == 3);

    CHECK(models[0].commit == first);
    CHECK(models[0].date == "2020-07-01");
    CHECK(models[0].subject == "Provide WDL statistics");
    CHECK(models[0].release_tags == std::vector<std::string>{"sf_12", "sf_13"});
    CHECK(models[0].name == "sf13");
    CHECK(models[0].model.as == Coefficients{-8.24404295, 64.23892342, -95.73056462, 153.86478679});
    CHECK(models[0].model.mom_type == MomType::Ply);
    CHECK(models[0].model.mom_max == 240);
    CHECK(models[0].model.mom_target == 64);
    CHECK(models[0].mom_expression == "std::min(240, ply) / 64.0");
    CHECK(models[0].eval_expression ==
          "Utility::clamp(double(100 * v) / PawnValueEg, -1000.0, 1000.0)");
    CHECK(models[0].pawn_value_eg == 208);
    CHECK(models[0].model.eval_scale == 2.08);
    // Displayed by the PawnValueEg of its last commit, its x clamped as the line says.
    CHECK(models[0].model.display == DisplayRule{208, 1000});
    CHECK_THAT(models[0].eval_units, Catch::Contains("PawnValueEg"));
    CHECK_FALSE(models[0].stated_pawn_value);

    CHECK(models[1].commit == second);
    CHECK(models[1].release_tags == std::vector<std::string>{"sf_18"});
    CHECK(models[1].model.mom_type == MomType::Material);
    CHECK(models[1].model.mom_min == 17);
    CHECK(models[1].model.mom_max == 78);
    CHECK(models[1].model.mom_target == 58);
    CHECK(models[1].model.bs == Coefficients{83.86794042, -136.06112997, 69.98820887, 47.62901433});
    CHECK_FALSE(models[1].eval_expression);
    CHECK_FALSE(models[1].pawn_value_eg);
    CHECK(models[1].eval_units == "internal");
    CHECK(models[1].model.display == DisplayRule{});

    CHECK(models[2].commit == third);
    CHECK(models[2].name == "sf@2026-02-01");
    CHECK(models[2].releases.empty());
    CHECK(models[2].stated_pawn_value == 386);
    CHECK(models[2].model.as == models[1].model.as);
    CHECK(models[2].model.display == DisplayRule{386, std::nullopt});

    // The file it writes reads back as the same registry.
    auto reread = parse_registry(registry_text(walk.registry), "the test's registry");
    REQUIRE(reread.models.size() == 3);
    CHECK(reread.walked->commit == last);
    for (std::size_t i = 0; i < 3; ++i) {
        CAPTURE(i);
        CHECK(reread.models[i].commit == models[i].commit);
        CHECK(reread.models[i].name == models[i].name);
        CHECK(reread.models[i].model.as == models[i].model.as);
        CHECK(reread.models[i].model.bs == models[i].model.bs);
        CHECK(reread.models[i].model.eval_scale == models[i].model.eval_scale);
        CHECK(reread.models[i].model.mom_min == models[i].model.mom_min);
        CHECK(reread.models[i].eval_expression == models[i].eval_expression);
        CHECK(reread.models[i].stated_pawn_value == models[i].stated_pawn_value);
        CHECK(reread.models[i].model.display == models[i].model.display);
    }
}

TEST_CASE("a history without a model, or no repository, is said so", "[model][history]") {
    FakeStockfish sf(wdl::testing::fresh_directory("model_history_empty"));
    sf.write("src/uci.cpp", "int main() {}\n");
    sf.commit("Start", "2019-05-01");
    CHECK(walk_model_history(sf.dir()).registry.models.empty());
    // (A folder of the scratch directory would be read as part of the project's own repository.)
    auto not_a_repository = wdl::testing::fresh_directory("model_history_none") / "missing";
    CHECK_THROWS_WITH(
        walk_model_history(not_a_repository),
        Catch::Contains("git cannot read") && Catch::Contains(not_a_repository.string()));
}

TEST_CASE("a registry file is the plain list of the facts or the walked form",
          "[model][registry]") {
    auto list = R"([{"commit": "abc", "date": "2024-09-03", "subject": "s", "releases": ["sf_17"],
        "as": [1, 2, 3, 4], "bs": [5, 6, 7, 8], "mom_expression": "m", "eval_expression": null,
        "NormalizeToPawnValue_constant": null, "momType": "material", "momMin": 17,
        "momMax": 78, "momTarget": 58, "evalUnits": "internal"}])";
    auto registry = parse_registry(list, "list");
    CHECK_FALSE(registry.walked);
    REQUIRE(registry.models.size() == 1);
    CHECK(registry.models[0].name == "sf17");
    CHECK_THROWS_WITH(parse_registry("[]", "registry file x.json"),
                      Catch::Contains("registry file x.json") && Catch::Contains("no model"));
    CHECK_THROWS_WITH(parse_registry(R"({"models": [{"commit": 1}]})", "registry file y.json"),
                      Catch::Contains("y.json is not a model registry"));
}
