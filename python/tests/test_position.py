import pytest

import morris


def test_round_trip_and_moves():
    p = morris.Position.parse("W:g7,d7,g1 B:g4,a4,d5 b 0 0")
    assert str(p) == "W:g1,d7,g7 B:a4,g4,d5 b 0 0"
    assert morris.Position.parse(str(p)) == p
    assert hash(morris.Position.parse(str(p))) == hash(p)
    assert p.side_to_move == "black" and p.hands == (0, 0) and p.key == "3-3-0-0"
    assert "a4-a1" in p.legal_moves()  # three stones: Black flies
    q = p.play("a4-a1")
    assert q.side_to_move == "white" and "a1" in q.black and q != p


def test_start_and_placement():
    s = morris.Position.parse("startpos")
    assert s == morris.Position.start() and str(s) == "W: B: w 9 9"
    assert len(s.legal_moves()) == 24
    assert s.play("d6").white_in_hand == 8
    p = morris.Position.parse("W:a1,d1 B:a7,d7 w 7 7")
    assert "g1xa7" in p.legal_moves() and "g1" not in p.legal_moves()
    assert p.play("g1xa7").black == ["d7"]


def test_bitboards_and_board():
    points = morris.board_points()
    assert len(points) == 24 and points[0] == "a1"
    p = morris.Position.parse("W:a1 B:d1 w 8 8")
    assert p.white_bits == 1 << points.index("a1")
    assert morris.Position.from_bitboards(p.white_bits, p.black_bits, "w", 8, 8) == p
    assert len(morris.board_mills()) == 16
    assert sum(len(n) for _, n in morris.board_adjacency()) == 64


def test_result():
    assert morris.Position.parse("W:a1,d1,g1 B:a7,d7,g7 w").result is None
    # White to move, every stone blocked: Black wins.
    blocked = morris.Position.parse("W:a1,d1,g1,a4 B:a7,b2,d2,f2,g4,b4 w 0 0", stones=9)
    assert blocked.legal_moves() == [] and blocked.result == "black"


@pytest.mark.parametrize("text", ["", "W:a1 B:a1 w", "W:z9 B: w 9 9", "W: B: x 9 9",
                                  "W: B: w 9 7", "garbage"])
def test_bad_position(text):
    with pytest.raises(ValueError):
        morris.Position.parse(text)


@pytest.mark.parametrize("move", ["z9", "a1-a1", "", "d6-d5", "a1xz9", "d6xd6"])
def test_bad_move(move):
    with pytest.raises(ValueError):
        morris.Position.parse("startpos").play(move)


def test_bad_rules():
    with pytest.raises(ValueError):
        morris.Position.parse("startpos", game="chess")
    with pytest.raises(ValueError):
        morris.Position.parse("startpos", stones=40)
