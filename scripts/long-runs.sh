#!/usr/bin/env bash
# Every run of hours, chained in the order they read each other, for a machine kept between
# sessions: the whole Nine game under every seed site's rules (scripts/solve-seeds.sh: the
# plain game, N = 50 and 100 plies without a capture, the plain set packed, no flying, no
# flying with N = 50), then Twelve Men's Morris whole (scripts/solve-twelve.sh). Each step
# leaves a marker and resumes, so the same command after an interruption goes on where it
# stopped. At nice 19 throughout: run it in the background and work beside it.
#
#   nohup bash scripts/long-runs.sh > ~/morris-dbs/long-runs.log 2>&1 &
#   MORRIS_ROOT=/big/disk bash scripts/long-runs.sh
#   KEEP_RAW=1 bash scripts/long-runs.sh     # keep the raw Nine tables (needs about 50 GB more)
#
# Disk: the raw tables of the plain and the no-flying Nine games (25.5 GiB each) do not fit
# beside Twelve's run (up to about 40 GB), so once both are packed and their packed sets
# verified, and nothing left to build reads them, they are deleted before Twelve starts: every
# answer stays available from the packed sets (values and distances), the checksums of the plain
# set are in results/nine-checksums.txt, and `morris solve --db DIR` rebuilds it in about half
# an hour.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=${MORRIS_ROOT:-$HOME/morris-dbs}
export MORRIS_ROOT=$ROOT

bash scripts/solve-seeds.sh

if [ -z "${KEEP_RAW:-}" ]; then
  for set in plain noflying; do
    [ -f "$ROOT/state/$set.pack-verify.done" ] || { echo "$set is not packed and verified" >&2; exit 1; }
  done
  for dir in nine nine-noflying; do
    n=$(find "$ROOT/$dir" -maxdepth 1 -name '*.mdb' | wc -l)
    if [ "$n" -gt 0 ]; then
      find "$ROOT/$dir" -maxdepth 1 -name '*.mdb' -delete
      echo "=== $dir: $n raw tables deleted for Twelve's room (packed sets kept)"
    fi
  done
fi

bash scripts/solve-twelve.sh
