#include "wdl/util/error.hpp"

#include <cstdio>
#include <exception>
#include <iostream>

namespace wdl::util {

int report_errors(const std::function<int()>& body) {
    try {
        return body();
    } catch (const std::exception& error) {
        std::cout.flush();
        std::fflush(stdout);
        std::cerr << "Error: " << error.what() << std::endl;
        return 1;
    }
}

}  // namespace wdl::util
