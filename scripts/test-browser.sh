#!/usr/bin/env bash
# The web board in a real browser: installs Debian's chromium if missing, builds, solves a
# small database, starts the server on a free localhost port and drives headless Chromium
# (serve/tests/browser.py, standard library only) against it. Screenshots: results/serve-*.png.
# Exits non-zero on any failed check.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v chromium >/dev/null 2>&1; then
    echo "installing chromium (Debian package)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}"
PROFILE=${MORRIS_PROFILE:-release}
cargo build --profile "$PROFILE" -p morris
bin="$CARGO_TARGET_DIR/$PROFILE"

work="$(mktemp -d)"
server=""
cleanup() {
    if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

echo "solving the 3-stone game (plain and no-capture N = 8) and Three Men's Morris"
"$bin/morris" solve --db "$work/db" --stones 3 >/dev/null
"$bin/morris" solve --db "$work/db" --stones 3 --moves-without-capture 8 >/dev/null
"$bin/morris" solve --db "$work/db" --game three >/dev/null

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
"$bin/morris" serve --db "$work/db" --stones 3 --addr "127.0.0.1:$port" >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 100); do
    if python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/api/games', timeout=1)" 2>/dev/null; then
        break
    fi
    sleep 0.1
done

mkdir -p results
CHROME_PROFILE="$work/chrome" timeout 240 python3 serve/tests/browser.py --url "http://127.0.0.1:$port" --out results
