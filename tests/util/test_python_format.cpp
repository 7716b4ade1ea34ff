#include <catch2/catch.hpp>
#include <numeric>

#include "wdl/util/python_format.hpp"

using namespace wdl::util;

TEST_CASE("floats print like Python's repr", "[util][python]") {
    CHECK(python_float_repr(100.0) == "100.0");
    CHECK(python_float_repr(1.148818226898625) == "1.148818226898625");
    CHECK(python_float_repr(1e-05) == "1e-05");
    CHECK(python_float_repr(1e16) == "1e+16");
    CHECK(python_float_repr(-0.5) == "-0.5");
}

TEST_CASE("JSON values print like Python's repr of json.loads", "[util][python]") {
    auto value = nlohmann::ordered_json::parse(
        R"({"momType": "material", "as": [1, 2.5, -3e-05], "x": null, "y": true, "q": "it's"})");
    CHECK(python_repr(value) ==
          R"({'momType': 'material', 'as': [1, 2.5, -3e-05], 'x': None, 'y': True, 'q': "it's"})");
}

TEST_CASE("integer arrays print like numpy", "[util][python]") {
    CHECK(numpy_int_array({17}) == "[17]");
    CHECK(numpy_int_array({-5, 3, 12}) == "[-5  3 12]");
    CHECK(numpy_int_array({}) == "[]");
    // numpy: str(np.arange(1, 30)) puts 24 two-digit numbers on the first line.
    std::vector<int> values(29);
    std::iota(values.begin(), values.end(), 1);
    CHECK(numpy_int_array(values) ==
          "[ 1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24\n"
          " 25 26 27 28 29]");
}
