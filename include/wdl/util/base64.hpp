#pragma once

#include <string>
#include <string_view>

// Base64 (RFC 4648, standard alphabet, with padding): how the HTML report carries its images
// inside itself as data: URIs.
namespace wdl::util {

std::string base64_encode(std::string_view bytes);

}  // namespace wdl::util
