#include "wdl/util/machine_memory.hpp"

#include <unistd.h>

namespace wdl::util {

std::size_t machine_memory_megabytes() {
    const long pages = ::sysconf(_SC_PHYS_PAGES), page_bytes = ::sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || page_bytes <= 0) return 0;
    return std::size_t(pages) * std::size_t(page_bytes) >> 20;
}

}  // namespace wdl::util
