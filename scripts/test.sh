#!/usr/bin/env bash
# The project's test command (README, CI): tests in release mode, lints, formatting.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --release --workspace
cargo clippy --workspace --all-targets -- -D warnings
cargo fmt --all --check
