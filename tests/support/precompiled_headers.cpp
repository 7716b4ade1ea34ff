// The source of the targets that precompile the tests' common headers (CMakeLists.txt here):
// CMake makes a precompiled header only for a target with a source of its own.
