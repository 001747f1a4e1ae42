"""PerfectBot against OpenSpiel's MCTS bot, from endgames reached by random play or from
the start.

    python examples/vs_mcts.py --db dbs/nine [--games 10] [--simulations 200] [--max-stones 5]
                               [--player ultra] [--from-start]

With the whole game solved (`bash scripts/solve-full.sh`) the games can start anywhere
(`--max-stones 9`, or `--from-start`, the bot taking each colour in turn); with a partial
database start from endgames it covers. `--player` is how the bot picks among its best moves
(`fastest`, `random`, `ultra`, a level: docs/player.md).
"""

import argparse
import random

import pyspiel

import morris
from morris import openspiel as mo


def endgame(game, rng, max_stones):
    """A state of random play with at most max_stones a side and none in hand."""
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if mo.pending_move(state) is None:
                pos = mo.position_of(state)
                if pos.hands == (0, 0) and max(len(pos.white), len(pos.black)) <= max_stones:
                    return state
            state.apply_action(rng.choice(state.legal_actions()))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", required=True)
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--simulations", type=int, default=200)
    ap.add_argument("--max-stones", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--player", default="fastest")
    ap.add_argument("--from-start", action="store_true")
    args = ap.parse_args()
    tb = morris.Tablebase(args.db)
    game = pyspiel.load_game(mo.GAME_NAME)
    rng = random.Random(args.seed)
    score = {1.0: 0, 0.0: 0, -1.0: 0}
    for g in range(args.games):
        if args.from_start:
            state = game.new_initial_state()
            me = g % 2
        else:
            state = endgame(game, rng, args.max_stones)
            me = state.current_player()
        pos = mo.position_of(state)
        probe = tb.probe(pos)
        left = mo.turns_left(state)
        expected = probe.value if probe.plies is None or probe.plies <= left else "draw"
        bots = {me: mo.PerfectBot(tb, args.player, seed=args.seed * 1000 + g),
                1 - me: pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, g), 2.0,
                                        args.simulations, 100, False, g, False)}
        while not state.is_terminal():
            state.apply_action(bots[state.current_player()].step(state))
        result = state.returns()[me]
        score[result] += 1
        print(f"game {g + 1}: {pos} ({'white' if me == 0 else 'black'} is the bot, "
              f"{left} turns left, value {probe.value} in {probe.plies}: {expected} "
              f"within the limit) -> {dict(zip((1.0, 0.0, -1.0), ('win', 'draw', 'loss')))[result]}"
              f" after {mo.turns_played(state)} turns")
    print(f"PerfectBot ({args.player}): {score[1.0]} wins, {score[0.0]} draws, "
          f"{score[-1.0]} losses against MCTS ({args.simulations} simulations)")


if __name__ == "__main__":
    main()
