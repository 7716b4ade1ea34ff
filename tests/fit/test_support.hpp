#pragma once

#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "wdl/fit/wdl_data.hpp"
#include "wdl/model/count_file.hpp"
#include "wdl/model/count_grid.hpp"

// Helpers shared by the fitter tests: running the program, reading the reference outputs.
namespace wdl::fit::test {

inline const std::string kReferenceDir = WDL_SHARED_DIR "/reference/fit/";
inline const std::string kProgram = WDL_BINARY_DIR "/apps/scoreWDL";

struct ProgramRun {
    int status = -1;
    std::string output;  // stdout and stderr
};

inline ProgramRun run_program(const std::string& arguments) {
    ProgramRun run;
    std::string command = kProgram + " " + arguments + " 2>&1";
    FILE* pipe = popen(command.c_str(), "r");
    if (!pipe) throw std::runtime_error("cannot run " + command);
    std::array<char, 4096> buffer;
    while (std::size_t n = std::fread(buffer.data(), 1, buffer.size(), pipe)) {
        run.output.append(buffer.data(), n);
    }
    int status = pclose(pipe);
    run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return run;
}

inline std::string read_text(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

inline std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

// The line starting with prefix, or "" if none.
inline std::string line_starting(const std::string& text, const std::string& prefix) {
    for (const auto& line : lines_of(text)) {
        if (line.rfind(prefix, 0) == 0) return line;
    }
    return "";
}

// The 4 numbers of "    constexpr double as[] = {c3, c2, c1, c0};" (name "as" or "bs").
inline model::Poly3 printed_coefficients(const std::string& text, const std::string& name) {
    std::string line = line_starting(text, "    constexpr double " + name + "[] = {");
    if (line.empty()) throw std::runtime_error("no " + name + " line");
    model::Poly3 c{};
    std::sscanf(line.c_str() + line.find('{') + 1, "%lf, %lf, %lf, %lf", &c[0], &c[1], &c[2],
                &c[3]);
    return c;
}

inline double number_after(const std::string& text, const std::string& prefix) {
    std::string line = line_starting(text, prefix);
    if (line.empty()) throw std::runtime_error("no line " + prefix);
    return std::stod(line.substr(prefix.size()));
}

// The retained data of a reference input with the original's default filters.
inline std::vector<MomData> load_moms(const std::string& file, const model::GridFilter& filter,
                                      const model::Normalization& normalization) {
    model::CountGrid grid(filter, normalization);
    model::read_count_file(kReferenceDir + file, [&](const model::PositionKey& key,
                                                     std::int64_t count) { grid.add(key, count); });
    return collect_mom_data(grid);
}

}  // namespace wdl::fit::test
