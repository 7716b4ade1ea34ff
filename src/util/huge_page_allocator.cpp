#include "wdl/util/huge_page_allocator.hpp"

#include <sys/mman.h>

#include <new>

namespace wdl::util {

void* allocate_huge_pages(std::size_t bytes) {
    constexpr std::size_t huge_page = std::size_t{2} << 20;
    if (bytes < huge_page) {
        if (void* memory = std::malloc(bytes)) return memory;
        throw std::bad_alloc();
    }
    std::size_t rounded = (bytes + huge_page - 1) / huge_page * huge_page;
    void* memory = std::aligned_alloc(huge_page, rounded);
    if (!memory) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
    madvise(memory, rounded, MADV_HUGEPAGE);  // only a hint: no huge pages is no error
#endif
    return memory;
}

}  // namespace wdl::util
