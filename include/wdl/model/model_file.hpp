#pragma once

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
// constants derived from them; "aForm" and "bForm" name the curves' forms where they are not
// Stockfish's cubics.
nlohmann::ordered_json model_json(const WdlModel& model);

// The model of such an object, or of a whole scoreWDL --json document (its "model" member).
// Only the curves, momType and momTarget are read; the derived constants are recomputed. Throws
// wdl::Error naming `source` when a field is missing or malformed.
WdlModel model_from_json(const nlohmann::json& json, std::string_view source);

struct CurveOfJson {
    CurveForm form;
    Coefficients coefficients;
};
// The curve of coefficients `name` ("as") and form `form_key` ("aForm"; without it, the
// polynomial of that many coefficients) in a JSON object. Throws wdl::Error naming `source`.
CurveOfJson curve_from_json(const nlohmann::json& object, const std::string& name,
                            const std::string& form_key, std::string_view source);

// The covariance of the coefficients (as, then bs) that a scoreWDL --json document states for
// `model`, if any ("uncertainty": {"covariance": n x n}, n its parameters).
std::optional<Covariance> covariance_from_json(const nlohmann::json& json, const WdlModel& model);

// The JSON document in a file; throws wdl::Error naming the file.
nlohmann::json read_json_file(const std::filesystem::path& path);

// model_from_json of a file; throws wdl::Error naming the file.
WdlModel read_model_file(const std::filesystem::path& path);

}  // namespace wdl::model
