#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "wdl/fit/count_grid.hpp"
#include "wdl/fit/fitter.hpp"
#include "wdl/fit/model_selection.hpp"
#include "wdl/util/enum_names.hpp"

// scoreWDL: fits the WDL model to count files (docs/programs.md).
namespace wdl::commands {

enum class PlotMode { SaveAndShow, Save, None };
inline constexpr std::array<util::EnumName<PlotMode>, 3> kPlotModeNames = {{
    {PlotMode::SaveAndShow, "save+show"},
    {PlotMode::Save, "save"},
    {PlotMode::None, "no"},
}};

// --resample: Auto resamples grouped input by jackknife and leaves plain input alone. Auto has
// no name: it is what --resample is when not given.
enum class ResampleChoice { Auto, None, Jackknife, Bootstrap };
inline constexpr std::array<util::EnumName<ResampleChoice>, 3> kResampleChoiceNames = {{
    {ResampleChoice::Jackknife, "jackknife"},
    {ResampleChoice::Bootstrap, "bootstrap"},
    {ResampleChoice::None, "none"},
}};

// --momPlotMin, --momPlotMax, --momPlotTarget: unset means the grid's range and the fit's target.
struct PlotRange {
    std::optional<int> mom_min, mom_max, mom_target;
};

struct ScoreWdlOptions {
    std::vector<std::filesystem::path> files{"scoreWDLstat.json"};
    std::optional<int> normalize_to_pawn_value;  // static normalization, or else
    std::optional<std::string> normalize_data;   // dynamic (default: kDefaultNormalizeData)
    fit::GridFilter filter;                      // moves, material, evalMax and the momType
    int mom_target = 58;
    model::CurveForm a_form, b_form;  // of the fitted curves: Stockfish's cubics by default
    fit::Method method = fit::Method::OptimizeProbability;
    std::int64_t win_min = 10;
    PlotMode plot = PlotMode::SaveAndShow;
    PlotRange plot_range;
    std::filesystem::path png_name = "scoreWDL.png";
    std::optional<std::filesystem::path> png_name_distro;
    std::optional<std::filesystem::path> json;
    ResampleChoice resample = ResampleChoice::Auto;
    int bootstrap_resamples = 200;
    bool cross_validate = false;
    int folds = 10;
    // Default: the summary plot's name with "_calibration" before its extension.
    std::optional<std::filesystem::path> png_name_calibration;
    int threads = 1;  // for the refits of resampling, cross-validation and model selection
    // --selectModel: fit each of `forms` (default: fit::default_selection_forms) on the folds
    // of --crossValidate and compare their held-out log-loss (docs/model.md).
    bool select_model = false;
    std::vector<fit::FormPair> forms;
    // Default: the summary plot's name with "_selection" before its extension.
    std::optional<std::filesystem::path> png_name_selection;
    bool learning_curve = false;  // the selection on growing subsamples of the groups
    // --momCut N: the model fitted from mom N on (clamped below) against one fitted on every
    // retained mom, held out (the filter's materialMin or moveMin must lie below N).
    std::optional<int> mom_cut;
    // --compareFiles: each input file a source (a time control): one model for all against a b
    // per file and a model per file, held out.
    bool compare_files = false;
    // The constants net trainers hard-code (docs/training-data.md), with intervals.
    bool trainer_constants = false;
    // --report DIR: report.md, report.html, their plots and the fit's JSON in DIR (docs/report.md).
    std::optional<std::filesystem::path> report;
    // The model the fit is compared with (any spec of model::load_model); default: the
    // --NormalizeData model when it has bs.
    std::optional<std::string> old_model;
    std::optional<std::filesystem::path> update_log;    // updateWDL.sh's lines, quoted
    std::optional<std::filesystem::path> scan_summary;  // scoreWDLstat --json, for the data
    std::optional<std::string> revision_range;          // "FIRST (date) .. LAST (date)"
    std::string command_line = "scoreWDL";              // as run: the report's reproduce lines
};

// The exit status of a run whose fit is not determined (fit::fit_verdict): its constants are
// printed and written marked as such, with a simpler fit to use, and a script must not take
// them for a model. 1 is an error, 2 a bad command line.
inline constexpr int kExitNotDetermined = 3;

// Reads the count files, fits, prints the original's lines (and ours after them) on stdout,
// writes the plots and the JSON. Returns the exit status: 0, or kExitNotDetermined. Throws
// wdl::Error for bad inputs.
int score_wdl(const ScoreWdlOptions& options);

}  // namespace wdl::commands
