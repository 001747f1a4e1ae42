#!/usr/bin/env bash
# Load figures of `morris serve`: /api/query on positions drawn from the game, over a
# packed set preloaded, the generator on the same machine; writes the results page.
#
#   bash scripts/serve-load.sh                               # $MORRIS_ROOT/nine-plain-packed
#   bash scripts/serve-load.sh DIR [SERVE FLAGS…]            # another packed set, e.g. --stones 3
#   BASELINE=old/morris bash scripts/serve-load.sh           # the same phases against another binary
#   DURATION=5 SOAK=10 OUT=/tmp/load.md bash scripts/serve-load.sh /tmp/s3p --stones 3   # a trial
#
# Env: BIN (target/release/morris), BASELINE (a second binary, run after BIN), OUT
# (results/serve-load.md), DURATION (seconds a phase, 60), SOAK (seconds of the memory phase,
# 600), POSITIONS (10000), CONNS (connections of the load, 64), IDLE (slow or idle connections
# of phase 2, 1000), CLIENTS (X-Forwarded-For addresses the load is spread over, 4096), PORT
# (18080), SERVE_FLAGS (the limit flags; the default raises all but --client-rate).
#
# The generator is Debian's wrk (installed by apt-get when missing): packaged and maintained in
# Debian, one C event loop a thread (so it costs the server little of the 2 cores), and a Lua
# hook that draws each request's position; oha would have to be built from crates.io first.
# Every client is 127.0.0.1, so the server runs with --trust-proxy and the load spreads its
# requests over CLIENTS X-Forwarded-For addresses: the per-client limiter works as it would in
# front of many players, at its default --client-rate, and the flooder of phase 3 is one client.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=${MORRIS_ROOT:-$HOME/morris-dbs}
DIR=${1:-$ROOT/nine-plain-packed}
shift $(( $# > 0 ? 1 : 0 ))
SET_FLAGS=("$@")
BIN=${BIN:-target/release/morris}
BASELINE=${BASELINE:-}
OUT=${OUT:-results/serve-load.md}
DURATION=${DURATION:-60} SOAK=${SOAK:-600} POSITIONS=${POSITIONS:-10000}
CONNS=${CONNS:-64} IDLE=${IDLE:-1000} CLIENTS=${CLIENTS:-4096} PORT=${PORT:-18080}
read -r -a LIMITS <<< "${SERVE_FLAGS:---trust-proxy --rate 1000000 --max-connections 8192 --header-timeout 10}"
URL=http://127.0.0.1:$PORT
WORK=$(mktemp -d)
ulimit -n "$(ulimit -Hn)"   # the idle connections and the load's, in one process each
SERVER='' HOLDER=''
cleanup() {
  [ -z "$HOLDER" ] || kill "$HOLDER" 2>/dev/null || true
  [ -z "$SERVER" ] || { kill "$SERVER" 2>/dev/null; wait "$SERVER" 2>/dev/null; } || true
  rm -rf "$WORK"
}
trap cleanup EXIT

command -v wrk > /dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk; }
[ -d "$DIR" ] || { echo "no packed set at $DIR" >&2; exit 1; }

# Positions: random legal play from the start (`arena random@0`, every move uniform), each
# game's positions named by `analyze`, then POSITIONS of them drawn at random, URL-encoded.
echo "=== drawing $POSITIONS positions by random play"
games=$(( POSITIONS / 20 + 1 ))
nice -n 19 "$BIN" arena --db "$DIR" "${SET_FLAGS[@]}" random@0 random@0 --games "$games" \
  --seed 61 --threads 1 --record "$WORK/games.txt" > /dev/null
grep -v '^#' "$WORK/games.txt" | while read -r game; do
  echo "$game" | nice -n 19 "$BIN" analyze --db "$DIR" "${SET_FLAGS[@]}" --json - \
    | jq -r '.plies[].position | @uri'
done | sort -u | shuf -n "$POSITIONS" --random-source=<(yes) > "$WORK/positions.txt"
echo "$(wc -l < "$WORK/positions.txt") distinct positions from $games games"

# The wrk script: a random position a request, from a random client of CLIENTS (or the one
# client FLOOD); prints the figures on one line.
cat > "$WORK/query.lua" <<'EOF'
local positions, n = {}, 0
local clients = tonumber(os.getenv("CLIENTS"))
local flood = os.getenv("FLOOD")
local threads = 0
function setup(thread) threads = threads + 1; thread:set("id", threads) end
function init(args)
  for line in io.lines(os.getenv("POSITIONS_FILE")) do n = n + 1; positions[n] = line end
  math.randomseed(os.time() * 100 + id)
end
function request()
  local client = flood or ("10." .. math.random(0, 15) .. "." .. math.random(0, clients / 16 - 1) .. ".1")
  return wrk.format("GET", "/api/query?position=" .. positions[math.random(n)], { ["X-Forwarded-For"] = client })
end
function done(s, latency, requests)
  local e = s.errors
  io.write(string.format("FIGURES | %.0f | %.2f | %.2f | %.2f | %d | %d | %d |\n",
    s.requests / (s.duration / 1e6), latency:percentile(50) / 1e3, latency:percentile(99) / 1e3,
    latency.max / 1e3, s.requests, e.status, e.connect + e.read + e.write + e.timeout))
end
EOF
export POSITIONS_FILE=$WORK/positions.txt CLIENTS

# One wrk run: its figures line, and the command into the commands list.
load() {
  local name=$1 secs=$2; shift 2
  local cmd=(wrk -t 2 -c "$CONNS" -d "${secs}s" --timeout 10s -s "$WORK/query.lua" "$@" "$URL")
  echo "${FLOOD:+FLOOD=$FLOOD }${cmd[*]/#$WORK\//}" >> "$WORK/commands"
  echo "| $name $("${cmd[@]}" | sed -n 's/^FIGURES //p')"
}
rss() { awk '/VmRSS/ { printf "%.1f MiB", $2 / 1024 }' "/proc/$SERVER/status"; }

# IDLE connections beside the load: half never send a byte, half send a request head a byte a
# second; one the server closes (--header-timeout) is opened again, and counted.
hold() {
  python3 - "$PORT" "$IDLE" <<'EOF' &
import socket, sys, time
port, count = int(sys.argv[1]), int(sys.argv[2])
head = b"GET /api/query?position=startpos HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 10000
def open_one():
    s = socket.create_connection(("127.0.0.1", port)); s.setblocking(False); return s
socks, sent, reopened = [open_one() for _ in range(count)], [0] * count, 0
while True:
    for i, s in enumerate(socks):
        try:
            if s.recv(4096) == b"": raise OSError
        except BlockingIOError:
            if i % 2 and sent[i] < len(head):
                try: s.send(head[sent[i]:sent[i] + 1]); sent[i] += 1
                except OSError: pass
            continue
        except OSError: pass
        s.close(); socks[i], sent[i] = open_one(), 0; reopened += 1
        print(reopened, file=open("/dev/shm/serve-load-reopened", "w"))
    time.sleep(1)
EOF
  HOLDER=$!
}

# All phases against one binary, a section of the page.
run() {
  local bin=$1 flags
  flags=(serve --db "$DIR" "${SET_FLAGS[@]}" --preload --log off --addr "127.0.0.1:$PORT" "${LIMITS[@]}")
  echo "=== $bin" >&2
  "$bin" "${flags[@]}" > "$WORK/serve.log" 2>&1 & SERVER=$!
  until curl -s -o /dev/null "$URL/api/games"; do
    sleep 0.2; kill -0 "$SERVER" 2> /dev/null || { cat "$WORK/serve.log" >&2; exit 1; }
  done
  : > "$WORK/commands"
  local rss0 rss1 rss2 plain idle flood others soak holders reopened
  rss0=$(rss)
  plain=$(load "plain load, $CONNS connections" "$DURATION")
  rm -f /dev/shm/serve-load-reopened; hold; sleep 2
  idle=$(load "beside $IDLE idle or slow connections" "$DURATION")
  holders=$(ss -Htn state established "( dport = :$PORT )" | wc -l)
  reopened=$(cat /dev/shm/serve-load-reopened 2>/dev/null || echo 0)
  kill "$HOLDER"; wait "$HOLDER" 2>/dev/null || true; HOLDER=''
  FLOOD=10.255.255.1 load "flooding client (one address, $CONNS connections)" "$DURATION" > "$WORK/flood" &
  others=$(CONNS=$(( CONNS / 4 )) load "the other clients beside it, $(( CONNS / 4 )) connections" "$DURATION")
  wait $!; flood=$(cat "$WORK/flood")
  rss1=$(rss)
  soak=$(load "memory phase, ${SOAK} s" "$SOAK")
  rss2=$(rss)
  kill "$SERVER"; wait "$SERVER" 2>/dev/null || true; SERVER=''
  cat <<EOF

## \`$bin\` ($("$bin" --version))

Server: \`$bin ${flags[*]}\`

| phase | requests/s | p50 ms | p99 ms | max ms | requests | non-2xx | socket errors |
|---|---|---|---|---|---|---|---|
$plain
$idle
$flood
$others
$soak

Idle or slow connections of phase 2: $IDLE held by one process from 2 s before the load ($holders
open at its end), half silent, half sending a request head a byte a second; the server closed
$reopened of them during the phase (\`--header-timeout\`, or refused past \`--max-connections\`),
each opened again at once. Every client is 127.0.0.1, and under \`--trust-proxy\` the
per-client connection cap is left to the proxy, so it closes none of them here. Non-2xx are
429 (a client over \`--client-rate\`) or 503 (the request timeout, or the server full).

Resident memory of the server (VmRSS): $rss0 after preload, before any load; $rss1 after the
first three phases; $rss2 after the memory phase (${SOAK} s of load).

Load commands, in order (phase 3's two at once):

\`\`\`
$(cat "$WORK/commands")
\`\`\`
EOF
}

run "$BIN" > "$WORK/sections"
[ -z "$BASELINE" ] || run "$BASELINE" >> "$WORK/sections"
mkdir -p "$(dirname "$OUT")"
cat > "$OUT" <<EOF
# \`morris serve\` under load

Written by \`bash scripts/serve-load.sh $DIR ${SET_FLAGS[*]}\` (DURATION=$DURATION SOAK=$SOAK
POSITIONS=$POSITIONS CONNS=$CONNS IDLE=$IDLE CLIENTS=$CLIENTS) on $(date -u +%Y-%m-%d), commit
$(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo ' (with uncommitted changes)'). Machine: $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1),
$(nproc) cores, $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo) of memory; the generator (wrk $(wrk -v 2>&1 | sed -n 's/^wrk \([^ ]*\).*/\1/p'))
on the same machine, the target 127.0.0.1 only.

Each request is \`GET /api/query?position=P\`, P one of $(wc -l < "$WORK/positions.txt") distinct positions
drawn at random from those of random legal play from the start (\`morris arena random@0
random@0 --record\`, positions named by \`morris analyze --json\`), sent from one of $CLIENTS
clients (\`X-Forwarded-For\`, read with \`--trust-proxy\`) so that the per-client limits work as
in front of many players; the flooder of phase 3 is one client. Latency is wrk's, from sending
a request to its answer on a busy connection. \`query.lua\`, with POSITIONS_FILE and CLIENTS
(and FLOOD, the flooder's address) in the environment:

\`\`\`lua
$(cat "$WORK/query.lua")
\`\`\`
$(cat "$WORK/sections")
EOF
echo "wrote $OUT"
