#!/usr/bin/env bash
# The whole game under every seed site's own rules: builds, verifies, counts and packs each set
# in turn, at nice 19, and goes on where it stopped when run again (solve, verify and pack
# resume by themselves; a finished step leaves a marker and is skipped).
#
#   nohup bash scripts/solve-seeds.sh > ~/morris-dbs/seeds.log 2>&1 &
#   SETS="nc50" bash scripts/solve-seeds.sh          # some sets only
#   MORRIS_ROOT=/big/disk bash scripts/solve-seeds.sh
#   bash scripts/solve-seeds.sh --status             # where each set stands
#   MORRIS_ROOT=/tmp/s4 SCOPE="--stones 4" bash scripts/solve-seeds.sh   # a reduced game, as a
#                                  # rehearsal (no checksum list; results files left alone)
#   FIGURES_FIRST=1 SETS="noflying nofly-nc50" bash scripts/solve-seeds.sh
#                                  # every set's tables, verify, counts and positions first,
#                                  # then the packing (the figures sooner; more raw disk at once)
#
# The sets, in this order (each reads the one before it on the same board rules):
#   plain       the plain game (flying), which the rule's moving phase reads; its checksums are
#               compared key by key with results/nine-checksums.txt (a verified solve),
#               and verified again as the yardstick of the rule sets' verify times
#   nc50        50 plies without a capture (seeds 001 and 003)
#   nc100       100 plies without a capture (seed 004)
#   plainpack   the plain game packed (after the rule sets, which read the raw plain tables)
#   noflying    the plain game without flying (seed 001's "Sans vol")
#   nofly-nc50  no flying and 50 plies without a capture (seed 001 with "Sans vol")
#
# Disk: all raw tables do not fit together (plain and no-flying 25.5 GiB each, a rule set
# about 14 GiB), so a set's raw tables are deleted once they are verified, counted and
# packed and nothing left to build reads them (PRUNE=0 keeps them); the raw no-flying tables
# go once nofly-nc50, which reads them, is done. Every step's wall time is
# appended to $ROOT/logs/times.tsv, its log to $ROOT/logs/<set>-<step>.log; the statistics go
# to results/nine-<set>-stats.json. scripts/seeds-report.py turns them into the results files.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=${MORRIS_ROOT:-$HOME/morris-dbs}
SETS=${SETS:-"plain nc50 nc100 plainpack noflying nofly-nc50"}
PRUNE=${PRUNE:-1}
FIGURES_FIRST=${FIGURES_FIRST:-0}
SCOPE=${SCOPE:-}
RESULTS=results
[ -z "$SCOPE" ] || RESULTS=$ROOT/results
mkdir -p "$ROOT/state" "$RESULTS"

# `--status`: where each set stands (the steps done, from their markers), and nothing else.
if [ "${1:-}" = --status ]; then
  for set in plain nc50 nc100 noflying nofly-nc50; do
    done_steps=$(find "$ROOT/state" -name "$set.*.done" -printf '%f\n' 2>/dev/null \
      | sed "s/^$set\.//; s/\.done$//" | sort | tr '\n' ' ')
    echo "$set: ${done_steps:-nothing done}"
  done
  exit 0
fi

# shellcheck source=scripts/lib/steps.sh
source scripts/lib/steps.sh

# The directory and flags of a set; the packed set goes to "<dir>-<set>-packed".
dir_of() {
  case $1 in
    plain|nc50|nc100|plainpack) echo "$ROOT/nine" ;;
    noflying|nofly-nc50) echo "$ROOT/nine-noflying" ;;
  esac
}
flags_of() {
  case $1 in
    plain|plainpack) echo "$SCOPE" ;;
    nc50) echo "$SCOPE --moves-without-capture 50" ;;
    nc100) echo "$SCOPE --moves-without-capture 100" ;;
    noflying) echo "$SCOPE --no-flying" ;;
    nofly-nc50) echo "$SCOPE --no-flying --moves-without-capture 50" ;;
  esac
}

# The file names' start of a set's tables (db/src/format/header.rs, file_name).
prefix_of() {
  local name=nine stones
  case $1 in noflying|nofly-nc50) name+=-noflying ;; esac
  stones=$(sed -n 's/.*--stones \([0-9]*\).*/\1/p' <<< "$SCOPE")
  [ -z "$stones" ] || name+=-s$stones
  case $1 in
    nc50|nofly-nc50) name+=-nc50 ;;
    nc100) name+=-nc100 ;;
  esac
  echo "$name"
}

# The plain tables against the checksums of a verified solve, key by key.
check_plain() {
  local dir=$1
  local table='^nine-[0-9]+-[0-9]+-[0-9]+-[0-9]+\.mdb:'
  # db info names each file by its path: compared by file name.
  nice -n 19 "$BIN" db info "$dir" | sed "s|^$dir/||" | grep -E "$table" | sort > "$ROOT/logs/plain-checksums.txt"
  grep -E "$table" results/nine-checksums.txt | sort > "$ROOT/logs/plain-expected.txt"
  if ! diff -q "$ROOT/logs/plain-expected.txt" "$ROOT/logs/plain-checksums.txt" > /dev/null; then
    diff "$ROOT/logs/plain-expected.txt" "$ROOT/logs/plain-checksums.txt" | head -20
    echo "the plain tables differ from results/nine-checksums.txt" >&2
    return 1
  fi
  echo "all $(wc -l < "$ROOT/logs/plain-checksums.txt") plain tables equal results/nine-checksums.txt"
}

# Builds, verifies and counts one set, and queries its positions.
figures_set() {
  local set=$1 dir flags
  dir=$(dir_of "$set")
  read -r -a flags <<< "$(flags_of "$set")"
  mkdir -p "$dir"
  step "$set" solve "$BIN" solve --db "$dir" "${flags[@]}"
  if [ "$set" = plain ]; then
    [ -n "$SCOPE" ] || step "$set" checksums check_plain "$dir"
    # The yardstick of the rule sets' verify times (their solve's is the solve above): the
    # tables are known good by their checksums.
    step "$set" verify "$BIN" verify --db "$dir" "${flags[@]}" --journal "$ROOT/state/$set.verify.journal"
    # The plain counts that each rule set's are checked against, key by key.
    step "$set" stats stats_json "$set" "$dir" "${flags[@]}"
    return
  fi
  step "$set" verify "$BIN" verify --db "$dir" "${flags[@]}" --journal "$ROOT/state/$set.verify.journal"
  step "$set" stats stats_json "$set" "$dir" "${flags[@]}"
  step "$set" positions positions "$dir" "${flags[@]}"
}

# Packs a built set and checks the packed set (the plain game's is packed by `plainpack`).
pack_set() {
  local set=$1 dir flags packed
  [ "$set" != plain ] || return 0
  dir=$(dir_of "$set")
  read -r -a flags <<< "$(flags_of "$set")"
  packed="$ROOT/nine-$set-packed"
  step "$set" pack "$BIN" pack --db "$dir" --out "$packed" "${flags[@]}"
  step "$set" pack-verify "$BIN" pack --db "$dir" --out "$packed" "${flags[@]}" --verify \
    --journal "$ROOT/state/$set.pack-verify.journal" \
    --verified-by "$ROOT/state/$set.verify.journal"
  step "$set" latency "$BIN" pack --db "$dir" --out "$packed" "${flags[@]}" --latency 2000
  step "$set" latency-preloaded "$BIN" pack --db "$dir" --out "$packed" "${flags[@]}" \
    --latency 2000 --preload
  step "$set" disk disk "$set" "$dir" "$packed"
}

# results/nine-<set>-stats.json, exactly as `morris stats --json` prints it (written whole or
# not at all; one pass over the tables: the report reads the JSON).
stats_json() {
  local set=$1 dir=$2
  shift 2
  nice -n 19 "$BIN" stats --db "$dir" "$@" --json > "$ROOT/logs/$set-stats.json.tmp"
  mv "$ROOT/logs/$set-stats.json.tmp" "$RESULTS/nine-$set-stats.json"
  echo "$RESULTS/nine-$set-stats.json: $(grep -c '"key"' "$RESULTS/nine-$set-stats.json") keys"
}

# Bytes on disk of a set: its own raw tables, and its packed set.
disk() {
  local set=$1 dir=$2 packed=$3
  echo "raw $(stat -c %s "$dir/$(prefix_of "$set")"-[0-9]*.mdb | awk '{s += $1} END {printf "%.0f\n", s}')"
  echo "packed $(du -sb "$packed" | cut -f1)"
}

# The start position and Gasser's positions (scripts/gasser-positions.sh, which lists them;
# results/gasser-positions.txt) under a set's rules.
positions() {
  local dir=$1
  shift
  local all=(startpos) gasser
  # A reduced game has its own start position only.
  if [ -z "$SCOPE" ]; then
    mapfile -t gasser < <(bash scripts/gasser-positions.sh --list)
    all+=("${gasser[@]}")
  fi
  for pos in "${all[@]}"; do
    echo "== $pos"
    "$BIN" query --db "$dir" "$@" "$pos"
  done
}

# The plain packed set's value files alone, as a player downloads them (0.87 GB), answering
# the start and Gasser's positions: values with every move ranked, no distances.
values_only() {
  local dir=$ROOT/nine-plain-values
  mkdir -p "$dir"
  find "$ROOT/nine-plain-packed" -maxdepth 1 -name '*.wdl.mpk' -exec ln -sf {} "$dir/" \;
  positions "$dir" "$@"
}

# Whether every step of a set after its solve is done.
set_done() {
  for s in verify stats positions pack pack-verify latency latency-preloaded disk; do
    [ -f "$ROOT/state/$1.$s.done" ] || return 1
  done
}

# The sets whose solve or queries read a set's raw tables (beside its own steps). The plain
# game's readers are the flying rule sets; its raw tables are left to scripts/long-runs.sh,
# which deletes them before Twelve's run.
readers_of() {
  case $1 in
    noflying) echo nofly-nc50 ;;
  esac
}

# The raw files of a set (its metric's tables) once it and every set that reads them are
# done; a set with nothing left to delete says nothing.
prune() {
  [ "$PRUNE" = 1 ] || return 0
  local set=$1 dir reader
  case $set in nc50|nc100|noflying|nofly-nc50) ;; *) return 0 ;; esac
  set_done "$set" || return 0
  for reader in $(readers_of "$set"); do
    set_done "$reader" || return 0
  done
  dir=$(dir_of "$set")
  compgen -G "$dir/$(prefix_of "$set")-[0-9]*.mdb" > /dev/null || return 0
  rm -f "$dir/$(prefix_of "$set")"-[0-9]*.mdb
  echo "=== $set: raw tables removed (packed set kept)"
}

for set in $SETS; do
  case $set in
    plain|nc50|nc100|noflying|nofly-nc50|plainpack) ;;
    *) echo "unknown set $set (plain nc50 nc100 plainpack noflying nofly-nc50)" >&2; exit 2 ;;
  esac
done

if [ "$FIGURES_FIRST" = 1 ]; then
  for set in $SETS; do
    [ "$set" = plainpack ] || figures_set "$set"
  done
fi

for set in $SETS; do
  case $set in
    plain|nc50|nc100|noflying|nofly-nc50) figures_set "$set"; pack_set "$set" ;;
    plainpack)
      dir=$(dir_of plain)
      read -r -a flags <<< "$SCOPE"
      step plain pack "$BIN" pack --db "$dir" --out "$ROOT/nine-plain-packed" "${flags[@]}"
      step plain pack-verify "$BIN" pack --db "$dir" --out "$ROOT/nine-plain-packed" "${flags[@]}" \
        --verify --journal "$ROOT/state/plain.pack-verify.journal" \
        --verified-by "$ROOT/state/plain.verify.journal"
      step plain latency "$BIN" pack --db "$dir" --out "$ROOT/nine-plain-packed" "${flags[@]}" \
        --latency 2000
      step plain latency-preloaded "$BIN" pack --db "$dir" --out "$ROOT/nine-plain-packed" \
        "${flags[@]}" --latency 2000 --preload
      step plain disk disk plain "$dir" "$ROOT/nine-plain-packed"
      step plain values-only values_only "${flags[@]}" ;;
  esac
  # Every set, not only this one: a set's last reader may be done only now.
  for s in nc50 nc100 noflying nofly-nc50; do
    prune "$s"
  done
done
echo "=== all sets done: python3 scripts/seeds-report.py writes the results files"
