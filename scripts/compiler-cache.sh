# Sourced by the build scripts: when ccache is installed, compile through it.
# compiler_cache_options holds the cmake arguments (empty without ccache). Paths below the
# repository are hashed relative to it and the working folder is left out of the hash, so that
# a fresh clone elsewhere (as .ci/run makes) hits the cache that an earlier build filled; debug
# information then names the folder of the build that filled the cache.
compiler_cache_options=()
if command -v ccache >/dev/null 2>&1 && [[ ${CCACHE_DISABLE:-0} != 1 ]]; then
    export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD}
    export CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-true}
    # Four builds (Release, two sanitizers, fuzzing) of about 0.4-1 GB each fit with room.
    export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
    # The precompiled headers of clang's trees (src/ and tests/support/CMakeLists.txt) are
    # cached, and so are the compiles that use them, only with these (the project uses no
    # __DATE__ or __TIME__).
    export CCACHE_SLOPPINESS=${CCACHE_SLOPPINESS:-pch_defines,time_macros,include_file_mtime,include_file_ctime}
    compiler_cache_options=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
