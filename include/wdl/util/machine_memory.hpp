#pragma once

#include <cstddef>

namespace wdl::util {

// The machine's physical memory in megabytes, 0 where the system does not say: what the
// programs' default memory limits are a share of.
std::size_t machine_memory_megabytes();

}  // namespace wdl::util
