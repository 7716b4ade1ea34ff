#pragma once
// --aForm and --bForm: the form of a fitted curve by its name (poly1 ... poly5, rational1 ...
// rational5), as the model JSON names it.

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <string>

#include "wdl/model/curve.hpp"

inline void add_curve_form_option(CLI::App& app, const std::string& name,
                                  wdl::model::CurveForm& form, const std::string& description) {
    app.add_option_function<std::string>(
           name,
           [&form, name](const std::string& text) {
               auto parsed = wdl::model::curve_form_from_name(text);
               if (!parsed) {
                   throw CLI::ValidationError(
                       name,
                       fmt::format("\"{}\" is no form: poly1 ... poly{} or rational1 ... "
                                   "rational{}",
                                   text, wdl::model::kMaxCurveDegree, wdl::model::kMaxCurveDegree));
               }
               form = *parsed;
           },
           description)
        ->type_name("FORM")
        ->default_str(wdl::model::curve_form_name(form));
}
