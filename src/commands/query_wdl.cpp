#include "wdl/commands/query_wdl.hpp"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "wdl/counts/human_counts.hpp"
#include "wdl/human/human_model_file.hpp"
#include "wdl/model/corresponding_mom.hpp"
#include "wdl/model/model_lookup.hpp"
#include "wdl/model/win_rate_eval.hpp"
#include "wdl/util/atomic_file.hpp"
#include "wdl/util/error.hpp"

namespace wdl::commands {
namespace {

using model::MomType;

// A mom as the user gave it (a material or a move) and as the model reads it.
struct Mom {
    double given = 0;
    double model = 0;
};

void check_finite(const std::vector<double>& values, const char* option) {
    for (double value : values)
        if (!std::isfinite(value))
            throw Error(fmt::format("{}: {} is not a finite number", option, value));
}

// The option that names the model's mom: --materials or --moves.
const char* mom_option(MomType type) {
    return type == MomType::Material ? "--materials" : "--moves";
}

std::vector<Mom> moms_of(const QueryWdlOptions& options, const model::NamedModel& named) {
    const auto& m = named.model;
    bool material = m.mom_type == MomType::Material;
    const auto& given = material ? options.materials : options.moves;
    const auto& other = material ? options.moves : options.materials;
    if (!other.empty()) {
        throw Error(fmt::format("{} depends on the {}: give {}, not {}", named.name,
                                model::mom_type_name(m.mom_type), mom_option(m.mom_type),
                                mom_option(material ? MomType::Move : MomType::Material)));
    }
    check_finite(given, mom_option(m.mom_type));
    std::vector<Mom> moms;
    if (given.empty()) {
        // The target, in the option's terms: a ply model's target ply is a move too.
        double target = m.mom_target;
        if (m.mom_type == MomType::Ply) target = std::floor(target / 2) + 1;
        return {{target, m.mom_type == MomType::Ply ? 2 * (target - 1) : target}};
    }
    for (double value : given) {
        if (value < (material ? 0 : 1))
            throw Error(
                fmt::format("{}: {} is below {}", mom_option(m.mom_type), value, material ? 0 : 1));
        moms.push_back({value, m.mom_type == MomType::Ply ? 2 * (value - 1) : value});
    }
    return moms;
}

// An eval of the options in both units at a mom.
struct Eval {
    double displayed_cp = 0, internal = 0;
};

Eval eval_at(const QueryWdlOptions& options, const model::WdlModel& m, double value, double mom) {
    if (options.internal) return {m.to_cp(value, mom), value};
    return {value, m.from_cp(value, mom)};
}

std::string model_line(const char* role, const model::NamedModel& named) {
    const auto& m = named.model;
    return fmt::format("{}: {}, {}; mom: {}, target {}.\n", role, named.name, named.description,
                       model::mom_type_name(m.mom_type), m.mom_target);
}

nlohmann::ordered_json model_entry(const model::NamedModel& named) {
    return {{"name", named.name},
            {"description", named.description},
            {"momType", model::mom_type_name(named.model.mom_type)},
            {"momTarget", named.model.mom_target}};
}

// The report being built: the printed text and its JSON twin, section by section.
struct Answer {
    std::string text;
    nlohmann::ordered_json json;
};

void check_win_rates(const std::vector<double>& win_rates) {
    check_finite(win_rates, "--winRate");
    for (double rate : win_rates)
        if (!(rate > 0 && rate < 1))
            throw Error(fmt::format("--winRate: {} is not strictly between 0 and 1", rate));
}

// The --to model, whose mom must correspond to the queried model's.
model::NamedModel load_target(const std::string& name, const model::NamedModel& named) {
    auto other = model::load_model(name);
    const auto& m = named.model;
    if (!model::corresponding_mom(m.mom_type, m.mom_target, other.model.mom_type)) {
        throw Error(fmt::format("{} depends on the {}, {} on the {}: no {} corresponds to a {}",
                                named.name, model::mom_type_name(m.mom_type), other.name,
                                model::mom_type_name(other.model.mom_type),
                                model::mom_type_name(other.model.mom_type),
                                model::mom_type_name(m.mom_type)));
    }
    return other;
}

std::string mom_column(const model::WdlModel& m) {
    return m.mom_type == MomType::Material ? "material" : "move";
}

// W/D/L per mille of each eval at each mom.
void add_wdl_table(const QueryWdlOptions& options, const model::WdlModel& m,
                   const std::vector<Mom>& moms, Answer& answer) {
    answer.text += fmt::format("\nW/D/L per mille:\n{:>9}{:>10}{:>10}{:>8}{:>8}{:>8}{:>8}\n",
                               mom_column(m), "eval cp", "internal", "W", "D", "L", "score");
    auto& rows = answer.json["wdl"] = nlohmann::ordered_json::array();
    for (const auto& mom : moms) {
        for (double value : options.evals) {
            auto eval = eval_at(options, m, value, mom.model);
            double w = m.win(eval.internal, mom.model), d = m.draw(eval.internal, mom.model),
                   l = m.loss(eval.internal, mom.model);
            answer.text += fmt::format(
                "{:>9g}{:>+10.1f}{:>10.1f}{:>8.1f}{:>8.1f}{:>8.1f}{:>8.3f}\n", mom.given,
                eval.displayed_cp, eval.internal, 1000 * w, 1000 * d, 1000 * l, w + d / 2);
            rows.push_back({{"mom", mom.given},
                            {"evalCp", eval.displayed_cp},
                            {"internalEval", eval.internal},
                            {"win", w},
                            {"draw", d},
                            {"loss", l},
                            {"score", w + d / 2}});
        }
    }
}

// The eval of each wanted win rate at each mom.
void add_win_rates(const QueryWdlOptions& options, const model::WdlModel& m,
                   const std::vector<Mom>& moms, Answer& answer) {
    answer.text +=
        fmt::format("\nThe eval at which the engine wins this often:\n{:>9}{:>10}{:>10}{:>10}\n",
                    mom_column(m), "win rate", "eval cp", "internal");
    auto& rows = answer.json["winRates"] = nlohmann::ordered_json::array();
    for (const auto& mom : moms) {
        for (double rate : options.win_rates) {
            double x = model::eval_for_win(m, rate, mom.model);
            double cp = m.to_cp(x, mom.model);
            answer.text +=
                fmt::format("{:>9g}{:>10.4g}{:>+10.1f}{:>10.1f}\n", mom.given, rate, cp, x);
            rows.push_back(
                {{"mom", mom.given}, {"winRate", rate}, {"evalCp", cp}, {"internalEval", x}});
        }
    }
}

// Each eval as the --to model displays the same internal eval.
void add_mapping(const QueryWdlOptions& options, const model::NamedModel& named,
                 const model::NamedModel& other, const std::vector<Mom>& moms, Answer& answer) {
    const auto& m = named.model;
    answer.text += "\n";
    answer.text += model_line("To", other);
    answer.text += fmt::format(
        "The same internal eval as each model displays it (cp):\n{:>9}{:>12}{:>10}{:>12}\n",
        mom_column(m), named.name.substr(0, 11), "internal", other.name.substr(0, 11));
    auto& mapping = answer.json["mapping"];
    mapping["to"] = model_entry(other);
    auto& rows = mapping["rows"] = nlohmann::ordered_json::array();
    for (const auto& mom : moms) {
        for (double value : options.evals) {
            auto eval = eval_at(options, m, value, mom.model);
            double to_cp =
                100 * *model::displayed_by(m, mom.model, eval.displayed_cp / 100, other.model);
            answer.text += fmt::format("{:>9g}{:>+12.1f}{:>10.1f}{:>+12.1f}\n", mom.given,
                                       eval.displayed_cp, eval.internal, to_cp);
            rows.push_back({{"mom", mom.given},
                            {"evalCp", eval.displayed_cp},
                            {"internalEval", eval.internal},
                            {"toEvalCp", to_cp}});
        }
    }
}

// W/D/L per mille of the side to move of a human model at each material and eval.
void query_human(const QueryWdlOptions& options, const human::HumanModelFile& file) {
    if (options.internal || !options.win_rates.empty() || options.to || !options.moves.empty())
        throw Error(
            fmt::format("{} is a human model: it takes --evals (displayed cp), "
                        "--materials, --elo and --tc only",
                        options.model));
    if (options.elo.size() != 2 || !options.time_control)
        throw Error(
            fmt::format("{} is a human model: give --elo RATING,OPPONENT (the side to "
                        "move's first) and --tc (as the TimeControl tag, 600+5)",
                        options.model));
    check_finite(options.elo, "--elo");
    check_finite(options.materials, "--materials");
    const auto speed = counts::speed_class_of_time_control(*options.time_control);
    if (!speed)
        throw Error(
            fmt::format("--tc: {} is no time control (600+5, 180, -)", *options.time_control));
    const auto* fitted = file.find(*speed);
    if (!fitted)
        throw Error(fmt::format("{} has no model of {} games ({})", options.model,
                                counts::speed_class_name(*speed), *options.time_control));
    std::vector<double> materials = options.materials;
    if (materials.empty()) materials.push_back(human::kMaterialTarget);
    Answer answer;
    answer.text = fmt::format(
        "Model: {}, the human model of {} games (form {}), fitted on the side to move rated "
        "{}..{}.\nSide to move rated {:g}, its opponent {:g}; time control {}. Evals are "
        "displayed centipawns from the side to move's view.\n",
        options.model, counts::speed_class_name(*speed), human::human_form_name(fitted->model.form),
        fitted->rating_low, fitted->rating_high, options.elo[0], options.elo[1],
        *options.time_control);
    answer.json["model"] = {{"name", options.model},
                            {"speed", counts::speed_class_name(*speed)},
                            {"form", human::human_form_name(fitted->model.form)}};
    answer.json["rating"] = options.elo[0];
    answer.json["opponentRating"] = options.elo[1];
    answer.json["timeControl"] = *options.time_control;
    answer.text += fmt::format("\nW/D/L per mille:\n{:>9}{:>10}{:>8}{:>8}{:>8}{:>8}\n", "material",
                               "eval cp", "W", "D", "L", "score");
    auto& rows = answer.json["wdl"] = nlohmann::ordered_json::array();
    for (double material : materials) {
        for (double cp : options.evals) {
            const auto wdl = fitted->model.wdl(cp, {material, options.elo[0], options.elo[1]});
            const double score = wdl[0] + wdl[1] / 2;
            answer.text +=
                fmt::format("{:>9g}{:>+10.1f}{:>8.1f}{:>8.1f}{:>8.1f}{:>8.3f}\n", material, cp,
                            1000 * wdl[0], 1000 * wdl[1], 1000 * wdl[2], score);
            rows.push_back({{"material", material},
                            {"evalCp", cp},
                            {"win", wdl[0]},
                            {"draw", wdl[1]},
                            {"loss", wdl[2]},
                            {"score", score}});
        }
    }
    if (options.json && *options.json == "-") {
        fmt::print("{}\n", answer.json.dump(2));
        return;
    }
    fmt::print("{}", answer.text);
    if (options.json) util::write_file_atomically(*options.json, answer.json.dump(2) + "\n");
}

}  // namespace

void query_wdl(const QueryWdlOptions& options) {
    check_finite(options.evals, "--evals");
    check_win_rates(options.win_rates);
    if (auto human = human::human_model_in(options.model)) return query_human(options, *human);
    if (!options.elo.empty() || options.time_control)
        throw Error(fmt::format("--elo and --tc are for a human model (humanWDL -o), not {}",
                                options.model));
    auto named = model::load_model(options.model);
    const auto& m = named.model;
    auto moms = moms_of(options, named);
    std::optional<model::NamedModel> other;
    if (options.to) other = load_target(*options.to, named);

    Answer answer;
    answer.text = model_line("Model", named);
    answer.text += fmt::format("Evals are {}; the engine displays the internal eval v as {}.\n",
                               options.internal ? "internal units" : "displayed centipawns",
                               model::display_rule_text(m.display));
    answer.json["model"] = model_entry(named);
    answer.json["evals"] = options.internal ? "internal" : "displayed";
    answer.json["moms"] = m.mom_type == MomType::Material ? "materials" : "moves";
    if (options.evals_given || (options.win_rates.empty() && !options.to))
        add_wdl_table(options, m, moms, answer);
    if (!options.win_rates.empty()) add_win_rates(options, m, moms, answer);
    if (other) add_mapping(options, named, *other, moms, answer);

    if (options.json && *options.json == "-") {
        fmt::print("{}\n", answer.json.dump(2));
        return;
    }
    fmt::print("{}", answer.text);
    if (options.json) util::write_file_atomically(*options.json, answer.json.dump(2) + "\n");
}

}  // namespace wdl::commands
