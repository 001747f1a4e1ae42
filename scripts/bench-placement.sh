#!/usr/bin/env bash
# The keys with stones in hand of Lasker Morris (retrograde: a slide can return to a
# position) against Nine Men's Morris's placement keys (one forward pass), on the 6-stone
# games: each game's moving phase solved once, then its keys with stones in hand timed whole
# (wall and user seconds, /usr/bin/time) per binary, and their rates a slot compared.
#   bash scripts/bench-placement.sh                       # the checkout's release build
#   bash scripts/bench-placement.sh OLD_BINARY NEW_BINARY # A/B, in turn, on the same machine
#   STONES=5 RUNS=3 bash scripts/bench-placement.sh
set -euo pipefail
cd "$(dirname "$0")/.."
STONES=${STONES:-6} RUNS=${RUNS:-1}
DIR=${MORRIS_BENCH_DIR:-${TMPDIR:-/tmp}/morris-bench-placement}
if [ $# -eq 0 ]; then
  cargo build --release -p morris
  set -- target/release/morris
fi
mkdir -p "$DIR"
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores"
for game in lasker nine; do
  [ -d "$DIR/$game-moving" ] || "$1" solve --db "$DIR/$game-moving" --game "$game" \
    --stones "$STONES" --moving-only > /dev/null
done
# The slots of the keys with stones in hand: the placement phase's total line of `plan`.
slots() {
  "$1" plan --game "$2" --stones "$STONES" | awk '/^Placement phase/ { p = 1 }
    p && $2 == "keys" { gsub(",", "", $3); print $3; exit }'
}
for run in $(seq "$RUNS"); do
  for bin in "$@"; do
    for game in lasker nine; do
      rm -rf "$DIR/$game-run"
      cp -r "$DIR/$game-moving" "$DIR/$game-run"
      t=$( { /usr/bin/time -f "%e %U" "$bin" solve --db "$DIR/$game-run" --game "$game" \
        --stones "$STONES" > /dev/null; } 2>&1 | tail -1)
      read -r wall user <<< "$t"
      n=$(slots "$bin" "$game")
      rate=$(awk -v n="$n" -v w="$wall" 'BEGIN { printf "%.2f", n / w / 1e6 }')
      echo "run $run $(basename "$bin") $game: $n slots, wall $wall s, user $user s, $rate M slots/s"
      eval "rate_$game=$rate"
    done
    echo "run $run $(basename "$bin") lasker/nine a slot: $(awk -v a="$rate_lasker" \
      -v b="$rate_nine" 'BEGIN { printf "%.3f", a / b }')"
  done
done
rm -rf "$DIR/lasker-run" "$DIR/nine-run"
