#!/usr/bin/env bash
# Fuzzes the position parser, the move parser and the table loader for a bounded time each
# (stable toolchain, no cargo-fuzz: see fuzz/src/lib.rs and the README's "Fuzzing").
#   bash scripts/fuzz.sh            # 60 s per target
#   SECONDS_PER_TARGET=600 bash scripts/fuzz.sh
#   SEED=42 bash scripts/fuzz.sh     # reproduce a run (default: a new seed each run)
# A panic saves the input as fuzz/corpus/<target>/crash-<hash> (replayed by `cargo test` from
# then on: keep it with the fix) and makes this script exit 1.
set -euo pipefail
cd "$(dirname "$0")/.."
secs="${SECONDS_PER_TARGET:-60}"
cargo build --release -p morris-fuzz
bin="${CARGO_TARGET_DIR:-target}/release/morris-fuzz"
status=0
for target in position move table packed; do
    if [[ -n "${SEED:-}" ]]; then
        "$bin" "$target" --seconds "$secs" --seed "$SEED" || status=1
    else
        "$bin" "$target" --seconds "$secs" || status=1
    fi
done
exit "$status"
