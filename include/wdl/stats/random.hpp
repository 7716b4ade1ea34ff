#pragma once

#include <cstdint>
#include <random>

// Random draws that are the same on every platform for a seed: the C++ standard specifies the
// output of std::mt19937_64 exactly, but not the algorithms of its distributions, so the
// transforms from random bits to draws are ours.
namespace wdl::stats {

// An independent-looking seed for stream `stream` of a seed (a SplitMix64 step of their mix),
// so that work cut into numbered pieces draws the same whatever thread draws which piece.
std::uint64_t stream_seed(std::uint64_t seed, std::uint64_t stream);

class Random {
  public:
    explicit Random(std::uint64_t seed) : engine_(seed) {}

    std::uint64_t bits() { return engine_(); }
    // Uniform in [0, 1), 53 random bits.
    double uniform() { return double(engine_() >> 11) * 0x1p-53; }
    // Uniform integer in [0, n) for n > 0, without modulo bias.
    std::uint64_t below(std::uint64_t n);
    // Standard normal (Box-Muller: each pair of uniforms gives two).
    double normal();
    // Exponential with mean 1.
    double exponential();
    // Student's t with `dof` (a positive integer) degrees of freedom: a normal over the root
    // of a mean of dof squared normals.
    double student_t(int dof);

  private:
    std::mt19937_64 engine_;
    double spare_normal_ = 0;
    bool has_spare_normal_ = false;
};

}  // namespace wdl::stats
