# What `cmake --install` puts beside the programs (apps/CMakeLists.txt installs those), and the
# Debian package of it all: `cpack -G DEB` in the build folder (scripts/package.sh).
include(GNUInstallDirs)
# The project has no public mailbox yet: a no-reply address of the form GitHub gives projects,
# well-formed (lintian's bogus-mail-host refused the old "dev@wdlfit") but read by nobody, and
# naming no person. A release sets its own with -DWDL_PACKAGE_CONTACT=.
set(WDL_PACKAGE_CONTACT "wdlfit developers <wdlfit@users.noreply.github.com>" CACHE STRING
    "Maintainer of the Debian package, as 'Name <address>'")
# A build folder configured before keeps the old default in its cache: replace that one only.
if(WDL_PACKAGE_CONTACT STREQUAL "wdlfit developers <dev@wdlfit>")
    set_property(CACHE WDL_PACKAGE_CONTACT PROPERTY VALUE
        "wdlfit developers <wdlfit@users.noreply.github.com>")
endif()
set(WDL_DOC_DIR ${CMAKE_INSTALL_DATADIR}/doc/wdlfit)
install(FILES README.md DESTINATION ${WDL_DOC_DIR})
install(DIRECTORY docs/ DESTINATION ${WDL_DOC_DIR}/docs)
install(PROGRAMS scripts/slurm/submit.sh scripts/slurm/scan_shard.sbatch
                 scripts/slurm/merge_fit.sbatch
    DESTINATION ${CMAKE_INSTALL_DATADIR}/wdlfit/slurm)

# Debian wants its copyright file and a compressed changelog in the documentation folder.
configure_file(cmake/debian/changelog.in ${PROJECT_BINARY_DIR}/changelog @ONLY)
set(changelog ${PROJECT_BINARY_DIR}/changelog.gz)
add_custom_command(OUTPUT ${changelog}
    COMMAND gzip -9n -c ${PROJECT_BINARY_DIR}/changelog > ${changelog}
    DEPENDS ${PROJECT_BINARY_DIR}/changelog)
add_custom_target(wdlfit_changelog ALL DEPENDS ${changelog})
install(FILES ${changelog} cmake/debian/copyright DESTINATION ${WDL_DOC_DIR})
# The lintian findings the package keeps on purpose, each with its reason (docs/install.md).
install(FILES cmake/debian/lintian-overrides DESTINATION ${CMAKE_INSTALL_DATADIR}/lintian/overrides
    RENAME wdlfit)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME wdlfit)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT ${WDL_PACKAGE_CONTACT})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "win/draw/loss models of chess engines from their games")
set(CPACK_PACKAGE_DESCRIPTION
    "wdlfit scans engine-vs-engine games (fishtest, cutechess, fastchess,
OpenBench) into counts of positions and fits the win/draw/loss model that
Stockfish ships as as[], bs[] and NormalizeToPawnValue, with error bars,
held-out validation and model comparison. The programs keep the names of
Stockfish's WDL_model tools (scoreWDLstat, scoreWDL, updateWDL.sh) and are
also reached through one entry point, wdlfit.")
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# The shared libraries come from dpkg-shlibdeps; plots need gnuplot; updateWDL.sh needs git and
# jq; Gaviota's 3-4-man tables serve scoreCompetence.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "gnuplot-nox | gnuplot")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "git, jq")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "gaviotatb")
include(CPack)
