#include "wdl/stats/random.hpp"

#include <cmath>
#include <numbers>

namespace wdl::stats {

std::uint64_t stream_seed(std::uint64_t seed, std::uint64_t stream) {
    std::uint64_t z = seed + (stream + 1) * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

std::uint64_t Random::below(std::uint64_t n) {
    // The largest multiple of n that fits: draws at or above it would favour small results.
    std::uint64_t limit = ~std::uint64_t{0} - (~std::uint64_t{0} % n + 1) % n;
    for (;;) {
        std::uint64_t x = engine_();
        if (x <= limit) return x % n;
    }
}

double Random::normal() {
    if (has_spare_normal_) {
        has_spare_normal_ = false;
        return spare_normal_;
    }
    double radius = std::sqrt(-2.0 * std::log(1.0 - uniform()));  // 1 - u in (0, 1]
    double angle = 2.0 * std::numbers::pi * uniform();
    spare_normal_ = radius * std::sin(angle);
    has_spare_normal_ = true;
    return radius * std::cos(angle);
}

double Random::exponential() { return -std::log(1.0 - uniform()); }

double Random::student_t(int dof) {
    double squares = 0;
    for (int i = 0; i < dof; ++i) {
        double z = normal();
        squares += z * z;
    }
    return normal() / std::sqrt(squares / dof);
}

}  // namespace wdl::stats
