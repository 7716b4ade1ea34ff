# Each module of the library (io, pgn, chess, ...) is a static library wdl_<name>;
# `wdl` links them all, so programs and tests depend on one library target.
function(wdl_add_module name)
    cmake_parse_arguments(ARG "" "" "SOURCES;DEPENDS" ${ARGN})
    add_library(wdl_${name} STATIC ${ARG_SOURCES})
    target_include_directories(wdl_${name} PUBLIC ${PROJECT_SOURCE_DIR}/include)
    target_link_libraries(wdl_${name} PUBLIC ${ARG_DEPENDS})
    set_property(GLOBAL APPEND PROPERTY WDL_MODULES wdl_${name})
endfunction()

# A Catch2 test executable for one module, registered with CTest test by test. TEST_PREFIX
# starts every CTest name, so that `ctest -R <prefix>` selects the module's tests.
# Test names must not contain ';', which CTest takes for a list separator.
function(wdl_add_test name)
    cmake_parse_arguments(ARG "" "TEST_PREFIX" "SOURCES;DEPENDS" ${ARGN})
    add_executable(${name} ${ARG_SOURCES})
    target_link_libraries(${name} PRIVATE ${ARG_DEPENDS} wdl_test_support Catch2::Catch2WithMain)
    # CTest runs each test by name; should a name match nothing (e.g. a name that the
    # discovery split at a ';'), --warn NoTests makes that run fail instead of passing empty.
    catch_discover_tests(${name} WORKING_DIRECTORY ${PROJECT_BINARY_DIR}
        TEST_PREFIX "${ARG_TEST_PREFIX}" EXTRA_ARGS --warn NoTests)
endfunction()
