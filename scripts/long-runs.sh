#!/usr/bin/env bash
# The runs of hours, for a machine that stays up for a day (or is kept between runs): the
# plain Nine Men's Morris (both phases, which the others read), then the shortest first: the
# whole game packed (about an hour), the moving phase of Twelve Men's Morris (about three
# hours), the no-capture rule at N = 50 and 100 over the whole game (the longest; one results
# file for both). Every step is resumable, verification included (journals of the keys that
# passed), so after an interruption the same command goes on where it stopped; a step that
# finds its output complete takes seconds. At nice 19 throughout: run it in the background and work beside it.
#
#   nohup bash scripts/long-runs.sh > dbs/long-runs.log 2>&1 &
#   MORRIS_DB=/big/disk/nine TWELVE_DB=/big/disk/twelve bash scripts/long-runs.sh
#   STEPS="plain pack" bash scripts/long-runs.sh     # some steps only
#
# Disk, about: plain 26 GiB, each N 14 GiB, packed 3 GiB, Twelve 15.6 GiB (tables are written
# atomically, so a full disk stops a step with an error and loses no finished table).
set -euo pipefail
cd "$(dirname "$0")/.."
DB=${MORRIS_DB:-dbs/nine}
TWELVE_DB=${TWELVE_DB:-dbs/twelve}
STEPS=${STEPS:-"plain pack twelve nocapture"}
mkdir -p "$DB"

step() {
    local name=$1
    shift
    echo "=== $name: start $(date -u +%H:%MZ)"
    nice -n 19 "$@"
    echo "=== $name: done $(date -u +%H:%MZ)"
}

cargo build --release -p morris
for s in $STEPS; do
    case $s in
        plain)
            # With the pack step to come, the packer follows the solve (each key packed while
            # its table is still in the page cache), so that the two end together.
            case " $STEPS " in
                *" pack "*)
                    ( sleep 10; MORRIS_DB="$DB" PACKED="$DB-packed" STEPS=follow \
                        nice -n 19 bash scripts/pack-full.sh ) &
                    follower=$! ;;
                *) follower= ;;
            esac
            step plain target/release/morris solve --db "$DB"
            [ -z "$follower" ] || wait "$follower" ;;
        nocapture)
            # The seed sites' rule sets (scripts/solve-seeds.sh): its tables sit in <root>/nine.
            step nocapture env MORRIS_ROOT="$(dirname "$DB")" SETS="plain nc50 nc100" \
                bash scripts/solve-seeds.sh ;;
        # This script's STEPS is not pack-full.sh's: that one keeps its own default steps.
        pack) step pack env -u STEPS MORRIS_DB="$DB" PACKED="$DB-packed" bash scripts/pack-full.sh ;;
        twelve) step twelve env MORRIS_DB="$TWELVE_DB" bash scripts/solve-twelve.sh ;;
        *) echo "unknown step $s (plain pack twelve nocapture)" >&2; exit 2 ;;
    esac
done
