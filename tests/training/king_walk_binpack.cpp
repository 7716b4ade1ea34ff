// Writes a legal binpack of BLOCKS blocks to standard output, each of as many chains as fit in
// BYTES (at most Stockfish's limit of 100 MiB): scripts/bench_memory.sh's input of huge blocks. Not
// a test. Usage: king_walk_binpack BLOCKS BYTES > file.binpack
#include "king_walk_binpack.hpp"

#include <cstdio>
#include <iostream>
#include <string>

int main(int argc, char** argv) {
    if (argc != 3) {
        std::cerr << "Usage: king_walk_binpack BLOCKS BYTES > file.binpack\n";
        return 2;
    }
    long blocks = std::stol(argv[1]);
    std::size_t bytes = std::stoul(argv[2]);
    if (blocks < 1 || bytes > (std::size_t{100} << 20)) {
        std::cerr << "king_walk_binpack: at least one block, of at most 104857600 bytes\n";
        return 2;
    }
    std::string block = wdl::training::test::king_walk_block(bytes);
    for (long i = 0; i < blocks; ++i) std::fwrite(block.data(), 1, block.size(), stdout);
    return std::fflush(stdout) == 0 ? 0 : 1;
}
