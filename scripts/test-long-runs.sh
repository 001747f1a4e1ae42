#!/usr/bin/env bash
# The long runs' chain (scripts/long-runs.sh: the seed sets, Twelve and Lasker Morris) rehearsed on
# the 4-stone games (seconds, not hours), as the tests' last word on its scripts: every step
# runs, a second run finds every step done and changes nothing, and the results files are
# written. Their tables are checked by the Rust tests
# (cli/tests/layers.rs: a game solved layer by layer against the game solved whole).
#
#   MORRIS_BIN=target/ci/morris bash scripts/test-long-runs.sh
set -euo pipefail
cd "$(dirname "$0")/.."
: "${MORRIS_BIN:?set MORRIS_BIN to a built morris binary}"
export MORRIS_BIN SCOPE="--stones 4"
ROOT=$(mktemp -d)
trap 'rm -rf "$ROOT"' EXIT

# Every run, the default chain's first.
export CHAIN="lasker nine-nc50 noflying nine twelve"
MORRIS_ROOT=$ROOT bash scripts/long-runs.sh > "$ROOT/run.log" 2>&1 \
  || { tail -20 "$ROOT/run.log"; echo "scripts/long-runs.sh failed" >&2; exit 1; }
tables() {
  find "$ROOT" -type f \( -name '*.mdb' -o -name '*.mpk' \) -print0 | sort -z | xargs -0 md5sum
}
sums=$(tables)
MORRIS_ROOT=$ROOT bash scripts/long-runs.sh > "$ROOT/again.log" 2>&1
if grep -- '=== .*: start' "$ROOT/again.log"; then
  echo "scripts/long-runs.sh ran the steps above again instead of skipping them" >&2
  exit 1
fi
[ "$sums" = "$(tables)" ] || { echo "scripts/long-runs.sh changed files when rerun" >&2; exit 1; }
echo "scripts/long-runs.sh: $(grep -c '=== .*: done in' "$ROOT/run.log") steps, a rerun skips them all"
# The raw plain tables were deleted for room; the packed set answers instead.
[ -z "$(find "$ROOT/nine" -regextype posix-extended -regex '.*/nine-s4(-[0-9]+){4}\.mdb')" ] \
  || { echo "the raw plain tables were kept" >&2; exit 1; }
# (The answer is read whole first: `grep -q` leaving early would kill the writer under pipefail.)
start=$("$MORRIS_BIN" query --db "$ROOT/nine-plain-packed" --stones 4 startpos)
grep -q 'White to move: draw' <<< "$start" || { echo "the packed plain set: $start" >&2; exit 1; }
# So were the raw no-flying tables, once the no-flying rule set that reads them was packed.
[ -z "$(find "$ROOT/nine-noflying" -name '*.mdb')" ] \
  || { echo "raw no-flying tables were kept: $(ls "$ROOT/nine-noflying")" >&2; exit 1; }
start=$("$MORRIS_BIN" query --db "$ROOT/nine-noflying-packed" --stones 4 --no-flying startpos)
grep -q 'White to move: ' <<< "$start" || { echo "the packed no-flying set: $start" >&2; exit 1; }
for f in twelve.md twelve-stats.json twelve-checksums.txt lasker.md lasker-stats.json \
  lasker-checksums.txt nine-noflying-stats.json; do
  [ -s "$ROOT/results/$f" ] || { echo "the long runs wrote no $f" >&2; exit 1; }
done
grep -q 'White to move: draw' "$ROOT/results/twelve.md"
# The report names the machine of the chain, says a reduced game has no published value to
# compare, states the bounds, and what was packed: the weaker side left out below layer 4 only.
for line in '^- .*, [0-9]* cores (boot [0-9a-f]*): from ' '^A reduced game (8 layers)' \
  '^- bounds: solve .* h of wall time (.* h alone, estimated) against 3 h' \
  '^- the packed result, .* fewer stones, on layers 0 to 3) searched by the reader$'; do
  grep -q "$line" "$ROOT/results/twelve.md" || { echo "twelve.md lacks /$line/" >&2; exit 1; }
done
# A run killed outright (its CPU counts unknown, "-") is left out of the share of the cores
# others took, and said to be.
mkdir -p "$ROOT/killed"
cp -r "$ROOT/logs" "$ROOT/killed/"
printf 'twelve-L0\tsolve\t100000\t137\t2026-01-01T00:00:00Z\tmorris-x\t-\t-\t-\n' \
  >> "$ROOT/killed/logs/times.tsv"
python3 scripts/layers-report.py --game twelve --root "$ROOT/killed" --results "$ROOT/killed" \
  --layers 8 > /dev/null
grep -q '^| solve | .* (over 0% of the wall time; the rest unknown) |' "$ROOT/killed/twelve.md" \
  || { echo "a killed run's unknown counts are not said: $(grep '^| solve' "$ROOT/killed/twelve.md")" >&2; exit 1; }
# Lasker's layers read their own layer too (a slide keeps the hands): the start and its moves
# ranked as in the game solved whole (cli/tests/layers.rs compares every table).
"$MORRIS_BIN" solve --db "$ROOT/lasker-whole" --game lasker --stones 4 > /dev/null
whole=$("$MORRIS_BIN" query --db "$ROOT/lasker-whole" --game lasker --stones 4 startpos | grep -v "^$")
layered=$(awk '/^```$/ { n++; next } n == 1 && $0 != ""' "$ROOT/results/lasker.md")
[ "$whole" = "$layered" ] \
  || { diff <(echo "$whole") <(echo "$layered") >&2; echo "Lasker's layered start differs" >&2; exit 1; }
# The seed sets' report, from the logs it copies beside the results.
MORRIS_ROOT=$ROOT RESULTS=$ROOT/results python3 scripts/seeds-report.py > /dev/null
for set in noflying nofly-nc50; do
  grep -q "results/seeds-logs/$set/" "$ROOT/results/nine-noflying.md" \
    || { echo "the report has no section of $set built from its logs" >&2; exit 1; }
  [ -s "$ROOT/results/seeds-logs/$set/verify.journal" ] \
    || { echo "the report copied no verify journal of $set" >&2; exit 1; }
done
grep -q 'against the plain counts, key by key .*all keys agree' "$ROOT/results/nine-noflying.md" \
  || { echo "the no-flying rule set's counts do not split the plain ones" >&2; exit 1; }
# Every step's row counts the CPU other processes took beside it, and the report says it.
awk -F'\t' 'NF != 9 || $8 !~ /^[0-9]+$/ { print "times.tsv row without its CPU counts: " $0; bad = 1 }
  END { exit bad }' "$ROOT/logs/times.tsv" >&2
grep -Eq "^- the machine's [0-9]+ cores taken by other processes beside the step .*: solve ([0-9.]+%|- \(under a second\)), verify ([0-9.]+%|- \(under a second\))$" \
  "$ROOT/results/nine-nocapture.md" \
  || { echo "the report does not say what ran beside the solve and verify" >&2; exit 1; }
# Probe latency twice: as the disk gives it, and with every file read into memory first.
for f in nine-noflying.md twelve.md; do
  grep -q 'dtw cold: .* max' <<< "$(sed -n '/read into memory first/,$p' "$ROOT/results/$f")" \
    || { echo "$f has no latency with the files read into memory first" >&2; exit 1; }
done
# Item by item against the plain set rebuilt beside it: the rule's solve and verify times.
for step in solve verify; do
  # (Steps under a second here, as they may be on the small games, have no ratio.)
  grep -Eq "^- $step against the plain set's on the same machine: [0-9,]+ s against [0-9,]+ s, (\*\*[0-9.]+x\*\*|too short for a ratio)" \
    "$ROOT/results/nine-nocapture.md" \
    || { echo "the report sets no $step time of N = 100 against the plain one" >&2; exit 1; }
done
# A layered game's room: a bound the disk does not meet deletes packed rule sets, never the
# plain one, and one it cannot meet stops the chain, saying what is missing.
room() {
  echo $(( $(df -B1 --output=avail "$ROOT" | tail -1) + $(du -sb "$ROOT/twelve-s4" | cut -f1) + $1 ))
}
MORRIS_ROOT=$ROOT LAYERS_ROOM=$(room 1) CHAIN=twelve bash scripts/long-runs.sh > "$ROOT/room.log" 2>&1 \
  || { tail -5 "$ROOT/room.log"; echo "long-runs.sh failed to make room for Twelve" >&2; exit 1; }
grep -q "=== nc100: packed set deleted for twelve's room" "$ROOT/room.log" && [ -d "$ROOT/nine-plain-packed" ] \
  || { echo "long-runs.sh made room for Twelve wrongly: $(ls "$ROOT")" >&2; exit 1; }
if MORRIS_ROOT=$ROOT LAYERS_ROOM=$(room 1000000000000000) CHAIN=twelve bash scripts/long-runs.sh \
  > "$ROOT/full.log" 2>&1; then
  echo "long-runs.sh went on without room for Twelve" >&2
  exit 1
fi
grep -q 'twelve needs .* more are missing' "$ROOT/full.log" && [ -d "$ROOT/nine-plain-packed" ] \
  || { tail -3 "$ROOT/full.log"; echo "no room for Twelve, told wrongly" >&2; exit 1; }
# A chain of the layered games alone: from an empty root, no Nine set is started (the room
# bound above stops it before Twelve's first step).
SKIP=$ROOT/skip-nine
mkdir -p "$SKIP"
if MORRIS_ROOT=$SKIP CHAIN="twelve lasker" LAYERS_ROOM=1000000000000000 bash scripts/long-runs.sh \
  > "$ROOT/skip.log" 2>&1; then
  echo "long-runs.sh went on without room for Twelve" >&2
  exit 1
fi
grep -q 'twelve needs .* more are missing' "$ROOT/skip.log" \
  && [ -z "$(find "$SKIP" -name 'nine*' -o -name '*.done')" ] \
  || { tail -3 "$ROOT/skip.log"; echo "a chain of the layered games started a Nine set" >&2; exit 1; }
if MORRIS_ROOT=$SKIP CHAIN=nowhere bash scripts/long-runs.sh > "$ROOT/bad.log" 2>&1 \
  || ! grep -q 'no run named nowhere' "$ROOT/bad.log"; then
  echo "an unknown run was not refused by name" >&2
  exit 1
fi
echo "long-run scripts rehearsed"
