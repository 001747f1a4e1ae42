#!/usr/bin/env bash
# Every run of hours, chained in the order they read each other, for a machine whose disk is
# kept from one run to the next:
#   1. the Nine game without flying, plain and at N = 50 (scripts/solve-seeds.sh, sets
#      noflying and nofly-nc50, every set's figures before the packing): the raw no-flying
#      tables are deleted once both are packed;
#   2. the whole Nine game, plain and under the no-capture rule of the seed sites
#      (solve-seeds.sh, sets plain, nc100, plainpack: the rule sets read the plain tables,
#      which are packed last). N = 50 is left out: its figures are in
#      results/nine-nocapture.md; `SETS=nc50 bash scripts/solve-seeds.sh` builds it while the
#      raw plain tables are there (NINE_SETS="plain nc50 nc100 plainpack" chains it);
#   3. Twelve Men's Morris whole (scripts/solve-layers.sh twelve), then Lasker Morris if asked
#      (LASKER=1).
# Each step leaves a marker and resumes, so the same command after an interruption goes on
# where it stopped. At nice 19 throughout: run it in the background and work beside it.
#
#   nohup bash scripts/long-runs.sh > ~/morris-dbs/long-runs.log 2>&1 &
#   MORRIS_ROOT=/big/disk bash scripts/long-runs.sh
#   KEEP_RAW=1 bash scripts/long-runs.sh     # keep the raw plain Nine tables (25.5 GiB more)
#   LASKER=1 bash scripts/long-runs.sh       # Lasker Morris whole after Twelve
#   SKIP_NINE=1 bash scripts/long-runs.sh    # (any value) straight to Twelve: a machine without the Nine
#                                   # sets, whose figures are in results/ already (the plain
#                                   # set's raw tables are then neither needed nor deleted)
#
# Disk: the raw plain Nine tables (25.5 GiB) do not fit beside Twelve's run (up to about
# 40 GB) and the packed sets, so once the rule sets that read them are built and they are
# packed and their packed set verified, they are deleted before Twelve starts: every answer
# stays available from the packed set (values and distances), their checksums are in
# results/nine-checksums.txt, and `morris solve --db DIR` rebuilds them in about half an hour.
# The packed rule sets go too where the disk needs it (below); the plain packed set stays.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=${MORRIS_ROOT:-$HOME/morris-dbs}
export MORRIS_ROOT=$ROOT

if [ -z "${SKIP_NINE:-}" ]; then
  FIGURES_FIRST=1 SETS="noflying nofly-nc50" bash scripts/solve-seeds.sh
  SETS=${NINE_SETS:-"plain nc100 plainpack"} bash scripts/solve-seeds.sh
fi

if [ -z "${KEEP_RAW:-}" ] && [ -z "${SKIP_NINE:-}" ]; then
  [ -f "$ROOT/state/plain.pack-verify.done" ] || { echo "plain is not packed and verified" >&2; exit 1; }
  plain=(-maxdepth 1 -regextype posix-extended -regex '.*/nine(-s[0-9]+)?(-[0-9]+){4}\.mdb')
  n=$(find "$ROOT/nine" "${plain[@]}" | wc -l)
  if [ "$n" -gt 0 ]; then
    find "$ROOT/nine" "${plain[@]}" -delete
    echo "=== nine: $n raw plain tables deleted for Twelve's room (packed set kept)"
  fi
fi

# Room for a layered game (scripts/solve-layers.sh): Twelve's directory peaks near 58 GB
# (docs/long-runs.md), Lasker's too. The packed Nine sets other than the plain game's are
# deleted, rule sets first, until the disk has that room; only a set whose figures are all
# logged (packed, verified, timed, measured) goes, and scripts/seeds-report.py reads its
# figures from the logs. A rehearsal (SCOPE) needs no room.
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

make_room twelve
bash scripts/solve-layers.sh twelve

# Lasker Morris only when asked (LASKER=1): beside Twelve's packed set (about 25 GB) it does
# not fit a disk of 80 GB (results/lasker-plan.md).
if [ -n "${LASKER:-}" ]; then
  make_room lasker
  bash scripts/solve-layers.sh lasker
fi
