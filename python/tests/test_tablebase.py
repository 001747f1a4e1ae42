"""The binding answers exactly what `morris query --json` answers, and samples stored values."""

import os
import pathlib
import random

import numpy as np
import pytest

import morris
from conftest import query

def random_positions(tb, count, seed):
    """Positions of random games from sampled positions, half of them from placement keys
    (those of a 5-stone solve are the ones the 9-stone game reaches with at most 5 stones a
    side on board and in hand)."""
    rng = random.Random(seed)
    s = tb.sample(400, seed=seed)
    starts = [s.position(i) for i in range(len(s.white))]
    placement = [p for p in starts if p.hands != (0, 0)]
    moving = [p for p in starts if p.hands == (0, 0)]
    out = []
    while len(out) < count:
        pos = rng.choice(placement if rng.random() < 0.5 else moving)
        for _ in range(rng.randrange(1, 30)):
            if pos.result is not None:
                break
            out.append(pos)
            pos = pos.play(rng.choice(pos.legal_moves()))
    return out[:count]


def test_probe_and_best_moves_equal_query(morris_bin, db5):
    tb = morris.Tablebase(db5)
    positions = random_positions(tb, 300, seed=7)
    assert any(p.white_in_hand for p in positions)
    for pos in positions:
        q = query(morris_bin, db5, pos)
        probe = tb.probe(pos)
        assert (probe.value, probe.plies) == (q["value"], q["plies"]), str(pos)
        assert probe.source == "tables"
        ours = [(m.move, m.value, m.plies) for m in tb.best_moves(pos)]
        assert ours == [(m["move"], m["value"], m["plies"]) for m in q["moves"]], str(pos)
        assert tb.probe(str(pos)).plies == probe.plies  # notation accepted too


def test_known_value(db5):
    tb = morris.Tablebase(db5)
    p = tb.probe("W:d7,g1,g7 B:a4,d5,g4 b 0 0")  # Gasser's example
    assert (p.value, p.plies) == ("loss", 26)


def test_sample_draws_valid_positions_with_their_values(db5):
    tb = morris.Tablebase(db5)
    s = tb.sample(3000, seed=3)
    assert s.white.dtype == np.uint32 and s.hands.shape == (3000, 2)
    assert (s.white & s.black == 0).all()
    assert set(np.unique(s.value)) <= {-1, 0, 1} and len(np.unique(s.value)) == 3
    assert (s.side == 0).any() and (s.side == 1).any()
    assert (s.hands.sum(axis=1) > 0).any()  # placement keys are drawn too
    for i in range(len(s.white)):
        pos = s.position(i)
        p = tb.probe(pos)
        assert {"win": 1, "draw": 0, "loss": -1}[p.value] == s.value[i], str(pos)
        assert (p.plies if p.plies is not None else -1) == s.plies[i], str(pos)
    again = tb.sample(3000, seed=3)
    assert (again.white == s.white).all() and (again.plies == s.plies).all()


def test_sample_one_key(db5):
    tb = morris.Tablebase(db5)
    s = tb.sample(500, key="3-3-0-0", seed=1)
    for i in range(500):
        pos = s.position(i)
        assert pos.key == "3-3-0-0"
        assert {"win": 1, "draw": 0, "loss": -1}[tb.probe(pos).value] == s.value[i]
    with pytest.raises(morris.MissingTableError):
        tb.sample(5, key="7-7-0-0")
    with pytest.raises(ValueError):
        tb.sample(5, key="3-3")


def test_missing_table(tmp_path, db5):
    empty = tmp_path / "empty"
    empty.mkdir()
    tb = morris.Tablebase(str(empty))
    with pytest.raises(morris.MissingTableError) as e:
        tb.probe("W:d7,g1,g7 B:a4,d5,g4 b 0 0")
    assert "nine-3-3-0-0.mdb" in str(e.value) and "morris solve" in str(e.value)
    assert e.value.path.endswith("nine-3-3-0-0.mdb") and "morris solve" in e.value.command
    assert isinstance(e.value, morris.TablebaseError)
    with pytest.raises(morris.MissingTableError):
        morris.Tablebase(str(tmp_path / "nowhere"))
    with pytest.raises(morris.MissingTableError):
        morris.Tablebase(db5).best_moves("W:a1,d1,g1,a4,b4,c4 B:a7,d7,g7 w 0 0")


def test_bad_input(db5):
    tb = morris.Tablebase(db5)
    with pytest.raises(ValueError):
        tb.probe("W:x1 B: w 9 9")
    with pytest.raises(ValueError):
        tb.probe(morris.Position.parse("W:a1,d1,g1 B:a7,d7,g7 w", game="six"))
    with pytest.raises(ValueError):
        morris.Tablebase(db5, game="nonsense")


def test_damaged_table(tmp_path, db5):
    src = pathlib.Path(db5) / "nine-3-3-0-0.mdb"
    (tmp_path / src.name).write_bytes(src.read_bytes()[:100])
    with pytest.raises(morris.TablebaseError):
        morris.Tablebase(str(tmp_path)).probe("W:d7,g1,g7 B:a4,d5,g4 b 0 0")


def test_prove_without_placement_tables(tmp_path, db_s4):
    """The alpha-beta fall-back gives the placement tables' values (4-stone game)."""
    from morris.openspiel import rank_moves

    moving = tmp_path / "moving"
    moving.mkdir()
    for f in pathlib.Path(db_s4).glob("*-0-0.mdb"):
        os.symlink(f, moving / f.name)
    full = morris.Tablebase(db_s4, stones=4)
    part = morris.Tablebase(str(moving), stones=4)
    rng = random.Random(5)
    checked = 0
    for _ in range(6):
        pos = morris.Position.start(stones=4)
        for _ in range(rng.randrange(0, 5)):
            pos = pos.play(rng.choice(pos.legal_moves()))
        if pos.result is not None or pos.white_in_hand + pos.black_in_hand == 0:
            continue
        with pytest.raises(morris.MissingTableError):
            part.probe(pos)
        proved = part.prove(pos)
        assert proved.value == full.probe(pos).value
        values = {m.move: m.value for m in full.best_moves(pos)}
        assert {m.move: m.value for m in proved.moves} == values
        moves, source = rank_moves(part, pos, 200)
        assert source == "search" and values[moves[0][0]] == full.probe(pos).value
        checked += 1
    assert checked >= 3


def test_packed_directory_answers_alike(morris_bin, db5, tmp_path):
    """`morris pack` output is read by the binding as the unpacked tables are."""
    import subprocess
    packed = tmp_path / "packed"
    subprocess.run([morris_bin, "pack", "--db", db5, "--max-stones", "5", "--out", str(packed),
                    "--what", "dtw", "--level", "3"], check=True, stdout=subprocess.DEVNULL)
    assert not list(packed.glob("*.mdb")) and list(packed.glob("*.dtw.mpk"))
    plain, small = morris.Tablebase(db5), morris.Tablebase(str(packed))
    # Read into memory first: every packed file, and nothing of the raw tables.
    assert small.preload() == sum(p.stat().st_size for p in packed.glob("*.mpk"))
    assert plain.preload() == 0
    for pos in random_positions(plain, 100, seed=11):
        a, b = plain.probe(pos), small.probe(pos)
        assert (a.value, a.plies) == (b.value, b.plies), str(pos)
        assert [(m.move, m.plies) for m in plain.best_moves(pos)] == \
            [(m.move, m.plies) for m in small.best_moves(pos)], str(pos)


def test_query_is_the_answer_of_query_json(morris_bin, db5):
    """`Tablebase.query` gives the very JSON of `morris query --json` (docs/answer.md)."""
    tb = morris.Tablebase(db5)
    for pos in random_positions(tb, 40, seed=13):
        assert tb.query(pos) == query(morris_bin, db5, pos), str(pos)
    a = tb.query("W:d7,g1,g7 B:a4,d5,g4 b 0 0", turns_left=25)
    assert (a["value"], a["plies"], a["turns_left"], a["source"]) == ("draw", None, 25, "tables")
    assert a["rules"] == {"game": "nine", "flying": True, "stones": 9,
                          "moves_without_capture": None}
    assert a == query(morris_bin, db5, "W:d7,g1,g7 B:a4,d5,g4 b 0 0", "--turns-left", "25")


def test_rule_options_are_checked_as_everywhere(db5):
    """Bad rule options are ValueErrors with the messages of the command line and the server."""
    cases = [
        (dict(stones=13), "stones must be from 3 to 12 for nine (got 13)"),
        (dict(stones=2 ** 80), f"stones must be from 3 to 12 for nine (got {2 ** 80})"),
        (dict(game="three", stones=5), "stones must be from 3 to 4 for three (got 5)"),
        (dict(moves_without_capture=5000),
         "moves_without_capture must be from 1 to 1000, or 0 for none (got 5000)"),
        (dict(moves_without_capture=-1), "(got -1)"),
        (dict(rules="blitz"), "unknown rule set `blitz`"),
        (dict(rules="no-flying", flying=True), "the rule set `no-flying`"),
        (dict(rules="no-capture-50", moves_without_capture=100), "N = 100"),
        (dict(game="chess"), "unknown game `chess`"),
    ]
    for kwargs, words in cases:
        with pytest.raises(ValueError) as e:
            morris.Tablebase(db5, **kwargs)
        assert words in str(e.value), (kwargs, str(e.value))
    with pytest.raises(ValueError, match="stones must be from 3 to 12"):
        morris.Position.parse("startpos", stones=40)
    tb = morris.Tablebase(db5)
    with pytest.raises(ValueError, match="counter needs the no-capture rule"):
        tb.probe("W:d7,g1,g7 B:a4,d5,g4 b 0 0", counter=3)
    with pytest.raises(ValueError, match="turns_left must be from 0 to 100000"):
        tb.query("W:d7,g1,g7 B:a4,d5,g4 b 0 0", turns_left=-4)


def test_presets(db5):
    """Named rule sets: the flags they stand for, refined by `stones`."""
    tb = morris.Tablebase(db5, rules="standard")
    assert tb.rules == "standard" and morris.Tablebase(db5).rules == "standard"
    assert tb.probe("W:d7,g1,g7 B:a4,d5,g4 b 0 0").plies == 26
    rule = morris.Tablebase(db5, rules="no-capture-50")
    assert (rule.moves_without_capture, rule.flying, rule.game) == (50, True, "nine")
    assert morris.Tablebase(db5, moves_without_capture=50, flying=True).rules == "no-capture-50"
    with pytest.raises(morris.MissingTableError) as e:
        rule.probe("W:d7,g1,g7 B:a4,d5,g4 b 0 0")
    assert "--moves-without-capture 50" in e.value.command
    with pytest.raises(ValueError, match="drawn already"):
        rule.probe("W:d7,g1,g7 B:a4,d5,g4 b 0 0", counter=50)
    assert morris.Tablebase(db5, rules="no-flying").flying is False
    three = morris.Position.start(rules="three-120")
    assert (three.game, three.stones, three.flying) == ("three", 3, False)
    assert morris.Position.start(rules="no-capture-50", stones=4).stones == 4


def test_twelve_mens_morris(morris_bin, twelve_s4):
    """Twelve Men's Morris, from its tables and from its packed set, as `morris query --json`."""
    db, packed = twelve_s4
    rules = dict(game="twelve", stones=4)
    tb, small = morris.Tablebase(db, **rules), morris.Tablebase(packed, **rules)
    positions = random_positions(tb, 60, seed=5)
    assert any(p.hands != (0, 0) for p in positions)
    for pos in positions:
        q = query(morris_bin, db, pos, "--game", "twelve", "--stones", "4")
        assert tb.query(pos) == q, str(pos)
        a, b = tb.probe(pos), small.probe(pos)
        assert (a.value, a.plies) == (b.value, b.plies) == (q["value"], q["plies"]), str(pos)
    # A corner's diagonal neighbour: b2 from a1, a move Nine Men's board does not have.
    pos = morris.Position.parse("W:a1,g7,d1,d7 B:a4,d5,g4,g1 w 0 0", **rules)
    assert "a1-b2" in [m.move for m in tb.best_moves(pos)]
