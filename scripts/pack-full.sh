#!/usr/bin/env bash
# Packs the solved databases of Nine Men's Morris (values and outcomes, zstd blocks), checks
# every position of the packed sets against the unpacked tables, measures probe latency (cold
# after dropping the page cache where the machine allows it, then warm), and writes
# results/nine-packed.md (a subset: results/nine-packed-max<N>[-moving].md). Resumable: keys
# already packed are skipped.
#
#   bash scripts/pack-full.sh                                # the whole game: dbs/nine -> dbs/nine-packed
#   MAX_STONES=7 MOVING_ONLY=1 bash scripts/pack-full.sh     # a subset
#   MORRIS_DB=/big/nine PACKED=/big/nine-packed LEVEL=19 WDL_BLOCK=65536 DTW_BLOCK=16384 bash scripts/pack-full.sh
#   SIDES=both bash scripts/pack-full.sh      # a file for every key (default: the weaker side searched)
set -euo pipefail
cd "$(dirname "$0")/.."
MAX=${MAX_STONES:-9}
DB=${MORRIS_DB:-dbs/nine}
OUT=${PACKED:-dbs/nine-packed}
LEVEL=${LEVEL:-9}
WDL_BLOCK=${WDL_BLOCK:-20480}
DTW_BLOCK=${DTW_BLOCK:-8192}
SIDES=${SIDES:-stronger}
SAMPLES=${SAMPLES:-2000}
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

start=$(date +%s)
nice $BIN pack --db "$DB" --out "$OUT" "${SCOPE[@]}" --level "$LEVEL" \
  --wdl-block-slots "$WDL_BLOCK" --dtw-block-slots "$DTW_BLOCK" --sides "$SIDES" \
  2>&1 | tr '\r' '\n' | grep -E 'slots|packed' | tee "$LOG"
pack_s=$(( $(date +%s) - start ))

start=$(date +%s)
# Resumable: the journal records the keys that passed.
$BIN pack --db "$DB" --out "$OUT" "${SCOPE[@]}" --verify --journal "$OUT/verify-$TAG.journal" \
  2>&1 | tr '\r' '\n' \
  | grep -E 'checked|verified|differ|damaged' | tail -1 | tee -a "$LOG"
verify_s=$(( $(date +%s) - start ))

if sync && echo 3 > /proc/sys/vm/drop_caches 2>/dev/null; then cold="page cache dropped before the cold pass"
else cold="page cache NOT dropped (not allowed here): the cold pass reads the files from memory"; fi
$BIN pack --db "$DB" --out "$OUT" "${SCOPE[@]}" --latency "$SAMPLES" | tee "$LOG.latency"

machine="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB; commit $(git rev-parse --short HEAD), $(date -u +%F)"
python3 - "$LOG" "$LOG.latency" "$pack_s" "$verify_s" "$cold" "$LEVEL" "$WDL_BLOCK" "$DTW_BLOCK" "$machine" > "results/$TAG.md" <<'PY'
import re, sys
log, lat, pack_s, verify_s, cold, level, wdl_block, dtw_block, machine = sys.argv[1:]
rows, tw, td, ts = [], 0, 0, 0
unit = {"B": 1, "KiB": 1024, "MiB": 1024**2, "GiB": 1024**3}
def size(v, u): return float(v) * unit[u]
for line in open(log):
    m = re.match(r'(\S+): ([\d,]+) slots, no file', line)
    if m:
        n = int(m.group(2).replace(',', ''))
        rows.append((m.group(1), n, None, None, 0.0)); ts += n
        continue
    m = re.match(r'(\S+): ([\d,]+) slots, wdl ([\d.]+) (\w+) \(([\d.]+) bits/slot\), dtw ([\d.]+) (\w+) \(([\d.]+) bits/slot\) \(([\d.]+) s\)', line)
    if m:
        n = int(m.group(2).replace(',', '')); w = size(m.group(3), m.group(4)); d = size(m.group(6), m.group(7))
        rows.append((m.group(1), n, w, d, float(m.group(9)))); tw += w; td += d; ts += n
searched = sum(1 for r in rows if r[2] is None)
print(f"# Packed tables of Nine Men's Morris ({len(rows)} keys, {searched} of them without a file)\n")
print(f"Made by `scripts/pack-full.sh` (zstd level {level}; blocks of {wdl_block} slots for values, {dtw_block} for outcomes) on {machine}.")
print(f"Packing took {pack_s} s, `pack --verify` {verify_s} s: {open(log).read().strip().splitlines()[-1]}\n")
print(f"| | slots | bytes | bits/slot | of the unpacked size |\n|---|---:|---:|---:|---:|")
for name, b in (("values (wdl)", tw), ("outcomes (dtw)", td)):
    print(f"| {name} | {ts:,} | {b/2**20:,.1f} MiB | {b*8/max(ts,1):.3f} | 1/{ts/max(b,1):.0f} |")
print(f"\nProbe latency ({cold}):\n\n```\n{open(lat).read().strip()}\n```\n")
print("| key | slots | wdl bits/slot | dtw bits/slot | seconds |\n|---|---:|---:|---:|---:|")
for k, n, w, d, s in rows:
    if w is None:
        print(f"| {k} | {n:,} | searched | searched | |")
    else:
        print(f"| {k} | {n:,} | {w*8/n:.3f} | {d*8/n:.3f} | {s:.1f} |")
PY
echo "results/$TAG.md written"
