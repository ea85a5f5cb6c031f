""" "Could I have won?": another declaration for a real game, played out by the bots (``skatsim whatif``).

:func:`another_declaration` takes a game (an ISS line, a run's game, a record), keeps its
auction and replaces the declaration by another one; the bots discard for it (with the
skat), double where the variant lets them and play every card. The declaration as recorded
is played out by the bots too, on the same worlds, so the two compare like with like; the
result the table actually had is shown beside them. With the real cards (worlds
``"fixed"``) the bots' play is one game per declaration; with worlds drawn from what the
declarer knew (``"uniform"``, ``"consistent"``) it is a win probability and an expected score.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass

import numpy as np

from ..analysis.intervals import clt_interval, wilson
from ..bots import DEFAULT_BOTS
from ..counts import plural
from ..engine.gametypes import NULL
from ..engine.layout import (
    COL_LIST_POINTS_FH,
    COL_POINTS,
    COL_SCORE_FH,
    COL_TRICKS,
    COL_VALUE,
    COL_WON,
)
from ..engine.rules import LIST_SCORING
from ..engine.scoring import HAND
from ..errors import SkatsimError
from ..records.record import GameRecord, replay
from ..variant import official_params
from .rollouts import SEATS, Declare, Start, Worlds, _replayed, declaration_label, plan

#: Rollouts by default when worlds are drawn (with the real cards one is enough: the bots are deterministic
#: unless a random bot sits at the table, then this many too).
SAMPLES = 1000


@dataclass(frozen=True)
class Outcome:
    """One declaration played out: the rollouts' win rate and mean score of the declarer, with intervals,
    and his mean card points (for a single deal: that deal's numbers)."""

    label: str
    rollouts: int
    win: tuple[float, float, float]
    score: tuple[float, float, float]
    points: float
    value: float
    tricks: float

    def to_json(self) -> dict[str, object]:
        return {
            "declaration": self.label,
            "rollouts": self.rollouts,
            "win_probability": _num(self.win[0]),
            "win_probability_ci": [_num(self.win[1]), _num(self.win[2])],
            "expected_score": _num(self.score[0]),
            "expected_score_ci": [_num(self.score[1]), _num(self.score[2])],
            "declarer_points": _num(self.points),
            "game_value": _num(self.value),
        }


def _num(x: float) -> float | None:
    return None if math.isnan(x) else round(float(x), 6)


@dataclass(frozen=True)
class AnotherDeclaration:
    """The answer of :func:`another_declaration`: the game as the table played it, then the recorded and
    the other declaration as the bots play them out."""

    title: str
    declarer: int
    bid: int
    recorded: str
    recorded_result: str
    worlds: str
    samples: int
    seed: int
    outcomes: tuple[Outcome, ...]

    def text(self) -> str:
        lines = [
            self.title,
            f"{SEATS[self.declarer]} won the auction at {self.bid} and declared {self.recorded}: "
            f"{self.recorded_result}",
        ]
        if self.worlds == "fixed" and all(o.win[1] == o.win[2] or o.rollouts == 1 for o in self.outcomes):
            lines.append("played out by the bots with the real cards:")
            lines.append(f"{'declaration':<28}{'won':>5}{'points':>8}{'tricks':>8}{'value':>7}{'score':>8}")
            for o in self.outcomes:
                won = "yes" if o.win[0] >= 0.5 else "no"
                lines.append(f"{o.label:<28}{won:>5}{o.points:>8.0f}{o.tricks:>8.0f}{o.value:>7.0f}{o.score[0]:>+8.0f}")
        else:
            what = (
                "the real cards"
                if self.worlds == "fixed"
                else f"{plural(self.samples, 'deal')} the declarer could not tell apart"
            )
            if self.worlds == "consistent":
                what += " (bids as recorded)"
            lines.append(f"played out by the bots on {what}, seed {self.seed}:")
            lines.append(f"{'declaration':<28}{'win %':>19}{'points':>8}{'expected score':>18}")
            for o in self.outcomes:
                win = f"{100 * o.win[0]:.1f} [{100 * o.win[1]:.1f}, {100 * o.win[2]:.1f}]"
                half = (o.score[2] - o.score[1]) / 2 if not math.isnan(o.score[1]) else 0.0
                lines.append(f"{o.label:<28}{win:>19}{o.points:>8.1f}{f'{o.score[0]:.1f} ± {half:.1f}':>18}")
        return "\n".join(lines) + "\n"

    def to_json(self) -> str:
        return json.dumps(
            {
                "game": self.title,
                "declarer": SEATS[self.declarer],
                "bid": self.bid,
                "recorded": self.recorded,
                "recorded_result": self.recorded_result,
                "worlds": self.worlds,
                "samples": self.samples,
                "seed": self.seed,
                "outcomes": [o.to_json() for o in self.outcomes],
            },
            indent=2,
        )


def another_declaration(
    start: Start,
    game: int,
    flags: int,
    params: np.ndarray | None = None,
    bots: str = DEFAULT_BOTS,
    worlds: Worlds = "fixed",
    samples: int | None = None,
    seed: int = 1,
    jobs: int | None = None,
) -> AnotherDeclaration:
    """The recorded declaration and ``game`` with ``flags`` (``HAND``, announcements) played out by the
    bots after the game's own auction (see the module docstring)."""
    params = official_params() if params is None else params
    record = start.record
    if record is None:
        raise SkatsimError("whatif: a game record is needed (an ISS line or a run's game)")
    played = _replayed(record, params)
    if played.declarer < 0 or record.game_type is None or record.grand_hand_instead is not None:
        raise SkatsimError(f"{start.label}: nobody won the auction in this game: there is no declaration to change")
    recorded_flags = record.flags | (0 if record.pickup else HAND)
    decisions = [Declare(record.game_type, recorded_flags), Declare(game, flags)]
    n = samples or (1 if worlds == "fixed" else SAMPLES)
    query = plan(start, decisions, params, bots, n, seed, worlds)
    rows, _, _ = query.block(0, n, jobs or os.cpu_count() or 1)
    column = (COL_LIST_POINTS_FH if params[LIST_SCORING] else COL_SCORE_FH) + played.declarer
    outcomes = []
    for k, label in enumerate([f"{query.labels[0]} (as declared)", query.labels[1]]):
        r = rows[:, k]
        rate, lo, hi = wilson(int((r[:, COL_WON] == 1).sum()), n)
        scores = r[:, column].astype(np.float64)
        mean = float(scores.mean())
        sd = float(scores.std(ddof=1)) if n > 1 else math.nan
        slo, shi = clt_interval(mean, sd, n)
        outcomes.append(
            Outcome(
                label,
                n,
                (rate, lo, hi),
                (mean, slo, shi),
                float(r[:, COL_POINTS].mean()),
                float(r[:, COL_VALUE].mean()),
                float(r[:, COL_TRICKS].mean()),
            )
        )
    recorded_result = _as_played(record, params, played.declarer)
    return AnotherDeclaration(
        title=start.label,
        declarer=played.declarer,
        bid=played.bid,
        recorded=declaration_label(record.game_type, recorded_flags),
        recorded_result=recorded_result,
        worlds=worlds,
        samples=n,
        seed=seed,
        outcomes=tuple(outcomes),
    )


def _as_played(record: GameRecord, params: np.ndarray, declarer: int) -> str:
    """The game as the table played it, scored as the rollouts are: the declarer's score for the deal, his
    Seeger-Fabian list points under list scoring (else the recorded declaration, played out as recorded,
    would show two scores)."""
    result = replay(record, params)
    how = "won" if result.won else "lost"
    detail = "" if record.game_type == NULL else f" with {result.declarer_points} points"
    if params[LIST_SCORING]:
        points = getattr(result, f"list_points_{SEATS[declarer].lower()}")
        return f"{how}{detail}, {points:+d} list points (as played at the table)"
    return f"{how}{detail}, score {result.score:+d} (as played at the table)"
