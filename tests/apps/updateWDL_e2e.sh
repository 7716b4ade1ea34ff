#!/usr/bin/env bash
# End-to-end test of updateWDL.sh on a fixture Stockfish repository and real fishtest games.
# Usage: updateWDL_e2e.sh SOURCE_DIR BIN_DIR WORK_DIR
set -euo pipefail

source_dir=$1
bin_dir=$2
work=$3
rm -rf "$work"
mkdir -p "$work"
cd "$work"

failures=0
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}
expect_line() { # expect_line FILE REGEX
    grep -qE "$2" "$1" || fail "no line matching /$2/ in $1:$(printf '\n'; cat "$1")"
}

# --- A Stockfish-like repository: two revisions with a static normalization, two with a
# dynamic one.
sf=$work/Stockfish
mkdir -p "$sf/src"
git -C "$sf" init -q
commit() { git -C "$sf" add -A && git -C "$sf" -c user.name=t -c user.email=t@t commit -q -m "$1"; }
cat >"$sf/src/uci.h" <<'SRC'
namespace Stockfish {
// NormalizeToPawnValue = 999 in a comment is not the value
const int NormalizeToPawnValue = 328;
}
SRC
echo "int evaluate() { return 0; }" >"$sf/src/uci.cpp"
commit "static normalization"
echo "int evaluate() { return 1; }" >"$sf/src/uci.cpp"
commit "a patch under the static normalization"
c1=$(git -C "$sf" rev-parse HEAD~1)
c2=$(git -C "$sf" rev-parse HEAD)
echo "namespace Stockfish {}" >"$sf/src/uci.h"
cat >"$sf/src/uci.cpp" <<'SRC'
int win_rate_params(int material) {
    double m = std::clamp(material, 17, 78) / 58.0;
    constexpr double as[] = {-37.45051876, 121.19101539, -132.78783573, 420.70576692};
    constexpr double bs[] = {90.26261072, -137.26549898, 71.10130540, 51.35259597};
}
SRC
commit "dynamic normalization"
echo "// a patch under the dynamic normalization" >>"$sf/src/uci.cpp"
commit "a patch under the dynamic normalization"
c3=$(git -C "$sf" rev-parse HEAD~1)
c4=$(git -C "$sf" rev-parse HEAD)

# Revisions whose normalizations differ from their predecessor's only in a value, and one that
# carries both forms.
write_static() { # write_static PAWN_VALUE
    printf 'namespace Stockfish {\nconst int NormalizeToPawnValue = %s;\n}\n' "$1" >"$sf/src/uci.h"
    echo "int evaluate() { return 2; }" >"$sf/src/uci.cpp"
}
write_dynamic() { # write_dynamic AS_COEFFICIENTS
    echo "namespace Stockfish {}" >"$sf/src/uci.h"
    cat >"$sf/src/uci.cpp" <<SRC
int win_rate_params(int material) {
    double m = std::clamp(material, 17, 78) / 58.0;
    constexpr double as[] = {$1};
    constexpr double bs[] = {90.26261072, -137.26549898, 71.10130540, 51.35259597};
}
SRC
}
write_static 328
commit "static normalization again"
c5=$(git -C "$sf" rev-parse HEAD)
write_static 330
commit "a new pawn value"
c6=$(git -C "$sf" rev-parse HEAD)
write_dynamic "-37.45051876, 121.19101539, -132.78783573, 420.70576692"
commit "dynamic normalization again"
c7=$(git -C "$sf" rev-parse HEAD)
write_dynamic "-37.45051876, 121.19101539, -132.78783573, 421.70576692"
commit "new as[]"
c8=$(git -C "$sf" rev-parse HEAD)
printf 'namespace Stockfish {\nconst int NormalizeToPawnValue = 356;\n}\n' >"$sf/src/uci.h"
commit "both forms: the static NormalizeToPawnValue and the as[] of uci.cpp"
c9=$(git -C "$sf" rev-parse HEAD)

# --- Real games in the download layout, their engines renamed to the fixture revisions, with
# metadata that passes updateWDL's filters (LTC, 1 thread, UHO_Lichess book, Elo diff 0).
pgns=$work/pgns
add_test() { # add_test SOURCE_TEST_DIR BOOK BASE NEW
    local id date old_base old_new
    id=$(basename "$1")
    date=$(basename "$(dirname "$1")")
    mkdir -p "$pgns/$date/$id"
    old_base=$(grep -oP '"resolved_base":\s*"\K[0-9a-f]+' "$1/$id.json")
    old_new=$(grep -oP '"resolved_new":\s*"\K[0-9a-f]+' "$1/$id.json")
    for game_file in "$1"/*.pgn.gz; do
        zcat "$game_file" | sed -e "s/$old_base/$3/g" -e "s/$old_new/$4/g" |
            gzip >"$pgns/$date/$id/$(basename "$game_file")"
    done
    cat >"$pgns/$date/$id/$id.json" <<JSON
{"args": {"book": "$2", "tc": "60+0.6", "new_tc": "60+0.6", "threads": 1,
          "resolved_base": "$3", "resolved_new": "$4",
          "sprt": {"elo0": 0, "elo1": 2, "alpha": 0.05, "beta": 0.05}},
 "results": {"wins": 1, "losses": 1, "draws": 1, "pentanomial": [10, 20, 40, 20, 10]},
 "start_time": "2024-07-21T11:26:57.000+00:00", "_id": "$id"}
JSON
}
add_test "$source_dir/data/24-07-21/716838bf67ed35143299f7d3" UHO_Lichess_4852_v1.epd "$c1" "$c2"
add_test "$source_dir/data/25-04-09/1508b764ed7a051de89f949b" UHO_Lichess_4852_v2.epd "$c3" "$c4"
# Games of other revisions must not count.
add_test "$source_dir/data/24-02-03/612f7c8d874ae45ba4afbc79" UHO_Lichess_4852_v1.epd \
    1111111111111111111111111111111111111111 2222222222222222222222222222222222222222

run_update() { # run_update NAME [OPTIONS...]: runs in its own folder, output in NAME/out.txt
    local name=$1
    shift
    mkdir -p "$work/$name"
    (cd "$work/$name" && WDL_BIN_DIR=$bin_dir bash "$source_dir/updateWDL.sh" \
        --stockfish "$sf" --pgnpath "$pgns" "$@" >out.txt 2>&1)
}

# check_report NAME NEW LOW HIGH OLD: report.md and report.html of a run have every section, and
# the numbers of its printed lines.
check_report() {
    local name=$1 new=$2 low=$3 high=$4 old=$5 md=$1/report/report.md html=$1/report/report.html
    [[ -s $md && -s $html ]] || {
        fail "$name: no report.md or report.html: $(cat "$name/report.log")"
        return
    }
    local section
    for section in "The run" "Verdict" "Display mapping, old to new" "W/D/L at displayed evals" \
        "Held-out scores" "The data" "Plots"; do
        expect_line "$md" "^## $section\$"
        grep -qF "<h2>$section</h2>" "$html" || fail "$name: report.html lacks $section"
    done
    [[ $(grep -c '^Reproduce: ' "$md") -eq 7 ]] || fail "$name: a section without its Reproduce line"
    # updateWDL.sh's lines, quoted verbatim.
    local line
    while IFS= read -r line; do
        grep -qxF -- "$line" "$md" || fail "$name: report.md does not quote \"$line\""
    done < <(grep -v '^The report of the update\|^ended at' "$name/out.txt")
    # The verdict, as the printed lines state it.
    if [[ $new -ne $old ]]; then
        expect_line "$md" "^NormalizeToPawnValue should change from $old to $new\.\$"
    else
        expect_line "$md" "^NormalizeToPawnValue should stay at $old\.\$"
    fi
    local interval
    interval=$(printf '%.0f \\.\\. %.0f' "$low" "$high")
    expect_line "$md" "^The old value $old lies (inside|outside) the 95 % interval $interval of the fitted value "
    local place
    place=$(grep -oP '^The old value [0-9]+ lies \K(inside|outside)' "$name/out.txt")
    expect_line "$md" "^The old value $old lies $place "
    expect_line "$md" '^The interval assumes: jackknife over [0-9]+ game groups'
    # The data: the scan's games and the count file's checksum.
    local accepted
    accepted=$(jq -r .games.accepted "$name/updateWDL_scan.json")
    expect_line "$md" "^\\| games accepted \\| $accepted \\|\$"
    expect_line "$md" '^\| `updateWDL.json` \| [0-9a-f]{8} \|$'
    expect_line "$md" '^\| time controls \| 60\+0\.6 \|$'
    grep -q 'data-images-loaded' "$html" || fail "$name: report.html lacks its image check"
    ! grep -qE '(src|href)="https?:' "$html" || fail "$name: report.html fetches from the network"
}

# --- Static normalization: 178 of the 180 games of the 24-07-21 test count (ref. counts).
if run_update static --firstrev "$c1" --lastrev "$c2"; then
    expect_line static/out.txt \
        '^Based on [0-9]+ positions from 178 games, NormalizeToPawnValue should (change from 328 to [0-9]+|stay at 328)\.$'
    expect_line static/scoreWDL.log 'NormalizeToPawnValue = 328'
    retained=$(grep -oP 'Retained \(W,D,L\) = \(\K[0-9, ]+' static/scoreWDL.log | tr -d ' ' |
        awk -F, '{ print $1 + $2 + $3 }')
    expect_line static/out.txt "^Based on $retained positions from 178 games"
    new=$(grep -oP 'const int NormalizeToPawnValue = \K\d+' static/scoreWDL.log)
    expect_line static/out.txt "(to $new|stay at $new)\.\$"
    expect_line static/out.txt '^The fitted value has a standard error of [0-9]+\.[0-9]{2} '
    # The verdict follows the interval of the jackknife over the scan's 64 game groups.
    expect_line static/scoreWDL.log 'jackknife over [0-9]+ game groups'
    read -r low high < <(jq -r '.model.resampling.estimates.NormalizeToPawnValue.interval | "\(.[0]) \(.[1])"' \
        static/updateWDL_fit.json)
    if awk -v l="$low" -v h="$high" 'BEGIN { exit !(l <= 328 && 328 <= h) }'; then
        verdict='lies inside the 95 % interval .*: the change is within the noise\.$'
    else
        verdict='lies outside the 95 % interval .*: the change is significant\.$'
    fi
    expect_line static/out.txt "^The old value 328 $verdict"
    expect_line static/out.txt '\(\+- [0-9.]+, jackknife over [0-9]+ game groups\)'
    [[ $(head -1 static/updateWDL.json | jq -r .format) == wdlfit-grouped-counts ]] ||
        fail "static: the scan wrote no grouped counts"
    [[ -s static/updateWDL.json ]] || fail "static: no updateWDL.json"
    check_report static "$new" "$low" "$high" 328
    # A static normalization has no bs: no old model to compare with.
    expect_line static/report/report.md '^No old model to compare with'
else
    fail "static run failed: $(cat static/out.txt)"
fi

# --- Dynamic normalization, firstrev by default the latest model change (c3):
# round(sum(as)) = 372.
if run_update dynamic --lastrev "$c4"; then
    expect_line dynamic/out.txt "between $c3 "
    expect_line dynamic/out.txt \
        '^Based on [0-9]+ positions from 160 games, NormalizeToPawnValue should (change from 372 to [0-9]+|stay at 372)\.$'
    expect_line dynamic/scoreWDL.log "NormalizeData = .*momMin.: 17"
    new=$(jq -r .model.NormalizeToPawnValue dynamic/updateWDL_fit.json)
    read -r low high < <(jq -r '.model.resampling.estimates.NormalizeToPawnValue.interval | "\(.[0]) \(.[1])"' \
        dynamic/updateWDL_fit.json)
    check_report dynamic "$new" "$low" "$high" 372
    # The old model is the one of the first revision's source, as[] and bs[].
    grep -qF -- "--oldModel $sf@$c3" dynamic/report/report.md ||
        fail "dynamic: the report's fit lacks --oldModel $sf@$c3"
    ! grep -q '^No old model' dynamic/report/report.md || fail "dynamic: no old model in the report"
    expect_line dynamic/report/report.md '^\| old model \(as, bs\) \| [0-9.]+ \+- [0-9.]+ \|'
    expect_line dynamic/report/report.md '^\| 58 \| [0-9]+ \| [0-9]+ \| [0-9]+ \| [0-9]+ \| [0-9]+ \|$'
    expect_line dynamic/report/report.md "^Stockfish revisions: $c3 \\(.*\\) \\.\\. $c4 "
    for png in fit.png old_vs_new.png calibration.png; do
        [[ -s dynamic/report/$png ]] || fail "dynamic: no report/$png"
        expect_line dynamic/report/report.md "\\]\\($png\\)"
    done
    [[ $(grep -o 'src="data:image/png;base64,' dynamic/report/report.html | wc -l) -eq 3 ]] ||
        fail "dynamic: report.html does not embed the 3 plots"
    # As a browser shows it, without network (tests/apps/test_scoreWDL_report.cpp takes the
    # screenshot): every image decoded, the verdict's numbers in the page.
    if command -v chromium >/dev/null; then
        chromium --headless=new --no-sandbox --disable-gpu --no-proxy-server \
            --host-resolver-rules="MAP * ~NOTFOUND" --user-data-dir="$work/chromium-profile" \
            --dump-dom "file://$work/dynamic/report/report.html" >dynamic/dom.html 2>/dev/null ||
            fail "dynamic: chromium could not load report.html"
        grep -q 'data-images-loaded="3/3"' dynamic/dom.html ||
            fail "dynamic: not every image of report.html loaded in chromium"
        grep -q "NormalizeToPawnValue should change from 372 to $new\.\|should stay at 372\." \
            dynamic/dom.html || fail "dynamic: the verdict is not in the page"
    fi
else
    fail "dynamic run failed: $(cat dynamic/out.txt)"
fi

# --- Mixed normalizations are refused: static and dynamic, two pawn values, two as[].
expect_refusal() { # expect_refusal NAME FIRSTREV LASTREV
    if run_update "$1" --firstrev "$2" --lastrev "$3"; then
        fail "$1: mixed normalizations were accepted: $(cat "$1/out.txt")"
    else
        expect_line "$1/out.txt" "has wrong NormalizeData"
        expect_line "$1/out.txt" "mix normalizations"
        [[ ! -e $1/updateWDL.json ]] || fail "$1: scanned anyway"
    fi
}
expect_refusal mixed "$c1" "$c4"
expect_refusal pawnvalue "$c5" "$c6"
expect_line pawnvalue/out.txt "^Revision $c6 has wrong NormalizeData \(--NormalizeToPawnValue 330 != --NormalizeToPawnValue 328\)"
expect_refusal as "$c7" "$c8"
expect_line as/out.txt "^Revision $c8 has wrong NormalizeData .*421\.70576692.* != .*420\.70576692"

# --- The sentence and the exact scan/fit options, with stand-in programs.
fake_bin=$work/fake_bin
mkdir -p "$fake_bin"
# The stand-ins write what the real programs' --json would hold (the file after --json).
cat >"$fake_bin/scoreWDLstat" <<'FAKE'
#!/usr/bin/env bash
printf '%s\n' "$@" >scoreWDLstat.args
json=$(printf '%s\n' "$@" | grep -A1 -x -- --json | tail -n 1)
echo "{\"games\": {\"read\": 60, \"accepted\": ${FAKE_GAMES:-56}}, \"positions\": 1234}" >"$json"
FAKE
cat >"$fake_bin/scoreWDL" <<'FAKE'
#!/usr/bin/env bash
# The report's run only leaves its arguments.
if printf '%s\n' "$@" | grep -qx -- --report; then
    printf '%s\n' "$@" >scoreWDL_report.args
    exit 0
fi
printf '%s\n' "$@" >scoreWDL.args
json=$(printf '%s\n' "$@" | grep -A1 -x -- --json | tail -n 1)
# FAKE_RETAINED=none leaves the counts out.
retained='"retained": {"W": 1, "D": 2, "L": 3}'
[[ ${FAKE_RETAINED:-} == none ]] && retained='"retained": {}'
[[ ${FAKE_RETAINED:-} == zero ]] && retained='"retained": {"W": 0, "D": 0, "L": 0}'
# FAKE_INTERVAL="low high" adds the jackknife's interval of NormalizeToPawnValue.
resampling=""
if [[ -n ${FAKE_INTERVAL:-} ]]; then
    read -r low high <<<"$FAKE_INTERVAL"
    resampling=", \"resampling\": {\"method\": \"jackknife\", \"groups\": 64, \"groupBy\": \"game\",
        \"estimates\": {\"NormalizeToPawnValue\": {\"standardError\": 2.5, \"interval\": [$low, $high]}}}"
fi
model="\"model\": {\"NormalizeToPawnValue\": 328$resampling}"
[[ -n ${FAKE_NO_PAWN_VALUE:-} ]] && model='"model": {}'
echo "{$retained, $model}" >"$json"
FAKE
chmod +x "$fake_bin"/*
scan_arguments() { # scan_arguments ELODIFFMAX [GROUPS]: the scan's arguments for revisions c1 to c2
    printf '%s\n' --dir "$pgns" -r --matchTC '60\+0.6' --matchThreads 1 --EloDiffMax "$1" \
        --matchRev ".*$c2|.*$c1" --matchBook 'UHO_Lichess_4852_v..epd' --groups "${2:-64}" \
        -o updateWDL.json --json updateWDL_scan.json
}
if (bin_dir=$fake_bin run_update fake --firstrev "$c1" --lastrev "$c2"); then
    expect_line fake/out.txt \
        '^Based on 6 positions from 56 games, NormalizeToPawnValue should stay at 328\.$'
    ! grep -q 'would roughly map' fake/out.txt || fail "a display mapping for an unchanged value"
    [[ $(cat fake/scoreWDLstat.args) == "$(scan_arguments 5)" ]] ||
        fail "scan options: $(cat fake/scoreWDLstat.args)"
    for option in "--momType material" "--momTarget 58" "--materialMin 17" "--moveMin 1" \
        "--modelFitting optimizeProbability" "--NormalizeToPawnValue 328"; do
        tr '\n' ' ' <fake/scoreWDL.args | grep -q -- "$option" || fail "fit lacks $option"
        tr '\n' ' ' <fake/scoreWDL_report.args | grep -q -- "$option" ||
            fail "the report's fit lacks $option"
    done
    for option in "--report report" "--updateLog updateWDL.log" \
        "--scanSummary updateWDL_scan.json" "--revisionRange $c1 "; do
        tr '\n' ' ' <fake/scoreWDL_report.args | grep -q -- "$option" || fail "report lacks $option"
    done
    ! grep -q -- --oldModel fake/scoreWDL_report.args || fail "an old model of a static revision"
    expect_line fake/out.txt '^The report of the update: report/report\.md and report/report\.html\.$'
    [[ $(cat fake/updateWDL.log) == "$(cat fake/out.txt)" ]] ||
        fail "updateWDL.log is not the lines printed: $(cat fake/updateWDL.log)"
else
    fail "fake run failed: $(cat fake/out.txt)"
fi
if (bin_dir=$fake_bin FAKE_GAMES=0 run_update nogames --firstrev "$c1" --lastrev "$c2" \
    --EloDiffMax 3); then
    expect_line nogames/out.txt '^No games found for revisions of interest\.$'
    [[ $(cat nogames/scoreWDLstat.args) == "$(scan_arguments 3)" ]] ||
        fail "--EloDiffMax 3 not passed on: $(cat nogames/scoreWDLstat.args)"
else
    fail "nogames run failed: $(cat nogames/out.txt)"
fi
# The verdict: the old value inside or outside the interval of the fit; --groups goes to the scan.
if (bin_dir=$fake_bin FAKE_INTERVAL="325.2 330.9" run_update inside --firstrev "$c1" --lastrev "$c2" \
    --groups 32); then
    expect_line inside/out.txt \
        '^The old value 328 lies inside the 95 % interval 325 \.\. 331 of the fitted value \(\+- 2\.5, jackknife over 64 game groups\): the change is within the noise\.$'
    [[ $(cat inside/scoreWDLstat.args) == "$(scan_arguments 5 32)" ]] ||
        fail "--groups 32 not passed on: $(cat inside/scoreWDLstat.args)"
else
    fail "inside run failed: $(cat inside/out.txt)"
fi
if (bin_dir=$fake_bin FAKE_INTERVAL="329.5 336" run_update outside --firstrev "$c1" --lastrev "$c2"); then
    expect_line outside/out.txt \
        '^The old value 328 lies outside the 95 % interval 330 \.\. 336 .*: the change is significant\.$'
else
    fail "outside run failed: $(cat outside/out.txt)"
fi
# Without error bars (e.g. a fit that did not resample) there is no verdict.
! grep -q '^The old value' fake/out.txt || fail "a verdict without an interval"

# A revision with both forms is read as static: uci.h's NormalizeToPawnValue wins over as[].
if (bin_dir=$fake_bin run_update both --firstrev "$c9" --lastrev "$c9"); then
    expect_line both/out.txt \
        '^Based on 6 positions from 56 games, NormalizeToPawnValue should change from 356 to 328\.$'
    # Upstream's line after it: 100 x 328 / 356 = 92.13, truncated.
    expect_line both/out.txt '^In the updated WDL model, 92cp would roughly map to 100cp\.$'
    tr '\n' ' ' <both/scoreWDL.args | grep -q -- "--NormalizeToPawnValue 356 " ||
        fail "both: fit lacks --NormalizeToPawnValue 356: $(cat both/scoreWDL.args)"
    ! grep -q -- --NormalizeData both/scoreWDL.args || fail "both: the fit got as[]"
else
    fail "both run failed: $(cat both/out.txt)"
fi

# --- A fit without positions and a failed build end with an error line and status 1.
expect_no_positions() { # expect_no_positions NAME RETAINED
    if (bin_dir=$fake_bin FAKE_RETAINED=$2 run_update "$1" --firstrev "$c1" --lastrev "$c2"); then
        fail "$1: no positions went unnoticed: $(cat "$1/out.txt")"
    else
        expect_line "$1/out.txt" '^No positions found\.$'
        ! grep -q '^Based on' "$1/out.txt" || fail "$1: a sentence without positions"
    fi
}
expect_no_positions noretained none
expect_no_positions zeroretained zero
if (bin_dir=$fake_bin FAKE_NO_PAWN_VALUE=1 run_update nopawnvalue --firstrev "$c1" --lastrev "$c2"); then
    fail "a fit without NormalizeToPawnValue went unnoticed: $(cat nopawnvalue/out.txt)"
else
    expect_line nopawnvalue/out.txt '^Error: scoreWDL gave no NormalizeToPawnValue'
fi
# updateWDL.sh builds wdlfit with the scripts/build.sh next to it when WDL_BIN_DIR is unset.
broken_checkout=$work/broken_checkout
mkdir -p "$broken_checkout/scripts" "$work/buildfail"
cp "$source_dir/updateWDL.sh" "$broken_checkout/"
printf '#!/usr/bin/env bash\necho "compiler exploded"\nexit 1\n' >"$broken_checkout/scripts/build.sh"
if (cd "$work/buildfail" && env -u WDL_BIN_DIR bash "$broken_checkout/updateWDL.sh" \
    --stockfish "$sf" --pgnpath "$pgns" --firstrev "$c1" --lastrev "$c2" >out.txt 2>&1); then
    fail "a failed build went unnoticed: $(cat buildfail/out.txt)"
else
    expect_line buildfail/out.txt '^Error: build failed, see build\.log\.$'
    expect_line buildfail/build.log 'compiler exploded'
fi

if [[ $failures -gt 0 ]]; then
    echo "$failures check(s) failed." >&2
    exit 1
fi
echo "updateWDL.sh end-to-end: all checks passed."
