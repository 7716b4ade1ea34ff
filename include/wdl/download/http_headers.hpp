#pragma once
// Reading the response headers that steer a client: where the next page is (Link), how long the
// server asks us to wait (Retry-After, RateLimit), where a redirect goes (Location).

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace wdl::download {

// A response's status and headers, names in lower case, in the order they came.
struct ResponseHead {
    long status = 0;
    std::vector<std::pair<std::string, std::string>> headers;

    // The value of the last header of that (lower-case) name.
    std::optional<std::string> header(std::string_view name) const;
};

// The target of the Link header's rel="next" (RFC 8288), if there is one.
std::optional<std::string> next_page_link(std::string_view link_header);

// The wait a 429 or 503 asks for: Retry-After in seconds (RFC 9110; an HTTP date is not
// honoured), else the reset time t of the IETF draft RateLimit header ("api";r=0;t=55).
std::optional<std::chrono::seconds> requested_wait(const ResponseHead& head);

// "scheme://host:port" of an absolute URL, in lower case, with the scheme's default port
// made explicit; empty if the URL has no scheme. Credentials go to one origin only.
std::string url_origin(std::string_view url);
// A server's or endpoint's URL without the slashes it may end with ("https://x.org/" ->
// "https://x.org"), so that paths can be appended with one '/'.
std::string without_trailing_slash(std::string url);

// The absolute URL a Location header names, relative to the URL that answered with it.
std::string resolve_location(std::string_view base_url, std::string_view location);

}  // namespace wdl::download
