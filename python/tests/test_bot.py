"""PerfectBot against OpenSpiel's random and MCTS bots from endgames of random play."""

import random

import pyspiel

import morris
from morris import openspiel as mo

RANK = {"win": 1, "draw": 0, "loss": -1}


def within(probe, left):
    if probe.value != "draw" and probe.plies > left:
        return "draw"
    return probe.value


def endgame_states(tb, wins, draws, seed):
    """States of random OpenSpiel games with at most 5 stones a side and none in hand,
    some won for the side to move within the turns left and some drawn."""
    game = pyspiel.load_game(mo.GAME_NAME)
    rng = random.Random(seed)
    found = {"win": [], "draw": []}
    while len(found["win"]) < wins or len(found["draw"]) < draws:
        state = game.new_initial_state()
        while not state.is_terminal():
            if mo.pending_move(state) is None:
                pos = mo.position_of(state)
                if (pos.hands == (0, 0) and len(pos.white) <= 5 and len(pos.black) <= 5):
                    v = within(tb.probe(pos), mo.turns_left(state))
                    want = wins if v == "win" else draws if v == "draw" else 0
                    if len(found.get(v, [])) < want:
                        found[v].append(state.clone())
                    break
            state.apply_action(rng.choice(state.legal_actions()))
    return found["win"] + found["draw"]


def play_out(tb, state, opponent, player="fastest"):
    """Plays the bot as the side to move of `state` against `opponent`; checks at each of
    the bot's turns that its move keeps the value under the turn limit. Returns the bot's
    value at the start and its return at the end."""
    bot = mo.PerfectBot(tb, player, seed=5)
    me = state.current_player()
    start = within(tb.probe(mo.position_of(state)), mo.turns_left(state))
    while not state.is_terminal():
        if state.current_player() == me:
            pos, left = mo.position_of(state), mo.turns_left(state)
            before = within(tb.probe(pos), left)
            state.apply_action(bot.step(state))
            if mo.pending_move(state) is not None:
                state.apply_action(bot.step(state))
            assert bot.last_source == "tables"
            if not state.is_terminal():
                after = within(tb.probe(mo.position_of(state)), left - 1)
                assert -RANK[after] == RANK[before], (str(pos), bot.last_move, before, after)
        else:
            state.apply_action(opponent.step(state))
    return start, state.returns()[me]


def check(start, result):
    # Never worse than the value under the limit; every win within reach is won.
    assert result >= RANK[start]
    if start == "win":
        assert result == 1


def test_against_random(db5):
    tb = morris.Tablebase(db5)
    states = endgame_states(tb, wins=6, draws=3, seed=21)
    for i, state in enumerate(states):
        opponent = pyspiel.make_uniform_random_bot(1 - state.current_player(), 100 + i)
        check(*play_out(tb, state, opponent))


def check_against_mcts(db5, wins, draws, seed, mcts_seed, player="fastest"):
    """Plays `player` from endgames of random play (`wins` won, `draws` drawn, from `seed`)
    against an MCTS bot seeded `mcts_seed` plus the game's number."""
    tb = morris.Tablebase(db5)
    game = pyspiel.load_game(mo.GAME_NAME)
    states = endgame_states(tb, wins=wins, draws=draws, seed=seed)
    for i, state in enumerate(states):
        evaluator = pyspiel.RandomRolloutEvaluator(1, mcts_seed + i)
        opponent = pyspiel.MCTSBot(game, evaluator, 2.0, 40, 100, False, mcts_seed + i, False)
        check(*play_out(tb, state, opponent, player))


def test_against_mcts(db5):
    check_against_mcts(db5, wins=3, draws=2, seed=22, mcts_seed=7)


def test_ultra_keeps_every_value_against_mcts(db5):
    """The ultra choice among the best moves never gives up a value, turn limit included."""
    check_against_mcts(db5, wins=3, draws=3, seed=23, mcts_seed=9, player="ultra")


def test_choose_takes_a_move_of_the_best_value(db5):
    tb = morris.Tablebase(db5)
    pos = morris.Position.parse("W:a1,d1,g1,b4 B:a7,d7,g7,f4 w 0 0")
    best = tb.best_moves(pos)[0].value
    values = {m.move: m.value for m in tb.best_moves(pos)}
    for player in ["fastest", "random", "ultra", "level5"]:
        for seed in range(5):
            assert values[tb.choose(pos, player, seed=seed)] == best
    # A weak level plays other moves too, and only legal ones.
    weak = {tb.choose(pos, "level1", seed=seed) for seed in range(40)}
    assert weak <= set(values) and len(weak) > 1
    for bad in ["best", "ultra@2", "level9"]:
        try:
            tb.choose(pos, bad)
        except ValueError as e:
            assert bad in str(e)
        else:
            raise AssertionError(f"{bad} was accepted")


def test_bot_completes_pending_capture(db5):
    """Given a state awaiting a capture, the bot returns the capture of the best move that
    starts with the half already played."""
    tb = morris.Tablebase(db5)
    game = pyspiel.load_game(mo.GAME_NAME)
    rng = random.Random(3)
    done = 0
    while done < 5:
        state = game.new_initial_state()
        while not state.is_terminal():
            pos = mo.position_of(state)
            captures = [m for m in pos.legal_moves() if "x" in m]
            if (mo.pending_move(state) is None and pos.hands == (0, 0)
                    and max(len(pos.white), len(pos.black)) <= 5 and captures):
                half = rng.choice(captures).partition("x")[0]
                state.apply_action(mo.move_to_actions(half)[0])
                assert mo.pending_move(state) == half
                bot = mo.PerfectBot(tb)
                action = bot.step(state)
                assert action in state.legal_actions() and bot.last_move.startswith(half + "x")
                ranked = [m for m in tb.best_moves(pos) if m.move.startswith(half + "x")]
                chosen = [m for m in ranked if m.move == bot.last_move][0]
                assert (chosen.value, chosen.plies) == (ranked[0].value, ranked[0].plies)
                done += 1
                break
            state.apply_action(rng.choice(state.legal_actions()))
