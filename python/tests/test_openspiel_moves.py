"""Our engine and OpenSpiel agree move by move on random games."""

import random

import pyspiel
import pytest

import morris
from morris import openspiel as mo


def test_mapping_is_derived_and_consistent():
    m = mo.mapping()  # raises if adjacency or mills disagree
    assert sorted(m.names) == sorted(morris.board_points())
    assert len(set(m.names)) == 24
    for p, name in enumerate(m.names):
        assert m.point(name) == p
    assert m.name(0) == "a7" and m.name(23) == "g1"  # top left, bottom right of its drawing


def test_move_actions_round_trip():
    for mv in ["d6", "d6-d5", "a1xd7", "b6-c5xg4", "a7-g1"]:
        assert mo.actions_to_move(mo.move_to_actions(mv)) == mv


GAMES = 300


def test_legal_moves_agree_on_random_games():
    game = pyspiel.load_game(mo.GAME_NAME)
    rng = random.Random(12345)
    positions = 0
    for _ in range(GAMES):
        state = game.new_initial_state()
        while True:
            if mo.pending_move(state) is None:
                pos = mo.position_of(state)
                if state.is_terminal():
                    r = state.returns()
                    if r[0] != 0:
                        assert pos.result == ("white" if r[0] > 0 else "black"), f"{pos}"
                    else:
                        # OpenSpiel's only draw: its turn limit; the game goes on for us.
                        assert mo.turns_left(state) == 0 and pos.result is None
                    break
                ours = sorted(pos.legal_moves())
                theirs = sorted(mo.merged_legal_moves(state))
                assert ours == theirs, f"{pos}\n{state}"
                positions += 1
                assert pos.result is None
                mv = rng.choice(ours)
                for a in mo.move_to_actions(mv):
                    state.apply_action(a)
                assert mo.position_of(state) == pos.play(mv)
            else:
                pytest.fail("a whole move was applied, no capture can be pending")
    assert positions > 10000


def test_pending_capture_and_state_of():
    state = mo.state_from_moves(["a1", "a7", "d1", "d7"])
    state.apply_action(mo.move_to_actions("g1xa7")[0])
    assert mo.pending_move(state) == "g1"
    pos = mo.position_of(state)
    assert pos == morris.Position.parse("W:a1,d1 B:a7,d7 w 7 7")
    assert sorted(mo.merged_legal_moves(state)) == sorted(
        m for m in pos.legal_moves() if m.startswith("g1x"))
    p = morris.Position.parse("W:a1,d1,b4 B:a7,g7 b 6 7")
    assert mo.position_of(mo.state_of(p)) == p
    with pytest.raises(ValueError):
        mo.state_of(morris.Position.parse("W:a1,d1,g1 B:a7,d7 b 6 7"))
