// Every program's --help: equal to its stored snapshot, an explanation for every option, and
// every long option in its section of docs/programs.md.
//
// The snapshots are tests/snapshots/<program>.help.txt, byte for byte what `<program> --help`
// prints. A deliberate change of a help text (an option added, a description reworded) is one
// command after the build, which rewrites the snapshots (and removes those of programs that are
// gone) instead of comparing; commit the rewritten files with the change:
//
//     WDL_UPDATE_SNAPSHOTS=1 ctest --test-dir build -R snapshot
//
// The programs are those of apps/CMakeLists.txt (WDL_PROGRAMS, from CMake): a new program is
// tested here without a line added to this file.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <catch2/catch.hpp>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "help_text.hpp"
#include "program_runner.hpp"
#include "test_data.hpp"

namespace fs = std::filesystem;
using namespace wdl::testing;

namespace {

std::vector<std::string> programs() {
    std::vector<std::string> names;
    std::istringstream in(WDL_PROGRAMS);
    for (std::string name; std::getline(in, name, ',');) names.push_back(name);
    return names;
}

fs::path snapshot_directory() { return source_directory() / "tests" / "snapshots"; }

fs::path snapshot_path(const std::string& program) {
    return snapshot_directory() / (program + ".help.txt");
}

bool updating_snapshots() {
    const char* update = std::getenv("WDL_UPDATE_SNAPSHOTS");
    return update != nullptr && std::string(update) == "1";
}

std::string help_of(const std::string& program) {
    auto run = run_program(program, {"--help"}, scratch_directory());
    INFO(run.output);
    REQUIRE(run.exit_code == 0);
    return run.output;
}

constexpr const char* kHowToUpdate =
    "If the change is deliberate, rewrite the snapshots and commit them: "
    "WDL_UPDATE_SNAPSHOTS=1 ctest --test-dir build -R snapshot";

std::string joined(const std::vector<std::string>& names) {
    std::string text;
    for (const auto& name : names) text += (text.empty() ? "" : ",") + name;
    return text;
}

}  // namespace

TEST_CASE("every program's --help is its snapshot in tests/snapshots", "[apps][help]") {
    auto program = GENERATE(from_range(programs()));
    INFO(program);
    auto help = help_of(program);
    auto path = snapshot_path(program);
    if (updating_snapshots()) {
        fs::create_directories(path.parent_path());
        write_text_file(path, help);
        WARN("WDL_UPDATE_SNAPSHOTS=1: wrote " << path.string());
        return;
    }
    if (!fs::exists(path)) FAIL(path.string() << " is missing. " << kHowToUpdate);
    auto difference = line_diff(read_text_file(path), help);
    if (!difference.empty()) {
        // Printed as it is: Catch's messages wrap at 80 columns, which garbles a diff.
        std::cout << program << " --help differs from " << path.string() << ":\n"
                  << difference << std::flush;
        FAIL_CHECK(program << " --help differs from its snapshot (diff above). " << kHowToUpdate);
    } else {
        SUCCEED();
    }
}

TEST_CASE("every program tells a mistake in its options in one error line and exits with 1",
          "[apps][help]") {
    auto program = GENERATE(from_range(programs()));
    INFO(program);
    auto run = run_program(program, {"--noSuchOption"}, scratch_directory());
    INFO(run.output);
    CHECK(run.exit_code == 1);
    // One line: the first mistake CLI11 finds (an unknown option, or a missing argument).
    CHECK(run.output.starts_with("Error: "));
    CHECK(run.output.ends_with("(" + program + " --help explains the options)\n"));
    CHECK(std::count(run.output.begin(), run.output.end(), '\n') == 1);
}

TEST_CASE("every snapshot in tests/snapshots is the help of a program", "[apps][help]") {
    auto names = programs();
    REQUIRE(names.size() >= 11);
    std::set<std::string> expected;
    for (const auto& name : names) expected.insert(snapshot_path(name).filename().string());
    if (!fs::is_directory(snapshot_directory()))
        FAIL(snapshot_directory().string() << " is missing. " << kHowToUpdate);
    for (const auto& entry : fs::directory_iterator(snapshot_directory())) {
        auto file = entry.path().filename().string();
        if (expected.count(file)) continue;
        if (updating_snapshots() && file.ends_with(".help.txt")) {
            fs::remove(entry.path());
            WARN("WDL_UPDATE_SNAPSHOTS=1: removed " << entry.path().string());
        } else {
            FAIL_CHECK(entry.path().string() << " is the snapshot of no program");
        }
    }
}

TEST_CASE("every program prints its name, wdlfit's version and the commit with --version",
          "[apps][help]") {
    auto program = GENERATE(from_range(programs()));
    INFO(program);
    auto run = run_program(program, {"--version"}, scratch_directory());
    INFO(run.output);
    CHECK(run.exit_code == 0);
    // "scoreWDL 0.1.0 (wdlfit, commit 842b1da, 2026-11-26)", one line; "unknown" outside git.
    // (Read by hand: std::regex warns under g++ 12's sanitizers, which CI builds with -Werror.)
    const std::string name = program + " ";
    REQUIRE(run.output.starts_with(name));
    const std::size_t version_end = run.output.find(' ', name.size());
    REQUIRE(version_end != std::string::npos);
    const std::string version = run.output.substr(name.size(), version_end - name.size());
    CHECK(std::count(version.begin(), version.end(), '.') == 2);
    CHECK(version.find_first_not_of("0123456789.") == std::string::npos);
    CHECK(run.output.substr(version_end).starts_with(" (wdlfit, commit "));
    CHECK(run.output.ends_with(")\n"));
    CHECK(std::count(run.output.begin(), run.output.end(), '\n') == 1);
}

TEST_CASE("every option of every program is explained in its --help", "[apps][help]") {
    auto program = GENERATE(from_range(programs()));
    INFO(program);
    auto help = help_of(program);
    auto entries = help_entries(help);
    // The option lines are read at all: each starts with "  -"; -h,--help is always there.
    auto lines = lines_of(help);
    auto option_lines = std::count_if(lines.begin(), lines.end(), [](const std::string& line) {
        return line.starts_with("  -");
    });
    auto options = std::count_if(entries.begin(), entries.end(), [](const HelpEntry& e) {
        return e.names.front().starts_with("-");
    });
    CHECK(options == option_lines);
    REQUIRE(find_help_entry(entries, "--help") != nullptr);
    for (const auto& entry : entries) {
        INFO(joined(entry.names) << " " << entry.type);
        CHECK_FALSE(entry.description.empty());
        // A choice lists its names (`DTC|DTM`), not CLI11's map `{DTC->0,DTM->1} OR {0,1}`.
        CHECK_THAT(entry.type, !Catch::Contains("->") && !Catch::Contains("value in {"));
    }
}

TEST_CASE("every long option of every program is in its section of docs/programs.md",
          "[apps][help]") {
    auto program = GENERATE(from_range(programs()));
    INFO(program);
    auto doc = read_text_file(source_directory() / "docs" / "programs.md");
    // The section is from its heading "## <program>:" to the next "## " heading.
    auto start = doc.find("\n## " + program + ":");
    std::string section;
    if (start != std::string::npos) {
        auto end = doc.find("\n## ", start + 1);
        section = doc.substr(start, end == std::string::npos ? std::string::npos : end - start);
    }
    // "--name" whole: not the start of a longer name.
    auto mentions = [&section](const std::string& name) {
        for (auto at = section.find(name); at != std::string::npos;
             at = section.find(name, at + 1)) {
            auto after = at + name.size();
            if (after == section.size() ||
                !std::isalnum(static_cast<unsigned char>(section[after])))
                return true;
        }
        return false;
    };
    for (const auto& entry : help_entries(help_of(program))) {
        for (const auto& name : entry.names) {
            if (!name.starts_with("--") || name == "--help" || name == "--version") continue;
            INFO(name);
            CHECK_FALSE(section.empty());
            CHECK(mentions(name));
        }
    }
}

TEST_CASE("every page of docs/ has a row in README.md's table of the documents", "[apps][help]") {
    auto readme = read_text_file(source_directory() / "README.md");
    for (const auto& entry : fs::directory_iterator(source_directory() / "docs")) {
        auto name = entry.path().filename().string();
        if (entry.path().extension() != ".md" || name == "README.md") continue;
        INFO(name);
        CHECK(readme.find("\n| [docs/" + name + "](docs/" + name + ") | ") != std::string::npos);
    }
}

TEST_CASE("CLI11's --help is read option by option, and names match whole", "[apps][help]") {
    CLI::App app{"A program.", "example"};
    std::string file, output, choice;
    int groups = 0;
    bool recursive = false;
    app.add_option("inputs", file, "Files to read")->required();
    app.add_flag("-r", recursive, "Recursively");
    app.add_option("-o,--output", output, "Where to write")->capture_default_str();
    app.add_option("--undescribed", output);
    auto* groups_option = app.add_option("--groups", groups, "Number of groups");
    app.add_option("--aVeryLongOptionName", choice, "Described below its names")
        ->type_name("one|two|three (default: one)")
        ->needs(groups_option);
    app.add_option("--undescribedAndLongToo", choice)->type_name("one|two|three|four");
    auto entries = help_entries(app.help());
    INFO(app.help());
    std::vector<std::string> names;
    for (const auto& entry : entries) names.push_back(joined(entry.names));
    CHECK(names == std::vector<std::string>{"inputs", "-h,--help", "-r", "-o,--output",
                                            "--undescribed", "--groups", "--aVeryLongOptionName",
                                            "--undescribedAndLongToo"});
    REQUIRE(find_help_entry(entries, "inputs") != nullptr);
    CHECK(find_help_entry(entries, "inputs")->description == "Files to read");
    CHECK(find_help_entry(entries, "-r")->description == "Recursively");
    CHECK(find_help_entry(entries, "--output")->type == "TEXT");
    CHECK(find_help_entry(entries, "--undescribed")->description.empty());
    CHECK(find_help_entry(entries, "--aVeryLongOptionName")->description ==
          "Described below its names");
    CHECK(find_help_entry(entries, "--aVeryLongOptionName")->type ==
          "one|two|three (default: one) Needs: --groups");
    CHECK(find_help_entry(entries, "--undescribedAndLongToo")->description.empty());
    // "--rate" or "-rx" in a text is no option -r: names are matched whole.
    CHECK(find_help_entry(entries, "-o") != nullptr);
    CHECK(find_help_entry(entries, "--out") == nullptr);
    CHECK(find_help_entry(entries, "-") == nullptr);
    CHECK(find_help_entry(help_entries("Options:\n  --rate INT  Rate\n"), "-r") == nullptr);
}

TEST_CASE("a changed help text shows as a diff of its lines", "[apps][help]") {
    CHECK(line_diff("a\nb\n", "a\nb\n").empty());
    CHECK(line_diff("a\nb\nc\nd\ne\nf\ng\n", "a\nb\nc\nD\ne\nf\ng\n") ==
          "--- expected\n+++ actual\n@@ line 2 of expected, 2 of actual @@\n b\n c\n-d\n+D\n"
          " e\n f\n");
    CHECK(line_diff("a\n", "a\nnew\n") ==
          "--- expected\n+++ actual\n@@ line 1 of expected, 1 of actual @@\n a\n+new\n");
    CHECK_THAT(line_diff("a\n", "a"), Catch::Contains("missing last newline"));
}
