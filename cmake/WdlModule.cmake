# Each module of the library (io, pgn, chess, ...) is a static library wdl_<name> that links
# the modules it depends on; programs and tests link the modules they use. Under clang its files
# take the headers most of them include from the modules' shared precompiled header
# (src/CMakeLists.txt).
function(wdl_add_module name)
    cmake_parse_arguments(ARG "" "" "SOURCES;DEPENDS" ${ARGN})
    add_library(wdl_${name} STATIC ${ARG_SOURCES})
    if(TARGET wdl_module_headers)
        target_precompile_headers(wdl_${name} REUSE_FROM wdl_module_headers)
    endif()
    target_include_directories(wdl_${name} PUBLIC ${PROJECT_SOURCE_DIR}/include)
    target_link_libraries(wdl_${name} PUBLIC ${ARG_DEPENDS})
endfunction()

# The sources whose loops run per position or per game (move generation, PGN parsing, the
# replay, counting, the loss sums, the sampler) are compiled at -O1 in the Check build type,
# still instrumented: the suite's scans and fits spend their time there. Everything else stays
# at the type's -O0, which compiles in about two thirds of the time (docs/development.md,
# "CI's time"). Call it in the directory that adds the sources. A precompiled header is taken
# only with the flags it was made with: these sources parse their headers themselves there.
function(wdl_optimized_in_check)
    set_source_files_properties(${ARGN} PROPERTIES COMPILE_OPTIONS $<$<CONFIG:Check>:-O1>)
    if(CMAKE_BUILD_TYPE STREQUAL "Check")
        set_source_files_properties(${ARGN} PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
    endif()
endfunction()

# How a test's own files are compiled. A test's own code sets up and asserts; the work it drives
# is the library's, optimized as the build type says: -O1 instead of -O3 compiles a test file in
# about two thirds of the time. OPTIMIZED_IN_CHECK (below) takes the Check type to -O1 too.
function(wdl_set_test_compile_options target optimized_in_check)
    target_compile_options(${target} PRIVATE $<$<CONFIG:Release,RelWithDebInfo>:-O1>)
    if(optimized_in_check)
        target_compile_options(${target} PRIVATE $<$<CONFIG:Check>:-O1>)
    endif()
endfunction()

# A target NAME whose precompiled header of HEADERS other targets reuse (REUSE_FROM), made with
# the flags that linking LINK gives (a precompiled header is taken only with the flags it was made
# with). Made under clang only: g++ 12 loses the standard headers' exemption from -Warray-bounds
# and -Wstringop-overread when they come precompiled, and then warns falsely of std::string's
# copies of literals, in some files and not others; users check `if(TARGET NAME)`. Without the
# headers' times in it, the precompiled header from the compiler cache serves a fresh clone too.
function(wdl_add_precompiled_headers name)
    cmake_parse_arguments(ARG "" "" "HEADERS;LINK" ${ARGN})
    if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
        return()
    endif()
    add_library(${name} OBJECT ${PROJECT_SOURCE_DIR}/src/precompiled_headers.cpp)
    target_precompile_headers(${name} PRIVATE ${ARG_HEADERS})
    target_link_libraries(${name} PRIVATE ${ARG_LINK})
    target_compile_options(${name} PRIVATE SHELL:-Xclang -fno-pch-timestamp)
endfunction()

# A Catch2 test executable for one module, registered with CTest test by test. TEST_PREFIX
# starts every CTest name, so that `ctest -R <prefix>` selects the module's tests; LABEL
# marks a group such as `threaded` (run again under ThreadSanitizer) for `ctest -L`.
# Test names must not contain ';', which CTest takes for a list separator.
# A test that cannot run here calls wdl::testing::skip_test (tests/support/skip.hpp): under
# CTest (WDL_TEST_UNDER_CTEST) it prints WDL_TEST_SKIPPED, which CTest reports as Skipped.
# TIMEOUT (seconds) fails a test that runs longer, so that a hang fails instead of stalling CI;
# the default, WDL_TEST_TIMEOUT, leaves room for the slowest test under AddressSanitizer on a
# slow machine (tests added by add_test set it too). OPTIMIZED_IN_CHECK compiles the test's own
# files at -O1 in the Check type too: for tests whose own code does heavy work (building large
# inputs, parsing JSON counts, an independent objective), which at -O0 under a sanitizer ran
# several times longer than the extra compile time.
# Under clang each test reuses the precompiled header of the headers nearly all tests include
# (tests/support/CMakeLists.txt) built with its flags; a test that compiles with OpenMP itself
# (DEPENDS OpenMP::OpenMP_CXX) cannot, and parses its headers itself.
set(WDL_TEST_TIMEOUT 900)
function(wdl_add_test name)
    cmake_parse_arguments(ARG "OPTIMIZED_IN_CHECK" "TEST_PREFIX;LABEL;TIMEOUT" "SOURCES;DEPENDS"
        ${ARGN})
    if(NOT ARG_TIMEOUT)
        set(ARG_TIMEOUT ${WDL_TEST_TIMEOUT})
    endif()
    add_executable(${name} ${ARG_SOURCES})
    target_link_libraries(${name} PRIVATE ${ARG_DEPENDS} wdl_test_support Catch2::Catch2WithMain)
    wdl_set_test_compile_options(${name} "${ARG_OPTIMIZED_IN_CHECK}")
    if(TARGET wdl_test_headers AND NOT "OpenMP::OpenMP_CXX" IN_LIST ARG_DEPENDS)
        if(ARG_OPTIMIZED_IN_CHECK)
            target_precompile_headers(${name} REUSE_FROM wdl_test_headers_optimized)
        else()
            target_precompile_headers(${name} REUSE_FROM wdl_test_headers)
        endif()
    endif()
    # CTest runs each test by name; should a name match nothing (e.g. a name that the
    # discovery split at a ';'), --warn NoTests makes that run fail instead of passing empty.
    set(properties ENVIRONMENT WDL_TEST_UNDER_CTEST=1 SKIP_REGULAR_EXPRESSION WDL_TEST_SKIPPED
        TIMEOUT ${ARG_TIMEOUT})
    if(ARG_LABEL)
        list(APPEND properties LABELS ${ARG_LABEL})
    endif()
    catch_discover_tests(${name} WORKING_DIRECTORY ${PROJECT_BINARY_DIR}
        TEST_PREFIX "${ARG_TEST_PREFIX}" EXTRA_ARGS --warn NoTests PROPERTIES ${properties})
endfunction()
