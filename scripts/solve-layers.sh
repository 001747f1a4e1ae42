#!/usr/bin/env bash
# A game too large for the disk at a byte a slot (Twelve Men's Morris, Lasker Morris) solved
# whole a layer at a time within 60 GB: every step at nice 19, each leaving a marker, so that
# a rerun goes on where the last one stopped.
#
#   nohup bash scripts/solve-layers.sh twelve > ~/morris-dbs/twelve.log 2>&1 &
#   bash scripts/solve-layers.sh twelve --status     # where each layer stands
#   MORRIS_ROOT=/tmp/t5 SCOPE="--stones 5" bash scripts/solve-layers.sh lasker   # a reduced
#                                   # game, as a rehearsal (results go to $ROOT/results)
#
# At a byte a slot Twelve's tables take 106 GiB (moving phase 16.8 G slots, with stones in
# hand 97 G) and Lasker's 127 GiB (12.9 G and 123 G; `morris plan --game G`). A key's layer is
# its stones in hand, both sides together (0 is the moving phase). A placement leads into the
# layer below; a slide (Lasker, with stones in hand) stays in the layer. So layer t is solved
# from layers t-1 and t alone. Per layer t, from 0 to the start's:
#   solve, verify (forward recomputation, reads t-1 and t), checksums (db info of each table),
#   stats (stats --json), pack (into the same directory: .wdl.mpk and .dtw.mpk),
#   pack-verify (stored keys slot by slot; searched keys, which the verify step vouches for,
#   on a sample through the packed reader, which reads their children from the packed sets),
#   the raw tables of t-1 deleted once t is verified, before the pack: nothing left to build
#   or check reads them.
# At most two layers of raw tables are on disk at once, only while layer t is solved and
# verified: Twelve's largest two hold 31.7 G slots (layers 1 and 2), Lasker's 50.9 G (layers
# 2 and 3), beside the packed sets so far.
# Queries read the packed sets (`morris query --db DIR --game G`), with distances.
# Below layer $BOTH_FROM the side to move with fewer stones gets no file: the reader searches
# its moves. A capture by a side one stone behind leads into another such key, so the search
# grows with the stones in hand. On Twelve's layers 1, 2 and 3 the sampled check of the
# searched keys took 23, 37 and 60 us a position (2 cores): 12 to 16 us on most keys, but 53,
# 113 and 193 us on those one stone behind, nearly doubling a layer. By layer 10 such a probe
# would take milliseconds, and the check hours. From layer $BOTH_FROM up every key is packed
# (--sides both): one block read a probe, for about twice those layers' packed bytes (layer
# 4: 4.09 GiB of distances, 2.14 GiB of them the stronger side's; results/twelve-logs).
# At the end: the start position and its moves ranked, probe latency, and the results files:
# results/G-checksums.txt, results/G-stats.json and results/G.md (each step's wall time, the
# disk in use after it, peak memory), written by scripts/layers-report.py.
set -euo pipefail
cd "$(dirname "$0")/.."
NAME=${1:-}
case "$NAME" in
  twelve) STONES_FULL=12 ;;
  lasker) STONES_FULL=10 ;;
  *) echo "usage: bash scripts/solve-layers.sh twelve|lasker [--status]" >&2; exit 2 ;;
esac
ROOT=${MORRIS_ROOT:-$HOME/morris-dbs}
SCOPE=${SCOPE:-}
read -r -a GAME <<< "--game $NAME $SCOPE"
STONES=$(sed -n 's/.*--stones \([0-9]*\).*/\1/p' <<< "$SCOPE")
STONES=${STONES:-$STONES_FULL}
LAYERS=$(( 2 * STONES ))
PREFIX=$NAME DB=$ROOT/$NAME RESULTS=results
BOTH_FROM=4
if [ "$STONES" != "$STONES_FULL" ]; then
  PREFIX=$NAME-s$STONES DB=$ROOT/$NAME-s$STONES RESULTS=$ROOT/results
fi

if [ "${2:-}" = --status ]; then
  for t in $(seq 0 "$LAYERS"); do
    steps=$(find "$ROOT/state" -name "$NAME-L$t.*.done" -printf '%f\n' 2>/dev/null \
      | sed "s/^$NAME-L$t\.//; s/\.done$//" | sort | tr '\n' ' ')
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
  done > "$ROOT/logs/$NAME-checksums-L$1.txt"
  cat "$ROOT/logs/$NAME-checksums-L$1.txt"
}

# Layer $1's rows of `morris stats --json`.
stats() {
  nice -n 19 "$BIN" stats --db "$DB" "${GAME[@]}" --in-hand "$1" --json \
    > "$ROOT/logs/$NAME-stats-L$1.json.tmp"
  mv "$ROOT/logs/$NAME-stats-L$1.json.tmp" "$ROOT/logs/$NAME-stats-L$1.json"
  cat "$ROOT/logs/$NAME-stats-L$1.json"
}

# Deletes layer $1's raw tables once the layer above is verified; its packed sets stay. The
# last layers are kept: they are small, and a query of the start position reads them directly.
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
  printf '%s\t%s\t%s\n' "$1" "$2" "$(du -sb "$DB" | cut -f1)" >> "$ROOT/logs/$NAME-disk.tsv"
}

# Each heavy step's largest resident set, for the memory bound (16 GiB).
TIME=(/usr/bin/time -f "peak resident %M KiB")

for t in $(seq 0 "$LAYERS"); do
  set=$NAME-L$t
  step "$set" solve "${TIME[@]}" "$BIN" solve --db "$DB" "${GAME[@]}" --in-hand "$t"
  record_disk "$t" solve
  step "$set" verify "${TIME[@]}" "$BIN" verify --db "$DB" "${GAME[@]}" --in-hand "$t" \
    --journal "$ROOT/state/$NAME.verify.journal"
  step "$set" checksums checksums "$t"
  step "$set" stats stats "$t"
  # Once layer t is verified nothing reads layer t-1's raw tables: the pack reads layer t's,
  # and its check reads the searched keys' children from the packed sets (verify vouches for
  # their minimax). So they go before layer t is packed, and the two layers' raw tables are
  # never on disk beside layer t's packed set.
  sides=()
  [ "$t" -ge "$BOTH_FROM" ] && sides=(--sides both)
  if [ "$t" -ge 1 ] && [ "$t" -lt $(( LAYERS - 1 )) ]; then
    step "$set" prune-below prune $(( t - 1 ))
  fi
  step "$set" pack "${TIME[@]}" "$BIN" pack --db "$DB" --out "$DB" "${GAME[@]}" --in-hand "$t" \
    "${sides[@]}"
  record_disk "$t" pack
  step "$set" pack-verify "${TIME[@]}" "$BIN" pack --db "$DB" --out "$DB" "${GAME[@]}" --in-hand "$t" \
    --verify --journal "$ROOT/state/$NAME.pack-verify.journal" \
    --verified-by "$ROOT/state/$NAME.verify.journal"
done

# The start position and its moves ranked, from the packed sets.
positions() {
  "$BIN" query --db "$DB" "${GAME[@]}" startpos
}
step "$NAME" positions positions
step "$NAME" latency "$BIN" pack --db "$DB" --out "$DB" "${GAME[@]}" --latency 2000
step "$NAME" latency-preloaded "$BIN" pack --db "$DB" --out "$DB" "${GAME[@]}" --latency 2000 \
  --preload
python3 scripts/layers-report.py --game "$NAME" --root "$ROOT" --results "$RESULTS" --layers "$LAYERS"
echo "=== $NAME: all layers done; results in $RESULTS"
