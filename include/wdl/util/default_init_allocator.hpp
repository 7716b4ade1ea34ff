#pragma once

#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace wdl::util {

// The standard allocator, except that a vector's new elements are default-initialized instead of
// value-initialized: a vector of plain structs sized to be filled at once is then not zeroed
// first (megabytes written twice, the first time on one thread).
template <typename T>
struct DefaultInitAllocator : std::allocator<T> {
    using value_type = T;
    template <typename U>
    struct rebind {
        using other = DefaultInitAllocator<U>;
    };
    DefaultInitAllocator() = default;
    template <typename U>
    DefaultInitAllocator(const DefaultInitAllocator<U>&) {}
    template <typename U>
    void construct(U* place) {
        ::new (static_cast<void*>(place)) U;
    }
    template <typename U, typename... Args>
    void construct(U* place, Args&&... args) {
        std::construct_at(place, std::forward<Args>(args)...);
    }
};

template <typename T>
using FillableVector = std::vector<T, DefaultInitAllocator<T>>;

}  // namespace wdl::util
