#!/usr/bin/env bash
# The main job: build, solve Nine Men's Morris (the moving phase, then the placement phase;
# resumable: run it again after an interruption and it continues), verify every database,
# and write the results tables to results/. With MAX_STONES below 9, the consistent subset
# (no start position).
#
#   bash scripts/solve-full.sh                 # everything, databases in dbs/nine (git-ignored)
#   MAX_STONES=6 bash scripts/solve-full.sh    # a smaller experiment
#   MORRIS_DB=/big/disk/nine bash scripts/solve-full.sh
set -euo pipefail
cd "$(dirname "$0")/.."
MAX=${MAX_STONES:-9}
DB=${MORRIS_DB:-dbs/nine}
OUT=results
mkdir -p "$OUT" "$DB"
cargo build --release -p morris
BIN=target/release/morris
TAG="nine-max$MAX"

{
  echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores"
  echo "memory: $(free -g | awk '/Mem:/ {print $2}') GiB"
  echo "commit: $(git rev-parse --short HEAD)"
} > "$OUT/$TAG-machine.txt"

$BIN plan --max-stones "$MAX" > "$OUT/$TAG-plan.txt"

# Per pair: time, throughput, peak memory, wins/draws/losses (one line each).
start=$(date +%s)
$BIN solve --db "$DB" --max-stones "$MAX" | tee "$OUT/$TAG-solve.log"
solve_s=$(( $(date +%s) - start ))

start=$(date +%s)
# Resumable too: the journal records the keys that passed (with their tables' checksums), and
# the log goes on across interrupted runs (a fresh journal starts a fresh log).
JOURNAL="$DB/verify-$TAG.journal"
[ -f "$JOURNAL" ] || : > "$OUT/$TAG-verify.log"
$BIN verify --db "$DB" --max-stones "$MAX" --journal "$JOURNAL" | tee -a "$OUT/$TAG-verify.log"
verify_s=$(( $(date +%s) - start ))

$BIN stats --db "$DB" --max-stones "$MAX" | tee "$OUT/$TAG-stats.txt"
$BIN stats --db "$DB" --max-stones "$MAX" --json > "$OUT/$TAG-stats.json"
{
  echo "solve wall seconds (this run; 0 if already complete): $solve_s"
  echo "verify wall seconds: $verify_s"
} >> "$OUT/$TAG-machine.txt"
echo "results in $OUT/$TAG-*"
