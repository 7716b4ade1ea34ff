#!/usr/bin/env bash
# One-command refit of Stockfish's WDL model from fishtest games, with wdlfit's programs:
# scan the LTC games of the Stockfish revisions between --firstrev and --lastrev, fit the model
# under the normalization those revisions use, and say whether NormalizeToPawnValue should change.
# Outputs go to the current directory: updateWDL.json (the counts), updateWDL_scan.json and
# updateWDL_fit.json (the programs' summaries), updateWDL*.png, scoreWDLstat.log, scoreWDL.log,
# updateWDL.log (the lines printed here), and report/report.md and report/report.html (the
# report of the update, made by scoreWDL --report; its log in report.log).
# Needs git and jq.

set -euo pipefail

wdlfit_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

default_lastrev=HEAD
default_materialMin=17
default_EloDiffMax=5
default_pgnpath=pgns
default_groups=64
firstrev=""
lastrev=$default_lastrev
materialMin=$default_materialMin
EloDiffMax=$default_EloDiffMax
pgnpath=$default_pgnpath
groups=$default_groups
stockfish=""

# Only the LTC games of the fishtest book of these years enter the fit.
bookname="UHO_Lichess_4852_v..epd"

usage() {
    cat <<EOF
Usage: $0 [OPTIONS]
Options:
  --firstrev FIRSTREV       First SF commit to collect games from (default: the latest commit
                            that changed the normalization)
  --lastrev LASTREV         Last SF commit to collect games from (default: $default_lastrev)
  --materialMin MATERIALMIN Parameter passed to scoreWDL (default: $default_materialMin)
  --EloDiffMax ELODIFFMAX   Parameter passed to scoreWDLstat (default: $default_EloDiffMax)
  --pgnpath PGNPATH         Directory of the downloaded fishtest games (default: $default_pgnpath)
  --groups GROUPS           Game groups of the scan, for the fit's error bars (jackknife over
                            the groups; default: $default_groups)
  --stockfish DIR           A local Stockfish clone to read revisions from (default: clone or
                            update ./Stockfish from GitHub)
  --version                 Print the version and the commit of wdlfit's programs, and exit
Environment:
  WDL_BIN_DIR               Directory of scoreWDLstat and scoreWDL (default: the folder of this
                            script when they are beside it, as installed; else wdlfit's
                            build/apps, built with scripts/build.sh if missing)
EOF
}

# The folder of wdlfit's programs (see WDL_BIN_DIR above).
programs_dir() {
    if [[ -n ${WDL_BIN_DIR:-} ]]; then
        echo "$WDL_BIN_DIR"
    elif [[ -x $wdlfit_dir/scoreWDLstat ]]; then
        echo "$wdlfit_dir" # installed, or the copy in build/apps
    else
        echo "$wdlfit_dir/build/apps"
    fi
}

while [[ $# -gt 0 ]]; do
    case "$1" in
    --firstrev | --lastrev | --materialMin | --EloDiffMax | --pgnpath | --groups | --stockfish)
        if [[ $# -lt 2 ]]; then
            echo "Error: $1 needs a value." >&2
            exit 1
        fi
        declare "${1#--}=$2"
        shift 2
        ;;
    --help)
        usage
        exit 0
        ;;
    --version)
        # The version line of the wdlfit whose programs this script runs.
        if ! version=$("$(programs_dir)/wdlfit" --version 2>/dev/null); then
            echo "Error: no wdlfit in $(programs_dir) to tell the version (build it with" \
                "scripts/build.sh, or set WDL_BIN_DIR)." >&2
            exit 1
        fi
        echo "updateWDL.sh ${version#wdlfit }" | sed 's/(commit /(wdlfit, commit /'
        exit 0
        ;;
    *)
        echo "Error: unknown option $1 (see --help)." >&2
        exit 1
        ;;
    esac
done

# The normalization of revision $1 as scoreWDL options, one per line: either
# "--NormalizeToPawnValue N" (static) or "--NormalizeData JSON" (the dynamic as[] of uci.cpp).
normalization_of() {
    local sources pawn as clamp momMin=17 momMax=78 momTarget=58
    sources=$(git -C "$stockfish" show "$1:src/uci.h" 2>/dev/null || true
              git -C "$stockfish" show "$1:src/uci.cpp" 2>/dev/null || true)
    sources=$(grep -v '^\s*//' <<<"$sources" || true)
    pawn=$(grep -oP '\bNormalizeToPawnValue\s*=\s*\K\d+' <<<"$sources" | head -n 1 || true)
    if [[ -n $pawn ]]; then
        printf '%s\n' --NormalizeToPawnValue "$pawn"
        return
    fi
    as=$(grep -oP '\bas\[\]\s*=\s*\{\K[^}]*' <<<"$sources" | head -n 1 | tr -d ' ' || true)
    if [[ -z $as ]]; then
        echo "Error: revision $1 has neither NormalizeToPawnValue nor as[] in src/uci.h or src/uci.cpp." >&2
        return 1
    fi
    # e.g. "double m = std::clamp(material, 17, 78) / 58.0;"
    clamp=$(grep -oP 'std::clamp\(material,\s*\K\d+\s*,\s*\d+\s*\)\s*/\s*\d+' <<<"$sources" | head -n 1 || true)
    if [[ -n $clamp ]]; then
        read -r momMin momMax momTarget < <(tr -c '0-9\n' ' ' <<<"$clamp")
    fi
    printf '%s\n' --NormalizeData \
        "{\"momType\":\"material\",\"momMin\":$momMin,\"momMax\":$momMax,\"momTarget\":$momTarget,\"as\":[$as]}"
}

# The pawn value of a normalization: N, or the rounded sum of the as[] coefficients.
pawn_value_of() {
    if [[ $1 == --NormalizeToPawnValue ]]; then
        echo "$2"
    else
        grep -oP '"as":\[\K[^\]]+' <<<"$2" | tr ',' '\n' | awk '{s += $1} END {printf "%.0f", s}'
    fi
}

# Every line printed below also goes to updateWDL.log, which the report quotes.
: >updateWDL.log
say() { "$@" | tee -a updateWDL.log; }

say echo "Running: $0 --firstrev ${firstrev:-(latest model change)} --lastrev $lastrev" \
    "--materialMin $materialMin --EloDiffMax $EloDiffMax --pgnpath $pgnpath --groups $groups"
say echo "started at: " "$(date)"

if [[ -z $stockfish ]]; then
    stockfish=Stockfish
    if [[ ! -e $stockfish ]]; then
        git clone https://github.com/official-stockfish/Stockfish.git "$stockfish" >&clone.log
    fi
    git -C "$stockfish" checkout master >&checkout.log
    git -C "$stockfish" pull >&pull.log
fi

lastrev=$(git -C "$stockfish" rev-parse --verify "$lastrev^{commit}")
if [[ -z $firstrev ]]; then
    firstrev=$(git -C "$stockfish" log -1 --format=%H \
        -G 'NormalizeToPawnValue\s*=|\bas\[\]\s*=' "$lastrev" -- src/uci.cpp src/uci.h)
fi
firstrev=$(git -C "$stockfish" rev-parse --verify "$firstrev^{commit}")
if ! git -C "$stockfish" merge-base --is-ancestor "$firstrev" "$lastrev"; then
    echo "Error: $firstrev is not an ancestor of $lastrev." >&2
    exit 1
fi

# "$firstrev^@" (all its parents) also works when firstrev is the root commit.
revs=$(git -C "$stockfish" rev-list "$lastrev" --not "$firstrev^@")
oldnormalization=$(normalization_of "$firstrev")
mapfile -t oldnormdata <<<"$oldnormalization"
oldpawn=$(pawn_value_of "${oldnormdata[@]}")
oldepoch=$(git -C "$stockfish" show --quiet --format=%ci "$firstrev")
newepoch=$(git -C "$stockfish" show --quiet --format=%ci "$lastrev")

# A fit needs the games' evals in one unit: every revision must normalize as firstrev does.
regex_pattern=""
for rev in $revs; do
    regex_pattern="${regex_pattern}.*$rev|"
    newnormalization=$(normalization_of "$rev")
    if [[ $newnormalization != "$oldnormalization" ]]; then
        say echo "Revision $rev has wrong NormalizeData (${newnormalization/$'\n'/ } != ${oldnormalization/$'\n'/ })."
        echo "Error: the revisions from $firstrev to $lastrev mix normalizations;" \
            "choose --firstrev and --lastrev within one." >&2
        exit 1
    fi
done
regex_pattern="${regex_pattern%|}"

bin_dir=$(programs_dir)
if [[ ! -x $bin_dir/scoreWDLstat || ! -x $bin_dir/scoreWDL ]]; then
    if [[ -n ${WDL_BIN_DIR:-} ]]; then
        echo "Error: scoreWDLstat or scoreWDL missing in WDL_BIN_DIR=$WDL_BIN_DIR." >&2
        exit 1
    fi
    say echo "Building wdlfit (log in build.log) ..."
    if ! bash "$wdlfit_dir/scripts/build.sh" >&build.log; then
        echo "Error: build failed, see build.log." >&2
        exit 1
    fi
fi

say echo "Look recursively in directory $pgnpath for games from tests using" \
    "books matching \"$bookname\" for SF revisions between $firstrev (from" \
    "$oldepoch) and $lastrev (from $newepoch)."

if ! "$bin_dir/scoreWDLstat" --dir "$pgnpath" -r --matchTC "60\+0.6" --matchThreads 1 \
    --EloDiffMax "$EloDiffMax" --matchRev "$regex_pattern" --matchBook "$bookname" \
    --groups "$groups" -o updateWDL.json --json updateWDL_scan.json >&scoreWDLstat.log; then
    echo "Error: scoreWDLstat failed, see scoreWDLstat.log." >&2
    exit 1
fi

# The numbers come from the programs' --json twins of their printed lines.
gamescount=$(jq -r '.games.accepted // 0' updateWDL_scan.json 2>/dev/null || echo 0)
if [[ $gamescount -eq 0 ]]; then
    say echo "No games found for revisions of interest."
    exit 0
fi

# 3: the fit ran, but these games do not determine the model (docs/programs.md).
fit_status=0
"$bin_dir/scoreWDL" updateWDL.json --plot save --pngName updateWDL.png \
    --pngNameDistro updateWDLdistro.png --momType material --momTarget 58 \
    --materialMin "$materialMin" --moveMin 1 --modelFitting optimizeProbability \
    "${oldnormdata[@]}" --json updateWDL_fit.json >&scoreWDL.log || fit_status=$?
if ((fit_status == 3)); then
    echo "Error: these games do not determine the model, so there are no constants to update;" \
        "scoreWDL.log names the simpler form they do determine and the games a cubic needs." >&2
    exit 1
elif ((fit_status != 0)); then
    echo "Error: scoreWDL failed, see scoreWDL.log." >&2
    exit 1
fi

# As the original: the positions are those the fit retained.
poscount=$(jq -r '(.retained.W // 0) + (.retained.D // 0) + (.retained.L // 0)' \
    updateWDL_fit.json 2>/dev/null || echo 0)
if [[ $poscount -eq 0 ]]; then
    say echo "No positions found."
    exit 1
fi
newpawn=$(jq -r '.model.NormalizeToPawnValue // empty' updateWDL_fit.json)
if [[ -z $newpawn ]]; then
    echo "Error: scoreWDL gave no NormalizeToPawnValue, see scoreWDL.log." >&2
    exit 1
fi

if [[ $newpawn -ne $oldpawn ]]; then
    say echo "Based on $poscount positions from $gamescount games, NormalizeToPawnValue should change from $oldpawn to $newpawn."
    # As upstream prints it: the old display of 100cp in the new model, truncated.
    say echo "In the updated WDL model, $((100 * newpawn / oldpawn))cp would roughly map to 100cp."
else
    say echo "Based on $poscount positions from $gamescount games, NormalizeToPawnValue should stay at $oldpawn."
fi
# Beyond the original: how far the fitted value is from certain.
pawnerror=$(jq -r '.model.uncertainty.NormalizeToPawnValueStandardError // empty' updateWDL_fit.json)
if [[ -n $pawnerror ]]; then
    say printf 'The fitted value has a standard error of %.2f (positions taken as independent, so at least this).\n' \
        "$pawnerror"
fi
# The verdict: is the old value inside the 95 % interval of the jackknife over game groups?
verdict=$(jq -r --argjson old "$oldpawn" '.model.resampling // empty |
    (.estimates.NormalizeToPawnValue) as $e |
    "\($e.interval[0]) \($e.interval[1]) \($e.standardError) \(.method) \(.groups) \(.groupBy) " +
    (if $e.interval[0] <= $old and $old <= $e.interval[1] then "inside" else "outside" end)' \
    updateWDL_fit.json 2>/dev/null || true)
if [[ -n $verdict ]]; then
    read -r low high error method groupcount groupby place <<<"$verdict"
    if [[ $place == inside ]]; then
        conclusion="the change is within the noise"
    else
        conclusion="the change is significant"
    fi
    say printf 'The old value %s lies %s the 95 %% interval %.0f .. %.0f of the fitted value (+- %.1f, %s over %s %s groups): %s.\n' \
        "$oldpawn" "$place" "$low" "$high" "$error" "$method" "$groupcount" "$groupby" "$conclusion"
fi

# The report: the fit again, now against the old model with held-out scores, quoting the lines
# above. An old model with bs exists only where the normalization is dynamic.
oldmodel=()
if [[ ${oldnormdata[0]} == --NormalizeData ]]; then
    oldmodel=(--oldModel "$stockfish@$firstrev")
fi
if ! "$bin_dir/scoreWDL" updateWDL.json --plot no --momType material --momTarget 58 \
    --materialMin "$materialMin" --moveMin 1 --modelFitting optimizeProbability \
    "${oldnormdata[@]}" "${oldmodel[@]}" --report report --updateLog updateWDL.log \
    --scanSummary updateWDL_scan.json \
    --revisionRange "$firstrev ($oldepoch) .. $lastrev ($newepoch)" >&report.log; then
    echo "Error: scoreWDL --report failed, see report.log." >&2
    exit 1
fi
say echo "The report of the update: report/report.md and report/report.html."

say echo "ended at: " "$(date)"
