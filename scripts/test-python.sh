#!/usr/bin/env bash
# The Python package's tests on a fresh machine: a venv, the extension built once in release
# mode, the CLI (the tests solve their databases with it and compare against `query --json`),
# then pytest. Exits non-zero on any failure.
#   VENV=path     where the venv lives (default: /tmp/morris-venv, outside the repository)
#   MORRIS_PROFILE=name   the cargo profile of the extension and the CLI (default: release)
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${VENV:-/tmp/morris-venv}"
PYTHON="${PYTHON:-python3}"
[ -x "$VENV/bin/python" ] || "$PYTHON" -m venv "$VENV"
"$VENV/bin/pip" install --quiet --upgrade pip
"$VENV/bin/pip" install --quiet maturin pytest numpy open-spiel
# A target directory of its own, so that the extension's build neither waits for nor
# invalidates the workspace's.
PROFILE=${MORRIS_PROFILE:-release}
CARGO_TARGET_DIR="${PY_CARGO_TARGET_DIR:-$PWD/python/target}" MATURIN_PEP517_ARGS="--profile $PROFILE" \
    "$VENV/bin/pip" install --quiet ./python
cargo build --profile "$PROFILE" -p morris
export MORRIS_BIN=${CARGO_TARGET_DIR:-$PWD/target}/$PROFILE/morris
cd python
"$VENV/bin/pytest" -q tests
