#!/usr/bin/env bash
# The tests too long for the test command (each several minutes on 2 cores), run on demand:
# the naive reference against the no-capture rule's solver at N = 12 on the 4-stone games
# (solver/tests/reference_nocapture.rs), and the reference's full forward check of every
# position up to four stones, with and without flying (reference/tests/solve.rs).
#
#   bash scripts/test-ignored.sh
set -euo pipefail
cd "$(dirname "$0")/.."
PROFILE=${MORRIS_PROFILE:-release}
cargo test --profile "$PROFILE" -p morris-solver --test reference_nocapture -- --ignored
cargo test --profile "$PROFILE" -p morris-reference --test solve -- --ignored
