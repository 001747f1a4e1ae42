"""Nine Men's Morris and its family: positions, legal moves and solved tables.

The heavy lifting is the Rust library of the ``morris`` project (``morris._morris``); this
package adds what is more natural in Python: numpy arrays for sampled training positions, and
the OpenSpiel bridge (``morris.openspiel``, imported on demand as it needs ``pyspiel``).

Values are always from the side to move (``"win"``, ``"draw"``, ``"loss"``) with the distance
in plies to the end of the game under perfect play; a move with its capture is one ply.
"""

from __future__ import annotations

import json
from typing import Any, Dict, NamedTuple, Optional, Union

import numpy as np

from ._morris import (
    MissingTableError,
    Position,
    Probe,
    Proved,
    RankedMove,
    TablebaseError,
    board_adjacency,
    board_mills,
    board_points,
)
from ._morris import Tablebase as _Tablebase

__all__ = [
    "MissingTableError",
    "Position",
    "Probe",
    "Proved",
    "RankedMove",
    "Sample",
    "Tablebase",
    "TablebaseError",
    "board_adjacency",
    "board_mills",
    "board_points",
]


class Sample(NamedTuple):
    """Random positions with their stored values, one row per position.

    Bit ``i`` of ``white``/``black`` is point ``i`` of ``board_points(game)``; ``side`` is 0
    for White to move, 1 for Black; ``hands`` is ``(n, 2)`` (White, Black); ``value`` is 1, 0,
    -1 (win, draw, loss for the side to move); ``plies`` is the distance to the end, -1 for a
    draw. ``game``, ``flying`` and ``stones`` are those of the tablebase sampled.
    """

    white: np.ndarray
    black: np.ndarray
    side: np.ndarray
    hands: np.ndarray
    value: np.ndarray
    plies: np.ndarray
    game: str = "nine"
    flying: bool = True
    stones: int = 9

    def position(self, i: int) -> Position:
        """Row ``i`` as a Position of the sampled tablebase's game."""
        return Position.from_bitboards(
            int(self.white[i]), int(self.black[i]), "wb"[int(self.side[i])],
            int(self.hands[i, 0]), int(self.hands[i, 1]), self.game, self.flying,
            self.stones, None)


class Tablebase(_Tablebase):
    """The solved tables of one game in a directory built by ``morris solve --db DIR``.

    Files are opened on first use; a missing one raises :class:`MissingTableError` naming the
    file and the command that builds it. Probing releases the GIL, so threads can probe in
    parallel.
    """

    def query(self, pos: Union[Position, str], counter: int = 0,
              turns_left: Optional[int] = None) -> Dict[str, Any]:
        """The whole answer for a position, as ``morris query --json`` and the server's
        ``/api/query`` give it (docs/answer.md): ``value``, ``plies``, ``category``, ``dtz``,
        ``counter``, ``turns_left``, ``source``, ``position``, ``side``, ``rules``, ``over``
        and ``moves``, every move with ``move``, ``value``, ``plies``, ``category``, ``dtz``,
        ``zeroing``, ``from``, ``to``, ``capture`` and ``position``; ``None`` where a field
        does not apply. ``turns_left`` answers under a turn limit (not with the no-capture
        rule)."""
        return json.loads(self._query_json(pos, counter, turns_left))

    def sample(self, n: int, key: Optional[str] = None, seed: int = 0) -> Sample:
        """``n`` random positions of the solved keys (or of one key such as ``"3-3-0-0"``),
        uniform over symmetry classes, with their stored values: training data for value
        networks. Deterministic for a given seed and set of files."""
        if n < 0:
            raise ValueError("n must be non-negative")
        raw = self._sample_raw(n, key, seed)
        white, black, side, hands, value, plies = raw
        return Sample(
            white=np.frombuffer(white, dtype="<u4").copy(),
            black=np.frombuffer(black, dtype="<u4").copy(),
            side=np.frombuffer(side, dtype=np.uint8).copy(),
            hands=np.frombuffer(hands, dtype=np.uint8).reshape(-1, 2).copy(),
            value=np.frombuffer(value, dtype=np.int8).copy(),
            plies=np.frombuffer(plies, dtype="<i2").copy(),
            game=self.game,
            flying=self.flying,
            stones=self.stones,
        )
