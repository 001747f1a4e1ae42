#!/usr/bin/env bash
# The no-capture rule over Nine Men's Morris: builds the rule's tables for each limit N (50 and
# 100 by default) beside the plain ones (built first if missing), verifies them, and writes
# results/nine-nocapture.md: per key and in total the wins and losses the rule turns into draws
# (cursed wins, blessed losses), the longest distance to zeroing, time and disk per N, and the
# start position and the Gasser positions under each N.
#
#   bash scripts/solve-nocapture.sh                      # the whole game, N = 50 and 100
#   MAX_STONES=6 LIMITS="50" bash scripts/solve-nocapture.sh   # a smaller run
#   MORRIS_DB=/big/disk/nine bash scripts/solve-nocapture.sh
#   MORRIS_BIN=/opt/morris bash scripts/solve-nocapture.sh   # a fixed binary, not rebuilt: a
#                                                  # run of hours must not pick up a rebuild
set -euo pipefail
cd "$(dirname "$0")/.."
MAX=${MAX_STONES:-9}
DB=${MORRIS_DB:-dbs/nine}
LIMITS=${LIMITS:-"50 100"}
OUT=results/nine-nocapture.md
mkdir -p "$DB" results
[ -n "${MORRIS_BIN:-}" ] || cargo build --release -p morris
BIN=${MORRIS_BIN:-target/release/morris}
TAG="max$MAX"
{
  echo "# Nine Men's Morris under the no-capture rule"
  echo
  echo "Made by \`scripts/solve-nocapture.sh\` (MAX_STONES=$MAX) on $(date -u +%Y-%m-%d),"
  echo "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores,"
  echo "commit $(git rev-parse --short HEAD). A zeroing ply is a capture or a placement; after N"
  echo "plies without one the game is drawn (a winning ply still wins). Counts are symmetry"
  echo "classes at counter 0. Nobody has published these figures; they are checked by"
  echo "\`morris verify\` (forward recomputation of every entry) on the tables themselves, and the"
  echo "rule's solver agrees with a naive reference solver that keeps the counter in its state on"
  echo "every position and counter of the 3- and 4-stone games (solver/tests/reference_nocapture.rs)."
  echo
} > "$OUT"
for N in $LIMITS; do
  start=$(date +%s)
  $BIN solve --db "$DB" --max-stones "$MAX" --moves-without-capture "$N" \
    | tee "results/nine-nc$N-$TAG-solve.log"
  solve_s=$(( $(date +%s) - start ))
  start=$(date +%s)
  # Resumable: the journal records the keys that passed; the log goes on across runs.
  JOURNAL="$DB/verify-nc$N-$TAG.journal"
  [ -f "$JOURNAL" ] || : > "results/nine-nc$N-$TAG-verify.log"
  $BIN verify --db "$DB" --max-stones "$MAX" --moves-without-capture "$N" --journal "$JOURNAL" \
    | tee -a "results/nine-nc$N-$TAG-verify.log"
  verify_s=$(( $(date +%s) - start ))
  disk=$(du -cb "$DB"/nine-nc"$N"-*.mdb | tail -1 | cut -f1)
  {
    echo "## N = $N"
    echo
    echo "Solve (this run; plain tables skipped when complete): $solve_s s; verify (this run;"
    echo "keys that passed in an earlier run are skipped through the journal): $verify_s s;"
    echo "disk: $(numfmt --to=iec "$disk") ($disk bytes) for the rule's tables."
    echo
    echo '```'
    $BIN stats --db "$DB" --max-stones "$MAX" --moves-without-capture "$N"
    echo '```'
    echo
    if [ "$MAX" = 9 ]; then
      for pos in startpos \
        'W:a1,a7,g1 B:d2,d6 b 6 7' \
        'W:b6,d2,f2,f4,g1 B:b4,d1,d6,g4 b 4 5' \
        'W:b4,d3,d6,e4,f2 B:c4,d2,d5,f4 b 4 5'; do
        echo "- \`$pos\`: $($BIN query --db "$DB" --moves-without-capture "$N" "$pos" | grep ' to move')"
      done
      echo
    fi
  } >> "$OUT"
done
echo "results in $OUT"
