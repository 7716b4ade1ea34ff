#include "wdl/download/http_headers.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace wdl::download {
namespace {

std::string lower(std::string_view text) {
    std::string result(text);
    std::transform(result.begin(), result.end(), result.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return result;
}

std::string_view trimmed(std::string_view text) {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
        text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
        text.remove_suffix(1);
    return text;
}

// A whole non-negative number of seconds, nothing else.
std::optional<std::chrono::seconds> seconds_in(std::string_view text) {
    text = trimmed(text);
    long long value = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || value < 0 || text.empty())
        return std::nullopt;
    return std::chrono::seconds(value);
}

// Splits at `separator` outside double quotes.
std::vector<std::string_view> split_unquoted(std::string_view text, char separator) {
    std::vector<std::string_view> parts;
    bool quoted = false;
    std::size_t start = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '"') quoted = !quoted;
        if (text[i] == separator && !quoted) {
            parts.push_back(text.substr(start, i - start));
            start = i + 1;
        }
    }
    parts.push_back(text.substr(start));
    return parts;
}

}  // namespace

std::optional<std::string> ResponseHead::header(std::string_view name) const {
    for (auto entry = headers.rbegin(); entry != headers.rend(); ++entry)
        if (entry->first == name) return entry->second;
    return std::nullopt;
}

std::optional<std::string> next_page_link(std::string_view link_header) {
    // <url>; rel="next", <url>; rel="prev"
    for (auto link : split_unquoted(link_header, ',')) {
        auto parameters = split_unquoted(link, ';');
        auto target = trimmed(parameters.front());
        if (target.size() < 2 || target.front() != '<' || target.back() != '>') continue;
        for (std::size_t i = 1; i < parameters.size(); ++i) {
            auto parameter = lower(trimmed(parameters[i]));
            if (parameter == "rel=\"next\"" || parameter == "rel=next")
                return std::string(target.substr(1, target.size() - 2));
        }
    }
    return std::nullopt;
}

std::optional<std::chrono::seconds> requested_wait(const ResponseHead& head) {
    if (auto retry_after = head.header("retry-after"))
        if (auto wait = seconds_in(*retry_after)) return wait;
    if (auto rate_limit = head.header("ratelimit"))
        for (auto part : split_unquoted(*rate_limit, ';')) {
            part = trimmed(part);
            if (part.starts_with("t=")) return seconds_in(part.substr(2));
        }
    return std::nullopt;
}

std::string url_origin(std::string_view url) {
    auto scheme_end = url.find("://");
    if (scheme_end == std::string_view::npos) return {};
    auto scheme = lower(url.substr(0, scheme_end));
    auto rest = url.substr(scheme_end + 3);
    auto authority = rest.substr(0, rest.find_first_of("/?#"));
    if (auto at = authority.rfind('@'); at != std::string_view::npos)
        authority.remove_prefix(at + 1);
    auto host_port = lower(authority);
    // A port follows the last ':' unless that is inside an IPv6 literal's brackets.
    auto colon = host_port.rfind(':');
    bool has_port = colon != std::string::npos && host_port.find(']', colon) == std::string::npos;
    if (!has_port) host_port += scheme == "https" ? ":443" : scheme == "http" ? ":80" : "";
    return scheme + "://" + host_port;
}

std::string resolve_location(std::string_view base_url, std::string_view location) {
    location = trimmed(location);
    if (location.find("://") != std::string_view::npos) return std::string(location);
    auto scheme_end = base_url.find("://");
    if (scheme_end == std::string_view::npos) return std::string(location);
    if (location.starts_with("//"))
        return std::string(base_url.substr(0, scheme_end + 1)) + std::string(location);
    auto path_start = base_url.find_first_of("/?#", scheme_end + 3);
    auto origin = base_url.substr(0, path_start);
    if (location.starts_with('/')) return std::string(origin) + std::string(location);
    // A relative path replaces the base path's last segment.
    auto base = base_url.substr(0, base_url.find_first_of("?#", scheme_end + 3));
    auto last_slash = base.rfind('/');
    if (last_slash < scheme_end + 3) return std::string(origin) + "/" + std::string(location);
    return std::string(base.substr(0, last_slash + 1)) + std::string(location);
}

std::string without_trailing_slash(std::string url) {
    while (!url.empty() && url.back() == '/') url.pop_back();
    return url;
}

}  // namespace wdl::download
