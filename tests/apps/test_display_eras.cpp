// Displayed evals as each era of Stockfish displayed them: queryWDL and every export language
// take a printed cp back to the W/D/L the engine printed beside it, against Stockfish's own
// arithmetic at each release (a grid) and against Debian's stockfish itself.
#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <sstream>

#include "display_consumers.hpp"
#include "program_runner.hpp"
#include "skip.hpp"
#include "stockfish_arithmetic.hpp"
#include "wdl/model/model_lookup.hpp"
#include "wdl/model/published_models.hpp"
#include "wdl/util/process.hpp"

namespace fs = std::filesystem;
using namespace wdl::testing;

namespace {

// A W/D/L the engine printed beside a cp, at a position.
struct Printed {
    CpQuery position;  // its cp, ply and material
    int win = 0, loss = 0;
};

// How far (per mille) the printed win and loss lie outside the consumer's W and L at the two
// ends of the displayed evals that the engine prints as that cp (0: inside).
struct Agreement {
    int agreeing = 0, total = 0;
    int worst = 0;
};

Agreement check_consumer(const std::string& consumer, const std::string& spec, int divisor,
                         const std::vector<Printed>& printed, const fs::path& dir) {
    std::vector<CpQuery> queries;
    for (const auto& p : printed) {
        auto bracket = cp_bracket(divisor, int(p.position.cp));
        for (double cp : bracket) queries.push_back({cp, p.position.ply, p.position.material});
    }
    auto answers = consumer_per_mille(consumer, spec, queries, dir);
    Agreement agreement;
    for (std::size_t i = 0; i < printed.size(); ++i) {
        const auto& low = answers[2 * i];
        const auto& high = answers[2 * i + 1];
        int outside = 0;
        for (auto [value, a, b] : {std::tuple{printed[i].win, low.win, high.win},
                                   std::tuple{printed[i].loss, low.loss, high.loss}}) {
            outside = std::max({outside, std::min(a, b) - 1 - value, value - std::max(a, b) - 1});
        }
        ++agreement.total;
        if (outside <= 0) ++agreement.agreeing;
        agreement.worst = std::max(agreement.worst, outside);
    }
    return agreement;
}

// The reference grid of a release: internal evals through and beyond its clamp, White's plies
// (queryWDL reads a ply model's moves as White's), materials 0 to 80.
std::vector<Printed> reference_grid(const StockfishRelease& release) {
    std::vector<Printed> grid;
    for (int ply = 0; ply <= 280; ply += 28) {
        int material = (ply * 7) % 81;
        for (int v = -5000; v <= 5000; v += 97) {
            int cp = stockfish_cp(release, v, ply, material);
            grid.push_back({{double(cp), ply, material},
                            stockfish_win_rate(release, v, ply, material),
                            stockfish_win_rate(release, -v, ply, material)});
        }
    }
    return grid;
}

}  // namespace

TEST_CASE("queryWDL and every export take each era's displayed evals as its Stockfish did",
          "[apps][display]") {
    auto dir = fresh_directory("display_eras");
    for (const auto& consumer : installed_consumers()) {
        for (const auto& release : stockfish_releases()) {
            CAPTURE(consumer, release.name);
            auto agreement = check_consumer(consumer, release.name, release.divisor,
                                            reference_grid(release), dir / consumer / release.name);
            CHECK(agreement.worst == 0);
            CHECK(agreement.agreeing == agreement.total);
        }
    }
}

namespace {

std::optional<std::string> stockfish_binary() {
    if (fs::exists("/usr/games/stockfish")) return "/usr/games/stockfish";
    auto run = wdl::util::run_process({"sh", "-c", "command -v stockfish"});
    if (run && run->exit_code == 0 && !run->output.empty())
        return run->output.substr(0, run->output.find('\n'));
    return std::nullopt;
}

// Positions of varied material, each at full moves 1 to 130, White to move (a ply model's
// queryWDL moves are White's).
std::vector<std::pair<std::string, int>> engine_positions() {
    const std::vector<std::pair<std::string, int>> boards = {
        {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -", 78},
        {"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq -", 78},
        {"r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - -", 70},
        {"r4rk1/pp3ppp/2n1pn2/8/3P4/2N2N2/PP3PPP/R4RK1 w - -", 48},
        {"6k1/pp3ppp/4p3/8/3P4/8/PP3PPP/6K1 w - -", 13},
        {"4r1k1/5ppp/8/3R4/8/8/5PPP/6K1 w - -", 16},
        {"8/5pk1/6p1/8/8/1R6/5PPK/8 w - -", 10},
        {"2kr3r/ppp2ppp/8/8/8/8/PPP2PPP/2KR3R w - -", 32},
    };
    std::vector<std::pair<std::string, int>> positions;
    for (const auto& [board, material] : boards)
        for (int move : {1, 12, 40, 75, 130})
            positions.emplace_back(fmt::format("{} 0 {}", board, move), material);
    return positions;
}

}  // namespace

TEST_CASE("queryWDL and every export reproduce the W/D/L Debian's stockfish prints",
          "[apps][display]") {
    auto binary = stockfish_binary();
    if (!binary) {
        skip_test("stockfish is not installed (scripts/install-deps.sh --tests installs it)");
        return;
    }
    auto dir = fresh_directory("display_engine");
    auto positions = engine_positions();
    std::string commands = "uci\nsetoption name UCI_ShowWDL value true\n";
    for (const auto& [fen, material] : positions)
        commands += fmt::format("position fen {}\ngo depth 7\n", fen);
    // End of input quits: the last search is cut short, so it is one nobody reads.
    commands += "position startpos\ngo depth 1\n";
    write_text_file(dir / "commands.txt", commands);
    auto run = wdl::util::run_process({"sh", "-c", *binary + " < commands.txt"}, dir);
    REQUIRE(run);
    REQUIRE(run->exit_code == 0);
    auto name = run->output.find("id name Stockfish ");
    REQUIRE(name != std::string::npos);
    std::string version = run->output.substr(name + 18, run->output.find('\n', name) - name - 18);
    std::string spec = "sf" + version;
    if (!wdl::model::find_published_model(spec)) {
        skip_test("the registry has no model of " + spec);
        return;
    }
    // The last "score cp C ... wdl W D L" before each bestmove.
    std::vector<Printed> printed;
    std::istringstream lines(run->output);
    std::optional<Printed> last;
    std::size_t index = 0;
    for (std::string line; std::getline(lines, line) && index < positions.size();) {
        auto score = line.find(" score cp "), wdl = line.find(" wdl ");
        if (score != std::string::npos && wdl != std::string::npos) {
            const auto& [fen, material] = positions[index];
            int ply = 2 * (std::stoi(fen.substr(fen.rfind(' ') + 1)) - 1);
            std::istringstream cp(line.substr(score + 10)), rates(line.substr(wdl + 5));
            Printed p{{0, ply, material}};
            int draw = 0;
            cp >> p.position.cp;
            rates >> p.win >> draw >> p.loss;
            REQUIRE((cp && rates));
            last = p;
        } else if (line.starts_with("bestmove")) {
            if (last) printed.push_back(*last);
            last.reset();
            ++index;
        }
    }
    REQUIRE(printed.size() >= positions.size() - 2);
    const auto* model = wdl::model::find_published_model(spec);
    int divisor = model->model.display.pawn_divisor.value_or(0);
    for (const auto& consumer : installed_consumers()) {
        CAPTURE(spec, consumer);
        auto agreement = check_consumer(consumer, spec, divisor, printed, dir / consumer);
        CHECK(agreement.agreeing == agreement.total);
    }
}
