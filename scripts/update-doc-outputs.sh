#!/usr/bin/env bash
# Regenerates the sample outputs shown in docs/ from the bundled games of data/, so that a stale
# one shows up in `git diff`. Each output sits in a doc between the lines
#     <!-- output: NAME -->
#     <!-- end output -->
# and is rewritten in place with what the programs print now (a fenced block starting with the
# command). Times and speeds, which differ from run to run, are replaced by "...", trailing
# blanks are dropped, and the programs run with 2 threads, so that a rerun on an unchanged tree
# leaves `git diff` empty. The blocks may also sit in README.md; those of a report's Markdown are
# shown as Markdown, not fenced. Also redraws docs/images/annotate_expected_score.png and, where
# chromium is installed, takes docs/images/report.png of the report's HTML as the browser test
# does (tests/apps/test_scoreWDL_report.cpp).
#
# Usage: scripts/update-doc-outputs.sh [--slow | --check]
#   --slow  also the outputs that take minutes: scoreCompetence on data/, which needs every
#           3-4-man DTC table (generated first into the table cache if missing: about 4 minutes
#           of one core; WDLFIT_TABLES names the cache). Without it those blocks stay as they are.
#   --check change nothing: print the difference of every output that is not current and exit 1
#           if there is one (CI runs this). Images are drawn aside and not compared.
# Builds what it needs with scripts/build.sh (BUILD_DIR, JOBS as there).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
slow=0
check=0
case "${1:-}" in
"") ;;
--slow) slow=1 ;;
--check) check=1 ;;
*) echo "Usage: $0 [--slow | --check]" >&2; exit 2 ;;
esac

programs="scoreWDLstat scoreWDL compareWDL mergeWDLstat annotateWDL markovWDL synthWDL queryWDL exportWDL trackWDL scaleWDL wdlfit"
((slow)) && programs+=" scoreCompetence generateTables"
TARGETS="$programs" bash scripts/build.sh >&2
bin=$root/${BUILD_DIR:-build}/apps

work=$(mktemp -d /tmp/wdlfit-doc-outputs.XXXXXX)
trap 'rm -rf "$work"' EXIT
out=$work/outputs
mkdir -p "$out"
# Images go below image_root: the repository, or with --check a scratch copy of its layout
# (the printed lines name them relative to it either way).
image_root=$root
((check)) && image_root=$work/image_root
images=$image_root/docs/images
mkdir -p "$images"
ln -s "$root/data" "$work/data"
cd "$work"

# run PROGRAM ARGS...: prints the command as "$ PROGRAM ARGS" and then its stdout.
run() {
    echo "\$ $*"
    "$bin/$1" "${@:2}"
}
# steady: the lines that differ from run to run made steady; trailing blanks dropped.
steady() {
    sed -E -e '/^(Time|Speed|Total elapsed time)/ s/[0-9]+(\.[0-9]+)?/.../g' \
        -e 's/[[:space:]]+$//'
}
# output NAME: stores stdin as the fenced block NAME.
output() {
    { echo '```'; steady; echo '```'; } >"$out/$1.md"
}
# output_markdown NAME: stores stdin, Markdown, as the block NAME, its headings demoted to ####.
output_markdown() {
    sed -E -e 's/^##? /#### /' -e 's/[[:space:]]+$//' >"$out/$1.md"
}
# sections FILE TITLE...: the sections of a report's Markdown with these titles.
sections() {
    local file=$1
    shift
    awk -v titles="$(printf '%s\n' "$@")" '
        BEGIN { n = split(titles, wanted, "\n"); for (i = 1; i <= n; i++) keep["## " wanted[i]] = 1 }
        /^## / { on = ($0 in keep) } on' "$file"
}

# --- scanning.md
"$bin/wdlfit" help | output wdlfit-help
run scoreWDLstat --dir data -r --concurrency 2 -o counts.json | output scan-data
run scoreWDLstat --dir data -r --concurrency 2 --groups 64 -o grouped.json |
    awk 'NR == 1 { print; print "..." } NR > 1 { last = previous; previous = $0 }
         END { print last; print previous }' | output scan-groups

# --- training-data.md: the bundled games' positions as Stockfish's converter wrote them.
ln -s "$root/tests/data/training" "$work/training"
run scoreWDLstat --file training/games.plain.gz --concurrency 2 --groups 16 \
    --NormalizeToPawnValue 100 -o training.json | output training-scan
run scoreWDL training.json --plot no --NormalizeToPawnValue 100 --trainerConstants |
    awk '/^\$/ || /^const int/ || /^NormalizeToPawnValue =/ || /^spread =/ { print; next }
         /^Trainer constants/ { on = 1; print "..." } on && !/^Total elapsed/' |
    output training-constants

# --- fitting.md
run scoreWDL grouped.json --plot no --json fit.json | output fit-data
{
    run synthWDL -n 1e6 -o synth.json | grep -E '^(\$|True model)'
    echo "..."
    run scoreWDL synth.json --plot no | grep -E '^(\$|const int|Standard errors)' | sed '2i ...'
} | output fit-synth
# --- programs.md: synthWDL's printed lines when it draws games.
run synthWDL -n 1e6 --games -o synth_games.json | output synth-games
{
    run scoreWDLstat --dir data -r --concurrency 2 --groups 64 --groupBy test -o by_test.json |
        sed -n '1p; 1a ...'
    run scoreWDL by_test.json --plot no | grep -E '^(\$|NormalizeToPawnValue =)' | sed '2i ...'
    run scoreWDL grouped.json --plot no --resample bootstrap |
        grep -E '^(\$|NormalizeToPawnValue =)' | sed '2i ...'
} | output fit-other-resampling
# --- report.md: the report of the fit of data/ against Stockfish 18's model (its as[] are the
# default --NormalizeData), in README.md and docs/report.md.
"$bin/scoreWDLstat" --dir data -r --concurrency 2 --groups 64 -o report_counts.json \
    --json report_scan.json >/dev/null
"$bin/scoreWDL" report_counts.json --plot no --oldModel sf18 --report report \
    --scanSummary report_scan.json >/dev/null
sections report/report.md "Verdict" "Display mapping, old to new" | output_markdown report-readme
sections report/report.md "Verdict" "Display mapping, old to new" "W/D/L at displayed evals" \
    "Held-out scores" "The data" | output_markdown report-sections
if command -v chromium >/dev/null; then
    chromium --headless=new --no-sandbox --disable-gpu --no-proxy-server \
        --host-resolver-rules="MAP * ~NOTFOUND" --user-data-dir="$work/chromium-profile" \
        --window-size=1000,1800 --screenshot="$images/report.png" \
        "file://$work/report/report.html" >/dev/null 2>&1
else
    echo "Left as it is: docs/images/report.png (no chromium)." >&2
fi

run scoreWDL grouped.json --plot no --crossValidate --NormalizeData sf18 |
    awk 'NR == 1 { print; print "..." } /^Cross-validation/ { on = 1 } on && !/^Total elapsed/' |
    output fit-crossvalidate

# --- model.md: which form data/ supports.
run scoreWDL grouped.json --plot save --pngName "$images/select_model.png" --selectModel |
    awk 'NR == 1 { print; print "..." } /^Model selection/ { on = 1 }
         on && !/^(Saved|Preparing|Total elapsed)/' |
    sed -E "s|$image_root/||" | output select-model
rm -f "$images/select_model.png" "$images/select_model_calibration.png"
mv "$images/select_model_selection.png" "$images/select_model.png"

run scoreWDL grouped.json --plot no --selectModel --learningCurve --materialMin 3 --momCut 17 |
    awk 'NR == 1 { print; print "..." } /^(Best|Stockfish.s form|Learning curve|The cut)/ { on = 1 }
         on && !/^Total elapsed/' | output select-model-low-material

"$bin/scoreWDLstat" --dir data -r --concurrency 2 --groups 64 --matchTC '10\+0\.1' -o stc.json >/dev/null
"$bin/scoreWDLstat" --dir data -r --concurrency 2 --groups 64 --matchTC '60\+0\.6' -o ltc.json >/dev/null
run scoreWDL stc.json ltc.json --plot no --compareFiles |
    awk 'NR == 1 { print; print "..." } /^Sources compared/ { on = 1 } on && !/^Total elapsed/' |
    output compare-files

# How many positions a standard error of 1 / 1.96 (a 95 % interval of +-1) takes, extrapolated
# as positions * (se * 1.96)^2 from data/ itself and from games drawn from data/'s fit.
planning_row() {  # LABEL POSITIONS GAMES FIT_JSON
    jq -r --arg name "$1" --argjson positions "$2" --argjson games "$3" '
        def round_to($digits): pow(10; $digits) as $f | . * $f | round / $f;
        def sci: (log10 | floor) as $e | "\(. / pow(10; $e) | round_to(1))e\($e)";
        .model.resampling.estimates.NormalizeToPawnValue as $e
        | ($positions * pow($e.standardError * 1.96; 2)) as $needed
        | "| \($name) | \($positions) | \($games) | \($e.standardError | round_to(1)) | "
          + "\($e.fisherStandardError | round_to(2)) | \($e.designEffect | round_to(1)) | "
          + "\($needed | sci) | \($needed / $positions * $games | sci) |"' "$4"
}
{
    echo -n "| data | positions | games | standard error (jackknife) | Fisher | design effect "
    echo "| positions for +-1 | games for +-1 |"
    echo "|---|---|---|---|---|---|---|---|"
    "$bin/scoreWDLstat" --dir data -r --concurrency 2 --json scan.json -o scan.counts.json \
        >/dev/null
    planning_row '`data/` itself, 64 game groups' "$(jq .positions scan.json)" \
        "$(jq .games.accepted scan.json)" fit.json
    for size in 1e6 4e6; do
        "$bin/synthWDL" -n "$size" --games --model fit.json --from counts.json --seed 1 \
            -o "games_$size.json" --json "games_$size.synth.json" >/dev/null
        "$bin/scoreWDL" "games_$size.json" --plot no --json "games_$size.fit.json" >/dev/null
        planning_row "games drawn from \`data/\`'s fit and positions" \
            "$(jq .positions "games_$size.synth.json")" "$(jq .games "games_$size.synth.json")" \
            "games_$size.fit.json"
    done
} >"$out/fit-planning.md"

# --- comparison.md
run compareWDL sf17 sf18 --evals 0,1,2 --plot false | output compare-sf17-sf18
run compareWDL sf18 fit.json --counts grouped.json --plot false |
    awk 'NR == 1 { print; print "..." } /^Scored on/ { on = 1 } on' | output compare-counts
for half in 0 1; do
    "$bin/scoreWDLstat" --dir data -r --concurrency 2 --shard "$half/2" --groups 64 \
        -o "half$half.json" >/dev/null
    "$bin/scoreWDLstat" --dir data -r --concurrency 2 --shard "$half/2" -o "plain$half.json" \
        >/dev/null
done
run compareWDL --fit half0.json half1.json --moms 30,58 --plot false | tee halves.txt |
    output compare-fit-halves
tail -n 1 halves.txt | output compare-fit-verdict
run compareWDL --fit plain0.json plain1.json --moms 30,58 --plot false | output compare-fit-plain
run scaleWDL --dir data -r --pool all --concurrency 2 --json scale.json --png scale.png |
    output scale-data
cp scale.png "$images/scale.png"

# --- cluster.md
{
    for shard in 0 1 2 3; do
        run scoreWDLstat --dir data -r --concurrency 2 --shard "$shard/4" -o "shard_$shard.json" |
            grep -E '^(\$|Wrote)'
    done
    run mergeWDLstat shard_0.json shard_1.json shard_2.json shard_3.json -o all.json
    echo "\$ cmp all.json counts.json && echo identical"
    cmp all.json counts.json && echo identical
} | output merge-shards

# --- tracking.md: the bundled tests, each drawn again from Stockfish 18's model, 8 % larger
# from 2024-11-05 on (as tests/apps/test_trackWDL.cpp draws them), then tracked by month.
run scoreWDLstat --dir data -r --concurrency 2 --perTest --groups 8 -o per_test.json |
    awk 'NR == 1 { print; print "..." } /^Wrote/ { on = 1 } on' | output track-scan
{
    sf18_as=-72.32565836,185.93832038,-144.58862193,416.44950446
    sf18_bs=83.86794042,-136.06112997,69.98820887,47.62901433
    scaled() { awk -v s="$1" -v c="$2" 'BEGIN { n = split(c, x, ","); for (i = 1; i <= n; i++)
        printf "%s%.10f", (i > 1 ? "," : ""), x[i] * s }'; }
    seed=11
    tests=()
    while IFS=$'\t' read -r id date new base tc; do
        scale=1
        [[ $date < 2024-11-05 ]] || scale=1.08
        "$bin/synthWDL" -n 2e5 --games --groups 8 --seed "$seed" --threads 1 -o "$id.json" \
            --as "$(scaled "$scale" "$sf18_as")" --bs "$(scaled "$scale" "$sf18_bs")" \
            --label "id=$id" "date=$date" "new=$new" "base=$base" "tc=$tc" >/dev/null
        tests+=("$id.json")
        seed=$((seed + 1))
    done < <(python3 -c 'import json
for u in json.loads(open("per_test.json", "rb").readline())["labels"]["units"]:
    print("\t".join([u["id"], u["date"], u["new"], u["base"], u["tc"]]))')
    run mergeWDLstat "${tests[@]}" -o drift.json | grep -E '^(\$|Merged)'
    run trackWDL drift.json --by month --threads 2 --png "$images/track.png" \
        --json track.json --csv track.csv | sed -E "s|$image_root/||"
} | output track-drift

# --- annotation.md
game_file=data/24-11-05/fada7bd8c58aff62bbd52188/fada7bd8c58aff62bbd52188.pgn.gz
cp fit.json model.json
# The fit's internal units are those of scoreWDL's default normalization (Stockfish 18's): the
# games' evals are read the same way, not by the fit's own a(mom) (its display rule).
run annotateWDL "$game_file" --model model.json --NormalizeData sf18 -o annotated.pgn \
    --plot curves.png --json summary.json | output annotate-summary
cp curves.png "$images/annotate_expected_score.png"
# Moves 16 to 22 of the first game, its movetext joined and wrapped again at 90 columns (never
# between a move number and its move, nor inside a comment).
awk '/^\[/ { if (moves) exit; next } { moves = moves " " $0 }
     END {
         sub(/.* 16\. /, "16. ", moves); sub(/ 23\. .*/, "", moves)
         for (i = 1; i <= length(moves); ++i) {
             c = substr(moves, i, 1)
             if (c == "{") comment = 1; else if (c == "}") comment = 0
             if (c == " " && (comment || substr(moves, i - 1, 1) == ".")) c = "@"
             printf "%s", c
         }
         print ""
     }' annotated.pgn | fold -s -w 90 | sed 's/@/ /g' | output annotate-excerpt
# The expected scores at the win-draw balance x = a(58) of the model fitted to data/: there
# W = 1/2 and L = 1 / (1 + exp(2a/b)); Konrod's probabilistic game result is 3/4 by construction.
jq -r '[(.model.as | add), (.model.bs | add)] | @tsv' model.json |
    awk -F '\t' '{
        a = $1; b = $2; loss = 1 / (1 + exp(2 * a / b)); draw = 0.5 - loss
        printf "win-draw balance a(58) of the fit: %.0f internal units\n", a
        printf "the fit there:  W %.3f  D %.3f  L %.3f  expected score %.3f\n",
            0.5, draw, loss, 0.5 + draw / 2
        printf "%-43sexpected score 0.750\n", "Konrod'"'"'s curve:" }' |
    output annotate-balance

# lichess's accuracies next to wdlfit's: the summary's table.
run annotateWDL "$game_file" --model model.json --NormalizeData sf18 -o annotated_lichess.pgn \
    --lichess |
    grep -E '^(\$|player|Base|New|lichess:)' | output annotate-lichess

# --- query.md
run queryWDL --model sf18 --evals 0,50,100,200 --materials 30,58,78 | output query-wdl
run queryWDL --model sf18 --winRate 0.25,0.5,0.75,0.9 --materials 30,58 | output query-win-rate
run queryWDL --model sf18 --to sf17 --evals 100,300 --materials 24,58,78 | output query-mapping
run queryWDL --model sf18 --evals 100 --materials 40 --json - | output query-json

# --- export.md
run exportWDL --model sf18 --language cpp | output export-cpp
run exportWDL --model sf16.1 --language python | output export-python
run exportWDL --model fit.json --language json | output export-json

# --- markov.md
run markovWDL --dir data -r --concurrency 2 --json markov.json --plotDir markov_plots |
    awk 'NR == 1 { print; print "..." }
         /^Classes:/ { on = 1 } /^Pairing 2415af9da521a8da87cf894a/ { on = 1; print "..." }
         /^Summary:/ { on = 1; print "..." } on { print } /^$/ { on = 0 }' |
    grep -v '^$' | output markov-data
run markovWDL --dir data -r --concurrency 2 --transitions opponent |
    awk 'NR == 1 { print; print "..." } /MAE - baseline MAE/' | output markov-opponent

# --- competence.md (slow)
if ((slow)); then
    "$bin/generateTables" --metric DTC >&2
    # Of the group table only the rows of whole engines, of the conversion table only the rows
    # with a table win not converted.
    run scoreCompetence --dir data -r --concurrency 2 --json competence.json \
        --decisions decisions.jsonl 2>/dev/null |
        sed -E -e 's#^(Tables: own DTC tables in ).* \(DTC\)\.$#\1TABLES (DTC).#' \
            -e 's#^(Own DTC tables in ).*(: a missing one)#\1TABLES\2#' |
        awk '/^engine=/ { if ($0 ~ /^engine=[^ ]+ +[0-9]/) print; next }
             /^Warning: .*posterior/ { print "..." }
             /^Conversion/ { conversion = 1; print; next }
             conversion && /^K/ { if ($4 ~ /^[1-9]/) print; next }
             conversion && !/^endgame/ { conversion = 0; print "..." }
             { print }' | output competence-data
fi

# --- write the blocks into the docs, and check that every output has a place
for name in "$out"/*.md; do
    name=$(basename "$name" .md)
    grep -q "^<!-- output: $name -->\$" "$root"/docs/*.md "$root/README.md" ||
        { echo "Error: no doc shows the output $name" >&2; exit 1; }
done
for doc in "$root"/docs/*.md "$root/README.md"; do
    awk -v dir="$out" '
        /^<!-- output: [A-Za-z0-9_-]+ -->$/ {
            print; file = dir "/" $3 ".md"
            if ((getline line < file) > 0) {
                print line; while ((getline line < file) > 0) print line; close(file); skip = 1
            }
            next
        }
        /^<!-- end output -->$/ { skip = 0 }
        !skip { print }' "$doc" >"$work/doc.md"
    if ! cmp -s "$work/doc.md" "$doc"; then
        if ((check)); then
            echo "Not current: ${doc#"$root"/} (scripts/update-doc-outputs.sh rewrites it):"
            diff -u "$doc" "$work/doc.md" | sed -E "s|$work/doc.md|${doc#"$root"/}, now|" || true
            stale=1
        else
            cp "$work/doc.md" "$doc"
            echo "Updated ${doc#"$root"/}"
        fi
    fi
done
((slow)) || echo "Left as they are: the outputs of --slow (scoreCompetence)."
if ((check)); then
    ((${stale:-0})) && exit 1
    echo "Every sample output in README.md and docs/ is current."
fi
