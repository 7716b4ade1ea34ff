#include <catch2/catch.hpp>

#include "wdl/util/enum_names.hpp"

namespace {

enum class Colour { Red, Green, Blue };

constexpr std::array<wdl::util::EnumName<Colour>, 2> kColourNames = {{
    {Colour::Green, "green"},
    {Colour::Red, "RED"},
}};

}  // namespace

TEST_CASE("an enum's name table names and parses its values", "[util][enum_names]") {
    using wdl::util::name_of;
    using wdl::util::value_named;
    STATIC_REQUIRE(name_of(kColourNames, Colour::Green) == "green");
    CHECK(name_of(kColourNames, Colour::Red) == "RED");
    CHECK(name_of(kColourNames, Colour::Blue).empty());  // a value without a name
    STATIC_REQUIRE(value_named(kColourNames, "green") == Colour::Green);
    CHECK(value_named(kColourNames, "RED") == Colour::Red);
    CHECK_FALSE(value_named(kColourNames, "red"));  // exact: case matters
    CHECK_FALSE(value_named(kColourNames, "blue"));
    CHECK_FALSE(value_named(kColourNames, ""));
}

TEST_CASE("a name may be matched ignoring its case", "[util][enum_names]") {
    using wdl::util::value_named_ignoring_case;
    CHECK(value_named_ignoring_case(kColourNames, "red") == Colour::Red);
    CHECK(value_named_ignoring_case(kColourNames, "GREEN") == Colour::Green);
    CHECK_FALSE(value_named_ignoring_case(kColourNames, "re"));
    CHECK_FALSE(value_named_ignoring_case(kColourNames, "reds"));
}
