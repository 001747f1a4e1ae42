#!/usr/bin/env bash
# Solves every game of the family that fits this machine in minutes, verifies every database,
# and writes the table results/games-solved.md: per game the value of the start (whole games),
# the positions (symmetry classes) solved, the wins for the side to move, solve and verify
# times and peak memory. The databases go to a scratch directory outside the repository.
#
#   bash scripts/solve-games.sh
#   MORRIS_GAMES_DB=/big/disk/games bash scripts/solve-games.sh
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=${MORRIS_GAMES_DB:-${TMPDIR:-/tmp}/morris-games}
OUT=results/games-solved.md
cargo build --release -p morris
BIN=target/release/morris
rm -rf "$ROOT"
mkdir -p "$ROOT"

# Peak resident memory of a command, when GNU time is installed.
TIME=()
if [ -x /usr/bin/time ]; then TIME=(/usr/bin/time -f '%M' -o "$ROOT/.peak"); fi

rows=()
# run <label> <what is solved> <options...>: solve, verify, stats; one table row.
run() {
  local label=$1 what=$2
  shift 2
  local db="$ROOT/$(echo "$label" | tr 'A-Z' 'a-z' | tr -c 'a-z0-9\n' '-')"
  local t0 t1 t2
  t0=$(date +%s.%N)
  "${TIME[@]}" "$BIN" solve --db "$db" "$@" > "$db.solve.log" 2>&1
  t1=$(date +%s.%N)
  "$BIN" verify --db "$db" "$@" > "$db.verify.log" 2>&1 || {
    echo "verify failed for $label: see $db.verify.log" >&2
    exit 1
  }
  t2=$(date +%s.%N)
  local peak="-"
  if [ -f "$ROOT/.peak" ]; then peak="$(( $(tail -1 "$ROOT/.peak") / 1024 )) MiB"; fi
  local start
  start=$(sed -n 's/^start position: //p' "$db.solve.log")
  [ -n "$start" ] || start="(endgames only)"
  # The stats total line: classes, wins, draws, losses, win %, longest win, longest loss.
  local total
  total=$("$BIN" stats --db "$db" "$@" | awk '$1 == "total" {print $2, $6}')
  local classes=${total% *} winpct=${total#* }
  local files
  files=$(find "$db" -name '*.mdb' | wc -l)
  local solve verify
  solve=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.1f", b - a}')
  verify=$(awk -v a="$t1" -v b="$t2" 'BEGIN {printf "%.1f", b - a}')
  rows+=("| $label | \`$*\` | $what | $start | $files | $classes | $winpct% | $solve s | $verify s | $peak |")
  echo "${rows[-1]}"
}

run "tic-tac-toe" "whole game" --game tictactoe
run "Three Men's Morris" "whole game" --game three
run "Six Men's Morris" "whole game" --game six
run "Six Men's Morris, flying" "whole game" --game six --flying
run "Nine board, 3 stones" "whole game" --stones 3
run "Nine board, 3 stones, no flying" "whole game" --stones 3 --no-flying
run "Nine board, 4 stones" "whole game" --stones 4
run "Nine board, 4 stones, no flying" "whole game" --stones 4 --no-flying
run "Nine board, 5 stones" "whole game" --stones 5
run "Twelve Men's Morris" "moving 3..4 a side + consistent placement keys" --game twelve --max-stones 4
run "Lasker Morris, 4 stones" "whole game" --game lasker --stones 4
run "Lasker Morris, 5 stones" "whole game" --game lasker --stones 5
run "Dara (5x6 grid)" "moving 3..4 a side" --game dara --max-stones 4
run "Nine Men's Morris" "moving 3..5 a side + consistent placement keys" --max-stones 5

{
  echo "# Games solved by scripts/solve-games.sh"
  echo
  echo "Generated $(date -u +%Y-%m-%d) at commit $(git rev-parse --short HEAD) on"
  echo "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores,"
  echo "$(free -g | awk '/Mem:/ {print $2}') GiB. Every database was verified by \`morris verify\` (each stored"
  echo "value recomputed from its successors). Value of the start for White, the side to move;"
  echo "distances in plies. Positions are symmetry classes; wins are the share of them won by the"
  echo "side to move. Times are wall clock on all cores; memory is the solve's peak resident size."
  echo
  echo "| game | options | solved | start | sub-databases | positions | wins | solve | verify | peak memory |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
  printf '%s\n' "${rows[@]}"
} > "$OUT"
echo "table in $OUT"
