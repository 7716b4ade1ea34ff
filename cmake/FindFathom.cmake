# Debian's libfathom-dev (Syzygy probing) ships neither a pkg-config nor a CMake file.
# Defines Fathom::Fathom.
find_path(FATHOM_INCLUDE_DIR tbprobe.h)
find_library(FATHOM_LIBRARY fathom)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(Fathom REQUIRED_VARS FATHOM_LIBRARY FATHOM_INCLUDE_DIR)
if(Fathom_FOUND AND NOT TARGET Fathom::Fathom)
    add_library(Fathom::Fathom UNKNOWN IMPORTED)
    set_target_properties(Fathom::Fathom PROPERTIES
        IMPORTED_LOCATION "${FATHOM_LIBRARY}"
        INTERFACE_INCLUDE_DIRECTORIES "${FATHOM_INCLUDE_DIR}")
endif()
