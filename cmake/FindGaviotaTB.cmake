# Debian's libgaviotatb-dev ships neither a pkg-config nor a CMake file: find its header and
# library, and the 3-man tables of the gaviotatb package. Defines GaviotaTB::GaviotaTB and
# GAVIOTATB_TABLE_DIR (empty if the tables are not installed).
find_path(GAVIOTATB_INCLUDE_DIR gtb-probe.h)
find_library(GAVIOTATB_LIBRARY gaviotatb)
find_path(GAVIOTATB_TABLE_DIR kqk.gtb.cp4 PATHS /usr/share/gaviotatb/gtb4 NO_DEFAULT_PATH)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(GaviotaTB REQUIRED_VARS GAVIOTATB_LIBRARY GAVIOTATB_INCLUDE_DIR)
if(GaviotaTB_FOUND AND NOT TARGET GaviotaTB::GaviotaTB)
    add_library(GaviotaTB::GaviotaTB UNKNOWN IMPORTED)
    set_target_properties(GaviotaTB::GaviotaTB PROPERTIES
        IMPORTED_LOCATION "${GAVIOTATB_LIBRARY}"
        INTERFACE_INCLUDE_DIRECTORIES "${GAVIOTATB_INCLUDE_DIR}")
endif()
