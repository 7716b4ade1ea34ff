#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "program_runner.hpp"
#include "test_data.hpp"

namespace fs = std::filesystem;
using namespace wdl::testing;

namespace {

ProgramRun markov(const std::vector<std::string>& arguments, const fs::path& directory = {}) {
    return run_program("markovWDL", arguments, directory);
}

std::size_t error_lines(const std::string& output) {
    std::size_t count = 0;
    for (const auto& line : lines_of(output)) count += line.rfind("Error:", 0) == 0;
    return count;
}

const std::string kGame =
    "[White \"Engine A\"]\n[Black \"Engine B\"]\n[Result \"1-0\"]\n\n"
    "1. e4 {+0.30/10 0.1s} e5 {-0.28/9 0.1s} 2. Nf3 {+0.35/10 0.1s} Nc6 {-0.30/9 0.1s} 1-0\n\n";

}  // namespace

TEST_CASE("markovWDL --help says what the predictions are worth", "[apps][markovWDL]") {
    auto run = markov({"--help"});
    CHECK(run.exit_code == 0);
    CHECK_THAT(run.output, Catch::Contains("engines judge themselves"));
    CHECK_THAT(run.output, Catch::Contains("partly restates"));
}

TEST_CASE("markovWDL on the bundled games prints every pairing and writes its JSON and plots",
          "[apps][markovWDL]") {
    auto dir = fresh_directory("markov_corpus");
    auto run = markov({"--dir", corpus_path().string(), "-r", "--concurrency", "2", "--json",
                       "m.json", "--plotDir", "plots"},
                      dir);
    INFO(run.output);
    REQUIRE(run.exit_code == 0);
    CHECK_THAT(run.output, Catch::Contains("Classes: log19, 19 classes"));
    CHECK_THAT(run.output, Catch::Contains("Pairing 2415af9da521a8da87cf894a: New-817c898c"));
    CHECK_THAT(run.output, Catch::Contains("pentanomial, 80 opening pairs"));
    CHECK_THAT(run.output, Catch::Contains("Verdict: "));
    auto json = nlohmann::json::parse(read_text_file(dir / "m.json"));
    REQUIRE(json["pairings"].size() == 6);
    for (const auto& pairing : json["pairings"]) {
        for (const char* key : {"test", "new", "base", "games", "actual", "stationary", "model",
                                "crossfit", "matrices", "conformance"})
            CHECK(pairing.contains(key));
        for (const char* part : {"actual", "stationary", "model"}) {
            CHECK(pairing[part]["score"].is_number());
            CHECK(pairing[part]["wdl"].size() == 3);
        }
        CHECK(pairing["actual"]["se"].is_number());
        CHECK(pairing["matrices"]["new"]["probabilities"].size() == 19);
    }
    CHECK(json["summary"]["games"]["accepted"] == 798);
    CHECK(json["summary"]["crossfit"]["stationary"]["points"].is_number());
    CHECK(json["summary"]["crossfit"]["verdict"].is_string());
    CHECK(fs::file_size(dir / "plots" / "predictions.png") > 10000);
    CHECK(fs::file_size(dir / "plots" / "2415af9da521a8da87cf894a_matrices.png") > 10000);
    CHECK(fs::file_size(dir / "plots" / "2415af9da521a8da87cf894a_classes.png") > 10000);
}

TEST_CASE("markovWDL input problems give one clear line", "[apps][markovWDL]") {
    auto dir = fresh_directory("markov_errors");
    write_text_file(dir / "no_evals.pgn",
                    "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n\n");
    write_text_file(dir / "one.pgn", kGame);
    struct Case {
        std::vector<std::string> arguments;
        const char* expected;
    };
    for (const auto& [arguments, expected] :
         {Case{{"--file", "no_evals.pgn"}, "no game has evaluated moves"},
          Case{{"--file", "one.pgn", "--model", "sf99"}, "unknown model \"sf99\""},
          Case{{"--file", "one.pgn", "--classes", "0,x"}, "--classes 0,x: expected"},
          Case{{"--file", "one.pgn", "--classes", "model", "--classModel", "nowhere.json"},
               "nowhere.json"},
          Case{{"--file", "missing.pgn"}, "File not found"}}) {
        auto run = markov(arguments, dir);
        CAPTURE(run.output);
        CHECK(run.exit_code == 1);
        CHECK(error_lines(run.output) == 1);
        CHECK(has_line_with(run.output, "Error:", expected));
    }
    // One game is usable: its figures come with plain words where nothing can be estimated.
    auto run = markov({"--file", "one.pgn", "--model", "sf18"}, dir);
    INFO(run.output);
    CHECK(run.exit_code == 0);
    CHECK(has_line_with(run.output, "actual", "n/a"));
    CHECK(has_line_with(run.output, "none:", "all games start from one opening"));
    CHECK(has_line_with(run.output, "Verdict:", "Too few pairings"));
}
