#!/usr/bin/env bash
# The matches of results/ultra-strong.md against OpenSpiel's MCTS bot: PerfectBot with each
# choice among best moves (fastest, random, ultra) against MCTS from the start of the whole
# game, under OpenSpiel's own rules (a draw after 200 turns), the bot taking each colour in
# turn. Needs the Python package and open-spiel in a venv (bash scripts/test-python.sh makes
# one at /tmp/morris-venv).
#
# usage: scripts/mcts-matches.sh DB GAMES SIMULATIONS
#   VENV   the venv (default /tmp/morris-venv)
set -euo pipefail
if [ $# -ne 3 ]; then
  echo "usage: $0 DB GAMES SIMULATIONS" >&2
  exit 2
fi
db=$1 games=$2 sims=$3
python=${VENV:-/tmp/morris-venv}/bin/python
[ -x "$python" ] || { echo "$python: no venv (bash scripts/test-python.sh makes one)" >&2; exit 1; }
echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) $(git rev-parse --short HEAD 2>/dev/null || echo '?') $(uname -n), db $db, $games games a choice, MCTS with $sims simulations"
for player in fastest random ultra; do
  nice -n 19 "$python" python/examples/vs_mcts.py --db "$db" --games "$games" \
    --simulations "$sims" --from-start --player "$player" | tail -1
done
