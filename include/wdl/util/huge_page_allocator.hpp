#pragma once

#include <cstddef>
#include <cstdlib>

namespace wdl::util {

// Memory of a megabyte or more, with transparent huge pages where the system offers them.
// Freed with std::free.
void* allocate_huge_pages(std::size_t bytes);

// An allocator for large tables touched at random (hash tables, count cells): with 4 KiB
// pages nearly every touch of a table of megabytes also misses the TLB.
template <typename T>
struct HugePageAllocator {
    using value_type = T;
    HugePageAllocator() = default;
    template <typename U>
    HugePageAllocator(const HugePageAllocator<U>&) {}
    T* allocate(std::size_t count) {
        return static_cast<T*>(allocate_huge_pages(count * sizeof(T)));
    }
    void deallocate(T* pointer, std::size_t) { std::free(pointer); }
    friend bool operator==(const HugePageAllocator&, const HugePageAllocator&) { return true; }
};

}  // namespace wdl::util
