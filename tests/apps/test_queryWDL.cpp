#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "program_runner.hpp"
#include "wdl/model/model_lookup.hpp"

namespace fs = std::filesystem;
using namespace wdl::testing;

namespace {

ProgramRun query(const std::vector<std::string>& arguments, const fs::path& directory) {
    return run_program("queryWDL", arguments, directory);
}

// The JSON that --json - prints, alone, on stdout.
nlohmann::json query_json(std::vector<std::string> arguments, const fs::path& directory) {
    arguments.insert(arguments.end(), {"--json", "-"});
    auto run = query(arguments, directory);
    INFO(run.output);
    REQUIRE(run.exit_code == 0);
    return nlohmann::json::parse(run.output);
}

}  // namespace

TEST_CASE("queryWDL prints a model's W/D/L at displayed evals and materials", "[apps][query]") {
    auto dir = fresh_directory("query_wdl");
    auto run = query(
        {"--model", "sf18", "--evals", "0,50,100", "--materials", "30,58", "--json", "q.json"},
        dir);
    INFO(run.output);
    REQUIRE(run.exit_code == 0);
    CHECK(has_line_with(run.output, "Model: sf18", "material, target 58"));
    CHECK(has_line_with(run.output, "material", "score"));
    auto json = nlohmann::json::parse(read_text_file(dir / "q.json"));
    auto model = wdl::model::load_model("sf18").model;
    REQUIRE(json["wdl"].size() == 6);
    for (const auto& row : json["wdl"]) {
        double mom = row["mom"], cp = row["evalCp"], x = row["internalEval"];
        CAPTURE(mom, cp);
        CHECK(x == Approx(cp * model.a(mom) / 100));
        CHECK(row["win"].get<double>() == Approx(model.win(x, mom)));
        CHECK(row["loss"].get<double>() == Approx(model.loss(x, mom)));
        CHECK(row["win"].get<double>() + row["draw"].get<double>() + row["loss"].get<double>() ==
              Approx(1));
        // A displayed +1.00 wins half of the games at every material: that is what it means.
        if (cp == 100) CHECK(row["win"].get<double>() == Approx(0.5));
        if (cp == 0) CHECK(row["score"].get<double>() == Approx(0.5));
    }
    // Internal units: the same eval displayed as 100 x / a(mom).
    auto internal = query_json({"--model", "sf18", "--evals", "200", "--internal"}, dir);
    REQUIRE(internal["wdl"].size() == 1);
    CHECK(internal["evals"] == "internal");
    CHECK(internal["wdl"][0]["mom"] == 58);
    CHECK(internal["wdl"][0]["evalCp"].get<double>() == Approx(100 * 200 / model.a(58)));
}

TEST_CASE("queryWDL finds the eval of a wanted win rate", "[apps][query]") {
    auto dir = fresh_directory("query_win_rate");
    auto json =
        query_json({"--model", "sf17", "--winRate", "0.5,0.2,0.9", "--materials", "58,40"}, dir);
    auto model = wdl::model::load_model("sf17").model;
    CHECK_FALSE(json.contains("wdl"));
    REQUIRE(json["winRates"].size() == 6);
    for (const auto& row : json["winRates"]) {
        double mom = row["mom"], rate = row["winRate"], x = row["internalEval"];
        CAPTURE(mom, rate);
        CHECK(model.win(x, mom) == Approx(rate));
        CHECK(row["evalCp"].get<double>() == Approx(model.to_cp(x, mom)));
        if (rate == 0.5) CHECK(row["evalCp"].get<double>() == Approx(100));
    }
    // A move model, and a ply model, take moves (move 20 is White's ply 38); each displayed
    // evals by a constant, so its 50 % eval displays as 100 a(mom) / that constant.
    for (auto [name, mom, divisor] : {std::tuple{"sf16.1", 20, 356}, std::tuple{"sf15", 38, 208}}) {
        CAPTURE(name);
        auto moves = query_json({"--model", name, "--winRate", "0.5", "--moves", "20"}, dir);
        CHECK(moves["moms"] == "moves");
        double a = wdl::model::load_model(name).model.a(mom);
        CHECK(moves["winRates"][0]["evalCp"].get<double>() == Approx(100 * a / divisor));
    }
}

TEST_CASE("queryWDL maps displayed evals from one model to another", "[apps][query]") {
    auto dir = fresh_directory("query_mapping");
    auto json = query_json(
        {"--model", "sf18", "--to", "sf17", "--evals", "100,-250", "--materials", "24,58,70"}, dir);
    auto from = wdl::model::load_model("sf18").model, to = wdl::model::load_model("sf17").model;
    CHECK(json["mapping"]["to"]["name"] == "sf17");
    REQUIRE(json["mapping"]["rows"].size() == 6);
    for (const auto& row : json["mapping"]["rows"]) {
        double mom = row["mom"], cp = row["evalCp"];
        CAPTURE(mom, cp);
        CHECK(row["toEvalCp"].get<double>() == Approx(cp * from.a(mom) / to.a(mom)));
    }
    // A model maps onto itself unchanged.
    auto same = query_json({"--model", "sf18", "--to", "sf18", "--evals", "137"}, dir);
    CHECK(same["mapping"]["rows"][0]["toEvalCp"].get<double>() == Approx(137));
}

TEST_CASE("queryWDL errors are one line and exit 1", "[apps][query]") {
    auto dir = fresh_directory("query_errors");
    for (const auto& arguments :
         std::vector<std::vector<std::string>>{{"--model", "sf99"},
                                               {"--to", "no-such-model"},
                                               {"--winRate", "0"},
                                               {"--winRate", "1"},
                                               {"--winRate", "1.5"},
                                               {"--winRate", "-0.2"},
                                               {"--evals", "1,abc"},
                                               {"--evals", "nan"},
                                               {"--materials", "x"},
                                               {"--materials", "-5"},
                                               {"--model", "sf18", "--moves", "20"},
                                               {"--model", "sf18", "--to", "sf15"},
                                               {"--registry", "missing-registry.json"},
                                               {"--unknown"}}) {
        auto run = query(arguments, dir);
        CAPTURE(arguments);
        INFO(run.output);
        CHECK(run.exit_code == 1);
        auto lines = lines_of(run.output);
        REQUIRE(lines.size() == 1);
        CHECK(lines[0].rfind("Error: ", 0) == 0);
    }
    auto missing = query({"--model", "fit.json"}, dir);
    CHECK(missing.exit_code == 1);
    CHECK_THAT(missing.output,
               Catch::StartsWith("Error: unknown model \"fit.json\": the file fit.json does not "
                                 "exist"));
}
