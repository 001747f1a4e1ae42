#!/usr/bin/env bash
# The published placement-phase positions (Gasser 1996, Black to move in each), queried
# against a complete Nine Men's Morris database (moving and placement phase: build it with
# `morris solve --db DB`). Output goes to results/gasser-positions.txt.
#   Expected: the first two are wins for Black; the third is a draw with every Black move drawing.
# `--list` prints the positions alone, one a line, and builds nothing (scripts/solve-seeds.sh
# reads them so).
set -euo pipefail
POSITIONS=(
  'W:a1,a7,g1 B:d2,d6 b 6 7'
  'W:b6,d2,f2,f4,g1 B:b4,d1,d6,g4 b 4 5'
  'W:b4,d3,d6,e4,f2 B:c4,d2,d5,f4 b 4 5'
)
if [ "${1:-}" = --list ]; then
  printf '%s\n' "${POSITIONS[@]}"
  exit 0
fi
cd "$(dirname "$0")/.."
DB=${MORRIS_DB:-dbs/nine}
cargo build --release -p morris
BIN=target/release/morris
OUT=results/gasser-positions.txt
{
  for pos in "${POSITIONS[@]}"; do
    echo "== $pos"
    $BIN query --db "$DB" "$pos"
    echo
  done
  echo "== startpos"
  $BIN query --db "$DB" startpos
} | tee "$OUT"
