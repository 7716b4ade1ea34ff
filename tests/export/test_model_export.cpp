// The exports' text: provenance first, coefficients that read back exactly, Stockfish's block.
// (tests/apps/test_exportWDL.cpp compiles and runs them.)
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <sstream>

#include "wdl/export/model_export.hpp"
#include "wdl/model/model_lookup.hpp"

using namespace wdl;
using exporting::Language;

namespace {

// The numbers of the list after `name` in the text, between `opening` (the first after `name`)
// and `closing`, read with strtod.
model::Coefficients list_after(const std::string& text, const std::string& name,
                               const std::string& opening, char closing) {
    auto at = text.find(name);
    REQUIRE(at != std::string::npos);
    auto start = text.find(opening, at);
    REQUIRE(start != std::string::npos);
    start += opening.size();
    auto end = text.find(closing, start);
    REQUIRE(end != std::string::npos);
    model::Coefficients numbers;
    std::istringstream in(text.substr(start, end - start));
    for (std::string item; std::getline(in, item, ',');)
        numbers.push_back(std::strtod(item.c_str(), nullptr));
    return numbers;
}

// How each language names the coefficient lists and opens and closes them.
struct ListSyntax {
    std::string as, bs, opening;
    char closing;
};

ListSyntax list_syntax(Language language) {
    switch (language) {
        case Language::Cpp:
            return {"double as[]", "double bs[]", "= {", '}'};
        case Language::C:
            return {"double wdl_as[", "double wdl_bs[", "= {", '}'};
        case Language::Rust:
            return {"const AS:", "const BS:", "= [", ']'};
        case Language::Python:
            return {"AS = ", "BS = ", "(", ')'};
        case Language::JavaScript:
            return {"const AS", "const BS", "([", ']'};
        case Language::Json:
            return {"\"as\"", "\"bs\"", "[", ']'};
    }
    return {};
}

model::WdlModel rational_model() {
    model::WdlModel m;
    m.a_form = {model::CurveKind::Rational, 2};
    m.as = {-50.5, 120.25, 330.125, 0.2};
    m.b_form = {model::CurveKind::Polynomial, 5};
    m.bs = {0.1 / 3, -1.0 / 7, 2.0 / 3, 1e-20, 3e15, 47.625};
    return m;
}

}  // namespace

TEST_CASE("every export states its provenance first and its coefficients exactly", "[export]") {
    const std::vector<std::string> provenance = {"first line of provenance", "second line"};
    for (const auto& m : {model::load_model("sf18").model, rational_model()}) {
        for (const auto& [language, name] : exporting::kLanguageNames) {
            CAPTURE(name);
            auto text = exporting::export_model(m, provenance, language);
            // After the comment marker (JSON: the member), the first line is the provenance's.
            auto first = text.find("first line of provenance");
            REQUIRE(first != std::string::npos);
            if (language == Language::Json)
                CHECK(first == text.find("\"provenance\": [") + 21);
            else
                CHECK(first < 10);
            CHECK(text.find("second line") > first);
            CHECK_THAT(text, Catch::Contains(fmt::format("t = mom / {}", m.mom_target)));
            auto syntax = list_syntax(language);
            CHECK(list_after(text, syntax.as, syntax.opening, syntax.closing) == m.as);
            CHECK(list_after(text, syntax.bs, syntax.opening, syntax.closing) == m.bs);
        }
    }
}

TEST_CASE("the C++ export of a cubic has Stockfish's block and static_assert", "[export]") {
    auto sf18 = model::load_model("sf18").model;
    auto text = exporting::export_model(sf18, {"sf18"}, Language::Cpp);
    CHECK_THAT(text, Catch::Contains("\nconstexpr double as[] = {-72.32565836, 185.93832038, "
                                     "-144.58862193, 416.44950446};\n"
                                     "constexpr double bs[] = {83.86794042, -136.06112997, "
                                     "69.98820887, 47.62901433};\n"));
    CHECK_THAT(text, Catch::Contains(fmt::format("constexpr int NormalizeToPawnValue = {};",
                                                 sf18.pawn_value())));
    CHECK_THAT(text, Catch::Contains("static_assert(NormalizeToPawnValue == int(0.5 + as[0] + "
                                     "as[1] + as[2] + as[3]));"));
    // A model taking 100 * v / PawnValueEg states its scale, and the assertion includes it.
    auto sf15 = model::load_model("sf15").model;
    auto scaled = exporting::export_model(sf15, {"sf15"}, Language::Cpp);
    CHECK_THAT(scaled, Catch::Contains("constexpr double EvalScale = 2.08;"));
    CHECK_THAT(scaled, Catch::Contains(fmt::format("constexpr int NormalizeToPawnValue = {};",
                                                   sf15.pawn_value())));
    CHECK_THAT(scaled, Catch::Contains("int(0.5 + EvalScale * (as[0] + as[1] + as[2] + as[3]))"));
    // A rational form: a(target) is the numerator's sum over 1 + d.
    auto rational = exporting::export_model(rational_model(), {"rational"}, Language::Cpp);
    CHECK_THAT(rational, Catch::Contains("int(0.5 + EvalScale * ((as[0] + as[1] + as[2]) / (1.0 + "
                                         "as[3])))"));
    CHECK_THAT(rational, Catch::Contains(fmt::format("constexpr int NormalizeToPawnValue = {};",
                                                     rational_model().pawn_value())));
}
