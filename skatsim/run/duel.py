"""Duels on the runner: duplicate matches between two bot settings, a chunk of deals at a time.

A duel plays every deal in the six seatings that mix the two settings A and B (seat order
FH, MH, RH)::

    ABB  BAB  BBA      one A with two B, A in every seat
    BAA  ABA  AAB      one B with two A, B in every seat

Every seating plays the same cards: the deal, and the bots' random stream, are pure
functions of (seed, game index) (:mod:`skatsim.engine.deal`), so deal ``i`` of a duel is
game ``i`` of ``skatsim simulate`` with the same seed, six times over. Each bot holds nine
seat-games of a deal (one seat in each of three seatings, two in each of the other three),
so what it scores on a deal, summed over them, is measured against the same nine hands the
other bot held: the luck of the cards cancels in the difference.

Deals are played on their own, never in lists: a variant's list rules (Bock rounds and the
Ramsch rounds after them, running totals) would tie a deal's score to the deals before it
and make the seatings' lists drift apart. Each seat is scored twice: by the variant's own
score, and by Seeger-Fabian list points at a three-player table
(:func:`skatsim.engine.duel.deal_list_points`, the engine's one copy of the rule), the duel's
yardstick whether or not the variant keeps lists.

A duel is a job of the ONE orchestrator (:mod:`skatsim.run.runner`): :class:`DuelPlan`
overrides the plan's two job-specific methods, so locks, lazy chunk plans, both backends,
progress, manifest (``job: duel``, both settings with every parameter), resume and safe
stops are the runner's. A chunk (:class:`DuelSpec`) is a range of deals; its frame has one
row per deal (:data:`DUEL_SCHEMA`), sums over each bot's nine seat-games, from which
:mod:`skatsim.analysis.duel` makes the statistics.

Bots enter only through the registry (:func:`skatsim.bots.parse_bots`, ``bot_arrays``) and
``simulate_block``: any bot registered in :mod:`skatsim.bots` duels without a change here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from ..bots import bot_arrays, parse_bots
from ..engine.block import simulate_block
from ..engine.duel import deal_list_points
from ..engine.layout import COL_DECLARER, COL_LIST_POINTS_FH, COL_SCORE_FH, COL_WON, LOG_WIDTH, N_COLUMNS
from ..engine.lists import N_COUNTED
from ..engine.rules import (
    BOCK_ENABLED,
    LIST_DEFENDER_BONUS,
    LIST_LENGTH,
    LIST_LOST_MALUS,
    LIST_SCORING,
    LIST_WON_BONUS,
    TABLE_PLAYERS,
)
from ..errors import SkatsimError
from ..variant import LoadedVariant, Variant, load_variant
from ..variant.model import Tournament
from .chunks import ChunkFile, searching_chunk
from .manifest import RunManifest
from .runner import RunPlan, _new_manifest, check_chunk_size, check_run_numbers, learn_calibration

#: The manifest's ``job`` of a duel's folder.
DUEL_JOB = "duel"
#: The six seatings, seat order FH, MH, RH: three with one A, then three with one B.
SEATINGS = ("ABB", "BAB", "BBA", "BAA", "ABA", "AAB")
#: ``OWNERS[j, s]``: the side holding seat ``s`` in seating ``j`` (0: A, 1: B).
OWNERS = np.array([[0 if c == "A" else 1 for c in seating] for seating in SEATINGS], dtype=np.int64)
#: Seat-games each bot holds on one deal over the six seatings (3 x 1 + 3 x 2).
SEAT_GAMES = 9
#: What is summed per side over its seat-games: list points, the variant's score, games declared, declared and won.
SF, SCORE, DECLARED, WON = range(4)
#: Deals per ``simulate_block`` call (one seating at a time): a 6 MB row matrix, reused.
BLOCK_DEALS = 16_384
#: Default chunk size in deals: about ``TARGET_CHUNKS`` chunks, at least ``MIN_CHUNK`` deals (six
#: games each, so per-file costs stay small), at most ``MAX_CHUNK`` (so slow bots still report progress).
TARGET_CHUNKS = 16
MIN_CHUNK = 2_000
MAX_CHUNK = 100_000

#: Columns of a duel's chunk files: one row per deal, each value summed over a side's nine seat-games.
DUEL_SCHEMA: dict[str, Any] = {
    "game_id": pl.Int64(),  # the deal (game index), as in every run: the runner checks chunks by it
    "sf_a": pl.Int32(),  # A's Seeger-Fabian list points
    "sf_b": pl.Int32(),
    "score_a": pl.Int32(),  # A's score under the variant's own rules
    "score_b": pl.Int32(),
    "declared_a": pl.Int8(),  # games A declared
    "declared_b": pl.Int8(),
    "won_a": pl.Int8(),  # games A declared and won
    "won_b": pl.Int8(),
    # over the six seatings j: sum of 2 (a_j - b_j) and of its square, a_j and b_j each side's list
    # points per seat held in seating j alone (what the duel is compared with: one seating per deal)
    "single_sum": pl.Int32(),
    "single_sq": pl.Int64(),
}
_COLUMN_SLOTS = {"sf": SF, "score": SCORE, "declared": DECLARED, "won": WON}


def parse_duel_bot(text: str, which: str) -> str:
    """One bot setting (``heuristic:loss_aversion=2``), canonical; mistakes are one line naming ``which``
    (``BOT_A``)."""
    if "," in text:
        raise SkatsimError(f"{which}: give one bot setting, got {text!r} (the duel seats it in every seating)")
    try:
        return parse_bots(text, players=1)[0]
    except SkatsimError as exc:
        raise SkatsimError(str(exc).replace("--bots:", f"{which}:", 1)) from None


def seating_bots(a: str, b: str) -> list[tuple[str, ...]]:
    """The bot settings at FH, MH, RH in each of the six seatings (:data:`SEATINGS`)."""
    return [tuple(a if side == 0 else b for side in owners) for owners in OWNERS]


def duel_params(params: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The rules a duel plays by and those it scores by, from the compiled variant.

    Play: the variant with independent deals at a three-player table (``LIST_LENGTH`` 0: no
    lists, hence no Bock rounds; ``TABLE_PLAYERS`` 3: a four-player variant's dealer sitting
    out plays no part in a single deal). Scoring: the same with Seeger-Fabian list points on
    (``LIST_SCORING``) at their standard values, +50, -50 and +40 per defender
    (:class:`skatsim.variant.model.Tournament`'s defaults: a variant's own bonuses belong to its
    lists and its table, the duel's yardstick is the same under every variant), Kontra doubling
    them when the variant says so, and Bock off (multiplier 1). The bots see only the play
    rules, so the yardstick never changes how they play.
    """
    play = np.array(params, dtype=np.int64)
    play[LIST_LENGTH] = 0
    play[TABLE_PLAYERS] = 3
    score = play.copy()
    standard = Tournament()
    score[LIST_SCORING] = 1
    score[LIST_WON_BONUS] = standard.won_bonus
    score[LIST_LOST_MALUS] = standard.lost_malus
    score[LIST_DEFENDER_BONUS] = standard.defender_bonus
    score[BOCK_ENABLED] = 0
    return play, score


def add_seating(totals: np.ndarray, single: np.ndarray, rows: np.ndarray, owners: np.ndarray) -> None:
    """Add one seating's scored rows to the per-deal sums ``totals[deal, side, what]`` (``SF`` .. ``WON``)
    and to ``single[deal]``: the sum and the sum of squares of ``2 (a_j - b_j)``, where ``a_j`` and
    ``b_j`` are A's and B's list points per seat held in this seating ``j`` (what a match playing the
    deal in this seating alone would measure; doubled, so that it is a whole number).

    ``rows[i]`` is deal ``i`` played in the seating whose seat ``s`` the side ``owners[s]``
    holds, its list points already written (:func:`skatsim.engine.duel.deal_list_points`).
    """
    declarer = rows[:, COL_DECLARER]
    won = rows[:, COL_WON] == 1
    here = np.zeros((rows.shape[0], 2), dtype=np.int64)  # list points by side in this seating
    for seat in range(3):
        side = totals[:, owners[seat]]
        points = rows[:, COL_LIST_POINTS_FH + seat]
        here[:, owners[seat]] += points
        side[:, SF] += points
        side[:, SCORE] += rows[:, COL_SCORE_FH + seat]
        mine = declarer == seat
        side[:, DECLARED] += mine
        side[:, WON] += mine & won
    seats_a = int(np.count_nonzero(owners == 0))
    twice = (2 // seats_a) * here[:, 0] - (2 // (3 - seats_a)) * here[:, 1]
    single[:, 0] += twice
    single[:, 1] += twice * twice


def duel_frame(seed: int, first: int, count: int, params: np.ndarray, a: str, b: str) -> pl.DataFrame:
    """Deals ``first .. first + count - 1`` of the duel of ``a`` and ``b`` under the compiled variant ``params``.

    Each block of deals is simulated once per seating by ``simulate_block`` (the same call
    ``skatsim simulate`` makes), scored in list points, and summed per side; one row per deal.
    """
    play, score = duel_params(params)
    seatings = [bot_arrays(bots, play) for bots in seating_bots(a, b)]
    totals = np.zeros((count, 2, 4), dtype=np.int64)
    single = np.zeros((count, 2), dtype=np.int64)
    logs = np.zeros((0, LOG_WIDTH), dtype=np.int16)
    counted = np.zeros(N_COUNTED, dtype=np.int64)
    rows = np.zeros((min(BLOCK_DEALS, count), N_COLUMNS), dtype=np.int64)
    for start in range(0, count, BLOCK_DEALS):
        n = min(BLOCK_DEALS, count - start)
        block = rows[:n]
        for (kinds, bot_params), owners in zip(seatings, OWNERS, strict=True):
            simulate_block(np.uint64(seed), first + start, kinds, bot_params, play, block, logs)
            deal_list_points(block, score, counted)
            add_seating(totals[start : start + n], single[start : start + n], block, owners)
    columns: dict[str, Any] = {"game_id": np.arange(first, first + count, dtype=np.int64)}
    for name, slot in _COLUMN_SLOTS.items():
        for side, suffix in enumerate("ab"):
            columns[f"{name}_{suffix}"] = totals[:, side, slot]
    columns["single_sum"], columns["single_sq"] = single[:, 0], single[:, 1]
    return pl.DataFrame(columns).select(pl.col(name).cast(dtype) for name, dtype in DUEL_SCHEMA.items())


def warm_up_duel() -> None:
    """Compile (or load from numba's disk cache) the duel's scoring kernel in this process."""
    rows = np.zeros((1, N_COLUMNS), dtype=np.int64)
    deal_list_points(rows, duel_params(Variant().params())[1], np.zeros(N_COUNTED, dtype=np.int64))


@dataclass(frozen=True)
class DuelSpec(ChunkFile):
    """One chunk of a duel: deals ``first .. first + count - 1``, plain picklable values (a
    :class:`skatsim.run.chunks.ChunkJob`); ``a`` and ``b`` are canonical bot settings."""

    seed: int
    first: int
    count: int
    params: tuple[int, ...]
    a: str
    b: str
    out_dir: str
    run_id: str = ""

    def compute(self) -> pl.DataFrame:
        """The chunk's frame (:data:`DUEL_SCHEMA`), a pure function of the spec."""
        params = np.array(self.params, dtype=np.int64)
        return duel_frame(self.seed, self.first, self.count, params, self.a, self.b)


@dataclass(frozen=True)
class DuelPlan(RunPlan):
    """A duel's run: the runner's plan with the duel's chunk spec and chunk columns."""

    def spec(self, manifest: RunManifest, i: int, out_dir: str) -> DuelSpec:
        """The spec of chunk ``i``: its deals, the variant, the two settings (``manifest.bots`` is ``(A, B)``)."""
        first, count = manifest.chunk(i)
        a, b = manifest.bots
        return DuelSpec(manifest.seed, first, count, self.params, a, b, out_dir, manifest.run_id)

    def schema(self, manifest: RunManifest) -> dict[str, Any]:
        """The columns of a duel's chunk files."""
        return dict(DUEL_SCHEMA)


def default_duel_chunk(deals: int, searching: int | None = None) -> int:
    """Deals per chunk when none is given (see ``TARGET_CHUNKS``); it never changes the result.
    ``searching``: the most games a chunk holds when its games search
    (:func:`~skatsim.run.chunks.searching_chunk`; a deal is six games)."""
    if searching is not None:
        return min(deals, max(1, searching // len(SEATINGS)))
    return min(deals, MAX_CHUNK, max(MIN_CHUNK, math.ceil(deals / TARGET_CHUNKS)))


def official_variant() -> LoadedVariant:
    """The official rules when no ``--variant`` is given (built in: no file needed)."""
    return LoadedVariant(path="(built in)", text="", variant=Variant())


def plan_duel(
    a: str,
    b: str,
    deals: int,
    seed: int,
    out_dir: str,
    variant_path: str | None = None,
    resume: bool = False,
    chunk_size: int | None = None,
    progress: bool = True,
) -> DuelPlan:
    """Check a duel's settings and plan its chunks (reads the variant file, touches no other file but the
    bots' calibration cache: :func:`~skatsim.run.runner.learn_calibration`, with a spinner if ``progress``).

    ``a`` and ``b`` are bot settings as on the command line; the manifest records them
    canonical (``bots``) and with every parameter (``bot_parameters``).
    """
    check_run_numbers(deals, seed, 1)
    check_chunk_size(chunk_size)
    settings = (parse_duel_bot(a, "BOT_A"), parse_duel_bot(b, "BOT_B"))
    loaded = official_variant() if variant_path is None else load_variant(variant_path)
    size = chunk_size or default_duel_chunk(deals, searching_chunk(settings, ""))
    learnt = learn_calibration(settings, loaded.variant.params(), progress)
    fresh = _new_manifest(loaded, deals, seed, settings, False, size).model_copy(update={"job": DUEL_JOB})
    return DuelPlan(out_dir, fresh, tuple(int(p) for p in loaded.variant.params()), chunk_size, resume, learnt)
