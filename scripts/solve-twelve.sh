#!/usr/bin/env bash
# A long run (hours; not part of the tests): solve the moving phase of Twelve Men's Morris
# (100 keys, 16.8 G slots: 15.6 GiB of tables, 6.7 GiB of memory at most, so it fits a
# machine of 24 GiB and 60 GB of free disk; `morris plan --game twelve --moving-only`),
# verify it, and write its statistics (per key wins, draws, losses, longest distances) to
# results/. At nice 19, so that it can run in the background; resumable: run it again after
# an interruption and it continues where it stopped.
#
#   bash scripts/solve-twelve.sh                        # databases in dbs/twelve (git-ignored)
#   MORRIS_DB=/big/disk/twelve bash scripts/solve-twelve.sh
#   THREADS=1 bash scripts/solve-twelve.sh              # leave a core free
set -euo pipefail
cd "$(dirname "$0")/.."
DB=${MORRIS_DB:-dbs/twelve}
OUT=results
TAG=twelve-moving
mkdir -p "$OUT" "$DB"
cargo build --release -p morris
BIN=${CARGO_TARGET_DIR:-target}/release/morris
GAME=(--game twelve --moving-only)
THREADS_OPT=()
if [ -n "${THREADS:-}" ]; then THREADS_OPT=(--threads "$THREADS"); fi

{
  echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores"
  echo "memory: $(free -g | awk '/Mem:/ {print $2}') GiB"
  echo "commit: $(git rev-parse --short HEAD)"
} > "$OUT/$TAG-machine.txt"

$BIN plan "${GAME[@]}" > "$OUT/$TAG-plan.txt"

start=$(date +%s)
nice -n 19 $BIN solve --db "$DB" "${GAME[@]}" "${THREADS_OPT[@]}" | tee "$OUT/$TAG-solve.log"
solve_s=$(( $(date +%s) - start ))

start=$(date +%s)
# Resumable: the journal records the keys that passed; the log goes on across interrupted runs.
JOURNAL="$DB/verify-$TAG.journal"
[ -f "$JOURNAL" ] || : > "$OUT/$TAG-verify.log"
nice -n 19 $BIN verify --db "$DB" "${GAME[@]}" "${THREADS_OPT[@]}" --journal "$JOURNAL" \
  | tee -a "$OUT/$TAG-verify.log"
verify_s=$(( $(date +%s) - start ))

nice -n 19 $BIN stats --db "$DB" "${GAME[@]}" | tee "$OUT/$TAG-stats.txt"
nice -n 19 $BIN stats --db "$DB" "${GAME[@]}" --json > "$OUT/$TAG-stats.json"
{
  echo "solve wall seconds (this run; 0 if already complete): $solve_s"
  echo "verify wall seconds: $verify_s"
} >> "$OUT/$TAG-machine.txt"
echo "results in $OUT/$TAG-*"
