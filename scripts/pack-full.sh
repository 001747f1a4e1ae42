#!/usr/bin/env bash
# Packs the solved databases of Nine Men's Morris (values and outcomes, zstd blocks), measures
# probe latency (cold after dropping the page cache where the machine allows it, then warm),
# checks every position of the packed sets against the unpacked tables, and writes
# results/nine-packed.md (a subset: results/nine-packed-max<N>[-moving].md). Every step is
# resumable: keys already packed are skipped, keys already verified are skipped (journal), and
# the logs go on across runs, so the report always covers everything done so far; it says how
# far the verification got. The latency comes before the verification, which on the whole
# game takes hours (a searched key is checked by a forward evaluation of every position).
#
#   bash scripts/pack-full.sh                                # the whole game: dbs/nine -> dbs/nine-packed
#   MAX_STONES=7 MOVING_ONLY=1 bash scripts/pack-full.sh     # a subset
#   MORRIS_DB=/big/nine PACKED=/big/nine-packed LEVEL=19 WDL_BLOCK=65536 DTW_BLOCK=16384 bash scripts/pack-full.sh
#   SIDES=both bash scripts/pack-full.sh      # a file for every key (default: the weaker side searched)
#   STEPS="report" bash scripts/pack-full.sh  # only rewrite the report from the logs
#   STEPS=follow bash scripts/pack-full.sh &  # beside a running solve: pack keys as they come
set -euo pipefail
cd "$(dirname "$0")/.."
MAX=${MAX_STONES:-9}
DB=${MORRIS_DB:-dbs/nine}
OUT=${PACKED:-dbs/nine-packed}
LEVEL=${LEVEL:-7}
WDL_BLOCK=${WDL_BLOCK:-20480}
DTW_BLOCK=${DTW_BLOCK:-8192}
SIDES=${SIDES:-stronger}
SAMPLES=${SAMPLES:-2000}
STEPS=${STEPS:-"pack latency verify report"}
SCOPE=(--max-stones "$MAX")
[ -n "${MOVING_ONLY:-}" ] && SCOPE+=(--moving-only)
cargo build --release -p morris
BIN=target/release/morris
# results/nine-packed.md for the whole game; a subset or the other layout gets its own name.
SUBSET=""
[ "$MAX" != 9 ] && SUBSET="-max$MAX"
[ "$SIDES" = both ] && SUBSET="$SUBSET-both"
TAG="nine-packed$SUBSET${MOVING_ONLY:+-moving}"
LOG=results/$TAG.log
mkdir -p results
machine="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB; commit $(git rev-parse --short HEAD), $(date -u +%F)"

# One pass of the packer over the scope, its progress lines one to a line.
pack_pass() {
  nice $BIN pack --db "$DB" --out "$OUT" "${SCOPE[@]}" --level "$LEVEL" \
    --wdl-block-slots "$WDL_BLOCK" --dtw-block-slots "$DTW_BLOCK" --sides "$SIDES" \
    2>&1 | tr '\r' '\n'
}

for step in $STEPS; do
  case $step in
    follow)
      # Beside a running solve of $DB (which holds its directory's lock): pack the keys solved
      # so far, and again every minute, until the solve ends; the `pack` step then packs the
      # rest. A pass stops at the first key without a table (not solved yet): expected here.
      echo "# run $(date -u +%FT%TZ): $machine; keys packed as the solve wrote them" >> "$LOG"
      while ! flock -n "$DB/.morris.lock" true 2>/dev/null; do
        # Only the keys packed in the pass: the `pack` step lists the searched keys once.
        pack_pass | grep -F 'slots, wdl' >> "$LOG" || true
        sleep 60
      done
      ;;
    pack)
      # One line per key packed in this run (a rerun appends; the report keeps each key's last
      # line with sizes, and sums the seconds of the runs).
      echo "# run $(date -u +%FT%TZ): $machine" >> "$LOG"
      pack_pass | grep -E 'slots|packed' | tee -a "$LOG"
      ;;
    latency)
      if sync && echo 3 > /proc/sys/vm/drop_caches 2>/dev/null; then
        cold="page cache dropped before the cold pass"
      else
        cold="page cache NOT dropped (not allowed here): the cold pass reads the files from memory"
      fi
      { echo "# $cold; $machine"
        $BIN pack --db "$DB" --out "$OUT" "${SCOPE[@]}" --latency "$SAMPLES"; } | tee "$LOG.latency"
      ;;
    verify)
      # Keys with a file first (a decode and a compare a slot), then the searched keys (a
      # forward evaluation each); the journal records the keys that passed.
      echo "# run $(date -u +%FT%TZ): $machine" >> "$LOG.verify"
      set +e
      $BIN pack --db "$DB" --out "$OUT" "${SCOPE[@]}" --verify --journal "$OUT/verify-$TAG.journal" \
        2>&1 | tr '\r' '\n' | grep -E 'checked|verified|differ|damaged|first at|error' \
        | tee -a "$LOG.verify"
      status=${PIPESTATUS[0]}
      set -e
      [ "$status" = 0 ] || echo "pack --verify exit status $status" | tee -a "$LOG.verify"
      ;;
    report)
      # The plan's totals (keys, slots), to say how much of the game the report covers.
      PLAN=$($BIN plan "${SCOPE[@]}" 2>/dev/null | awk '$2 == "keys" {k += $1; gsub(",", "", $3); s += $3} END {printf "%d %.0f\n", k, s}')
      python3 scripts/pack-report.py "$LOG" "$LEVEL" "$WDL_BLOCK" "$DTW_BLOCK" "$SIDES" $PLAN \
        > "results/$TAG.md"
      echo "results/$TAG.md written"
      ;;
    *) echo "unknown step $step (follow pack latency verify report)" >&2; exit 2 ;;
  esac
done
