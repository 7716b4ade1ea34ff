# Each module of the library (io, pgn, chess, ...) is a static library wdl_<name>;
# `wdl` links them all, so programs and tests depend on one library target.
function(wdl_add_module name)
    cmake_parse_arguments(ARG "" "" "SOURCES;DEPENDS" ${ARGN})
    add_library(wdl_${name} STATIC ${ARG_SOURCES})
    target_include_directories(wdl_${name} PUBLIC ${PROJECT_SOURCE_DIR}/include)
    target_link_libraries(wdl_${name} PUBLIC ${ARG_DEPENDS})
    set_property(GLOBAL APPEND PROPERTY WDL_MODULES wdl_${name})
endfunction()

# A Catch2 test executable for one module, registered with CTest test by test.
function(wdl_add_test name)
    cmake_parse_arguments(ARG "" "" "SOURCES;DEPENDS" ${ARGN})
    add_executable(${name} ${ARG_SOURCES})
    target_link_libraries(${name} PRIVATE ${ARG_DEPENDS} Catch2::Catch2WithMain)
    target_compile_definitions(${name} PRIVATE
        WDL_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
        WDL_SHARED_DIR="${PROJECT_SOURCE_DIR}/../shared"
        WDL_BINARY_DIR="${PROJECT_BINARY_DIR}")
    catch_discover_tests(${name} WORKING_DIRECTORY ${PROJECT_BINARY_DIR})
endfunction()
