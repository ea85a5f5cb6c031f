"""The strength of two bot settings from a duplicate match (``skatsim duel``): points per game and A - B.

A duel (:mod:`skatsim.run.duel`) plays every deal in the six seatings that mix settings
A and B; its run holds one row per deal with each side's sums over the nine seat-games it
held. Per deal ``i`` and side X::

    x_i = (X's Seeger-Fabian list points over its nine seat-games) / 9

is X's points per game it sat in on that deal, and ``d_i = a_i - b_i`` is the paired unit:
both sides held the same nine hands, so the cards' luck cancels in ``d_i`` and what is
left is the bots' play (and their own random choices). Over ``n`` deals:

* points per game of X: ``mean(x_i)``; the difference: ``mean(d_i)`` with the CLT
  interval ``mean(d) +- z sd(d) / sqrt(n)`` (:func:`skatsim.analysis.intervals.clt_interval`;
  the deals are independent, the six seatings of a deal are one observation);
* deals for one point: ``ceil((z sd(d) / 1)^2)``, the number of deals whose interval of
  ``A - B`` has a half-width of one point (telling apart a true one-point difference from
  none with 80% power needs about twice as many, ``((z + 0.84) sd(d))^2``);
* the gain of the duplicate format, against an ordinary match that plays each deal once, in
  one of the six seatings: there A - B on a deal is ``t_ij = a_ij - b_ij`` (each side's points
  per seat it held in seating ``j`` alone), whose variance ``s1^2`` over deals and seatings
  carries the luck of the cards; for the same interval that match needs ``z^2 s1^2`` games,
  the duel ``6 z^2 sd(d)^2``, and their ratio ``s1^2 / (6 sd(d)^2)`` is how many times as many
  games the luck costs.

The same statistics are given for the variant's own score per game. All of it is a few
aggregates over the run's chunk files (scanned lazily), so memory does not grow with ``n``.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import polars as pl

from .. import __version__
from ..counts import plural
from ..errors import SkatsimError
from ..run import storage
from ..run.duel import DUEL_JOB, SEAT_GAMES, SEATINGS, plan_duel, warm_up_duel
from ..run.manifest import RunManifest
from ..run.reader import finished_run
from ..run.runner import JobFolder, check_run_numbers, execute_runs, make_backend
from .intervals import LEVEL, clt_interval, moments_from_sums, z_value


@dataclass(frozen=True)
class Measure:
    """One yardstick of a duel (Seeger-Fabian points or the variant's score): per game of each side, A - B."""

    per_game_a: float
    per_game_b: float
    difference: float
    #: Per-deal standard deviation of ``a_i - b_i`` (points per game).
    sd: float
    ci: tuple[float, float]


@dataclass
class DuelStatistics:
    """The statistics of a set of per-deal duel rows (:func:`duel_statistics`)."""

    deals: int
    #: Seeger-Fabian list points at a three-player table (the duel's yardstick).
    sf: Measure
    #: The variant's own score.
    score: Measure
    #: Games each side declared, per game it sat in, and the share of them it won (``nan``: none declared).
    declared_per_game: tuple[float, float]
    declarer_wins: tuple[float, float]
    #: Standard deviation of A - B (Seeger-Fabian points per game) in one seating of one deal:
    #: what an ordinary match, each deal played once, measures per game.
    single_sd: float


@dataclass(kw_only=True)
class DuelResult(DuelStatistics):
    """What a duel found (:func:`run_duel`, :func:`read_duel`): its statistics, and the run that made it
    (its manifest: the two bot settings, their parameters, the variant and the seed)."""

    run: RunManifest
    level: float
    seconds: float = 0.0
    jobs: int = 1
    out_dir: str | None = None
    version: str = __version__

    @property
    def a(self) -> str:
        """Bot setting A, as canonical as ``--bots`` takes it."""
        return self.run.bots[0]

    @property
    def b(self) -> str:
        """Bot setting B."""
        return self.run.bots[1]

    @property
    def games(self) -> int:
        """Games played: every deal in six seatings."""
        return self.deals * len(SEATINGS)

    @property
    def deals_for_one_point(self) -> int | None:
        """Deals whose interval of A - B (Seeger-Fabian) has a half-width of one point: ``ceil((z sd)^2)``."""
        if math.isnan(self.sf.sd):
            return None
        return max(2, math.ceil((z_value(self.level) * self.sf.sd) ** 2))

    @property
    def ordinary_ratio(self) -> float | None:
        """How many times as many games an ordinary match (each deal once) needs for the same interval
        of A - B as the duel: ``single_sd^2 / (6 sd^2)``; ``None`` when the duel's A - B does not vary."""
        if not self.sf.sd > 0 or math.isnan(self.single_sd):
            return None
        return self.single_sd**2 / (len(SEATINGS) * self.sf.sd**2)

    def to_json(self) -> dict[str, Any]:
        """The result as plain JSON values (``NaN`` as ``null``); the keys the issue names come first."""
        data: dict[str, Any] = {
            "a": self.a,
            "b": self.b,
            "deals": self.deals,
            "points_per_game_a": self.sf.per_game_a,
            "points_per_game_b": self.sf.per_game_b,
            "difference": self.sf.difference,
            "difference_ci": list(self.sf.ci),
            "difference_sd": self.sf.sd,
            "deals_for_one_point": self.deals_for_one_point,
            "ordinary_match_games_ratio": self.ordinary_ratio,
            "single_seating_sd": self.single_sd,
            "score_per_game_a": self.score.per_game_a,
            "score_per_game_b": self.score.per_game_b,
            "score_difference": self.score.difference,
            "score_difference_ci": list(self.score.ci),
            "declared_per_game_a": self.declared_per_game[0],
            "declared_per_game_b": self.declared_per_game[1],
            "declarer_wins_a": self.declarer_wins[0],
            "declarer_wins_b": self.declarer_wins[1],
            "games": self.games,
            "seatings": list(SEATINGS),
            "level": self.level,
            "seed": self.run.seed,
            "variant": self.run.variant_name,
            "variant_path": self.run.variant_path,
            "bot_parameters_a": self.run.bot_parameters[0],
            "bot_parameters_b": self.run.bot_parameters[1],
            "seconds": self.seconds,
            "jobs": self.jobs,
            "skatsim_version": self.version,
        }
        return {key: _plain(value) for key, value in data.items()}


def _plain(value: Any) -> Any:
    """JSON has no NaN: ``None`` instead, also inside lists."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


#: The integer sums a duel's statistics are made of, per chunk file, added up exactly (Python
#: integers): the result is the same to the last bit whatever the chunk plan.
SUMS = (
    "n", "sf_a", "sf_b", "sf_d", "sf_d2", "score_a", "score_b", "score_d", "score_d2",
    "declared_a", "declared_b", "won_a", "won_b", "single_sum", "single_sq",
)  # fmt: skip


def duel_sums(deals: pl.LazyFrame | pl.DataFrame) -> dict[str, int]:
    """The :data:`SUMS` of a set of per-deal duel rows (one chunk file: its int64 sums cannot overflow)."""
    exprs: list[pl.Expr] = [pl.len().cast(pl.Int64).alias("n")]
    for prefix in ("sf", "score"):
        d = pl.col(f"{prefix}_a").cast(pl.Int64) - pl.col(f"{prefix}_b").cast(pl.Int64)
        exprs += [pl.col(f"{prefix}_{s}").cast(pl.Int64).sum().alias(f"{prefix}_{s}") for s in "ab"]
        exprs += [d.sum().alias(f"{prefix}_d"), (d * d).sum().alias(f"{prefix}_d2")]
    names = ("declared_a", "declared_b", "won_a", "won_b", "single_sum", "single_sq")
    exprs += [pl.col(name).cast(pl.Int64).sum().alias(name) for name in names]
    row = deals.lazy().select(exprs).collect().row(0, named=True)
    return {name: int(row[name]) for name in SUMS}


def _measure(sums: Mapping[str, int], prefix: str, level: float) -> Measure:
    """A :class:`Measure` from the sums of one yardstick (``sf`` or ``score``), per seat-game."""
    n = sums["n"]
    mean, sd = moments_from_sums(n, sums[f"{prefix}_d"], sums[f"{prefix}_d2"])
    mean, sd = mean / SEAT_GAMES, sd / SEAT_GAMES
    per_game = [sums[f"{prefix}_{s}"] / (n * SEAT_GAMES) for s in "ab"]
    return Measure(per_game[0], per_game[1], mean, sd, clt_interval(mean, sd, n, level))


def duel_statistics(chunks: Iterable[pl.LazyFrame | pl.DataFrame], level: float = LEVEL) -> DuelStatistics:
    """Points per game, A - B and its interval, for both yardsticks, from a duel's per-deal rows
    given as one frame or several (chunk files, read one at a time)."""
    if isinstance(chunks, pl.LazyFrame | pl.DataFrame):
        chunks = [chunks]
    sums = dict.fromkeys(SUMS, 0)
    for chunk in chunks:
        for name, value in duel_sums(chunk).items():
            sums[name] += value
    n = sums["n"]
    if n == 0:
        raise SkatsimError("the duel holds no deals")
    declared = (sums["declared_a"] / (n * SEAT_GAMES), sums["declared_b"] / (n * SEAT_GAMES))
    wins = [sums[f"won_{s}"] / sums[f"declared_{s}"] if sums[f"declared_{s}"] else math.nan for s in "ab"]
    # t = 2 (a_j - b_j) over the 6n (deal, seating) pairs; sd(a_j - b_j) = sd(t) / 2
    single_sd = moments_from_sums(n * len(SEATINGS), sums["single_sum"], sums["single_sq"])[1] / 2
    return DuelStatistics(
        n, _measure(sums, "sf", level), _measure(sums, "score", level), declared, (wins[0], wins[1]), single_sd
    )


def read_duel(folder: str, level: float = LEVEL) -> DuelResult:
    """The result of the finished duel in ``folder`` (a one-line error for anything else)."""
    manifest, files = finished_run(folder, DUEL_JOB)
    stats = duel_statistics((storage.scan_parquet([path]) for path in files), level)
    return DuelResult(**vars(stats), run=manifest, level=level)


def check_level(level: float) -> None:
    """The confidence level of the intervals, checked at the edge."""
    if not 0.5 <= level < 1.0:
        raise SkatsimError(f"--level must be at least 0.5 and below 1 (e.g. 0.95), got {level}")


def run_duel(
    a: str,
    b: str,
    deals: int,
    variant: str | None = None,
    seed: int = 1,
    jobs: int = 1,
    out_dir: str | None = None,
    resume: bool = False,
    chunk_size: int | None = None,
    level: float = LEVEL,
    progress: bool = False,
    backend: str = "local",
    backend_options: Mapping[str, object] | None = None,
    force: bool = False,
) -> DuelResult:
    """Play deals ``0 .. deals - 1`` in the six seatings of ``a`` and ``b`` and measure both.

    ``a``, ``b``: bot settings (``heuristic:loss_aversion=2``); ``variant``: a variant file (the
    official rules when ``None``). The duel is a run on the runner in ``out_dir`` (kept, for
    ``resume``), or in a temporary folder removed once the result is read (kept, and named in
    the :class:`RunStopped` raised, when the duel stops midway). ``backend``,
    ``backend_options``, ``chunk_size`` (deals per chunk file) and ``force`` are the runner's;
    none of them changes the result.
    """
    start = time.perf_counter()
    check_run_numbers(deals, seed, jobs)
    check_level(level)
    if resume and out_dir is None:
        raise SkatsimError("--resume needs --out DIR: the folder holding the interrupted duel")
    if backend_options and backend_options.get("scheduler") and out_dir is None:
        raise SkatsimError("with --scheduler, give --out DIR: a folder (or URL) every Dask worker can write to")
    checked = plan_duel(a, b, deals, seed, "", variant, resume, chunk_size, progress)  # before any folder is made
    folder = JobFolder.make(out_dir, "--out", "skatsim-duel-")
    with folder.running():
        plan = replace(checked, out_dir=folder.path)
        warm_up_duel()
        execute_runs([plan], make_backend(backend, jobs, backend_options), progress, force)
    with folder.reading(deals, "deal"):
        result = read_duel(folder.path, level)
    folder.remove()
    result.seconds = time.perf_counter() - start
    result.jobs = jobs
    result.out_dir = out_dir
    return result


def _signed(x: float, digits: int = 2) -> str:
    return "-" if math.isnan(x) else f"{x:+.{digits}f}"


def _interval(ci: tuple[float, float]) -> str:
    return "-" if math.isnan(ci[0]) else f"{ci[0]:+.2f} .. {ci[1]:+.2f}"


def format_text(result: DuelResult) -> str:
    """The duel as a short table: each side's points per game, A - B with its interval, deals for one point."""
    pct = f"{result.level:.0%}"
    lines = [
        f"duel: A = {result.a}, B = {result.b}; variant {result.run.variant_name}, seed {result.run.seed}",
        f"{plural(result.deals, 'deal')} x 6 seatings = {result.games:,} games"
        + (f" in {result.seconds:.1f} s on {plural(result.jobs, 'job')}" if result.seconds else "")
        + (f"; kept in {result.out_dir}" if result.out_dir else ""),
        "",
        f"{'per game':<32}{'A':>10}{'B':>10}{'A - B':>10}   {pct} interval",
    ]
    for label, m in (("Seeger-Fabian points", result.sf), (f"score ({result.run.variant_name})", result.score)):
        lines.append(
            f"{label:<32}{_signed(m.per_game_a):>10}{_signed(m.per_game_b):>10}{_signed(m.difference):>10}"
            f"   {_interval(m.ci)}"
        )
    declared = result.declared_per_game
    wins = result.declarer_wins
    lines.append(f"{'games declared':<32}{declared[0]:>10.3f}{declared[1]:>10.3f}")
    lines.append(f"{'declarer wins':<32}{_share(wins[0]):>10}{_share(wins[1]):>10}")
    lines.append("")
    n_one = result.deals_for_one_point
    if n_one is not None:
        lines.append(
            f"A - B (Seeger-Fabian) varies by {result.sf.sd:.1f} points per game from deal to deal: "
            f"a {pct} interval of +-1 point needs {plural(n_one, 'deal')} ({len(SEATINGS) * n_one:,} games)"
        )
    ratio = result.ordinary_ratio
    if ratio is not None:
        lines.append(
            f"an ordinary match (each deal once, sd {result.single_sd:.1f} per game) would need {ratio:.1f}x as many "
            "games for the same interval"
        )
    return "\n".join(lines) + "\n"


def _share(x: float) -> str:
    return "-" if math.isnan(x) else f"{x:.1%}"


def format_json(result: DuelResult) -> str:
    """The duel as one JSON object (:meth:`DuelResult.to_json`)."""
    return json.dumps(result.to_json(), indent=2) + "\n"
