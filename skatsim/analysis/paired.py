"""Paired statistics of two game tables joined on ``game_id``: the same deals under A and under B.

The comparison of two variants (:mod:`skatsim.analysis.compare`) and of two
runs made with the same seed and bots (:mod:`skatsim.analysis.report`) both
reduce a pair of frames to an :class:`Aggregate` (:func:`aggregate_pair` for
two frames in memory, :func:`aggregate_scans` for two runs read slice by
slice). Two kinds of quantity are compared:

* a :class:`Metric` has a value in every deal (a seat's score, "the deal was
  a Grand"); the aggregate keeps the joint histogram of its value under A and
  under B (integer values, so exact), from which means, variances, quantiles
  and bootstrap resamples follow;
* a :class:`Ratio` is a rate or mean among some deals only (Schneider among
  declared games, the win rate at bid 18, the mean winning bid): a sum of a
  numerator over a sum of a denominator, each side with its own denominator.
  The aggregate keeps the exact sums and cross products of the four per-deal
  values (numerator and denominator under A and B), enough for the delta
  method's paired interval of ``B - A`` and for the unpaired one.

Both add up over chunks in any order to the aggregate of the whole run, so no
row is kept in memory. Metrics are built from columns by name. A house-rule
metric (Kontra, Bock, Ramsch, list points) is computed when its columns
exist; when they exist in one variant only, the other counts as the rule
switched off (``absent``), or the metric is left out when that has no
meaning (list points).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np
import polars as pl

from ..frames import GAME_TYPE

SEATS = ("fh", "mh", "rh")
#: Values are stored in pair keys as ``(a + OFFSET) * 2**31 + (b + OFFSET)``.
OFFSET = 2**30
#: Games read at a time when two runs are paired from their Parquet files (a multiple of 36).
SLICE = 36 * 1820
#: A run's games ``first .. last`` (by ``game_id``) as a lazy frame, from the files that hold them
#: (``functools.partial(skatsim.analysis.sources.scan_games, source, names)``).
GameSlice = Callable[[int, int], pl.LazyFrame]

#: Metric groups in the order they are shown, each with the unit of its values.
GROUPS: dict[str, str] = {
    "score per seat": "points per deal",
    "score per role": "points per deal",
    "outcome": "% of deals",
    "game mix": "% of deals",
    "declared games": "% of declared games",
    "bidding": "bid value",
    "win rate by final bid": "% of declared games won at that bid",
    "Ramsch": "% of deals",
    "Kontra and Re": "% of declared games",
    "Bock": "% of deals",
    "list points": "points per deal",
}


@dataclass(frozen=True)
class Metric:
    """A per-deal integer quantity compared between the variants.

    ``needs``: columns it is computed from; ``absent``: its value when a
    variant lacks those columns (the rule is off), ``None`` to skip the metric
    then; ``spread``: also report its standard deviation and tail quantiles;
    ``share``: a 0/1 indicator, whose mean is a share of deals.
    """

    name: str
    group: str
    label: str
    expr: Callable[[], pl.Expr]
    needs: tuple[str, ...] = ()
    absent: int | None = None
    spread: bool = False
    share: bool = False


@dataclass(frozen=True)
class Ratio:
    """A rate or mean among some deals: ``sum(num) / sum(den)`` over the deals, under A and under B.

    ``den`` selects the deals counted (0/1, e.g. declared games); ``num`` is
    the value summed over them (0/1 for a rate, e.g. Schneider, or a number,
    e.g. the bid). ``needs``: columns of the numerator; without them (the
    rule is off) the numerator is 0. ``share``: the ratio is a rate (shown
    in percent).
    """

    name: str
    group: str
    label: str
    num: Callable[[], pl.Expr]
    den: Callable[[], pl.Expr]
    needs: tuple[str, ...] = ()
    share: bool = True


def _col(name: str) -> pl.Expr:
    return pl.col(name)


def _seat_score(seat: str) -> Callable[[], pl.Expr]:
    return lambda: pl.col(f"score_{seat}")


def _list_points(seat: str) -> Callable[[], pl.Expr]:
    return lambda: pl.col(f"list_points_{seat}")


def _ramsch_losses() -> pl.Expr:
    """What the Ramsch losers lose in a deal (the sum of the negative seat scores of a Ramsch; 0 otherwise)."""
    losses = pl.sum_horizontal(pl.min_horizontal(pl.col(f"score_{s}"), pl.lit(0)) for s in SEATS)
    return pl.when(pl.col("game_type") == "ramsch").then(losses).otherwise(0)


def _share(name: str, group: str, label: str, expr: Callable[[], pl.Expr], needs: tuple[str, ...] = ()) -> Metric:
    """A 0/1 metric (its mean is a share of deals); a house rule absent from a variant counts as 0."""
    return Metric(name, group, label, expr, needs, absent=0 if needs else None, share=True)


def _game_type(name: str) -> Callable[[], pl.Expr]:
    return lambda: pl.col("game_type") == name


#: How each game type reads in a table row.
GAME_TYPE_WORDS = {"passed": "all passed (redealt)", "aborted": "aborted", "ramsch": "Ramsch", "reversed": "reversed"}


METRICS: tuple[Metric, ...] = (
    *(Metric(f"score_{s}", "score per seat", f"{s.upper()} score", _seat_score(s), spread=True) for s in SEATS),
    Metric("declarer", "score per role", "declarer's score", lambda: _col("score").fill_null(0), spread=True),
    Metric(
        "ramsch_losers",
        "score per role",
        "Ramsch losers' scores",
        _ramsch_losses,
        ("ramsch_loser",),
        absent=0,
    ),
    _share("played", "outcome", "deals with a declarer", lambda: _col("declarer").is_not_null()),
    _share("won", "outcome", "deals won by the declarer", lambda: _col("won").fill_null(False)),
    _share("overbid", "outcome", "deals lost by overbidding", lambda: _col("overbid").fill_null(False)),
    *(
        _share(f"type_{t}", "game mix", GAME_TYPE_WORDS.get(t, t), _game_type(t))
        for t in GAME_TYPE.categories.to_list()
    ),
    _share("jungfrau", "Ramsch", "Ramsch with a Jungfrau", lambda: _col("jungfrau_count") > 0, ("jungfrau_count",)),
    _share("durchmarsch", "Ramsch", "Durchmarsch", lambda: _col("durchmarsch").cast(pl.Boolean), ("durchmarsch",)),
    _share("bock", "Bock", "deals under Bock", lambda: _col("bock") > 1, ("bock",)),
    *(
        Metric(
            f"list_points_{s}",
            "list points",
            f"{s.upper()} list points",
            _list_points(s),
            (f"list_points_{s}",),
        )
        for s in SEATS
    ),
    Metric(
        "list_points_out",
        "list points",
        "list points of the player sitting out",
        lambda: _col("list_points_out"),
        ("list_points_out",),
        absent=0,  # at a three-player table nobody sits out
    ),
)


def _declared() -> pl.Expr:
    return pl.col("declarer").is_not_null()


def _among_declared(expr: Callable[[], pl.Expr]) -> Callable[[], pl.Expr]:
    return lambda: _declared() & expr().fill_null(False)


def _null_kind(hand: bool, ouvert: bool) -> Callable[[], pl.Expr]:
    return lambda: (pl.col("game_type") == "null") & (pl.col("hand") == hand) & (pl.col("ouvert") == ouvert)


RATIOS: tuple[Ratio, ...] = (
    Ratio("win_rate", "declared games", "declarer wins", _among_declared(lambda: _col("won")), _declared),
    Ratio("hand", "declared games", "hand games", _among_declared(lambda: _col("hand")), _declared),
    Ratio("schneider", "declared games", "Schneider", _among_declared(lambda: _col("schneider")), _declared),
    Ratio("schwarz", "declared games", "Schwarz", _among_declared(lambda: _col("schwarz")), _declared),
    Ratio("null", "declared games", "Null", _among_declared(_null_kind(False, False)), _declared),
    Ratio("null_hand", "declared games", "Null hand", _among_declared(_null_kind(True, False)), _declared),
    Ratio("null_ouvert", "declared games", "Null ouvert", _among_declared(_null_kind(False, True)), _declared),
    Ratio("null_ouvert_hand", "declared games", "Null ouvert hand", _among_declared(_null_kind(True, True)), _declared),
    Ratio(
        "bid",
        "bidding",
        "mean winning bid",
        lambda: pl.when(_declared() & (pl.col("bid") > 0)).then(pl.col("bid")).otherwise(0),
        lambda: _declared() & (pl.col("bid") > 0),
        share=False,
    ),
    Ratio(
        "kontra",
        "Kontra and Re",
        "games with Kontra",
        _among_declared(lambda: _col("kontra_level") >= 1),
        _declared,
        ("kontra_level",),
    ),
    Ratio(
        "re",
        "Kontra and Re",
        "games with Re",
        _among_declared(lambda: _col("kontra_level") >= 2),
        _declared,
        ("kontra_level",),
    ),
)
#: Name prefix of the win rate at one final bid (``win_bid_18``), made for every bid the games reach.
WIN_BID = "win_bid_"


def win_at_bid(bid: int) -> Ratio:
    """The declarer's win rate among declared games with final bid ``bid``."""
    at_bid = lambda: _declared() & (pl.col("bid") == bid)  # noqa: E731
    return Ratio(f"{WIN_BID}{bid}", "win rate by final bid", f"at bid {bid}", lambda: at_bid() & pl.col("won"), at_bid)


def ratio(name: str) -> Ratio:
    """The ratio called ``name``: one of :data:`RATIOS`, or a win rate at a bid (``win_bid_18``)."""
    if name.startswith(WIN_BID):
        return win_at_bid(int(name.removeprefix(WIN_BID)))
    return _RATIO_BY_NAME[name]


_RATIO_BY_NAME = {r.name: r for r in RATIOS}
#: Outcome changes counted deal by deal: name -> (label, columns compared).
CHANGES: dict[str, tuple[str, tuple[str, ...]]] = {
    "declarer": ("another declarer (or none)", ("declarer",)),
    "game_type": ("another game type", ("game_type",)),
    "bid": ("another final bid", ("bid",)),
    "won": ("another result (won/lost)", ("won",)),
    "score": ("another score for some seat", ("score_fh", "score_mh", "score_rh")),
}


@dataclass
class Aggregate:
    """Sufficient statistics of a paired set of deals; ``+`` merges two disjoint sets.

    ``joint``: per :class:`Metric`, the joint histogram of its values (pair
    keys and counts); ``ratios``: per :class:`Ratio`, the sums ``S`` (4) and
    cross products ``Q`` (4 x 4) of (numerator A, denominator A, numerator B,
    denominator B) over the deals; ``changed``: deals whose outcome changed.
    """

    n: int = 0
    joint: dict[str, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)
    changed: dict[str, int] = field(default_factory=dict)
    ratios: dict[str, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)

    def __add__(self, other: Aggregate) -> Aggregate:
        joint = dict(self.joint)
        for name, (keys, counts) in other.joint.items():
            joint[name] = _merge_hist(joint[name], (keys, counts)) if name in joint else (keys, counts)
        changed = {
            k: self.changed.get(k, 0) + other.changed.get(k, 0) for k in self.changed.keys() | other.changed.keys()
        }
        ratios = dict(self.ratios)
        for name, (s, q) in other.ratios.items():
            ratios[name] = (ratios[name][0] + s, ratios[name][1] + q) if name in ratios else (s, q)
        return Aggregate(self.n + other.n, joint, changed, ratios)


def _merge_hist(x: tuple[np.ndarray, np.ndarray], y: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    keys, inverse = np.unique(np.concatenate([x[0], y[0]]), return_inverse=True)
    return keys, np.bincount(inverse, weights=np.concatenate([x[1], y[1]]), minlength=keys.size).astype(np.int64)


def encode_pairs(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Joint histogram of integer pairs ``(a[i], b[i])`` as sorted pair keys and counts."""
    a, b = a.astype(np.int64), b.astype(np.int64)
    if a.size and (max(np.abs(a).max(), np.abs(b).max()) >= OFFSET):
        raise ValueError(f"paired metric values must lie within +-{OFFSET}")
    keys, counts = np.unique((a + OFFSET) * 2**31 + (b + OFFSET), return_counts=True)
    return keys, counts.astype(np.int64)


def decode_pairs(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The ``(a, b)`` values of pair keys made by :func:`encode_pairs`."""
    return keys // 2**31 - OFFSET, keys % 2**31 - OFFSET


def _per_deal(
    frame: pl.DataFrame, metrics: list[Metric], ratios: list[Ratio]
) -> tuple[list[np.ndarray | None], list[tuple[np.ndarray, np.ndarray]]]:
    """Per deal of ``frame``: each metric's values (``absent`` where its columns are missing, ``None`` to
    skip it) and each ratio's numerator and denominator (numerator 0 where its columns are missing), all
    from one ``select``, which polars evaluates together (one call per metric cost more than the sums)."""
    names = set(frame.columns)
    exprs = []
    for i, metric in enumerate(metrics):
        if set(metric.needs) <= names:
            exprs.append(metric.expr().cast(pl.Int64).fill_null(0).alias(f"m{i}"))
    for j, r in enumerate(ratios):
        exprs.append(r.den().fill_null(False).cast(pl.Int64).alias(f"d{j}"))
        if set(r.needs) <= names:
            exprs.append(r.num().cast(pl.Int64).fill_null(0).alias(f"n{j}"))
    values = frame.select(exprs) if exprs else pl.DataFrame()
    got = set(values.columns)

    def column(name: str) -> np.ndarray:
        return values[name].to_numpy()

    per_metric: list[np.ndarray | None] = []
    for i, metric in enumerate(metrics):
        if f"m{i}" in got:
            per_metric.append(column(f"m{i}"))
        elif metric.absent is None:
            per_metric.append(None)
        else:
            per_metric.append(np.full(frame.height, metric.absent, dtype=np.int64))
    zeros = np.zeros(frame.height, dtype=np.int64)
    per_ratio = [(column(f"n{j}") if f"n{j}" in got else zeros, column(f"d{j}")) for j in range(len(ratios))]
    return per_metric, per_ratio


def applicable(metrics: Iterable[Metric], a_columns: Iterable[str], b_columns: Iterable[str]) -> list[Metric]:
    """Metrics whose columns exist in at least one table and that mean something for both."""
    a, b = set(a_columns), set(b_columns)
    out = []
    for m in metrics:
        in_a, in_b = set(m.needs) <= a, set(m.needs) <= b
        if (in_a and in_b) or ((in_a or in_b) and m.absent is not None):
            out.append(m)
    return out


def applicable_ratios(a: pl.DataFrame, b: pl.DataFrame, b_columns: Iterable[str] | None = None) -> list[Ratio]:
    """The ratios of :data:`RATIOS` whose columns exist in one table at least (``b_columns``: B's columns,
    when they are not ``b``'s), and the win rate at every final bid a declared game reached in either."""
    names = set(a.columns) | set(b.columns if b_columns is None else b_columns)
    fixed = [r for r in RATIOS if set(r.needs) <= names]
    reached = [f.filter(_declared() & (pl.col("bid") > 0)).select(pl.col("bid").cast(pl.Int64)) for f in (a, b)]
    return fixed + [win_at_bid(int(bid)) for bid in pl.concat(reached)["bid"].unique().sort()]


def _physical(frame: pl.DataFrame, name: str) -> np.ndarray:
    """Column as integers for equality tests: enums by code, booleans 0/1, nulls -1."""
    col = frame[name]
    if isinstance(col.dtype, pl.Enum | pl.Categorical):
        col = col.to_physical()
    return col.cast(pl.Int64).fill_null(-1).to_numpy()


def join_on_game(a: pl.DataFrame, b: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The deals both frames hold, in ``game_id`` order, as two aligned frames (an inner join on ``game_id``).

    Frames without ``game_id`` are taken as aligned already (row ``i`` is the same deal in both).
    """
    if "game_id" not in a.columns or "game_id" not in b.columns:
        if a.height != b.height:
            raise ValueError(f"paired frames differ in length: {a.height} and {b.height}")
        return a, b
    if a["game_id"].equals(b["game_id"]):
        return a, b
    ids = a.select("game_id").join(b.select("game_id"), on="game_id", how="inner").sort("game_id")
    return (
        ids.join(a, on="game_id", how="left", maintain_order="left"),
        ids.join(b, on="game_id", how="left", maintain_order="left"),
    )


def aggregate_pair(a: pl.DataFrame, b: pl.DataFrame, metrics: Iterable[Metric] = METRICS) -> Aggregate:
    """Joint histograms, ratio sums and outcome changes of two frames, paired deal by deal on ``game_id``."""
    a, b = join_on_game(a, b)
    return _aggregate(a, b, applicable(metrics, a.columns, b.columns), applicable_ratios(a, b))


def aggregate_single(frame: pl.DataFrame, other_columns: Iterable[str]) -> Aggregate:
    """One run's statistics alone (its values as A and as B), for an unpaired comparison with a run whose
    columns are ``other_columns``: the metrics and ratios of that comparison, a rule absent here counted off."""
    others = list(other_columns)
    metrics = applicable(METRICS, frame.columns, others)
    return _aggregate(frame, frame, metrics, applicable_ratios(frame, frame, others))


def _aggregate(a: pl.DataFrame, b: pl.DataFrame, metrics: list[Metric], ratios: list[Ratio]) -> Aggregate:
    """The aggregate of two aligned frames over the given metrics and ratios."""
    metrics_a, ratios_a = _per_deal(a, metrics, ratios)
    metrics_b, ratios_b = (metrics_a, ratios_a) if b is a else _per_deal(b, metrics, ratios)
    joint = {}
    for metric, va, vb in zip(metrics, metrics_a, metrics_b, strict=True):
        if va is not None and vb is not None:
            joint[metric.name] = encode_pairs(va, vb)
    sums = {}
    for r, in_a, in_b in zip(ratios, ratios_a, ratios_b, strict=True):
        values = np.column_stack([*in_a, *in_b])
        sums[r.name] = (values.sum(axis=0), values.T @ values)
    changed = {}
    any_change = np.zeros(a.height, dtype=bool)
    for name, (_, cols) in CHANGES.items():
        diff = np.zeros(a.height, dtype=bool)
        for col in cols:
            diff |= _physical(a, col) != _physical(b, col)
        changed[name] = int(diff.sum())
        any_change |= diff
    changed["any"] = int(any_change.sum())
    return Aggregate(a.height, joint, changed, sums)


def aggregate_scans(a: GameSlice, b: GameSlice, games: int, step: int = SLICE) -> Aggregate:
    """:func:`aggregate_pair` of two runs' games ``0 .. games - 1``, read ``step`` games at a time.

    Memory stays bounded by the slice, whatever the number of games; only
    deals present in both runs (joined on ``game_id``) count.
    """
    from .sources import collect

    total = Aggregate()
    for first in range(0, games, step):
        last = min(first + step, games) - 1
        fa = collect(a(first, last).sort("game_id"))
        fb = collect(b(first, last).sort("game_id"))
        total = total + aggregate_pair(fa, fb)
    return total


def aggregate_scan_single(run: GameSlice, games: int, other_columns: Iterable[str], step: int = SLICE) -> Aggregate:
    """:func:`aggregate_single` of one run's games ``0 .. games - 1``, read ``step`` games at a time."""
    from .sources import collect

    others = list(other_columns)
    total = Aggregate()
    for first in range(0, games, step):
        part = collect(run(first, min(first + step, games) - 1).sort("game_id"))
        total = total + aggregate_single(part, others)
    return total
