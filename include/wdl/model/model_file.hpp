#pragma once

#include <array>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

#include "wdl/model/wdl_model.hpp"

// The model as JSON: the "model" object of scoreWDL --json (docs/formats.md), the form in
// which scripts and the other programs exchange models.
namespace wdl::model {

// {"as", "bs", "momType", "momTarget", "NormalizeToPawnValue", "spread", "normalizedSpread",
// "drawRateAtZero", "lc0": {"sharpness", "muPerInternalUnit"}}: the coefficients and the
// constants derived from them.
nlohmann::ordered_json model_json(const WdlModel& model);

// The model of such an object, or of a whole scoreWDL --json document (its "model" member).
// Only as, bs, momType and momTarget are read; the derived constants are recomputed. Throws
// wdl::Error naming `source` when a field is missing or malformed.
WdlModel model_from_json(const nlohmann::json& json, std::string_view source);

// The covariance of the coefficients (as, then bs) that a scoreWDL --json document states, if
// any ("uncertainty": {"covariance": 8 x 8}).
std::optional<std::array<std::array<double, 8>, 8>> covariance_from_json(
    const nlohmann::json& json);

// The JSON document in a file; throws wdl::Error naming the file.
nlohmann::json read_json_file(const std::filesystem::path& path);

// model_from_json of a file; throws wdl::Error naming the file.
WdlModel read_model_file(const std::filesystem::path& path);

}  // namespace wdl::model
