#include <catch2/catch.hpp>
#include <string>

#include "wdl/util/base64.hpp"

using wdl::util::base64_encode;

TEST_CASE("base64 encodes the test vectors of RFC 4648", "[util]") {
    CHECK(base64_encode("") == "");
    CHECK(base64_encode("f") == "Zg==");
    CHECK(base64_encode("fo") == "Zm8=");
    CHECK(base64_encode("foo") == "Zm9v");
    CHECK(base64_encode("foob") == "Zm9vYg==");
    CHECK(base64_encode("fooba") == "Zm9vYmE=");
    CHECK(base64_encode("foobar") == "Zm9vYmFy");
}

TEST_CASE("base64 encodes bytes above 127 and the last two letters of the alphabet", "[util]") {
    // 0xFB 0xFF 0xBF: 111110 111111 111110 111111.
    CHECK(base64_encode(std::string("\xfb\xff\xbf", 3)) == "+/+/");
    CHECK(base64_encode(std::string("\x00\x00", 2)) == "AAA=");
    // The PNG signature, as every embedded image starts.
    CHECK(base64_encode(std::string("\x89PNG\r\n\x1a\n", 8)) == "iVBORw0KGgo=");
}
