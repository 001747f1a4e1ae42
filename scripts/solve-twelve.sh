#!/usr/bin/env bash
# Twelve Men's Morris solved whole, a layer at a time, within 60 GB of disk: every step at
# nice 19, each leaving a marker, so that a rerun goes on where the last one stopped.
#
#   nohup bash scripts/solve-twelve.sh > ~/morris-dbs/twelve.log 2>&1 &
#   bash scripts/solve-twelve.sh --status        # where each layer stands
#   MORRIS_ROOT=/tmp/t5 SCOPE="--stones 5" bash scripts/solve-twelve.sh   # a reduced game, as
#                                                # a rehearsal (results go to $ROOT/results)
#
# At a byte a slot the game's tables take 106 GiB (moving phase 16.8 G slots, placement 97 G;
# `morris plan --game twelve`). A key's moves lead into the keys with one stone fewer in hand
# (its layer's number: stones in hand, both sides together; 0 is the moving phase), so layer
# t is solved from layer t-1 alone. Per layer t, from 0 to 24:
#   solve, verify (forward recomputation, reads t-1), checksums (db info of each table),
#   stats (stats --json), pack (into the same directory: .wdl.mpk and .dtw.mpk),
#   pack-verify (stored keys slot by slot, searched keys from the raw tables of t-1),
#   then the raw tables of t-1 are deleted: nothing left to build reads them.
# The largest layers hold 16.2 and 15.5 G slots, so at most two layers of raw tables
# (about 33 GB) and the packed sets so far (about 25 GB at the end) are on disk at once.
# Queries read the packed sets (`morris query --db DIR --game twelve`), with distances.
# At the end: the start position and its moves ranked, probe latency, and the results files:
# results/twelve-checksums.txt, results/twelve-stats.json, results/twelve-run.tsv (each step's
# wall time, the disk in use after it, peak memory), written by scripts/twelve-report.py.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=${MORRIS_ROOT:-$HOME/morris-dbs}
SCOPE=${SCOPE:-}
DB=$ROOT/twelve
RESULTS=results
read -r -a GAME <<< "--game twelve $SCOPE"
STONES=$(sed -n 's/.*--stones \([0-9]*\).*/\1/p' <<< "$SCOPE")
STONES=${STONES:-12}
LAYERS=$(( 2 * STONES ))
PREFIX=twelve
if [ "$STONES" != 12 ]; then
  PREFIX=twelve-s$STONES DB=$ROOT/twelve-s$STONES RESULTS=$ROOT/results
fi

if [ "${1:-}" = --status ]; then
  # Each heavy step's largest resident set, for the memory bound (16 GiB).
TIME=(/usr/bin/time -f "peak resident %M KiB")

for t in $(seq 0 "$LAYERS"); do
    steps=$(find "$ROOT/state" -name "twelve-L$t.*.done" -printf '%f\n' 2>/dev/null \
      | sed "s/^twelve-L$t\.//; s/\.done$//" | sort | tr '\n' ' ')
    echo "layer $t: ${steps:-nothing done}"
  done
  du -sh "$DB" 2>/dev/null || true
  exit 0
fi

mkdir -p "$DB" "$RESULTS"
# shellcheck source=scripts/lib/steps.sh
source scripts/lib/steps.sh

# The raw tables of layer $1 (stones in hand, both sides together), by file name.
layer_files() {
  find "$DB" -maxdepth 1 -name "$PREFIX-[0-9]*.mdb" -printf '%f\n' | sort \
    | awk -F'[-.]' -v t="$1" '{ n = NF; if ($(n-2) + $(n-1) == t) print }'
}

# The checksum (db info line) of every raw table of layer $1, kept for the whole-game list.
checksums() {
  local f
  for f in $(layer_files "$1"); do
    nice -n 19 "$BIN" db info "$DB/$f" | sed "s|^$DB/||" | grep "\.mdb: "
  done > "$ROOT/logs/twelve-checksums-L$1.txt"
  cat "$ROOT/logs/twelve-checksums-L$1.txt"
}

# Layer $1's rows of `morris stats --json`.
stats() {
  nice -n 19 "$BIN" stats --db "$DB" "${GAME[@]}" --in-hand "$1" --json \
    > "$ROOT/logs/twelve-stats-L$1.json.tmp"
  mv "$ROOT/logs/twelve-stats-L$1.json.tmp" "$ROOT/logs/twelve-stats-L$1.json"
  cat "$ROOT/logs/twelve-stats-L$1.json"
}

# Deletes layer $1's raw tables once the layer above is verified and packed (its
# packed sets stay). The last layers are kept: they are small, and a query of the
# start position reads them directly.
prune() {
  local f n=0
  for f in $(layer_files "$1"); do
    rm -f "$DB/$f"
    n=$((n + 1))
  done
  echo "layer $1: $n raw tables deleted; on disk now: $(du -sb "$DB" | cut -f1) bytes"
}

# The bytes in $DB after a step, for the peak (the 60 GB bound).
record_disk() {
  printf '%s\t%s\t%s\n' "$1" "$2" "$(du -sb "$DB" | cut -f1)" >> "$ROOT/logs/twelve-disk.tsv"
}

# Each heavy step's largest resident set, for the memory bound (16 GiB).
TIME=(/usr/bin/time -f "peak resident %M KiB")

for t in $(seq 0 "$LAYERS"); do
  set=twelve-L$t
  step "$set" solve "${TIME[@]}" "$BIN" solve --db "$DB" "${GAME[@]}" --in-hand "$t"
  record_disk "$t" solve
  step "$set" verify "${TIME[@]}" "$BIN" verify --db "$DB" "${GAME[@]}" --in-hand "$t" \
    --journal "$ROOT/state/twelve.verify.journal"
  step "$set" checksums checksums "$t"
  step "$set" stats stats "$t"
  step "$set" pack "${TIME[@]}" "$BIN" pack --db "$DB" --out "$DB" "${GAME[@]}" --in-hand "$t"
  record_disk "$t" pack
  step "$set" pack-verify "${TIME[@]}" "$BIN" pack --db "$DB" --out "$DB" "${GAME[@]}" --in-hand "$t" \
    --verify --journal "$ROOT/state/twelve.pack-verify.journal"
  if [ "$t" -ge 1 ] && [ "$t" -lt $(( LAYERS - 1 )) ]; then
    step "$set" prune-below prune $(( t - 1 ))
  fi
done

# The start position and its moves ranked, from the packed sets.
positions() {
  "$BIN" query --db "$DB" "${GAME[@]}" startpos
}
step twelve positions positions
step twelve latency "$BIN" pack --db "$DB" --out "$DB" "${GAME[@]}" --latency 2000
python3 scripts/twelve-report.py --root "$ROOT" --results "$RESULTS" --layers "$LAYERS"
echo "=== Twelve Men's Morris: all layers done; results in $RESULTS"
