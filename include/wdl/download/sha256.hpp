#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

namespace wdl::download {

// SHA-256 (FIPS 180-4) of a stream of bytes, computed as they arrive (OpenSSL's libcrypto).
class Sha256 {
  public:
    Sha256();
    ~Sha256();
    Sha256(const Sha256&) = delete;
    Sha256& operator=(const Sha256&) = delete;

    void update(std::string_view bytes);
    // Hashes the first `bytes` bytes of the file (all of it by default); throws wdl::Error
    // naming the file when it cannot be read or is shorter.
    void update_from_file(const std::filesystem::path& file, std::uint64_t bytes = UINT64_MAX);
    // The digest in lower-case hex; the object starts over afterwards.
    std::string hex_digest();

  private:
    struct Context;
    std::unique_ptr<Context> context_;
};

}  // namespace wdl::download
