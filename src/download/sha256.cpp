#include "wdl/download/sha256.hpp"

#include <openssl/evp.h>

#include <cstdio>
#include <vector>

#include "wdl/util/error.hpp"

namespace wdl::download {

struct Sha256::Context {
    EVP_MD_CTX* context = EVP_MD_CTX_new();
    ~Context() { EVP_MD_CTX_free(context); }
    void start() {
        if (!context || EVP_DigestInit_ex(context, EVP_sha256(), nullptr) != 1)
            throw Error("cannot start a SHA-256 digest (libcrypto)");
    }
};

Sha256::Sha256() : context_(std::make_unique<Context>()) { context_->start(); }

Sha256::~Sha256() = default;

void Sha256::update(std::string_view bytes) {
    if (EVP_DigestUpdate(context_->context, bytes.data(), bytes.size()) != 1)
        throw Error("SHA-256 digest failed (libcrypto)");
}

void Sha256::update_from_file(const std::filesystem::path& file, std::uint64_t bytes) {
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> stream(std::fopen(file.c_str(), "rb"),
                                                           std::fclose);
    if (!stream) throw Error("cannot read " + file.string());
    std::vector<char> buffer(1 << 20);
    while (bytes > 0) {
        auto wanted = std::size_t(std::min<std::uint64_t>(bytes, buffer.size()));
        auto got = std::fread(buffer.data(), 1, wanted, stream.get());
        if (got == 0) {
            if (std::ferror(stream.get()) || bytes != UINT64_MAX)
                throw Error("cannot read " + file.string());
            break;
        }
        update(std::string_view(buffer.data(), got));
        if (bytes != UINT64_MAX) bytes -= got;
    }
}

std::string Sha256::hex_digest() {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (EVP_DigestFinal_ex(context_->context, digest, &length) != 1)
        throw Error("SHA-256 digest failed (libcrypto)");
    static const char digits[] = "0123456789abcdef";
    std::string hex;
    for (unsigned int i = 0; i < length; ++i) {
        hex += digits[digest[i] >> 4];
        hex += digits[digest[i] & 15];
    }
    context_->start();
    return hex;
}

}  // namespace wdl::download
