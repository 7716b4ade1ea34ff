// scoreCompetence's analysis of games in endgame tables: any bytes read as a PGN file, with
// Debian's 3-man Gaviota tables when installed (decisions are made), else with no table at all
// (positions counted as not covered). Its warnings stay bounded.
#include <cstdint>
#include <filesystem>
#include <memory>

#include "fuzz_support.hpp"
#include "wdl/competence/analysis.hpp"
#include "wdl/tablebase/gaviota.hpp"
#include "wdl/tablebase/move_values.hpp"
#include "wdl/tablebase/table_set.hpp"

namespace {

wdl::tablebase::TableSource& table_source() {
    namespace tb = wdl::tablebase;
    static std::unique_ptr<tb::GaviotaTables> gaviota;
    static std::unique_ptr<tb::TableSet> none;
    static std::unique_ptr<tb::TableSource> source = [] {
        std::error_code error;
        if (std::filesystem::is_directory(tb::GaviotaTables::default_directory(), error)) {
            gaviota = std::make_unique<tb::GaviotaTables>();
            return tb::make_gaviota_source(*gaviota);
        }
        none = std::make_unique<tb::TableSet>(
            std::filesystem::temp_directory_path() / "wdl_fuzz_no_tables", tb::Metric::DTC);
        return tb::make_own_source(*none);
    }();
    return *source;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    wdl::fuzz::InputFile file(data + 1, size - 1, ".pgn");
    wdl::competence::AnalysisSettings settings;
    settings.grid = wdl::competence::CompetenceGrid(0, 10, 1);
    settings.fifty_move_rule = wdl::competence::FiftyMoveRule(data[0] % 3);
    settings.keep_decisions = data[0] & 4;
    auto result = wdl::competence::analyse_files({file.path()}, table_source(), settings);
    if (result.files.warnings.size() > wdl::games::kListedProblems + 2) __builtin_trap();
    for (const auto& decision : result.decisions_kept)
        if (wdl::competence::decision_line(decision).empty()) __builtin_trap();
    return 0;
}
