"""Bridge between OpenSpiel's ``nine_mens_morris`` and :class:`morris.Position`, and a
perfect bot for it.

OpenSpiel numbers the 24 points 0..23 and keeps the game as a history of actions: a placement
is the point, a slide or fly is ``24 + 24 * from + to``, and a capture is a *separate* action
(the point taken) by the same player, after which the turn passes. Here a move with its
capture is one move (``b6-c5xg4``), as in the project's notation and tables.

The point mapping is not typed in: it is read from OpenSpiel's own drawing of the board (where
a stone placed on point ``i`` shows up), and checked against our board's adjacency and mills,
and against OpenSpiel's behaviour (completing each of our mills asks for a capture), the first
time it is needed. A mismatch raises rather than silently mapping wrong.

OpenSpiel's rules, from its source (``nine_mens_morris.h`` / ``.cc``): flying at three stones,
a mill protects its stones unless all stand in mills, a player with fewer than three stones or
no legal move loses, and the game is drawn once ``kMaxNumTurns = 200`` turns are played (a
turn is a move with its capture; ``max_game_length()`` is 200 + 2 * 9 - 4 = 214 actions,
counting captures). A win on the 200th turn still counts, so with ``L`` turns left a win in
``d`` plies is a win exactly when ``d <= L``: :class:`PerfectBot` ranks moves by that.
One OpenSpiel quirk differs from our engine: a mill formed while the opponent has no stone on
the board leaves no capture to choose and OpenSpiel ends the game against the miller; in Nine
Men's Morris with strict alternation this cannot happen (a player cannot have captured every
stone the other has placed), so the games agree.
"""

from __future__ import annotations

import functools
from typing import Dict, List, Optional, Sequence, Tuple

import pyspiel

from . import (
    MissingTableError,
    Position,
    Tablebase,
    board_adjacency,
    board_mills,
    board_points,
)

GAME_NAME = "nine_mens_morris"
NUM_POINTS = 24
NUM_MEN = 9
#: OpenSpiel's ``kMaxNumTurns``: the game is a draw once this many turns are played.
MAX_TURNS = 200

__all__ = [
    "GAME_NAME",
    "MAX_TURNS",
    "PerfectBot",
    "rank_moves",
    "Mapping",
    "mapping",
    "position_of",
    "pending_move",
    "turns_played",
    "turns_left",
    "move_to_actions",
    "actions_to_move",
    "merged_legal_moves",
    "state_from_moves",
    "state_of",
]


@functools.lru_cache(maxsize=None)
def _game() -> "pyspiel.Game":
    return pyspiel.load_game(GAME_NAME)


def _drawing(state: "pyspiel.State") -> List[str]:
    """The board drawing of ``str(state)``: the lines before the first empty one."""
    lines = str(state).split("\n")
    return lines[: lines.index("")]


class Mapping:
    """OpenSpiel point numbers <-> our point names, derived from OpenSpiel's drawing."""

    def __init__(self) -> None:
        game = _game()
        # OpenSpiel's turn limit is only visible through max_game_length (turns + captures
        # possible in placement); a different value means a different OpenSpiel and rules.
        expected = MAX_TURNS + 2 * NUM_MEN - 4
        if game.max_game_length() != expected:
            raise RuntimeError(
                f"OpenSpiel's {GAME_NAME} has max_game_length {game.max_game_length()}, "
                f"expected {expected} (200 turns): its turn limit changed, update MAX_TURNS")
        cells: List[Tuple[int, int]] = []
        for p in range(NUM_POINTS):
            state = game.new_initial_state()
            state.apply_action(p)  # White places on point p
            found = [(r, c) for r, line in enumerate(_drawing(state))
                     for c, ch in enumerate(line) if ch == "W"]
            if len(found) != 1:
                raise RuntimeError(f"cannot locate OpenSpiel point {p} in its drawing")
            cells.append(found[0])
        if len(set(cells)) != NUM_POINTS:
            raise RuntimeError("OpenSpiel's drawing puts two points on one cell")
        rows = sorted({r for r, _ in cells})
        cols = sorted({c for _, c in cells})
        if len(rows) != 7 or len(cols) != 7:
            raise RuntimeError("OpenSpiel's drawing is not on a 7x7 grid")
        # Our coordinates: column letter a.. from the left, row number 1.. from the bottom.
        names = [f"{'abcdefg'[cols.index(c)]}{7 - rows.index(r)}" for r, c in cells]
        ours = board_points("nine")
        if sorted(names) != sorted(ours):
            raise RuntimeError(f"OpenSpiel's points {names} are not our points {ours}")
        #: OpenSpiel point -> our name.
        self.names: Tuple[str, ...] = tuple(names)
        #: Our name -> OpenSpiel point.
        self.points: Dict[str, int] = {n: i for i, n in enumerate(names)}
        self._cells = cells
        self._check_drawing(_drawing(game.new_initial_state()))
        self._check_mills_in_play()

    def _check_drawing(self, drawing: List[str]) -> None:
        """Adjacency and mills read off OpenSpiel's drawing must be ours."""
        at = {cell: p for p, cell in enumerate(self._cells)}
        edges = set()
        for p, (r, c) in enumerate(self._cells):
            # The next point to the right along '-', and below along '|'.
            for dr, dc, link in ((0, 1, "-"), (1, 0, "|")):
                rr, cc = r + dr, c + dc
                steps = 0
                while (rr, cc) not in at:
                    if rr >= len(drawing) or cc >= len(drawing[rr]) or drawing[rr][cc] != link:
                        break
                    rr, cc, steps = rr + dr, cc + dc, steps + 1
                else:
                    if steps > 0:
                        edges.add(frozenset((self.names[p], self.names[at[(rr, cc)]])))
        ours = {frozenset((a, b)) for a, ns in board_adjacency("nine") for b in ns}
        if edges != ours:
            raise RuntimeError(
                f"OpenSpiel's adjacency differs from ours: {sorted(map(sorted, edges ^ ours))}")
        # A mill is a straight chain of three joined points; the board has no longer chains.
        chains = set()
        for e1 in edges:
            for e2 in edges:
                shared = e1 & e2
                if len(shared) == 1 and e1 != e2:
                    trio = e1 | e2
                    cells = [self._cells[self.points[n]] for n in trio]
                    if len({r for r, _ in cells}) == 1 or len({c for _, c in cells}) == 1:
                        chains.add(frozenset(trio))
        mills = {frozenset(m) for m in board_mills("nine")}
        if chains != mills:
            raise RuntimeError("OpenSpiel's lines of three differ from our mills")

    def _check_mills_in_play(self) -> None:
        """Completing each of our mills in OpenSpiel must ask for a capture."""
        game = _game()
        for mill in board_mills("nine"):
            state = game.new_initial_state()
            spare = [p for p in range(NUM_POINTS) if self.names[p] not in mill]
            for i, name in enumerate(mill):
                state.apply_action(self.points[name])
                if i < 2:
                    state.apply_action(spare[i])  # Black: two stones never make a mill
            if state.current_player() != 0 or "Capture time" not in str(state):
                raise RuntimeError(f"our mill {mill} is not a mill in OpenSpiel")

    def name(self, point: int) -> str:
        return self.names[point]

    def point(self, name: str) -> int:
        return self.points[name]


@functools.lru_cache(maxsize=None)
def mapping() -> Mapping:
    """The point mapping, derived and checked once."""
    return Mapping()


def _field(state: "pyspiel.State", label: str) -> List[int]:
    for line in str(state).split("\n"):
        if line.startswith(label):
            return [int(x) for x in line[len(label):].split()]
    raise ValueError(f"OpenSpiel state without {label!r}: {state}")


def turns_played(state: "pyspiel.State") -> int:
    """OpenSpiel's turn counter (a move with its capture is one turn)."""
    return _field(state, "Turn number:")[0]


def turns_left(state: "pyspiel.State") -> int:
    """Turns (our plies) before OpenSpiel declares the draw."""
    return MAX_TURNS - turns_played(state)


def _awaits_capture(state: "pyspiel.State") -> bool:
    return "Capture time" in str(state)


def _side(state: "pyspiel.State") -> str:
    for line in str(state).split("\n"):
        if line.startswith("Current player:"):
            return line.split(":")[1].strip().lower()
    raise ValueError(f"OpenSpiel state without a current player: {state}")


def pending_move(state: "pyspiel.State") -> Optional[str]:
    """The first half (``d6`` or ``d6-d5``) of a move whose capture OpenSpiel still awaits,
    else None."""
    if not _awaits_capture(state):
        return None
    return actions_to_move([state.history()[-1]])


def position_of(state: "pyspiel.State") -> Position:
    """The position the player to move chooses a whole move from.

    When OpenSpiel awaits a capture, the mill-forming half is taken back: the result is the
    position before it, whose legal moves include that half with each capture
    (:func:`pending_move` gives the half).
    """
    m = mapping()
    drawing = _drawing(state)
    stones: Dict[str, List[str]] = {"W": [], "B": []}
    for p, (r, c) in enumerate(m._cells):
        ch = drawing[r][c]
        if ch in stones:
            stones[ch].append(m.names[p])
    hands = _field(state, "Men to deploy:")
    side = _side(state)
    if _awaits_capture(state):
        last = state.history()[-1]
        mover = "W" if side == "w" else "B"
        if last < NUM_POINTS:
            stones[mover].remove(m.names[last])
            hands[0 if side == "w" else 1] += 1
        else:
            frm, to = divmod(last - NUM_POINTS, NUM_POINTS)
            stones[mover].remove(m.names[to])
            stones[mover].append(m.names[frm])
    text = f"W:{','.join(stones['W'])} B:{','.join(stones['B'])} {side} {hands[0]} {hands[1]}"
    return Position.parse(text, "nine")


def move_to_actions(move: str) -> List[int]:
    """OpenSpiel's actions for a move in our notation: one, or two with a capture."""
    m = mapping()
    body, _, capture = move.partition("x")
    if "-" in body:
        frm, to = body.split("-")
        actions = [NUM_POINTS + NUM_POINTS * m.point(frm) + m.point(to)]
    else:
        actions = [m.point(body)]
    if capture:
        actions.append(m.point(capture))
    return actions


def actions_to_move(actions: Sequence[int]) -> str:
    """Our notation for one OpenSpiel move action, optionally followed by its capture."""
    m = mapping()
    first = actions[0]
    if first < NUM_POINTS:
        text = m.name(first)
    else:
        frm, to = divmod(first - NUM_POINTS, NUM_POINTS)
        text = f"{m.name(frm)}-{m.name(to)}"
    if len(actions) > 1:
        text += "x" + m.name(actions[1])
    return text


def merged_legal_moves(state: "pyspiel.State") -> List[str]:
    """OpenSpiel's legal moves with each capture merged into its move, in our notation."""
    if state.is_terminal():
        return []
    pending = pending_move(state)
    if pending is not None:
        return [f"{pending}x{mapping().name(a)}" for a in state.legal_actions()]
    moves = []
    for a in state.legal_actions():
        child = state.child(a)
        if not child.is_terminal() and _awaits_capture(child):
            moves.extend(actions_to_move([a, c]) for c in child.legal_actions())
        else:
            moves.append(actions_to_move([a]))
    return moves


def state_from_moves(moves: Sequence[str]) -> "pyspiel.State":
    """The OpenSpiel state after a game given in our notation from the start."""
    state = _game().new_initial_state()
    for mv in moves:
        for a in move_to_actions(mv):
            if a not in state.legal_actions():
                raise ValueError(f"{mv} is not legal in OpenSpiel here:\n{state}")
            state.apply_action(a)
    return state


def state_of(position: Position) -> "pyspiel.State":
    """An OpenSpiel state with the stones, hands and side to move of ``position``.

    OpenSpiel states are game histories and cannot be set up directly, so this replays a
    history: supported for placement positions that need no capture to reach (every stone
    on the board or in hand, no mill standing), where the stones are placed in turn. Other
    positions need a real game: use :func:`state_from_moves`.
    """
    if position.game != "nine" or position.stones != NUM_MEN or not position.flying:
        raise ValueError("OpenSpiel plays standard Nine Men's Morris only")
    white, black = list(position.white), list(position.black)
    wh, bh = position.hands
    if len(white) + wh != NUM_MEN or len(black) + bh != NUM_MEN:
        raise ValueError(
            f"{position}: stones were captured; OpenSpiel needs the game's moves "
            "(state_from_moves)")
    for mill in board_mills("nine"):
        if set(mill) <= set(white) or set(mill) <= set(black):
            raise ValueError(
                f"{position}: a mill stands, so a capture happened or is due; OpenSpiel "
                "needs the game's moves (state_from_moves)")
    moves = []
    for i in range(len(white) + len(black)):
        side = white if i % 2 == 0 else black
        if not side:
            raise ValueError(f"{position}: hands impossible under strict alternation")
        moves.append(side.pop(0))
    state = state_from_moves(moves)
    if str(position_of(state)) != str(position):
        raise ValueError(f"{position}: not reachable by placements alone")
    return state


def _rank(value: str, plies: Optional[int]) -> Tuple[int, int]:
    """Smaller is better for the mover: fastest win, draw, slowest loss."""
    if value == "win":
        return (0, plies if plies is not None else 0)
    if value == "loss":
        return (2, -(plies if plies is not None else 0))
    return (1, 0)


def _within(value: str, plies: Optional[int], left: int) -> str:
    """The value when the game is drawn after ``left`` more plies."""
    if value != "draw" and plies is not None and plies > left:
        return "draw"
    return value


def rank_moves(tablebase: Tablebase, position: Position, left: int,
               cache: Optional[Dict[str, list]] = None,
               ) -> Tuple[List[Tuple[str, str, Optional[int]]], str]:
    """Every legal move of ``position`` as (move, mover's value, plies), best first when the
    game is drawn after ``left`` more plies, and where the values come from: ``"tables"``,
    or ``"search"`` when the placement tables are missing and :meth:`Tablebase.prove` gave
    values without distances (then ``left`` cannot be taken into account). Any game of the
    family; ``cache`` keeps proved positions, as a search can take seconds."""
    if (position.white_in_hand + position.black_in_hand > 0
            and not tablebase.has_tables_for(position)):
        key = str(position)
        if cache is None or key not in cache:
            proved = [(m.move, m.value, None) for m in tablebase.prove(position).moves]
            if cache is None:
                return proved, "search"
            cache[key] = proved
        return cache[key], "search"
    ranked = tablebase.best_moves(position)
    scored = [(m.move, _within(m.value, m.plies, left), m.plies, m.value) for m in ranked]
    scored.sort(key=lambda s: (_rank(s[1], s[2] if s[1] != "draw" else None),
                               _rank(s[3], s[2])))
    return [(mv, v, p) for mv, v, p, _ in scored], "tables"


class PerfectBot(pyspiel.Bot):
    """A perfect player of OpenSpiel's ``nine_mens_morris`` from solved tables.

    With ``L`` turns left before OpenSpiel's draw, a move's value for the mover is its
    table value kept only when its distance fits (``d <= L``); among equal values the bot
    takes the fastest win or the slowest loss, and among draws the one best without the
    limit. Where the placement tables are missing it falls back to :meth:`Tablebase.prove`
    (values without distances, so the turn limit is not taken into account there) and says
    so in :attr:`last_source` (``"search"``); :attr:`last_move` is the whole move chosen.
    """

    def __init__(self, tablebase: Tablebase, player: str = "fastest", seed: int = 0) -> None:
        """``player`` picks among the moves of the best value, as :meth:`Tablebase.choose`
        takes it: ``"fastest"`` (the first), ``"random"``, ``"ultra"`` (the one that asks most
        of a fallible opponent), optionally with a skill (``"ultra@0.9"``), or a level
        (``"level1"`` to ``"level5"``); ``seed`` makes a game repeatable."""
        pyspiel.Bot.__init__(self)
        if tablebase.game != "nine" or tablebase.stones != NUM_MEN or not tablebase.flying:
            raise ValueError("OpenSpiel plays standard Nine Men's Morris: give its tables")
        self.tablebase = tablebase
        self.player = player
        self._seed = seed
        self.last_source: Optional[str] = None
        self.last_move: Optional[str] = None
        self._proved: Dict[str, list] = {}

    def restart_at(self, state: "pyspiel.State") -> None:
        pass

    def inform_action(self, state: "pyspiel.State", player_id: int, action: int) -> None:
        pass

    def provides_force_action(self) -> bool:
        return False

    def provides_policy(self) -> bool:
        return False

    def is_clonable(self) -> bool:
        return False

    def ranked_moves(self, position: Position, left: int) -> Tuple[List[Tuple[str, str, Optional[int]]], str]:
        """Every legal move as (move, value within ``left`` plies, plies), best first, and
        the source of the values (``"tables"`` or ``"search"``)."""
        return rank_moves(self.tablebase, position, left, self._proved)

    def choose(self, state: "pyspiel.State") -> str:
        """The whole move (in our notation) the bot plays from ``state``; when OpenSpiel
        awaits a capture, one that completes the half already played."""
        position = position_of(state)
        pending = pending_move(state)
        moves, source = self.ranked_moves(position, turns_left(state))
        if pending is not None:
            moves = [m for m in moves if m[0].partition("x")[0] == pending]
        if not moves:
            raise RuntimeError(f"no legal move for {position} (pending {pending})")
        self.last_source = source
        chosen = moves[0][0]
        if self.player != "fastest" and source == "tables" and pending is None:
            self._seed += 1
            chosen = self.tablebase.choose(position, self.player,
                                           turns_left=turns_left(state), seed=self._seed)
        self.last_move = chosen
        return chosen

    def step(self, state: "pyspiel.State") -> int:
        move = self.choose(state)
        actions = move_to_actions(move)
        action = actions[-1] if pending_move(state) is not None else actions[0]
        if action not in state.legal_actions():
            raise RuntimeError(f"bot chose {move}, not legal in OpenSpiel:\n{state}")
        return action


