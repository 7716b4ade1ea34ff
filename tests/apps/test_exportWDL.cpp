// exportWDL's exports compiled or run by each language's own compiler or interpreter, against
// wdlfit's W/D/L on a grid of evals and moms: every registry release, a fit of data/ and a model
// of rational forms. A language whose tool is not installed is reported Skipped.
#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>

#include "program_runner.hpp"
#include "skip.hpp"
#include "test_data.hpp"
#include "wdl/model/model_lookup.hpp"
#include "wdl/model/published_models.hpp"
#include "wdl/util/process.hpp"

namespace fs = std::filesystem;
using namespace wdl::testing;
using wdl::model::MomType;

namespace {

// W/D/L per mille as Stockfish's UCI prints them (UCI::wdl): win and loss each
// int(0.5 + 1000 p), the draw what is left of 1000.
struct WdlPerMille {
    int win = 0, draw = 0, loss = 0;
    friend bool operator==(const WdlPerMille&, const WdlPerMille&) = default;
};

WdlPerMille stockfish_per_mille(double win, double loss) {
    int w = int(0.5 + 1000 * win), l = int(0.5 + 1000 * loss);
    return {w, 1000 - w - l, l};
}

ProgramRun run_checked(const std::string& name, const std::vector<std::string>& arguments,
                       const fs::path& dir) {
    auto run = run_program(name, arguments, dir);
    INFO(name << ": " << run.output);
    REQUIRE(run.exit_code == 0);
    return run;
}

// data/ scanned and fitted by scoreWDL: the model file of a fit of the bundled games.
fs::path fit_of_bundled_data(const fs::path& dir) {
    run_checked("scoreWDLstat",
                {"--dir", corpus_path().string(), "-r", "-o", (dir / "counts.json").string()}, dir);
    run_checked(
        "scoreWDL",
        {(dir / "counts.json").string(), "--plot", "no", "--json", (dir / "fit.json").string()},
        dir);
    return dir / "fit.json";
}

// A model whose curves are not Stockfish's cubics: a rational a(t) and b(t).
fs::path rational_model(const fs::path& dir) {
    nlohmann::json json = {{"momType", "material"}, {"momTarget", 58},
                           {"aForm", "rational2"},  {"as", {-50.5, 120.25, 330.125, 0.2}},
                           {"bForm", "rational1"},  {"bs", {20.5, 50.75, 0.1}}};
    write_text_file(dir / "rational.json", json.dump());
    return dir / "rational.json";
}

// The models every language is tested with, as exportWDL --model takes them.
std::vector<std::string> models_to_export(const fs::path& dir) {
    std::vector<std::string> specs;
    for (const auto& published : wdl::model::published_models())
        if (!published.releases.empty()) specs.push_back(published.name);
    specs.push_back(fit_of_bundled_data(dir).string());
    specs.push_back(rational_model(dir).string());
    return specs;
}

// The grid of a model's mom: materials 0..80 (through both ends of Stockfish's clamp), full
// moves 1..148, plies 0..299; internal evals -1000..998 in steps of 37.
struct Grid {
    int mom_first, mom_last, mom_step;
    static constexpr int eval_first = -1000, eval_last = 1000, eval_step = 37;
};

Grid grid_of(MomType type) {
    switch (type) {
        case MomType::Material:
            return {0, 80, 4};
        case MomType::Move:
            return {1, 150, 7};
        case MomType::Ply:
            return {0, 300, 13};
    }
    return {};
}

std::size_t grid_points(const Grid& grid) {
    return std::size_t((Grid::eval_last - Grid::eval_first) / Grid::eval_step + 1) *
           std::size_t((grid.mom_last - grid.mom_first) / grid.mom_step + 1);
}

// A language's driver prints, for every eval and mom of the grid, one line:
// "value mom win draw loss W D L cp value_of_cp" (W, D, L per mille), the doubles with the
// digits that read back as the same double. Each check compares them with wdlfit's.
void compare_with_wdlfit(const wdl::model::WdlModel& model, const std::string& output,
                         const std::string& what) {
    INFO(what);
    std::istringstream in(output);
    std::size_t lines = 0, mismatched_per_mille = 0;
    double worst_rate = 0, worst_cp = 0, worst_back = 0;
    std::string first_mismatch;
    for (std::string line; std::getline(in, line);) {
        std::istringstream fields(line);
        double value = 0, mom = 0, win = 0, draw = 0, loss = 0, cp = 0, back = 0;
        WdlPerMille printed;
        fields >> value >> mom >> win >> draw >> loss >> printed.win >> printed.draw >>
            printed.loss >> cp >> back;
        INFO("line: " << line);
        REQUIRE(fields);
        ++lines;
        double w = model.win(value, mom), d = model.draw(value, mom), l = model.loss(value, mom);
        worst_rate =
            std::max({worst_rate, std::abs(win - w), std::abs(draw - d), std::abs(loss - l)});
        worst_cp = std::max(worst_cp, std::abs(cp - model.to_cp(value, mom)));
        worst_back = std::max(worst_back, std::abs(back - value));
        if (printed != stockfish_per_mille(w, l)) {
            if (mismatched_per_mille++ == 0) first_mismatch = line;
        }
    }
    CAPTURE(first_mismatch);
    CHECK(lines == grid_points(grid_of(model.mom_type)));
    CHECK(worst_rate <= 1e-9);
    CHECK(worst_cp <= 1e-9);
    CHECK(worst_back <= 1e-9);
    CHECK(mismatched_per_mille == 0);
}

// True if the tool runs; else the test is reported Skipped (the caller returns).
bool tool_installed(const std::vector<std::string>& version_command) {
    auto run = wdl::util::run_process(version_command);
    if (!run || run->exit_code != 0) {
        skip_test(version_command[0] + " is not installed");
        return false;
    }
    return true;
}

// The output of a compiler, interpreter or driver that must succeed.
std::string run_tool(const std::vector<std::string>& command, const fs::path& dir) {
    auto run = wdl::util::run_process(command, dir);
    std::string line;
    for (const auto& word : command) line += word + " ";
    INFO(line << "\n" << (run ? run->output : "not found"));
    REQUIRE(run);
    REQUIRE(run->exit_code == 0);
    return run->output;
}

// Exports every model in `language` to dir/<n>/<file_name>, builds and runs each with
// `run(folder, grid)`, which returns the driver's output, and compares it with wdlfit's.
void check_language(const std::string& language, const std::string& file_name,
                    const std::function<std::string(const fs::path&, const Grid&)>& run) {
    auto dir = fresh_directory("export_" + language);
    auto specs = models_to_export(dir);
    REQUIRE(specs.size() >= 9);
    for (std::size_t i = 0; i < specs.size(); ++i) {
        auto folder = dir / std::to_string(i);
        fs::create_directories(folder);
        run_checked(
            "exportWDL",
            {"--model", specs[i], "--language", language, "-o", (folder / file_name).string()},
            dir);
        auto model = wdl::model::load_model(specs[i]).model;
        std::string source = read_text_file(folder / file_name);
        // The provenance comes first; a fit names its file.
        CHECK_THAT(source, Catch::Contains("Exported by wdlfit"));
        CHECK_THAT(source, Catch::Contains(fs::path(specs[i]).filename().string()));
        compare_with_wdlfit(model, run(folder, grid_of(model.mom_type)), language + " " + specs[i]);
    }
}

// The grid's loops in C-like syntax.
std::string c_loops(const Grid& grid, const std::string& body) {
    return fmt::format(
        "    for (int v = {}; v <= {}; v += {})\n"
        "        for (int m = {}; m <= {}; m += {}) {{\n"
        "            double value = v, mom = m;\n{}"
        "        }}\n",
        Grid::eval_first, Grid::eval_last, Grid::eval_step, grid.mom_first, grid.mom_last,
        grid.mom_step, body);
}

}  // namespace

TEST_CASE("exportWDL's C++ header compiles with g++ and agrees with wdlfit", "[apps][export]") {
    if (!tool_installed({"g++", "--version"})) return;
    check_language("cpp", "wdl_model.hpp", [](const fs::path& folder, const Grid& grid) {
        write_text_file(
            folder / "driver.cpp",
            "#include <cstdio>\n#include \"wdl_model.hpp\"\nint main() {\n    using namespace "
            "wdl_model;\n" +
                c_loops(grid,
                        "            Wdl p = wdl(value, mom);\n"
                        "            WdlPerMille r = wdl_per_mille(value, mom);\n"
                        "            double cp = to_cp(value, mom);\n"
                        "            std::printf(\"%.17g %.17g %.17g %.17g %.17g %d %d %d %.17g "
                        "%.17g\\n\", value, mom, p.win, p.draw, p.loss, r.win, r.draw, r.loss, "
                        "cp, from_cp(cp, mom));\n") +
                "}\n");
        run_tool({"g++", "-std=c++17", "-Wall", "-Wextra", "-Wshadow", "-Wconversion", "-Werror",
                  "-pedantic", "driver.cpp", "-o", "driver"},
                 folder);
        return run_tool({(folder / "driver").string()}, folder);
    });
}

TEST_CASE("exportWDL's C header compiles with gcc and agrees with wdlfit", "[apps][export]") {
    if (!tool_installed({"gcc", "--version"})) return;
    check_language("c", "wdl_model.h", [](const fs::path& folder, const Grid& grid) {
        write_text_file(
            folder / "driver.c",
            "#include <stdio.h>\n#include \"wdl_model.h\"\nint main(void) {\n" +
                c_loops(grid,
                        "            struct wdl_rates p = wdl_rates(value, mom);\n"
                        "            struct wdl_per_mille r = wdl_per_mille(value, mom);\n"
                        "            double cp = wdl_to_cp(value, mom);\n"
                        "            printf(\"%.17g %.17g %.17g %.17g %.17g %d %d %d %.17g "
                        "%.17g\\n\", value, mom, p.win, p.draw, p.loss, r.win, r.draw, r.loss, "
                        "cp, wdl_from_cp(cp, mom));\n") +
                "    return 0;\n}\n");
        run_tool({"gcc", "-std=c99", "-Wall", "-Wextra", "-Wshadow", "-Wconversion", "-Werror",
                  "-pedantic", "driver.c", "-o", "driver", "-lm"},
                 folder);
        return run_tool({(folder / "driver").string()}, folder);
    });
}

TEST_CASE("exportWDL's Rust file compiles with rustc and agrees with wdlfit", "[apps][export]") {
    if (!tool_installed({"rustc", "--version"})) return;
    check_language("rust", "wdl_model.rs", [](const fs::path& folder, const Grid& grid) {
        // The export alone as a library, with every warning an error; then a driver using it.
        run_tool({"rustc", "--edition", "2021", "--crate-type", "lib", "--crate-name", "wdl_model",
                  "-D", "warnings", "wdl_model.rs", "-o", "libwdl_model.rlib"},
                 folder);
        write_text_file(
            folder / "driver.rs",
            fmt::format(
                "fn main() {{\n"
                "    for v in ({0}..={1}).step_by({2}) {{\n"
                "        for m in ({3}..={4}).step_by({5}) {{\n"
                "            let (value, mom) = (v as f64, m as f64);\n"
                "            let p = wdl_model::wdl(value, mom);\n"
                "            let r = wdl_model::wdl_per_mille(value, mom);\n"
                "            let cp = wdl_model::to_cp(value, mom);\n"
                "            println!(\"{{:?}} {{:?}} {{:?}} {{:?}} {{:?}} {{}} {{}} {{}} {{:?}} "
                "{{:?}}\", value, mom, p.win, p.draw, p.loss, r.win, r.draw, r.loss, cp, "
                "wdl_model::from_cp(cp, mom));\n"
                "        }}\n"
                "    }}\n"
                "}}\n",
                Grid::eval_first, Grid::eval_last, Grid::eval_step, grid.mom_first, grid.mom_last,
                grid.mom_step));
        run_tool({"rustc", "--edition", "2021", "driver.rs", "--extern",
                  "wdl_model=libwdl_model.rlib", "-o", "driver"},
                 folder);
        return run_tool({(folder / "driver").string()}, folder);
    });
}

TEST_CASE("exportWDL's Python module runs with python3 and agrees with wdlfit", "[apps][export]") {
    if (!tool_installed({"python3", "--version"})) return;
    check_language("python", "wdl_model.py", [](const fs::path& folder, const Grid& grid) {
        write_text_file(
            folder / "driver.py",
            fmt::format("import wdl_model as m\n"
                        "for v in range({}, {}, {}):\n"
                        "    for mo in range({}, {}, {}):\n"
                        "        value, mom = float(v), float(mo)\n"
                        "        w, d, l = m.wdl(value, mom)\n"
                        "        r = m.wdl_per_mille(value, mom)\n"
                        "        cp = m.to_cp(value, mom)\n"
                        "        print(repr(value), repr(mom), repr(w), repr(d), repr(l), r.wins, "
                        "r.draws, r.losses, repr(cp), repr(m.from_cp(cp, mom)))\n",
                        Grid::eval_first, Grid::eval_last + 1, Grid::eval_step, grid.mom_first,
                        grid.mom_last + 1, grid.mom_step));
        return run_tool({"python3", "driver.py"}, folder);
    });
}

TEST_CASE("exportWDL's Python module takes python-chess's cp and ply or material",
          "[apps][export]") {
    if (!tool_installed({"python3", "--version"})) return;
    auto dir = fresh_directory("export_python_chess");
    for (const char* name : {"sf18", "sf16.1", "sf15"}) {
        CAPTURE(name);
        run_checked("exportWDL", {"--model", name, "--language", "python", "-o", "wdl_model.py"},
                    dir);
        auto model = wdl::model::load_model(name).model;
        // python-chess's Score.wdl takes the ply; a material model takes the material instead.
        int ply = 61, material = 40;
        double mom = model.mom_type == MomType::Material ? material
                     : model.mom_type == MomType::Move   ? ply / 2 + 1
                                                         : ply;
        write_text_file(
            dir / "driver.py",
            "import wdl_model as m\nfor cp in (-250, 0, 100, 333):\n    print(*m.cp_wdl("
            "cp, ply=61, material=40))\n");
        std::istringstream in(run_tool({"python3", "driver.py"}, dir));
        for (double cp : {-250, 0, 100, 333}) {
            WdlPerMille printed;
            in >> printed.win >> printed.draw >> printed.loss;
            REQUIRE(in);
            double value = model.from_cp(cp, mom);
            CHECK(printed == stockfish_per_mille(model.win(value, mom), model.loss(value, mom)));
        }
        // Without the position's mom it says which it needs.
        write_text_file(dir / "driver.py", "import wdl_model as m\nm.cp_wdl(100)\n");
        auto run = wdl::util::run_process({"python3", "driver.py"}, dir);
        REQUIRE(run);
        CHECK(run->exit_code != 0);
        CHECK_THAT(run->output, Catch::Contains("ValueError: this model depends on the"));
    }
}

TEST_CASE("exportWDL's JavaScript module runs with node and agrees with wdlfit", "[apps][export]") {
    if (!tool_installed({"node", "--version"})) return;
    check_language("javascript", "wdl_model.mjs", [](const fs::path& folder, const Grid& grid) {
        write_text_file(
            folder / "driver.mjs",
            fmt::format(
                "import * as m from './wdl_model.mjs';\n"
                "const lines = [];\n"
                "for (let v = {}; v <= {}; v += {})\n"
                "  for (let mo = {}; mo <= {}; mo += {}) {{\n"
                "    const p = m.wdl(v, mo), r = m.wdlPerMille(v, mo), cp = m.toCp(v, mo);\n"
                "    lines.push([v, mo, p.win, p.draw, p.loss, r.win, r.draw, r.loss, cp, "
                "m.fromCp(cp, mo)].join(' '));\n"
                "  }}\n"
                "console.log(lines.join('\\n'));\n",
                Grid::eval_first, Grid::eval_last, Grid::eval_step, grid.mom_first, grid.mom_last,
                grid.mom_step));
        return run_tool({"node", "driver.mjs"}, folder);
    });
}

namespace {

// The JSON is an instance of the schema: its required members there, each member one the
// schema names, of the type it says (the checks this schema's shape needs).
void check_against_schema(const nlohmann::json& json, const nlohmann::json& schema) {
    for (const auto& name : schema["required"]) CHECK(json.contains(name.get<std::string>()));
    for (const auto& [name, value] : json.items()) {
        INFO(name);
        REQUIRE(schema["properties"].contains(name));
        auto property = schema["properties"][name];
        if (property.contains("$ref"))
            property = schema["$defs"][property["$ref"].get<std::string>().substr(8)];
        if (property.contains("const")) CHECK(value == property["const"]);
        if (property.contains("enum")) {
            const auto& names = property["enum"];
            CHECK(std::find(names.begin(), names.end(), value) != names.end());
        }
        // A type that may also be null: the value is null or of the other type.
        auto types = property.value("type", nlohmann::json());
        if (types.is_array() && value.is_null()) continue;
        std::string type = types.is_array()    ? types[0].get<std::string>()
                           : types.is_string() ? types.get<std::string>()
                                               : std::string();
        if (type == "number") CHECK(value.is_number());
        if (type == "integer") CHECK(value.is_number_integer());
        if (type == "string") CHECK(value.is_string());
        if (type == "array") {
            REQUIRE(value.is_array());
            for (const auto& item : value)
                CHECK(
                    (property["items"]["type"] == "string" ? item.is_string() : item.is_number()));
        }
    }
}

}  // namespace

TEST_CASE("exportWDL's JSON follows its schema and holds the whole model", "[apps][export]") {
    auto dir = fresh_directory("export_json");
    auto schema_path = source_directory() / "docs" / "wdl_model_export.schema.json";
    auto schema = nlohmann::json::parse(read_text_file(schema_path));
    CHECK(schema["$schema"] == "https://json-schema.org/draft/2020-12/schema");
    // python3's jsonschema, where installed, checks every keyword of the schema too.
    auto validator = wdl::util::run_process({"python3", "-c", "import jsonschema"});
    bool full_validation = validator && validator->exit_code == 0;
    auto specs = models_to_export(dir);
    for (std::size_t i = 0; i < specs.size(); ++i) {
        CAPTURE(specs[i]);
        auto file = dir / fmt::format("model{}.json", i);
        run_checked("exportWDL", {"--model", specs[i], "--language", "json", "-o", file.string()},
                    dir);
        auto json = nlohmann::json::parse(read_text_file(file));
        check_against_schema(json, schema);
        if (full_validation) {
            run_tool({"python3", "-c",
                      "import json, sys, jsonschema\n"
                      "jsonschema.validate(json.load(open(sys.argv[1])), "
                      "json.load(open(sys.argv[2])))\n",
                      file.string(), schema_path.string()},
                     dir);
        }
        // Its parameters alone give wdlfit's model back.
        auto expected = wdl::model::load_model(specs[i]).model;
        wdl::model::WdlModel model;
        model.mom_type = *wdl::model::mom_type_from_name(json["momType"].get<std::string>());
        if (json.contains("momMin")) model.mom_min = json["momMin"].get<double>();
        if (json.contains("momMax")) model.mom_max = json["momMax"].get<double>();
        model.mom_target = json["momTarget"];
        model.eval_scale = json["evalScale"];
        if (!json["displayDivisor"].is_null())
            model.display.pawn_divisor = json["displayDivisor"].get<int>();
        if (!json["evalLimit"].is_null())
            model.display.eval_limit = json["evalLimit"].get<double>() / model.eval_scale;
        model.a_form = *wdl::model::curve_form_from_name(json["aForm"].get<std::string>());
        model.b_form = *wdl::model::curve_form_from_name(json["bForm"].get<std::string>());
        model.as = json["as"].get<wdl::model::Coefficients>();
        model.bs = json["bs"].get<wdl::model::Coefficients>();
        auto grid = grid_of(expected.mom_type);
        CHECK(model.mom_type == expected.mom_type);
        for (int v = Grid::eval_first; v <= Grid::eval_last; v += Grid::eval_step) {
            for (int m = grid.mom_first; m <= grid.mom_last; m += grid.mom_step) {
                CAPTURE(v, m);
                REQUIRE(model.win(v, m) == expected.win(v, m));
                REQUIRE(model.loss(v, m) == expected.loss(v, m));
                REQUIRE(model.to_cp(v, m) == expected.to_cp(v, m));
            }
        }
    }
}

TEST_CASE("exportWDL prints to stdout by default and fails in one line", "[apps][export]") {
    auto dir = fresh_directory("export_errors");
    auto printed = run_checked("exportWDL", {"--model", "sf16.1", "--language", "c"}, dir);
    CHECK_THAT(printed.output, Catch::StartsWith("// Stockfish's WDL model sf16.1"));
    CHECK_THAT(printed.output, Catch::Contains("#define WDL_MOM_MIN 8.0"));
    CHECK(fs::is_empty(dir));
    for (const auto& arguments : std::vector<std::vector<std::string>>{
             {"--model", "sf99"},
             {"--language", "fortran"},
             {"--model", "sf18", "-o", (dir / "missing" / "wdl_model.hpp").string()}}) {
        auto run = run_program("exportWDL", arguments, dir);
        INFO(run.output);
        CHECK(run.exit_code == 1);
        CHECK_THAT(run.output, Catch::StartsWith("Error: "));
        CHECK(lines_of(run.output).size() == 1);
    }
    // A missing model file, and an output folder that is missing: each named as such.
    auto missing = run_program("exportWDL", {"--model", "fit.json"}, dir);
    CHECK(missing.exit_code == 1);
    CHECK_THAT(missing.output,
               Catch::StartsWith("Error: unknown model \"fit.json\": the file fit.json does not "
                                 "exist"));
    auto target = dir / "missing" / "wdl_model.hpp";
    auto unwritable = run_program("exportWDL", {"--model", "sf18", "-o", target.string()}, dir);
    CHECK(unwritable.output == "Error: cannot write " + target.string() + ": the folder " +
                                   target.parent_path().string() + " does not exist\n");
}
