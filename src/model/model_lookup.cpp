#include "wdl/model/model_lookup.hpp"

#include <filesystem>

#include "wdl/model/model_file.hpp"
#include "wdl/model/published_models.hpp"
#include "wdl/model/stockfish_source.hpp"
#include "wdl/util/error.hpp"

namespace wdl::model {
namespace {

namespace fs = std::filesystem;

NamedModel from_stockfish(std::string_view spec, const fs::path& tree,
                          const std::optional<std::string>& revision) {
    auto model = parse_stockfish_model(read_stockfish_source(tree, revision));
    if (!model)
        throw Error("no WDL model (as[] and bs[]) in the Stockfish source " + std::string(spec));
    return {std::string(spec), "Stockfish source " + std::string(spec), *model, std::nullopt};
}

}  // namespace

NamedModel load_model(std::string_view spec) {
    if (const PublishedModel* published = find_published_model(spec)) {
        std::string releases;
        for (const auto& release : published->releases)
            releases += (releases.empty() ? "" : ", ") + release;
        return {std::string(spec),
                (releases.empty() ? "Stockfish's model, unreleased" : "published in " + releases) +
                    " (commit " + published->commit.substr(0, 8) + " of " + published->date + ")",
                published->model, std::nullopt};
    }
    if (auto at = spec.rfind('@'); at != std::string_view::npos && at > 0) {
        fs::path tree(spec.substr(0, at));
        if (fs::is_directory(tree))
            return from_stockfish(spec, tree, std::string(spec.substr(at + 1)));
    }
    fs::path path(spec);
    if (fs::is_directory(path)) return from_stockfish(spec, path, std::nullopt);
    if (fs::is_regular_file(path)) {
        auto document = read_json_file(path);
        auto model = model_from_json(document, path.string());
        auto covariance = covariance_from_json(document, model);
        return {std::string(spec), "model file " + path.string(), std::move(model),
                std::move(covariance)};
    }
    // A file's spelling (in a folder, or *.json) that names none: the file is missing.
    if (path.has_parent_path() || path.extension() == ".json") {
        throw Error("unknown model \"" + std::string(spec) + "\": the file " + path.string() +
                    " does not exist (a model is a model JSON file, a Stockfish source tree DIR "
                    "or DIR@REV, or a registry name)");
    }
    throw Error("unknown model \"" + std::string(spec) +
                "\": not a model JSON file, a Stockfish source tree (DIR or DIR@REV), or a "
                "registry name (" +
                published_model_names() + ")");
}

}  // namespace wdl::model
