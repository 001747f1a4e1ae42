#!/usr/bin/env bash
# The long runs' scripts rehearsed on the 4-stone game (seconds, not hours), as the tests'
# last word on them: every step runs, a second run finds every step done and changes nothing,
# and the results files are written. Their tables are checked by the Rust tests
# (cli/tests/layers.rs: a game solved layer by layer against the game solved whole).
#
#   MORRIS_BIN=target/ci/morris bash scripts/test-long-runs.sh
set -euo pipefail
cd "$(dirname "$0")/.."
: "${MORRIS_BIN:?set MORRIS_BIN to a built morris binary}"
export MORRIS_BIN SCOPE="--stones 4"
ROOT=$(mktemp -d)
trap 'rm -rf "$ROOT"' EXIT

for script in solve-seeds solve-twelve; do
  MORRIS_ROOT=$ROOT/$script bash "scripts/$script.sh" > "$ROOT/$script.log" 2>&1 \
    || { tail -20 "$ROOT/$script.log"; echo "scripts/$script.sh failed" >&2; exit 1; }
  sums=$(find "$ROOT/$script" -type f \( -name '*.mdb' -o -name '*.mpk' \) -print0 | sort -z \
    | xargs -0 md5sum)
  MORRIS_ROOT=$ROOT/$script bash "scripts/$script.sh" > "$ROOT/$script.again.log" 2>&1
  if grep -- '=== .*: start' "$ROOT/$script.again.log"; then
    echo "scripts/$script.sh ran the steps above again instead of skipping them" >&2
    exit 1
  fi
  [ "$sums" = "$(find "$ROOT/$script" -type f \( -name '*.mdb' -o -name '*.mpk' \) -print0 \
    | sort -z | xargs -0 md5sum)" ] || { echo "scripts/$script.sh changed files when rerun" >&2; exit 1; }
  echo "scripts/$script.sh: $(grep -c '=== .*: done in' "$ROOT/$script.log") steps, rerun skips them all"
done
for f in twelve.md twelve-stats.json twelve-checksums.txt; do
  [ -s "$ROOT/solve-twelve/results/$f" ] || { echo "scripts/solve-twelve.sh wrote no $f" >&2; exit 1; }
done
grep -q 'White to move: draw' "$ROOT/solve-twelve/results/twelve.md"
echo "long-run scripts rehearsed"
