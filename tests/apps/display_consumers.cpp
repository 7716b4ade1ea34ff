#include "display_consumers.hpp"

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "program_runner.hpp"
#include "wdl/model/model_lookup.hpp"
#include "wdl/util/process.hpp"

namespace fs = std::filesystem;

namespace wdl::testing {
namespace {

using model::MomType;

double mom_of(MomType type, const CpQuery& query) {
    switch (type) {
        case MomType::Material:
            return query.material;
        case MomType::Move:
            return query.ply / 2 + 1;
        case MomType::Ply:
            return query.ply;
    }
    return 0;
}

std::string run_checked(const std::vector<std::string>& command, const fs::path& dir) {
    auto run = util::run_process(command, dir);
    std::string line;
    for (const auto& word : command) line += word + " ";
    INFO(line << "\n" << (run ? run->output.substr(0, 2000) : "not found"));
    REQUIRE(run);
    REQUIRE(run->exit_code == 0);
    return run->output;
}

bool runs(const std::vector<std::string>& command) {
    auto run = util::run_process(command);
    return run && run->exit_code == 0;
}

std::vector<PerMille> read_per_mille(const std::string& output, std::size_t count) {
    std::istringstream in(output);
    std::vector<PerMille> rows(count);
    for (auto& row : rows) in >> row.win >> row.draw >> row.loss;
    REQUIRE(in);
    return rows;
}

int per_mille(double p) { return int(0.5 + 1000 * p); }

// queryWDL --evals at each mom (a ply model's moves are White's: ply 2 (move - 1)).
std::vector<PerMille> query_wdl(const std::string& spec, const std::vector<CpQuery>& queries,
                                const fs::path& dir) {
    auto type = model::load_model(spec).model.mom_type;
    std::map<int, std::vector<std::size_t>> by_mom;
    for (std::size_t i = 0; i < queries.size(); ++i) {
        if (type == MomType::Ply) REQUIRE(queries[i].ply % 2 == 0);
        by_mom[type == MomType::Material ? queries[i].material : queries[i].ply / 2 + 1].push_back(
            i);
    }
    std::vector<PerMille> rows(queries.size());
    for (const auto& [mom, indices] : by_mom) {
        std::string evals;
        for (auto i : indices)
            evals += fmt::format("{}{}", evals.empty() ? "" : ",", queries[i].cp);
        auto run = run_program("queryWDL",
                               {"--model", spec, "--evals", evals,
                                type == MomType::Material ? "--materials" : "--moves",
                                std::to_string(mom), "--json", "-"},
                               dir);
        INFO(run.output.substr(0, 2000));
        REQUIRE(run.exit_code == 0);
        auto json = nlohmann::json::parse(run.output);
        REQUIRE(json["wdl"].size() == indices.size());
        for (std::size_t k = 0; k < indices.size(); ++k) {
            const auto& row = json["wdl"][k];
            int w = per_mille(row["win"]), l = per_mille(row["loss"]);
            rows[indices[k]] = {w, 1000 - w - l, l};
        }
    }
    return rows;
}

// queries.txt: "cp ply material mom" per line; each driver prints "W D L" per line.
std::vector<PerMille> exported(const std::string& language, const std::string& spec,
                               const std::vector<CpQuery>& queries, const fs::path& dir) {
    auto type = model::load_model(spec).model.mom_type;
    std::string lines;
    for (const auto& q : queries)
        lines += fmt::format("{} {} {} {}\n", q.cp, q.ply, q.material, mom_of(type, q));
    write_text_file(dir / "queries.txt", lines);
    const std::map<std::string, std::string> file_of = {{"cpp", "wdl_model.hpp"},
                                                        {"c", "wdl_model.h"},
                                                        {"rust", "wdl_model.rs"},
                                                        {"python", "wdl_model.py"},
                                                        {"javascript", "wdl_model.mjs"}};
    auto run = run_program(
        "exportWDL",
        {"--model", spec, "--language", language, "-o", (dir / file_of.at(language)).string()},
        dir);
    INFO(run.output);
    REQUIRE(run.exit_code == 0);
    std::string output;
    if (language == "cpp") {
        write_text_file(dir / "driver.cpp",
                        "#include <cstdio>\n#include \"wdl_model.hpp\"\nint main() {\n"
                        "    double cp, mom;\n    int ply, material;\n"
                        "    FILE* in = std::fopen(\"queries.txt\", \"r\");\n"
                        "    while (std::fscanf(in, \"%lf %d %d %lf\", &cp, &ply, &material, "
                        "&mom) == 4) {\n"
                        "        auto r = wdl_model::wdl_per_mille(wdl_model::from_cp(cp, mom), "
                        "mom);\n"
                        "        std::printf(\"%d %d %d\\n\", r.win, r.draw, r.loss);\n    }\n}\n");
        run_checked({"g++", "-std=c++17", "-O1", "driver.cpp", "-o", "driver"}, dir);
        output = run_checked({(dir / "driver").string()}, dir);
    } else if (language == "c") {
        write_text_file(dir / "driver.c",
                        "#include <stdio.h>\n#include \"wdl_model.h\"\nint main(void) {\n"
                        "    double cp, mom;\n    int ply, material;\n"
                        "    FILE* in = fopen(\"queries.txt\", \"r\");\n"
                        "    while (fscanf(in, \"%lf %d %d %lf\", &cp, &ply, &material, &mom) == "
                        "4) {\n"
                        "        struct wdl_per_mille r = wdl_per_mille(wdl_from_cp(cp, mom), "
                        "mom);\n"
                        "        printf(\"%d %d %d\\n\", r.win, r.draw, r.loss);\n    }\n"
                        "    return 0;\n}\n");
        run_checked({"gcc", "-std=c99", "-O1", "driver.c", "-o", "driver", "-lm"}, dir);
        output = run_checked({(dir / "driver").string()}, dir);
    } else if (language == "rust") {
        write_text_file(dir / "driver.rs",
                        "#[path = \"wdl_model.rs\"]\n#[allow(dead_code)]\nmod wdl_model;\n"
                        "fn main() {\n"
                        "    let text = std::fs::read_to_string(\"queries.txt\").unwrap();\n"
                        "    for line in text.lines() {\n"
                        "        let f: Vec<f64> = line.split(' ').map(|x| "
                        "x.parse().unwrap()).collect();\n"
                        "        let r = wdl_model::wdl_per_mille(wdl_model::from_cp(f[0], f[3]), "
                        "f[3]);\n"
                        "        println!(\"{} {} {}\", r.win, r.draw, r.loss);\n    }\n}\n");
        run_checked({"rustc", "--edition", "2021", "-O", "driver.rs", "-o", "driver"}, dir);
        output = run_checked({(dir / "driver").string()}, dir);
    } else if (language == "python") {
        // cp_wdl with the position's ply and material, as python-chess's Cp(cp).wdl(ply=...).
        write_text_file(dir / "driver.py",
                        "import wdl_model as m\n"
                        "for line in open('queries.txt'):\n"
                        "    cp, ply, material, mom = line.split()\n"
                        "    print(*m.cp_wdl(float(cp), ply=int(ply), material=int(material)))\n");
        output = run_checked({"python3", "driver.py"}, dir);
    } else {
        write_text_file(
            dir / "driver.mjs",
            "import * as m from './wdl_model.mjs';\n"
            "import { readFileSync } from 'fs';\n"
            "const out = [];\n"
            "for (const line of readFileSync('queries.txt', 'utf8').trim().split('\\n')) "
            "{\n"
            "  const [cp, , , mom] = line.split(' ').map(Number);\n"
            "  const r = m.wdlPerMille(m.fromCp(cp, mom), mom);\n"
            "  out.push(`${r.win} ${r.draw} ${r.loss}`);\n}\n"
            "console.log(out.join('\\n'));\n");
        output = run_checked({"node", "driver.mjs"}, dir);
    }
    return read_per_mille(output, queries.size());
}

}  // namespace

std::vector<std::string> installed_consumers() {
    std::vector<std::string> consumers = {"queryWDL"};
    if (runs({"g++", "--version"})) consumers.push_back("cpp");
    if (runs({"gcc", "--version"})) consumers.push_back("c");
    if (runs({"rustc", "--version"})) consumers.push_back("rust");
    if (runs({"python3", "--version"})) consumers.push_back("python");
    if (runs({"node", "--version"})) consumers.push_back("javascript");
    return consumers;
}

std::vector<PerMille> consumer_per_mille(const std::string& consumer, const std::string& spec,
                                         const std::vector<CpQuery>& queries, const fs::path& dir) {
    fs::create_directories(dir);
    if (consumer == "queryWDL") return query_wdl(spec, queries, dir);
    return exported(consumer, spec, queries, dir);
}

}  // namespace wdl::testing
