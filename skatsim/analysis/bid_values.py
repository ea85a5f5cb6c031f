"""Bid-value tables: what the hands dealt were worth in the auction, and what the winning bids brought.

:func:`bid_values` reads a run or an ISS import (or a frame of either from
:func:`~skatsim.analysis.sources.scan`) and returns :class:`BidValues`:

* ``hand_values``: per source and seat, the distribution of the seat's *hand bidding value*:
  the highest bid its best playable game covers, i.e. how high the default bot would bid
  with the ten cards dealt (:func:`skatsim.bots.seam.bid_limit`: the highest value of a game,
  with the skat or hand, whose expected score under the variant beats passing; 0: no game
  worth bidding). The same yardstick for every
  source, bots and people alike, so the hands can be compared;
* ``winning_bids``: per source, the distribution of the final bids of declared games;
* ``by_bid`` and ``by_seat``: per source and winning bid value, and per source and the
  declarer's seat: the games, the declarer's win rate, his mean score and the share of
  games in which Schneider was reached.

Every rate carries a Wilson interval, every mean a CLT interval
(:mod:`skatsim.analysis.intervals`). No value is dropped: values that reach ``min_share``
of their group in no source keep their own row, the others are summed into one ``rest``
row whose ``holds`` column lists them.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import polars as pl

from ..engine.cards import iss_name
from ..threads import in_spans
from .intervals import LEVEL, clt_exprs, mean_aggs, wilson_exprs
from .sources import Source, collect, columns, find_sources, scan_sources
from .tables import SEAT_LABELS, declared

#: Values below this share of their group in every source go to the ``rest`` row.
MIN_SHARE = 0.002
#: Deals from which :func:`hand_bid_values` spreads its work over the cores (fewer take milliseconds).
PARALLEL_FROM = 50_000
#: Deals whose hand values are held at once while they are counted (:func:`_counts_by_seat`): 24 MB.
COUNT_BLOCK = 1 << 20
_CARD_CODES = {iss_name(c): c for c in range(32)}


@dataclass(frozen=True)
class BidValues:
    """The tables of :func:`bid_values` (see the module docstring)."""

    hand_values: pl.DataFrame
    winning_bids: pl.DataFrame
    by_bid: pl.DataFrame
    by_seat: pl.DataFrame


# --------------------------------------------------------------------------- hand bidding values


def _hands_from_deals(deals: np.ndarray) -> np.ndarray:
    """FH, MH, RH's dealt hands from packed deals (the ``deal`` column;
    :func:`skatsim.engine.deal.pack_deal`), a whole column at once by the engine's own unpacking."""
    from ..engine.deal import unpack_hands

    hands = np.empty((deals.size, 3), dtype=np.uint32)
    unpack_hands(np.ascontiguousarray(deals, dtype=np.int64), hands)
    return hands


def _hands_from_records(records: pl.Series) -> np.ndarray:
    """FH, MH, RH's dealt hands from game records (JSON: ``deal`` lists FH's ten, MH's, RH's, the skat)."""
    deal = records.str.json_decode(pl.Struct({"deal": pl.List(pl.String)})).struct.field("deal")
    codes = deal.list.eval(pl.element().replace_strict(_CARD_CODES, return_dtype=pl.Int64))
    cards = codes.list.to_array(32).to_numpy().astype(np.uint64)  # (n, 32): FH's ten, MH's, RH's, the skat
    bits = np.uint64(1) << cards
    hands = np.stack([np.bitwise_or.reduce(bits[:, 10 * s : 10 * s + 10], axis=1) for s in range(3)], axis=1)
    return hands.astype(np.uint32)


def hand_bid_values(hands: np.ndarray, params: np.ndarray | None = None, jobs: int | None = None) -> np.ndarray:
    """``(n, 3)`` hand bidding values of the dealt hands ``hands`` (``(n, 3)`` masks) by the default bot
    under the variant ``params`` (official by default: it decides whether the reversed game counts).

    Millions of deals are split over ``jobs`` threads (default: the cores, from ``PARALLEL_FROM`` deals
    on): the kernel releases the GIL and works in a state of its own, and each hand's value depends on
    its cards alone, so the split changes no value."""
    from ..bots import DEFAULT_BOTS, bot_arrays, parse_bots, seam
    from ..variant import official_params
    from ..whatif.kernels import bid_limits

    params = official_params() if params is None else params
    kinds, bot_params = bot_arrays(parse_bots(DEFAULT_BOTS), params)
    hands = np.ascontiguousarray(hands, dtype=np.uint32)
    out = np.zeros(hands.shape, dtype=np.int64)
    prepared = seam.prepare(kinds, bot_params, params)
    n = hands.shape[0]
    if jobs is None:
        jobs = (os.cpu_count() or 1) if n >= PARALLEL_FROM else 1

    def part(lo: int, hi: int) -> None:
        bid_limits(params, kinds, prepared, hands[lo:hi], out[lo:hi])

    in_spans(n, jobs, part, "skatsim-hand-values")
    return out


def _known_hands(part: pl.DataFrame) -> np.ndarray:
    """FH, MH, RH's dealt hands of a source's games from the ``deal`` column where it holds one, else from the
    ``record``; 0 for a hand neither tells (an imported game without its cards)."""
    hands = np.zeros((part.height, 3), dtype=np.uint32)
    if "deal" in part.columns:
        known = part["deal"].is_not_null().to_numpy()
        if known.any():
            hands[known] = _hands_from_deals(part["deal"].filter(part["deal"].is_not_null()).to_numpy())
    else:
        known = np.zeros(part.height, dtype=bool)
    if "record" in part.columns:
        missing = ~known & part["record"].is_not_null().to_numpy()
        if missing.any():
            hands[missing] = _hands_from_records(part["record"].filter(pl.Series(missing)))
    return hands


def _counts_by_seat(blocks: Iterable[np.ndarray], params: np.ndarray | None, every: bool) -> list[np.ndarray]:
    """Per seat, how many of the hands in ``blocks`` (``(n, 3)`` masks, ``COUNT_BLOCK`` deals or fewer each)
    have each hand value (``bincount``: hand values are bid values, small integers); unless ``every`` hand is
    known, the zero masks (cards the source does not hold) are left out."""
    per_seat = [np.zeros(0, dtype=np.int64) for _ in SEAT_LABELS]
    for hands in blocks:
        values = hand_bid_values(hands, params)
        for s in range(len(SEAT_LABELS)):
            counts = np.bincount(values[:, s] if every else values[hands[:, s] != 0, s])
            if counts.size > per_seat[s].size:
                counts[: per_seat[s].size] += per_seat[s]
                per_seat[s] = counts
            else:
                per_seat[s][: counts.size] += counts
    return per_seat


def _seat_counts(lf: pl.LazyFrame, params: dict[str, np.ndarray]) -> pl.DataFrame:
    """Per source, seat and hand value: how many dealt hands had it (``count``); hands whose cards the
    source does not hold are left out. Counted per seat from the compiled values, one row per value, a block
    of deals at a time (:func:`_counts_by_seat`): a run of millions of deals needs no more memory than its
    ``deal`` column. A game record is read only where a source's ``deal`` is missing."""
    names = columns(lf)
    kinds = collect(lf.select(pl.col("source").unique(maintain_order=True)))["source"]
    parts = []
    for source in kinds:  # one source's deals in memory at a time
        games = lf.filter(pl.col("source") == source)
        deal = collect(games.select("deal"))["deal"] if "deal" in names else None
        if deal is not None and deal.null_count() == 0:  # a run's: every deal known
            every, deals = True, deal.to_numpy()
            blocks = (_hands_from_deals(deals[lo : lo + COUNT_BLOCK]) for lo in range(0, deals.size, COUNT_BLOCK))
        else:
            every, hands = False, _known_hands(collect(games.select([c for c in ("deal", "record") if c in names])))
            blocks = (hands[lo : lo + COUNT_BLOCK] for lo in range(0, hands.shape[0], COUNT_BLOCK))
        for label, counts in zip(SEAT_LABELS, _counts_by_seat(blocks, params.get(str(source)), every), strict=True):
            value = np.flatnonzero(counts)
            parts.append(
                pl.DataFrame(
                    {
                        "source": pl.Series([source] * value.size, dtype=kinds.dtype),
                        "seat": [label] * value.size,
                        "hand_value": value.astype(np.int64),
                        "count": counts[value].astype(np.int64),
                    }
                )
            )
    schema = {"source": kinds.dtype, "seat": pl.String(), "hand_value": pl.Int64(), "count": pl.Int64()}
    return pl.concat(parts) if parts else pl.DataFrame(schema=schema)


# --------------------------------------------------------------------------- rest rows


def _lumped(counts: pl.DataFrame, keys: list[str], value: str, min_share: float, level: float) -> pl.DataFrame:
    """Shares of ``value`` per group of ``keys`` with rare values summed into a ``rest`` row (``holds``)."""
    totals = counts.group_by(keys).agg(pl.col("count").sum().alias("n"))
    shares = counts.join(totals, on=keys).with_columns((pl.col("count") / pl.col("n")).alias("_share"))
    common = shares.group_by(value).agg(pl.col("_share").max()).filter(pl.col("_share") >= min_share)[value]
    shown = shares.filter(pl.col(value).is_in(common.implode()))
    out = shown.sort([*keys, value]).select(
        *keys, pl.col(value).cast(pl.String), "count", "n", pl.lit(None, pl.String).alias("holds")
    )
    rest = shares.filter(~pl.col(value).is_in(common.implode()))
    if rest.height:
        lumped = rest.group_by(keys).agg(
            pl.col("count").sum(), pl.col(value).sort().cast(pl.String).str.join(", ").alias("holds")
        )
        lumped = totals.join(lumped, on=keys, how="left").with_columns(
            pl.lit("rest").alias(value), pl.col("count").fill_null(0)
        )
        out = pl.concat([out, lumped.select(out.columns)], how="vertical_relaxed").sort(keys, maintain_order=True)
    out = out.with_columns(wilson_exprs(pl.col("count"), pl.col("n"), level))
    return out.select(*keys, value, "count", "rate", "lo", "hi", "n", "holds")


def _outcomes(games: pl.LazyFrame, keys: list[str], level: float) -> pl.DataFrame:
    """Per group: games, the declarer's win rate, mean score and Schneider share, each with its interval."""
    rates = games.group_by(keys).agg(
        pl.len().cast(pl.Int64).alias("games"),
        pl.col("won").fill_null(False).sum().cast(pl.Int64).alias("_won"),
        pl.col("schneider").fill_null(False).sum().cast(pl.Int64).alias("_schneider"),
    )
    rates = rates.with_columns(
        [e.name.prefix("win_") for e in wilson_exprs(pl.col("_won"), pl.col("games"), level)[:3]]
        + [e.name.prefix("schneider_") for e in wilson_exprs(pl.col("_schneider"), pl.col("games"), level)[:3]]
    )
    scores = games.group_by(keys).agg(mean_aggs(pl.col("score").cast(pl.Float64))).with_columns(clt_exprs(level))
    scores = scores.select(
        *keys, pl.col("mean").alias("score_mean"), pl.col("lo").alias("score_lo"), pl.col("hi").alias("score_hi")
    )
    out = rates.join(scores, on=keys).sort(keys).drop("_won", "_schneider")
    return collect(out)


def _bid_key(lf: pl.LazyFrame, common: list[int]) -> pl.LazyFrame:
    """The winning bid as text, ``rest`` for the bids outside ``common``."""
    text = pl.when(pl.col("bid").is_in(common)).then(pl.col("bid").cast(pl.String)).otherwise(pl.lit("rest"))
    return lf.with_columns(text.alias("bid_key"))


# --------------------------------------------------------------------------- the tables


def bid_values(
    source: str | os.PathLike[str] | Sequence[str | os.PathLike[str]] | pl.LazyFrame,
    level: float = LEVEL,
    min_share: float = MIN_SHARE,
    params: dict[str, np.ndarray] | None = None,
) -> BidValues:
    """Bid-value tables of a run, an ISS import (paths, as for :func:`~skatsim.analysis.sources.scan`) or a
    frame of games with a ``source`` column. Hand bidding values are reckoned under each run's own
    variant (the official rules for imports; for a frame, ``params`` by source name)."""
    params = dict(params or {})
    if isinstance(source, pl.LazyFrame):
        lf = source
    else:
        paths = [source] if isinstance(source, str | os.PathLike) else list(source)
        sources = find_sources(paths)
        lf = scan_sources(sources)
        params.update(source_params(sources))
    hand_values = _lumped(_seat_counts(lf, params), ["source", "seat"], "hand_value", min_share, level)
    games = lf.filter(declared() & (pl.col("bid") > 0))
    bid_counts = collect(games.group_by("source", "bid").agg(pl.len().cast(pl.Int64).alias("count")))
    winning = _lumped(bid_counts, ["source"], "bid", min_share, level)
    common = [int(b) for b in winning["bid"].unique() if b != "rest"]
    by_bid = _outcomes(_bid_key(games, common), ["source", "bid_key"], level).rename({"bid_key": "bid"})
    order = {str(b): i for i, b in enumerate(sorted(common))} | {"rest": len(common)}
    by_bid = by_bid.with_columns(pl.col("bid").replace_strict(order, return_dtype=pl.Int64).alias("_o")).sort(
        "source", "_o"
    )
    holds = winning.filter(pl.col("bid") == "rest").select("source", "holds")
    by_bid = by_bid.join(holds.with_columns(pl.lit("rest").alias("bid")), on=["source", "bid"], how="left").drop("_o")
    seat = pl.col("declarer").replace_strict({0: "FH", 1: "MH", 2: "RH"}, default=None, return_dtype=pl.String)
    by_seat = _outcomes(games.with_columns(seat.alias("seat")), ["source", "seat"], level)
    return BidValues(hand_values, winning, by_bid, by_seat)


def source_params(sources: Sequence[Source]) -> dict[str, np.ndarray]:
    """Each run's compiled variant by source name (from its manifest; imports have none)."""
    out = {}
    for s in sources:
        if s.manifest is not None and s.manifest.params is not None:
            out[s.name] = np.array(s.manifest.params, dtype=np.int64)
    return out
