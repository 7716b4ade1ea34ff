// The main of every program: WDL_PROGRAM, defined per executable, names its entry.
#include "programs.hpp"

int main(int argc, char** argv) { return wdl::programs::WDL_PROGRAM(argc, argv); }
