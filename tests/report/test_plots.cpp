#include <unistd.h>
#include <zlib.h>

#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "program_runner.hpp"
#include "wdl/report/calibration_plot.hpp"
#include "wdl/report/distribution_plot.hpp"
#include "wdl/report/reliability_plot.hpp"
#include "wdl/report/show_plot.hpp"
#include "wdl/report/summary_plot.hpp"

namespace fs = std::filesystem;
using namespace wdl::report;

namespace {

// Stockfish-like fitted coefficients (c3..c0) at material 58.
const wdl::model::Coefficients true_a{-379.008, 1382.335, -1636.926, 988.694};
const wdl::model::Coefficients true_b{-871.995, 2535.965, -1875.985, 654.140};

// The cubic in mom / 58, written out here as an independent check of the plotted curves.
double evaluate(const wdl::model::Coefficients& c, double mom) {
    const double t = mom / 58;
    return ((c[0] * t + c[1]) * t + c[2]) * t + c[3];
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
    FittedModel model;
    model.model.as = true_a;
    model.model.bs = true_b;
    wdl::model::DynamicNormalization input;
    input.as = {-72.3, 185.9, -144.6, 416.4};
    model.input_normalization = input;
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

// The pixels of a non-interlaced 8-bit RGB or RGBA PNG (what pngcairo writes), as RGB.
struct DecodedImage {
    std::uint32_t width = 0, height = 0;
    std::vector<std::array<std::uint8_t, 3>> pixels;  // row by row

    const std::array<std::uint8_t, 3>& at(std::uint32_t x, std::uint32_t y) const {
        return pixels[std::size_t(y) * width + x];
    }
};

int paeth(int left, int up, int up_left) {
    const int p = left + up - up_left;
    const int pa = std::abs(p - left), pb = std::abs(p - up), pc = std::abs(p - up_left);
    return pa <= pb && pa <= pc ? left : pb <= pc ? up : up_left;
}

DecodedImage decode_png(const std::string& png) {
    const PngSize size = png_size(png);
    const int color_type = static_cast<unsigned char>(png[25]);
    REQUIRE(static_cast<unsigned char>(png[24]) == 8);
    REQUIRE((color_type == 2 || color_type == 6));
    REQUIRE(static_cast<unsigned char>(png[28]) == 0);  // not interlaced
    const std::size_t channels = color_type == 6 ? 4 : 3, stride = size.width * channels;
    std::string compressed;
    for (std::size_t at = 8; at + 8 <= png.size();) {
        const std::size_t length = big_endian(png, at);
        if (png.compare(at + 4, 4, "IDAT") == 0) compressed += png.substr(at + 8, length);
        at += length + 12;
    }
    std::vector<std::uint8_t> raw((stride + 1) * size.height);
    uLongf raw_size = raw.size();
    REQUIRE(uncompress(raw.data(), &raw_size, reinterpret_cast<const Bytef*>(compressed.data()),
                       compressed.size()) == Z_OK);
    REQUIRE(raw_size == raw.size());
    // Undo each row's filter: its bytes are differences to the left, upper or predicted byte.
    std::vector<std::uint8_t> previous(stride, 0), row(stride);
    DecodedImage image{size.width, size.height, {}};
    image.pixels.reserve(std::size_t(size.width) * size.height);
    for (std::uint32_t y = 0; y < size.height; ++y) {
        const std::uint8_t filter = raw[y * (stride + 1)];
        const std::uint8_t* bytes = &raw[y * (stride + 1) + 1];
        for (std::size_t i = 0; i < stride; ++i) {
            const int left = i >= channels ? row[i - channels] : 0, up = previous[i];
            const int up_left = i >= channels ? previous[i - channels] : 0;
            const int predicted = filter == 1   ? left
                                  : filter == 2 ? up
                                  : filter == 3 ? (left + up) / 2
                                  : filter == 4 ? paeth(left, up, up_left)
                                                : 0;
            row[i] = static_cast<std::uint8_t>(bytes[i] + predicted);
        }
        for (std::size_t x = 0; x < size.width; ++x)
            image.pixels.push_back(
                {row[x * channels], row[x * channels + 1], row[x * channels + 2]});
        previous.swap(row);
    }
    return image;
}

// A fresh directory per test, removed afterwards.
struct TestDirectory {
    fs::path path;
    explicit TestDirectory(const std::string& name)
        : path(wdl::testing::scratch_directory() /
               ("wdl_report_test." + std::to_string(::getpid()) + "." + name)) {
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~TestDirectory() { fs::remove_all(path); }
};

bool scratch_directories_left() {
    // The report module's own scratch folders, in the system's temporary directory.
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

// The bottom-left panel spans x 0.045..0.305 and y 0.08..0.435 of the 2400 x 1700 canvas;
// right of its frame there is white space up to the middle column's axis labels. Its legend,
// with the long p_a and p_b polynomials, must stay inside the frame.
TEST_CASE("the parameter panel's legend stays inside its frame", "[report]") {
    TestDirectory dir("legend");
    for (double scale : {1.0, 10.0, 1000.0}) {  // a digit or three more in each coefficient
        SummaryPlot plot = summary(true);
        for (double& c : plot.model->model.as) c *= scale;
        for (double& c : plot.model->model.bs) c *= scale;
        const fs::path png = dir.path / "summary.png";
        write_summary_plot(plot, png);
        const DecodedImage image = decode_png(read_bytes(png));
        const std::uint32_t frame_right = 732, labels_left = 780;
        const std::uint32_t panel_top = 1700 - 740, panel_bottom = 1700 - 136;
        auto ink = [&](std::uint32_t from_x, std::uint32_t to_x) {
            std::size_t pixels = 0;
            for (std::uint32_t y = panel_top; y <= panel_bottom; ++y) {
                for (std::uint32_t x = from_x; x < to_x; ++x) {
                    const auto& rgb = image.at(x, y);
                    pixels += rgb[0] < 250 || rgb[1] < 250 || rgb[2] < 250;
                }
            }
            return pixels;
        };
        CAPTURE(scale);
        CHECK(ink(frame_right - 2, frame_right + 2) > panel_bottom - panel_top);  // the frame
        CHECK(ink(frame_right + 3, labels_left) == 0);
    }
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

TEST_CASE("the reliability plot is a PNG of a panel per predictor", "[report]") {
    TestDirectory dir("reliability");
    const fs::path png = dir.path / "reliability.png";
    ReliabilityPlot plot;
    plot.title = "rapid: held-out reliability";
    for (const char* predictor : {"fitted", "lichess"}) {
        ReliabilityPanel panel{predictor, {}};
        for (const char* band : {"<1200", "1200-1500", "2100+"}) {
            ReliabilitySeries series{band, {}};
            for (int bin = 0; bin < 10; ++bin) {
                const double predicted = 0.05 + 0.1 * bin;
                series.points.push_back(
                    {predicted, predicted + 0.01, predicted - 0.02, predicted + 0.04});
            }
            panel.series.push_back(series);
        }
        plot.panels.push_back(panel);
    }
    plot.panels.push_back({"empty", {{"<1200", {}}}});  // a band without bins draws nothing
    write_reliability_plot(plot, png);
    const PngSize size = png_size(read_bytes(png));
    CHECK(size.width == 80 + 560 * 3);
    CHECK(size.height == 620);
    CHECK_THROWS_AS(write_reliability_plot(ReliabilityPlot{}, png), std::invalid_argument);
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
