#!/usr/bin/env bash
# Solver throughput with 1 and 2 threads on one pair (default 5-5), its smaller pairs solved
# first. Prints whole-process figures from /usr/bin/time and the solver's own summary line.
#   bash scripts/bench-solve.sh            # 5-5
#   PAIR=6-6 MAX=6 bash scripts/bench-solve.sh
set -euo pipefail
cd "$(dirname "$0")/.."
PAIR=${PAIR:-5-5}
MAX=${MAX:-${PAIR%%-*}}
DB=${MORRIS_DB:-dbs/bench}
cargo build --release -p morris
BIN=target/release/morris
$BIN solve --db "$DB" --max-stones "$MAX" --moving-only > /dev/null
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores"
for t in 1 2; do
  for k in ${PAIR} $(echo "$PAIR" | awk -F- '{print $2"-"$1}'); do
    rm -f "$DB"/nine-"$k"-0-0.mdb
  done
  echo "== $PAIR with $t thread(s)"
  /usr/bin/time -f "wall %e s, user %U s, peak %M KiB" \
    $BIN solve --db "$DB" --max-stones "$MAX" --only "$PAIR" --threads "$t" --moving-only | grep -v '^solved'
done
