#!/usr/bin/env bash
# The Python package's tests on a fresh machine: a venv, the extension built once in release
# mode, the CLI (the tests solve their databases with it and compare against `query --json`),
# then pytest. Exits non-zero on any failure.
#   VENV=path     where the venv lives (default: /tmp/morris-venv, outside the repository)
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${VENV:-/tmp/morris-venv}"
PYTHON="${PYTHON:-python3}"
[ -x "$VENV/bin/python" ] || "$PYTHON" -m venv "$VENV"
"$VENV/bin/pip" install --quiet --upgrade pip
"$VENV/bin/pip" install --quiet maturin pytest numpy open-spiel
# A target directory of its own, so that the extension's build neither waits for nor
# invalidates the workspace's.
CARGO_TARGET_DIR="${PY_CARGO_TARGET_DIR:-$PWD/python/target}" "$VENV/bin/pip" install --quiet ./python
cargo build --release -p morris
cd python
"$VENV/bin/pytest" -q tests
