#pragma once

#include <cstdint>

#include "wdl/util/error.hpp"

namespace wdl::util {

// a + b for counts of positions, which count files hold in 63 bits: a sum beyond that is an
// error, never a wrapped (negative) count.
inline std::int64_t checked_sum(std::int64_t a, std::int64_t b) {
    std::int64_t sum = 0;
    if (__builtin_add_overflow(a, b, &sum))
        throw Error("the counts add up to more than 2^63 - 1, more than count files can hold.");
    return sum;
}

}  // namespace wdl::util
