#!/usr/bin/env bash
# The project's test command (README, CI): tests in release mode, the README's quick start in a
# fresh clone (with the binary the tests built), the long runs' scripts rehearsed on a small
# game, lints, formatting, then the Python package's
# tests (a venv, the extension, pytest with the real open-spiel package), the web board in
# headless Chromium, and the solve as a Slurm workflow on a one-node cluster
# (scripts/slurm-test.sh; installs slurm-wlm and munge when missing).
#
# Everything is built with the `ci` profile (Cargo.toml: release optimisation without fat LTO),
# exported as MORRIS_PROFILE to the scripts below so that they share one build of the CLI.
set -euo pipefail
cd "$(dirname "$0")/.."
export MORRIS_PROFILE=${MORRIS_PROFILE:-ci}
cargo test --profile "$MORRIS_PROFILE" --workspace
MORRIS_BIN="${CARGO_TARGET_DIR:-$PWD/target}/$MORRIS_PROFILE/morris" bash scripts/test-quickstart.sh
MORRIS_BIN="${CARGO_TARGET_DIR:-$PWD/target}/$MORRIS_PROFILE/morris" bash scripts/test-long-runs.sh
cargo clippy --workspace --all-targets -- -D warnings
cargo fmt --all --check
cargo fmt --manifest-path python/Cargo.toml --check
cargo clippy --manifest-path python/Cargo.toml --all-targets -- -D warnings
bash scripts/test-python.sh
bash scripts/test-browser.sh
bash scripts/slurm-test.sh
