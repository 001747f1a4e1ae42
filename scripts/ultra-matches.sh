#!/usr/bin/env bash
# The matches behind results/ultra-strong.md: each choice among best moves (fastest, random,
# ultra) against epsilon-perfect players, and each strength level against the perfect player
# and against the level below. Seeded: a rerun with the same binary prints the same figures.
#
# usage: scripts/ultra-matches.sh DB GAMES [morris rule flags, e.g. --stones 6]
#   MORRIS_BIN  the morris binary (default: target/release/morris)
#   THREADS     worker threads (default 1: the matches run beside long solves, at nice 19)
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 DB GAMES [morris rule flags]" >&2
  exit 2
fi
db=$1 games=$2
shift 2
bin=${MORRIS_BIN:-target/release/morris}
[ -x "$bin" ] || { echo "$bin: no such binary (cargo build --release -p morris, or set MORRIS_BIN)" >&2; exit 1; }
echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) $("$bin" --version) $(git rev-parse --short HEAD 2>/dev/null || echo '?') $(uname -n), db $db, $games games a match, flags: $*"

match() {
  echo "\$ morris arena $* --games $games"
  nice -n 19 "$bin" arena --db "$db" --games "$games" --threads "${THREADS:-1}" "$@"
}

for eps in 0.9 0.97 0.99 0.999; do
  for choice in ultra random fastest; do
    match "$@" "$choice" "random@$eps"
  done
done
for n in 1 2 3 4; do
  match "$@" "level$n" level5
  match "$@" "level$((n + 1))" "level$n"
done
