#!/usr/bin/env bash
# Every run of hours, chained in one order, for a machine whose disk is kept from one run to
# the next. Each step leaves a marker and resumes, so the same command after an interruption
# (a reboot, the machine's processes ended) goes on where it stopped. At nice 19 throughout:
# start it with setsid and work beside it.
#
#   setsid nohup bash scripts/long-runs.sh >> ~/morris-dbs/long-runs.log 2>&1 < /dev/null &
#   CHAIN="nine-nc50" bash scripts/long-runs.sh    # some runs only, in the order given
#   MORRIS_ROOT=/big/disk bash scripts/long-runs.sh
#
# The runs (CHAIN, default "lasker nine-nc50"):
#   lasker     Lasker Morris whole, a layer at a time within 60 GB (scripts/solve-layers.sh)
#   nine-nc50  the whole Nine game, its checksums compared with results/nine-checksums.txt and
#              verified, then the no-capture rule at N = 50 over it solved, verified, counted
#              and packed, every log kept (scripts/solve-seeds.sh, sets plain and nc50)
#   noflying   the Nine game without flying, plain and at N = 50 (sets noflying, nofly-nc50)
#   nine       the plain game, N = 100 and the plain set packed (sets plain, nc100, plainpack);
#              then the raw plain tables (25.5 GiB) are deleted for room (KEEP_RAW=1 keeps
#              them): every answer stays available from the packed set, their checksums are in
#              results/nine-checksums.txt, and `morris solve --db DIR` rebuilds them
#   twelve     Twelve Men's Morris whole (scripts/solve-layers.sh), as results/twelve.md has it
#
# Disk: a layered game's directory peaks near 60 GB (docs/long-runs.md). Before one starts,
# the packed Nine rule sets are deleted, rule sets first, until the disk has that room; only
# a set whose figures are all logged (packed, verified, timed, measured) goes, and
# scripts/seeds-report.py reads its figures from the logs. A rehearsal (SCOPE) needs no room.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=${MORRIS_ROOT:-$HOME/morris-dbs}
export MORRIS_ROOT=$ROOT
mkdir -p "$ROOT"

room=${LAYERS_ROOM:-$([ -n "${SCOPE:-}" ] && echo 0 || echo 62000000000)}
room_left() {
  local avail have
  avail=$(df -B1 --output=avail "$ROOT" | tail -1)
  # The game's own directory (twelve, or twelve-sN in a rehearsal) counts as room.
  have=$(find "$ROOT" -maxdepth 1 -type d -name "$1*" -exec du -sb {} + \
    | awk '{ s += $1 } END { print s + 0 }')
  echo $(( avail + have - room ))
}
make_room() {
  local set s
  for set in nc100 nc50 nofly-nc50 noflying; do
    [ "$(room_left "$1")" -lt 0 ] || break
    [ -d "$ROOT/nine-$set-packed" ] || continue
    for s in pack-verify latency latency-preloaded disk; do
      [ -f "$ROOT/state/$set.$s.done" ] || continue 2
    done
    rm -rf "$ROOT/nine-$set-packed"
    echo "=== $set: packed set deleted for $1's room (its figures are in $ROOT/logs)"
  done
  if [ "$(room_left "$1")" -lt 0 ]; then
    echo "$1 needs $room bytes of disk under $ROOT (its own directory counted), and" \
      "$(( 0 - $(room_left "$1") )) more are missing; free them (LAYERS_ROOM=BYTES to change" \
      "the bound)" >&2
    exit 1
  fi
}

# The raw plain Nine tables, once packed and the packed set verified.
delete_raw_plain() {
  [ -f "$ROOT/state/plain.pack-verify.done" ] || { echo "plain is not packed and verified" >&2; exit 1; }
  local plain=(-maxdepth 1 -regextype posix-extended -regex '.*/nine(-s[0-9]+)?(-[0-9]+){4}\.mdb')
  local n
  n=$(find "$ROOT/nine" "${plain[@]}" | wc -l)
  if [ "$n" -gt 0 ]; then
    find "$ROOT/nine" "${plain[@]}" -delete
    echo "=== nine: $n raw plain tables deleted for room (packed set kept)"
  fi
}

for run in ${CHAIN:-lasker nine-nc50}; do
  case $run in
    lasker|twelve) make_room "$run"; bash scripts/solve-layers.sh "$run" ;;
    nine-nc50) SETS="plain nc50" bash scripts/solve-seeds.sh ;;
    noflying) FIGURES_FIRST=1 SETS="noflying nofly-nc50" bash scripts/solve-seeds.sh ;;
    nine)
      SETS="plain nc100 plainpack" bash scripts/solve-seeds.sh
      [ -z "${KEEP_RAW:-}" ] && delete_raw_plain ;;
    *) echo "long-runs.sh: no run named $run (lasker, nine-nc50, noflying, nine, twelve)" >&2
       exit 2 ;;
  esac
done
