"""Open-hand solving from Python: a game record's position, solved, as a :class:`Solution`.

The kernels live in :mod:`skatsim.engine.solver`; this module builds a play state from a
:class:`~skatsim.records.record.GameRecord` (any source: an ISS line, a simulated run's ``record``
column), runs the searches a full answer needs and times them. A :class:`Solver` owns the
transposition table, so a caller solving many positions allocates it once.

What the answer means (every seat plays perfectly and sees every card):

* ``declarer_points``: the declarer's final card points, skat included (None for Null, where points
  do not decide anything).
* ``won``: the declarer wins the card play: >= 61 points (>= 90 with Schneider announced); with
  Schwarz announced, every trick; in Null, no trick. The bid is not looked at (an overbid game is
  lost whatever the cards do).
* ``schneider``: a side ends with <= 30 points (only in a game played to its end).
* ``schwarz``: a side takes no trick: the declarer can take every trick, or the defenders can keep
  him from taking any. Decided by its own searches: Schwarz is about tricks, and a side can take
  tricks worth 0 points.
* ``best_cards``: the legal cards of the seat to move that keep the value of the game's primary
  objective (points; the tricks for Null and announced Schwarz), refined by the Schwarz outcome
  when a side can force one (see :meth:`Solver.solve`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .engine import play, solver
from .engine.cards import format_cards, from_mask, iss_name, to_mask
from .engine.declaration import normalise_flags
from .engine.gametypes import GAME_TYPE_LABELS, NULL
from .engine.scoring import HAND, SCHNEIDER_ANNOUNCED, SCHWARZ_ANNOUNCED
from .engine.tricks import ALL_POINTS, card_points
from .errors import SkatsimError
from .records.record import GameRecord, ReplayError, replay

SEAT_NAMES = ("FH", "MH", "RH")


@dataclass(frozen=True)
class Solution:
    """The open-hand value of one position (see the module docstring for each field's meaning).

    ``to_move`` is the seat to move (None when the game is over); ``best_cards`` are card ints;
    ``nodes`` and ``seconds`` cover every search the answer needed.
    """

    game_type: int
    declarer: int
    cards_played: int
    to_move: int | None
    declarer_points: int | None
    won: bool
    schneider: bool
    schwarz: bool
    best_cards: tuple[int, ...]
    nodes: int
    seconds: float
    #: The declaration's flags (``skatsim.engine.scoring``: hand, ouvert, announcements), for its wording.
    flags: int = 0

    def to_json_dict(self) -> dict[str, object]:
        """The fields ``skatsim solve --json`` prints (cards in ISS notation)."""
        return {
            "game_type": GAME_TYPE_LABELS[self.game_type],
            "declarer": self.declarer,
            "cards_played": self.cards_played,
            "to_move": self.to_move,
            "declarer_points": self.declarer_points,
            "won": self.won,
            "schneider": self.schneider,
            "schwarz": self.schwarz,
            "best_cards": [iss_name(c) for c in self.best_cards],
            "nodes": self.nodes,
            "seconds": self.seconds,
        }

    def lines(self) -> list[str]:
        """A short human summary."""
        from .whatif.rollouts import declaration_label  # the wording of a declaration, as hand and whatif say it

        points = "Null" if self.declarer_points is None else f"{self.declarer_points} card points"
        verdict = "won" if self.won else "lost"
        out = [
            f"{declaration_label(self.game_type, self.flags)}, declarer {SEAT_NAMES[self.declarer]}, "
            f"after {self.cards_played} cards: {points}, {verdict} with perfect play",
            f"schneider: {'yes' if self.schneider else 'no'}, schwarz: {'yes' if self.schwarz else 'no'}",
        ]
        if self.to_move is None:
            out.append("the game is over")
        else:
            out.append(f"best cards for {SEAT_NAMES[self.to_move]}: {format_cards(self.best_cards)}")
        out.append(f"nodes: {self.nodes}, {self.seconds * 1000:.2f} ms")
        return out


class Solver:
    """A transposition table (``2**log2_entries`` entries) and the search scratch, reused by every solve."""

    def __init__(self, log2_entries: int = 20) -> None:
        self.table = solver.new_table(log2_entries)
        self.work = solver.new_work()
        self._loaded = False

    def _load(self, state: np.ndarray) -> None:
        """Compile (or load from numba's cache) the kernels :meth:`solve` calls, on the finished position
        of ``state``'s game, where each answers at once: a first use compiles them for seconds, which are
        not the search's (its ``seconds``); even loaded from the cache, ``play.to_move``'s first call took
        a millisecond inside the clock. No search runs, no node is counted."""
        if self._loaded:
            return
        over = state.copy()
        over[play.OVER] = 1
        for answer in (
            solver.solve_points,
            solver.declarer_avoids_tricks,
            solver.declarer_takes_all,
            solver.declarer_takes_one,
        ):
            answer(over, self.table, self.work)
        solver.best_moves(over, self.table, self.work, solver.OBJ_POINTS)
        play.to_move(over)  # the Solution's seat to move, worked out before the clock stops
        self._loaded = True

    def solve(self, state: np.ndarray, best: bool = True) -> Solution:
        """Solve a play state (:mod:`skatsim.engine.play`) of a declared game; ``state`` is not modified.

        Best cards: in Null and with Schwarz announced the cards that keep the yes/no answer; else
        the cards that keep the exact card points, and among them, when the declarer can take every
        trick (or the defenders can keep him from any), those that keep that too (such cards always
        exist: taking every trick takes every point). ``best=False`` skips them.
        """
        if state[play.DECLARER] < 0:
            raise SkatsimError("the solver handles declared games; this game has no declarer (Ramsch)")
        self._load(state)
        tt, work = self.table, self.work
        start_nodes = int(work[solver.NODES])
        start = time.perf_counter()
        gt, flags, d = int(state[play.GT]), int(state[play.FLAGS]), int(state[play.DECLARER])
        own = int(state[play.TRICKS0 + d])
        theirs = int(state[play.TRICKS0 + (d + 1) % 3] + state[play.TRICKS0 + (d + 2) % 3])
        points: int | None = None
        refine: list[int] = []
        if gt == NULL:
            won = own == 0 and bool(solver.declarer_avoids_tricks(state, tt, work))
            schneider = schwarz = False
            primary = solver.OBJ_NO_TRICK
        elif flags & SCHWARZ_ANNOUNCED:
            # Taking every trick takes every card point: short of 120, no search is needed.
            points = int(solver.solve_points(state, tt, work))
            won = theirs == 0 and points == ALL_POINTS and bool(solver.declarer_takes_all(state, tt, work))
            schneider = schwarz = won
            primary = solver.OBJ_ALL_TRICKS
            refine = [solver.OBJ_POINTS]
        else:
            points = int(solver.solve_points(state, tt, work))
            won = points >= (90 if flags & SCHNEIDER_ANNOUNCED else 61)
            schneider = points >= 90 or points <= 30
            # The points decide these when they can: short of 120 the declarer cannot take every trick;
            # with more points than the skat and his tricks so far hold, he takes a trick.
            already = int(state[play.POINTS0 + d]) + int(card_points(np.uint32(state[play.SKAT])))
            sweep = theirs == 0 and points == ALL_POINTS and bool(solver.declarer_takes_all(state, tt, work))
            swept = own == 0 and points == already and not solver.declarer_takes_one(state, tt, work)
            schwarz = sweep or swept
            primary = solver.OBJ_POINTS
            refine = [solver.OBJ_ALL_TRICKS] if sweep else [solver.OBJ_ONE_TRICK] if swept else []
        cards: tuple[int, ...] = ()
        if best and not state[play.OVER]:
            mask = int(solver.best_moves(state, tt, work, primary))
            for objective in refine:
                narrower = mask & int(solver.best_moves(state, tt, work, objective))
                mask = narrower or mask
            cards = tuple(from_mask(mask))
        return Solution(
            game_type=gt,
            declarer=d,
            cards_played=int(state[play.TRICK_NO] * 3 + state[play.N_IN_TRICK]),
            to_move=None if state[play.OVER] else int(play.to_move(state)),
            declarer_points=points,
            won=won,
            schneider=schneider,
            schwarz=schwarz,
            best_cards=cards,
            nodes=int(work[solver.NODES]) - start_nodes,
            seconds=time.perf_counter() - start,
            flags=flags,
        )


def position(record: GameRecord, after: int = 0, params: np.ndarray | None = None) -> np.ndarray:
    """The play state of a declared game's record after its first ``after`` cards (0: the first lead,
    the skat put away), checked by replaying the record under ``params`` (a variant's compiled rules;
    the official rules by default). Raises :class:`SkatsimError` for a game without card play or
    ``after`` beyond the recorded cards."""
    try:
        evaluation = replay(record, params)
    except ReplayError as exc:
        raise SkatsimError(f"cannot replay this game: {exc}") from None
    kind = evaluation.game_type
    if kind == "passed":
        raise SkatsimError("all players passed: this game has no card play to solve")
    if kind == "aborted":
        raise SkatsimError("the game was aborted before a declaration: it has no card play to solve")
    if kind == "ramsch":
        raise SkatsimError("a Ramsch has no declarer: the solver handles declared games only")
    assert record.game_type is not None and evaluation.declarer is not None
    if record.pickup and len(record.discards) != 2:
        raise SkatsimError("the declarer forfeited before discarding: this game has no card play to solve")
    if not 0 <= after <= len(record.cards):
        n = len(record.cards)
        raise SkatsimError(f"--after {after}: the record has {n} cards of play (choose 0..{n})")
    d = evaluation.declarer
    hands = np.array([to_mask(record.deal[10 * s : 10 * s + 10]) for s in range(3)], dtype=np.uint32)
    skat = to_mask(record.deal[30:])
    if record.pickup:
        hands[d] = np.uint32((int(hands[d]) | skat) & ~to_mask(record.discards))
        skat = to_mask(record.discards)
    flags = normalise_flags(record.game_type, record.flags | (0 if record.pickup else HAND))
    state = np.zeros(play.N_FIELDS, dtype=np.int64)
    play.new_play(state, record.game_type, flags, d, hands, np.uint32(skat))
    for c in record.cards[:after]:
        if play.play_card(state, c):  # replay() accepted these cards, so this cannot fail
            raise SkatsimError(f"cannot replay card {iss_name(c)}")
    return state


def solve_record(
    record: GameRecord, after: int = 0, solver_: Solver | None = None, params: np.ndarray | None = None
) -> Solution:
    """Solve a record's position after ``after`` cards (a fresh :class:`Solver` unless one is given)."""
    return (solver_ or Solver()).solve(position(record, after, params))


def solve_iss_line(path: str | Path, line: int, after: int = 0) -> Solution:
    """Solve the game on line ``line`` (from 1) of an ISS game-record file after ``after`` cards."""
    from .records.importer import find_iss_line

    _, game = find_iss_line(path, line=line)
    return solve_record(game.record, after)
