#!/usr/bin/env bash
# The core built alone, as on a machine without Ceres Solver, libcurl, Gaviota or OpenMP: the
# three components off and those packages hidden from CMake, so that configuring fails if
# anything still looks for them. The scanner, merge, query, export, synth and annotate programs
# build, run on the bundled games and link none of those libraries; the others are not built.
#   minimal_build.sh SOURCE_DIR WORK_DIR
set -euo pipefail
source_dir=$1 work=$2
fail() {
    echo "FAIL: $*" >&2
    exit 1
}
cd "$source_dir"
source scripts/compiler-cache.sh
rm -rf "$work"
mkdir -p "$work"
# As scripts/test.sh builds (a unity build), in a folder beside the build folder (the same
# depth, so the same relative paths): the compiler cache, when there is one, then holds most of
# it already.
cmake -S . -B "$work" -G Ninja -DCMAKE_BUILD_TYPE=Release "${compiler_cache_options[@]}" \
    -DCMAKE_UNITY_BUILD=ON -DWDL_WERROR=ON -DWDL_WITH_FIT=OFF -DWDL_WITH_DOWNLOAD=OFF -DWDL_WITH_ENDGAMES=OFF \
    -DCMAKE_DISABLE_FIND_PACKAGE_Ceres=ON -DCMAKE_DISABLE_FIND_PACKAGE_CURL=ON \
    -DCMAKE_DISABLE_FIND_PACKAGE_GaviotaTB=ON -DCMAKE_DISABLE_FIND_PACKAGE_OpenMP=ON \
    >"$work/configure.log" 2>&1 || { cat "$work/configure.log" >&2; fail "configuring the core"; }
grep -q "the test suite is left out" "$work/configure.log" || fail "no note that the tests are left out"
cmake --build "$work" -j "$(nproc)" >"$work/build.log" 2>&1 ||
    { tail -30 "$work/build.log" >&2; fail "building the core"; }

apps=$work/apps
for program in scoreWDLstat mergeWDLstat synthWDL annotateWDL queryWDL exportWDL wdlfit; do
    [[ -x $apps/$program ]] || fail "$program was not built"
    if ldd "$apps/$program" | grep -Ei 'ceres|glog|curl|gaviota|gomp'; then
        fail "$program links a library of a component that is off"
    fi
done
for program in scoreWDL compareWDL trackWDL markovWDL download_fishtest_pgns \
    download_missing_metadata generateTables scoreCompetence; do
    [[ ! -e $apps/$program ]] || fail "$program was built with its component off"
done

# The core at work: scan the bundled games, merge the counts with themselves, query and export.
out=$work/run
mkdir -p "$out"
"$apps/scoreWDLstat" --dir data -r -o "$out/counts.json" >"$out/scan.log" ||
    fail "scoreWDLstat: $(tail -3 "$out/scan.log")"
grep -q "^Wrote 87993 scored positions from 798 games" "$out/scan.log" ||
    fail "the scan of data/ did not count its 87993 positions: $(tail -3 "$out/scan.log")"
"$apps/mergeWDLstat" "$out/counts.json" "$out/counts.json" -o "$out/twice.json" >/dev/null ||
    fail "mergeWDLstat"
"$apps/queryWDL" --model sf18 --evals 100 --materials 58 >"$out/query.log" || fail "queryWDL"
grep -Eq "^ +58 +\+100.0 .* 500.0 +500.0 " "$out/query.log" || fail "queryWDL sf18 at +1.00: $(cat "$out/query.log")"
"$apps/exportWDL" --model sf18 --language python -o "$out/model.py" >/dev/null || fail "exportWDL"
[[ -s $out/model.py ]] || fail "exportWDL wrote nothing"
# The entry point says plainly that a program of a component left out is not here.
if "$apps/wdlfit" fit --help >"$out/entry.log" 2>&1; then fail "wdlfit fit ran"; fi
grep -q "scoreWDL is not in this build of wdlfit: it was configured with -DWDL_WITH_FIT=OFF" \
    "$out/entry.log" || fail "wdlfit fit: $(cat "$out/entry.log")"
"$apps/wdlfit" help | grep -q "^  scan  *scoreWDLstat" || fail "wdlfit help lacks scan"
if "$apps/wdlfit" help | grep -Eq "scoreWDL |generateTables|download_fishtest_pgns"; then
    fail "wdlfit help lists a program this build left out"
fi
echo "the core built alone: $(ls "$apps" | grep -cxE 'scoreWDLstat|mergeWDLstat|synthWDL|annotateWDL|queryWDL|exportWDL') programs, none linking Ceres, curl, Gaviota or OpenMP"
