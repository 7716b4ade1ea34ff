#include <unistd.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "wdl/report/plots.hpp"

namespace fs = std::filesystem;
using namespace wdl::report;

namespace {

// Stockfish-like fitted coefficients (c3..c0) at material 58.
const Cubic true_a{{-379.008, 1382.335, -1636.926, 988.694}, 58};
const Cubic true_b{{-871.995, 2535.965, -1875.985, 654.140}, 58};

double evaluate(const Cubic& p, double mom) {
    const double t = mom / p.mom_target;
    return ((p.coeffs[0] * t + p.coeffs[1]) * t + p.coeffs[2]) * t + p.coeffs[3];
}

double win_rate(double eval, double a, double b) { return 1 / (1 + std::exp(-(eval - a) / b)); }

// Expected counts of 1000 positions at every (material, eval) of the grid.
std::vector<CountCell> model_counts() {
    std::vector<CountCell> cells;
    for (int mom = 17; mom <= 78; ++mom) {
        const double a = evaluate(true_a, mom), b = evaluate(true_b, mom);
        for (int eval = -1400; eval <= 1400; eval += 7) {
            const double win = win_rate(eval, a, b), loss = win_rate(-eval, a, b);
            cells.push_back({mom, eval, 1000 * win, 1000 * (1 - win - loss), 1000 * loss});
        }
    }
    return cells;
}

FittedModel fitted_model() {
    FittedModel model{true_a, true_b, {}, {}, {}, Cubic{{-72.3, 185.9, -144.6, 416.4}, 58}};
    for (int mom = 17; mom <= 78; ++mom) {
        // Scatter the local fits around the polynomials as real local fits are.
        const double scatter = 1 + 0.1 * std::sin(mom * 1.7);
        model.local_moms.push_back(mom);
        model.local_as.push_back(evaluate(true_a, mom) * scatter);
        model.local_bs.push_back(evaluate(true_b, mom) / scatter);
    }
    return model;
}

SummaryPlot summary(bool with_model) {
    SummaryPlot plot;
    plot.mom_name = "material";
    plot.pawn_value = 355;
    plot.mom_plot_min = 17;
    plot.mom_plot_max = 78;
    plot.mom_plot_target = 58;
    plot.cells = model_counts();
    if (with_model) plot.model = fitted_model();
    return plot;
}

Distribution distribution() {
    Distribution result{"material", {}, {}, {}, {}};
    for (int mom = 17; mom <= 78; ++mom) {
        result.moms.push_back(mom);
        result.wins.push_back(200 + 5 * mom);
        result.draws.push_back(500 - 3 * mom);
        result.losses.push_back(300 + (mom % 7) * 40);
    }
    return result;
}

std::string read_bytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct PngSize {
    std::uint32_t width, height;
};

std::uint32_t big_endian(const std::string& bytes, std::size_t offset) {
    std::uint32_t value = 0;
    for (std::size_t i = 0; i < 4; ++i)
        value = value << 8 | static_cast<unsigned char>(bytes[offset + i]);
    return value;
}

// Checks the signature and the IHDR chunk (always first) and returns the image size.
PngSize png_size(const std::string& png) {
    REQUIRE(png.size() > 24);
    REQUIRE(png.substr(0, 8) == std::string("\x89PNG\r\n\x1a\n", 8));
    REQUIRE(png.substr(12, 4) == "IHDR");
    return {big_endian(png, 16), big_endian(png, 20)};
}

// A fresh directory per test, removed afterwards.
struct TestDirectory {
    fs::path path;
    explicit TestDirectory(const std::string& name)
        : path(fs::temp_directory_path() /
               ("wdl_report_test." + std::to_string(::getpid()) + "." + name)) {
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~TestDirectory() { fs::remove_all(path); }
};

bool scratch_directories_left() {
    const std::string prefix = "wdl_report." + std::to_string(::getpid()) + ".";
    for (const auto& entry : fs::directory_iterator(fs::temp_directory_path()))
        if (entry.path().filename().string().starts_with(prefix)) return true;
    return false;
}

// A rendered chart with axes, text and filled maps compresses to well over this; a blank
// canvas of the same size to a few kilobytes.
constexpr std::size_t min_summary_bytes = 100'000;

}  // namespace

TEST_CASE("the summary plot of a model is a full-size PNG", "[report]") {
    TestDirectory dir("summary");
    const fs::path png = dir.path / "summary.png";
    write_summary_plot(summary(true), png);
    const std::string bytes = read_bytes(png);
    const PngSize size = png_size(bytes);
    CHECK(size.width == 2400);
    CHECK(size.height == 1700);
    CHECK(bytes.size() > min_summary_bytes);
    CHECK_FALSE(scratch_directories_left());
    // Nothing but the PNG remains in the target directory (no temporary file).
    CHECK(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator()) == 1);
}

TEST_CASE("the summary plot without a model shows the data", "[report]") {
    TestDirectory dir("data_only");
    const fs::path png = dir.path / "data.png";
    write_summary_plot(summary(false), png);
    const std::string bytes = read_bytes(png);
    CHECK(png_size(bytes).width == 2400);
    CHECK(bytes.size() > min_summary_bytes / 2);
}

TEST_CASE("the summary plot copes with data outside the plot and without data", "[report]") {
    TestDirectory dir("sparse");
    SummaryPlot plot = summary(true);
    plot.mom_name = "move";
    plot.mom_plot_min = 100;
    plot.mom_plot_max = 100;  // a single mom, and no data there
    plot.mom_plot_target = 100;
    plot.model->local_moms.clear();
    plot.model->local_as.clear();
    plot.model->local_bs.clear();
    write_summary_plot(plot, dir.path / "sparse.png");
    CHECK(png_size(read_bytes(dir.path / "sparse.png")).height == 1700);

    plot.cells.clear();
    plot.model.reset();
    write_summary_plot(plot, dir.path / "empty.png");
    CHECK(png_size(read_bytes(dir.path / "empty.png")).height == 1700);
}

TEST_CASE("the distribution plot is a PNG of stacked bars", "[report]") {
    TestDirectory dir("distribution");
    const fs::path png = dir.path / "distro.png";
    write_distribution_plot(distribution(), png);
    const std::string bytes = read_bytes(png);
    const PngSize size = png_size(bytes);
    CHECK(size.width == 1200);
    CHECK(size.height == 900);
    CHECK(bytes.size() > 20'000);

    Distribution mismatched = distribution();
    mismatched.losses.pop_back();
    CHECK_THROWS_AS(write_distribution_plot(mismatched, png), std::invalid_argument);
}

TEST_CASE("plot file names may contain spaces and quotes", "[report]") {
    TestDirectory dir("names");
    const fs::path folder = dir.path / "my \"plots\" folder";
    fs::create_directories(folder);
    write_summary_plot(summary(true), folder / "summary plot's.png");
    write_distribution_plot(distribution(), folder / "distro $HOME.png");
    CHECK(png_size(read_bytes(folder / "summary plot's.png")).width == 2400);
    CHECK(png_size(read_bytes(folder / "distro $HOME.png")).width == 1200);
}

TEST_CASE("a missing target directory is reported clearly", "[report]") {
    TestDirectory dir("missing");
    const fs::path png = dir.path / "no such dir" / "summary.png";
    CHECK_THROWS_WITH(write_summary_plot(summary(false), png),
                      Catch::Contains("does not exist") && Catch::Contains("no such dir"));
    CHECK_THROWS_WITH(write_distribution_plot(distribution(), png),
                      Catch::Contains("does not exist"));
    CHECK_FALSE(scratch_directories_left());
}

TEST_CASE("a missing gnuplot is reported clearly", "[report]") {
    TestDirectory dir("no_gnuplot");
    const std::string path = std::getenv("PATH") ? std::getenv("PATH") : "";
    ::setenv("PATH", dir.path.c_str(), 1);
    CHECK_THROWS_WITH(write_distribution_plot(distribution(), dir.path / "distro.png"),
                      Catch::Contains("gnuplot was not found"));
    ::setenv("PATH", path.c_str(), 1);
    CHECK_FALSE(fs::exists(dir.path / "distro.png"));
    CHECK_FALSE(scratch_directories_left());
}

TEST_CASE("showing a plot without a display reports failure", "[report]") {
    const char* display = std::getenv("DISPLAY");
    const char* wayland = std::getenv("WAYLAND_DISPLAY");
    const std::string saved_display = display ? display : "",
                      saved_wayland = wayland ? wayland : "";
    ::unsetenv("DISPLAY");
    ::unsetenv("WAYLAND_DISPLAY");
    CHECK_FALSE(show_plot("whatever.png"));
    if (display) ::setenv("DISPLAY", saved_display.c_str(), 1);
    if (wayland) ::setenv("WAYLAND_DISPLAY", saved_wayland.c_str(), 1);
}
