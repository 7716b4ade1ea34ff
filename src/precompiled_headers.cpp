// The source of the targets that precompile the headers shared by the modules
// (src/CMakeLists.txt) and by the tests (tests/support/CMakeLists.txt): CMake makes a
// precompiled header only for a target with a source of its own.
