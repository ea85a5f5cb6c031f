"""Statistics tables over games scanned by :func:`skatsim.analysis.scan`, every one with its interval.

Each function takes the lazy frame of :func:`~skatsim.analysis.sources.scan`
(or any frame with the evaluation columns and a ``source`` column) and
returns a polars ``DataFrame`` sorted by its keys. Rates come as ``rate``,
``lo``, ``hi``, ``n`` (Wilson interval); means as ``mean``, ``sd``, ``n``,
``lo``, ``hi`` (CLT interval, or percentile bootstrap with
``method="bootstrap"``); see :mod:`skatsim.analysis.intervals`.

Statistics of house rules (Ramsch, Kontra, Bock) exist only when their
columns do: their functions return ``None`` otherwise, so callers can simply
skip them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
import polars as pl

from .intervals import (
    LEVEL,
    N_BOOT,
    bootstrap_counts,
    clt_exprs,
    mean_aggs,
    moments_from_sums,
    weighted_mean,
    wilson_exprs,
)
from .sources import collect, columns

SEATS = ("fh", "mh", "rh")
#: Seat labels in table rows: forehand, middlehand, rearhand.
SEAT_LABELS = ("FH", "MH", "RH")
#: Deals in a tournament list (Seeger-Fabian: 36 deals at a three-player table).
LIST_LENGTH = 36

Method = Literal["clt", "bootstrap"]
#: Kontra levels reached (``kontra_level`` >= 1, 2, 3), in order.
CALLS = pl.Enum(["kontra", "re", "beyond re"])


def keys_for(by: str | Sequence[str]) -> list[str]:
    """Group keys: ``source`` first, then ``by`` (a name or names)."""
    names = [by] if isinstance(by, str) else list(by)
    return ["source", *[name for name in names if name != "source"]]


def declared() -> pl.Expr:
    """Deals with a declarer (a game was played: not passed, aborted or Ramsch)."""
    return pl.col("declarer").is_not_null()


def with_derived(lf: pl.LazyFrame) -> pl.LazyFrame:
    """Add ``declarer_seat`` (FH/MH/RH) and ``declarer_bot`` (the bot, or ``people``, who declared)."""
    seat = pl.col("declarer")
    bot = pl.when(seat == 0).then(pl.col("bot_fh")).when(seat == 1).then(pl.col("bot_mh"))
    bot = bot.when(seat == 2).then(pl.col("bot_rh"))
    label = pl.col("declarer").replace_strict({0: "FH", 1: "MH", 2: "RH"}, default=None, return_dtype=pl.String)
    return lf.with_columns(label.alias("declarer_seat"), bot.alias("declarer_bot"))


# --------------------------------------------------------------------------- generic builders


def rate_table(
    lf: pl.LazyFrame, success: pl.Expr, keys: Sequence[str], among: pl.Expr | None = None, level: float = LEVEL
) -> pl.DataFrame:
    """Per group of ``keys``: how often ``success`` holds among the rows where ``among`` holds."""
    rows = lf if among is None else lf.filter(among)
    counts = rows.group_by(list(keys)).agg(
        success.fill_null(False).sum().cast(pl.Int64).alias("count"), pl.len().alias("_n")
    )
    out = counts.with_columns(wilson_exprs(pl.col("count"), pl.col("_n"), level)).drop("_n")
    return collect(out.sort(list(keys)))


def share_table(
    lf: pl.LazyFrame, category: str | pl.Expr, keys: Sequence[str], among: pl.Expr | None = None, level: float = LEVEL
) -> pl.DataFrame:
    """Per group of ``keys``: the share of each value of ``category`` (``count``, ``rate``, ``lo``, ``hi``, ``n``)."""
    cat = pl.col(category) if isinstance(category, str) else category
    name = cat.meta.output_name()
    rows = lf if among is None else lf.filter(among)
    counts = rows.group_by([*keys, cat]).agg(pl.len().cast(pl.Int64).alias("count"))
    totals = counts.group_by(list(keys)).agg(pl.col("count").sum().alias("_n"))
    out = counts.join(totals, on=list(keys)).with_columns(wilson_exprs(pl.col("count"), pl.col("_n"), level))
    return collect(out.drop("_n").sort([*keys, name]))


def mean_table(
    lf: pl.LazyFrame,
    value: pl.Expr,
    keys: Sequence[str],
    among: pl.Expr | None = None,
    method: Method = "clt",
    level: float = LEVEL,
    n_boot: int = N_BOOT,
    seed: int = 0,
) -> pl.DataFrame:
    """Per group of ``keys``: ``mean``, ``sd``, ``n``, ``lo``, ``hi`` of ``value`` (nulls ignored).

    ``method="bootstrap"`` replaces the CLT interval by a percentile
    bootstrap of ``n_boot`` resamples, drawn from the group's value counts.
    """
    rows = lf if among is None else lf.filter(among)
    if method == "clt":
        out = rows.group_by(list(keys)).agg(mean_aggs(value)).with_columns(clt_exprs(level))
        return collect(out.sort(list(keys)))
    if method != "bootstrap":
        raise ValueError(f"method must be 'clt' or 'bootstrap', got {method!r}")
    counts = collect(rows.filter(value.is_not_null()).group_by([*keys, value.alias("_v")]).len("_c").sort(keys))
    records = []
    for group, part in counts.group_by(list(keys), maintain_order=True):
        values, weights = part["_v"].to_numpy(), part["_c"].to_numpy()
        n = int(weights.sum())
        mean, lo, hi = bootstrap_counts(values, weights, weighted_mean, n_boot, level, seed)
        _, sd = moments_from_sums(n, float(weights @ values), float(weights @ (values.astype(np.float64) ** 2)))
        records.append({**dict(zip(keys, group, strict=True)), "mean": mean, "sd": sd, "n": n, "lo": lo, "hi": hi})
    schema: dict[str, Any] = {**{k: counts.schema[k] for k in keys}, "mean": pl.Float64, "sd": pl.Float64}
    schema["n"] = pl.Int64
    return pl.DataFrame(records, schema={**schema, "lo": pl.Float64, "hi": pl.Float64}).sort(list(keys))


def _seat_long(lf: pl.LazyFrame, prefix: str, name: str) -> pl.LazyFrame:
    """One row per deal and seat: ``seat`` (FH/MH/RH) and the seat's ``{prefix}{seat}`` as ``name``."""
    parts = [
        lf.with_columns(pl.lit(label).alias("seat"), pl.col(f"{prefix}{seat}").alias(name))
        for seat, label in zip(SEATS, SEAT_LABELS, strict=True)
    ]
    return pl.concat(parts, how="vertical_relaxed")


# --------------------------------------------------------------------------- game mix, bids, wins


def game_mix(lf: pl.LazyFrame, played_only: bool = False, level: float = LEVEL) -> pl.DataFrame:
    """Share of each ``game_type`` per source: among all deals, or among declared games with ``played_only``."""
    return share_table(lf, "game_type", ["source"], among=declared() if played_only else None, level=level)


def win_rates(lf: pl.LazyFrame, by: str | Sequence[str] = "game_type", level: float = LEVEL) -> pl.DataFrame:
    """Declarer win rate per source and ``by`` (``game_type``, ``declarer_seat``, ``declarer_bot``, ``bid``, ...)."""
    return rate_table(with_derived(lf), pl.col("won"), keys_for(by), among=pl.col("won").is_not_null(), level=level)


def overbid_rate(lf: pl.LazyFrame, by: str | Sequence[str] = (), level: float = LEVEL) -> pl.DataFrame:
    """Share of declared games lost by overbidding (game value below the bid), per source and ``by``."""
    return rate_table(with_derived(lf), pl.col("overbid"), keys_for(by), among=declared(), level=level)


def bid_distribution(lf: pl.LazyFrame, level: float = LEVEL) -> pl.DataFrame:
    """Share of each final ``bid`` among declared games, per source."""
    return share_table(lf, "bid", ["source"], among=declared(), level=level)


def max_bid_distribution(lf: pl.LazyFrame, level: float = LEVEL) -> pl.DataFrame | None:
    """Share of deals in which each seat's highest bid or hold was ``max_bid`` (0: never bid), per source and seat.

    ``None`` when no source records the bids reached (ISS imports do not).
    """
    if not {f"max_bid_{s}" for s in SEATS} <= columns(lf):
        return None
    long = _seat_long(lf, "max_bid_", "max_bid").filter(pl.col("max_bid").is_not_null())
    return share_table(long, "max_bid", ["source", "seat"], level=level)


def bid_reached(lf: pl.LazyFrame, level: float = LEVEL) -> pl.DataFrame | None:
    """Per source, seat and bid value ``b``: share of deals in which the seat bid or held at least ``b``."""
    dist = max_bid_distribution(lf, level)
    if dist is None:
        return None
    dist = dist.sort(["source", "seat", "max_bid"], descending=[False, False, True])
    at_least = pl.col("count").cum_sum().over(["source", "seat"])
    out = dist.with_columns(at_least.alias("count")).filter(pl.col("max_bid") > 0)
    out = out.with_columns(wilson_exprs(pl.col("count"), pl.col("n"), level))
    return out.rename({"max_bid": "bid"}).sort(["source", "seat", "bid"])


# --------------------------------------------------------------------------- values and scores


def hand_values(
    lf: pl.LazyFrame, measure: str = "game_value", method: Method = "clt", level: float = LEVEL
) -> pl.DataFrame:
    """What declared hands were worth: mean ``measure`` (``game_value`` or ``score``) per source and game type."""
    return mean_table(lf, pl.col(measure), ["source", "game_type"], among=declared(), method=method, level=level)


def hand_value_distribution(lf: pl.LazyFrame, measure: str = "game_value", level: float = LEVEL) -> pl.DataFrame:
    """Share of each value of ``measure`` (``game_value`` or ``score``) per source and declared game type."""
    return share_table(lf, measure, ["source", "game_type"], among=declared(), level=level)


def seat_scores(lf: pl.LazyFrame, method: Method = "clt", level: float = LEVEL) -> pl.DataFrame:
    """Expected score per deal of each seat (FH, MH, RH), per source."""
    return mean_table(
        _seat_long(lf, "score_", "points"), pl.col("points"), ["source", "seat"], method=method, level=level
    )


def role_scores(lf: pl.LazyFrame, method: Method = "clt", level: float = LEVEL) -> pl.DataFrame:
    """Mean score per game of each role that scores, per source: the declarer per declared game, and
    where Ramsch is played the Ramsch losers together per Ramsch (the negative seat scores of the deal).

    Defenders score nothing in a declared game (their loss is the declarer's
    win), so they have no row.
    """
    base = lf.filter(declared())
    parts = [base.with_columns(pl.lit("declarer").alias("role"), pl.col("score").cast(pl.Int64).alias("points"))]
    if collect(lf.select((pl.col("game_type") == "ramsch").any())).item():
        losses = pl.sum_horizontal(pl.min_horizontal(pl.col(f"score_{s}"), pl.lit(0)) for s in SEATS)
        ramsch = lf.filter(pl.col("game_type") == "ramsch")
        parts.append(ramsch.with_columns(pl.lit("Ramsch losers").alias("role"), losses.cast(pl.Int64).alias("points")))
    return mean_table(
        pl.concat(parts, how="vertical_relaxed"), pl.col("points"), ["source", "role"], method=method, level=level
    )


def list_totals(lf: pl.LazyFrame) -> pl.DataFrame:
    """Each player's total over each list, per source: ``source``, ``list``, ``player``, ``deals``, ``measure``,
    ``total``.

    A list is ``list_id`` in a run that plays lists (Bock, tournament scoring, a
    four-player table; a last list the run stopped inside dropped), and a block of 36
    consecutive ``game_id`` in other runs (incomplete blocks dropped). Either way the
    deal passes round the table as in a real list, so ``player`` reads ``player 0`` .. ``player 2`` (``player 3`` at a
    four-player table, whose runs have ``bot_out``) and every total is a player's,
    never a seat's (nobody sits in forehand for a whole list). In a list the seats'
    players follow the ``dealer`` (at a table of ``n`` players seat ``s`` is player
    ``(dealer + 1 + s) % n``, and at four the dealer sits out and gets
    ``list_points_out``; docs/schema.md); a table without ``dealer`` is read by
    ``deal_in_list`` (player ``(s + k) % 3`` at seat ``s`` in deal ``k``), and so are
    the blocks of runs without lists, whose deals are independent, so their blocks are
    lists as such a table would play them. The points summed are ``list_points_*`` in
    a run that keeps them (tournament scoring), else ``score_*``; each source is read
    on its own terms, so runs with and without lists, of three or four players, mix.
    """
    names = columns(lf)
    block, position = pl.col("game_id") // LIST_LENGTH, pl.col("game_id") % LIST_LENGTH
    if "list_id" in names:
        list_key = pl.coalesce(pl.col("list_id"), block)
        k = pl.coalesce(pl.col("deal_in_list").cast(pl.Int64), position) if "deal_in_list" in names else position
        listed = pl.col("list_id").is_not_null()
    else:
        list_key, k, listed = block, position, pl.lit(False)
    four = pl.col("bot_out").is_not_null() if "bot_out" in names else pl.lit(False)
    players = pl.when(four).then(4).otherwise(3)
    by_dealer = listed & pl.col("dealer").is_not_null() if "dealer" in names else pl.lit(False)
    dealer = pl.col("dealer").cast(pl.Int64) if "dealer" in names else pl.lit(0, pl.Int64)
    has_list_points = {f"list_points_{s}" for s in SEATS} <= names
    seat_points = []
    for seat in SEATS:
        points = pl.col(f"score_{seat}")
        if has_list_points:
            points = pl.coalesce(pl.col(f"list_points_{seat}"), points)
        seat_points.append(points.fill_null(0))
    out_points = pl.col("list_points_out").fill_null(0) if "list_points_out" in names else pl.lit(0)
    lf = lf.with_columns(
        list_key.alias("list"),
        *(pl.when(by_dealer).then((dealer + 1 + s) % players).otherwise((s + k) % 3).alias(f"_p{s}") for s in range(3)),
        pl.when(by_dealer & four).then(dealer).otherwise(-1).alias("_out"),
        players.alias("_players"),
        listed.alias("_listed"),
    )
    totals = [
        (
            pl.sum_horizontal(
                pl.when(pl.col(f"_p{s}") == player).then(points).otherwise(0) for s, points in enumerate(seat_points)
            )
            + pl.when(pl.col("_out") == player).then(out_points).otherwise(0)
        )
        .sum()
        .alias(f"player {player}")
        for player in range(4)
    ]
    measure = pl.col("list_points_fh").is_not_null().any() if has_list_points else pl.lit(False)
    grouped = lf.group_by(["source", "list"]).agg(
        *totals,
        pl.len().alias("deals"),
        measure.alias("_lp"),
        pl.col("_listed").any().alias("_listed"),
        pl.col("_players").max().alias("_players"),
    )
    # a run that stops inside a list (its games not a multiple of the list length) leaves that list short:
    # its totals are not a list's, so only lists as long as the source's longest count
    whole = pl.col("deals") == pl.col("deals").max().over("source", "_listed")
    grouped = grouped.filter(pl.when(pl.col("_listed")).then(whole).otherwise(pl.col("deals") == LIST_LENGTH))
    index = ["source", "list", "deals", "_lp", "_players"]
    long = grouped.unpivot([f"player {p}" for p in range(4)], index=index, variable_name="player", value_name="total")
    long = long.filter(pl.col("player").str.slice(7).cast(pl.Int64) < pl.col("_players"))
    kind = pl.when(pl.col("_lp")).then(pl.lit("list_points")).otherwise(pl.lit("score"))
    out = long.with_columns(kind.alias("measure")).select("source", "list", "player", "deals", "measure", "total")
    return collect(out.sort(["source", "list", "player"]))


def list_scores(lf: pl.LazyFrame, method: Method = "clt", level: float = LEVEL) -> pl.DataFrame:
    """Expected total of each player over a list (see :func:`list_totals`), with its spread ``sd``."""
    totals = list_totals(lf).lazy()
    return mean_table(totals, pl.col("total"), ["source", "player", "measure"], method=method, level=level)


def list_lengths(lf: pl.LazyFrame) -> dict[str, int]:
    """Deals per list of each source (its lists' most common length): 36 for runs without lists."""
    totals = list_totals(lf)
    if totals.is_empty():
        return {}
    common = totals.group_by("source").agg(pl.col("deals").mode().first())
    return {str(source): int(deals) for source, deals in common.iter_rows()}


def headline_rates(lf: pl.LazyFrame, level: float = LEVEL) -> pl.DataFrame:
    """The figures a reader looks for first, per source: long table ``figure``, ``unit``, ``source``,
    ``value``, ``lo``, ``hi``, ``n`` (rates as fractions with Wilson intervals, means with CLT ones).

    All passed (and Ramsch) among all deals; the declarer's win rate, the mix
    (Grand, suit games, Null, and the reversed game where played), hand games, Schneider and Schwarz among declared
    games (and Kontra where a run has it); the mean winning bid and the
    declarer's mean score per declared game.
    """
    names = columns(lf)
    gt = pl.col("game_type")
    played = declared()
    figures: list[tuple[str, str, pl.Expr, pl.Expr | None]] = [
        ("all passed", "% of deals", gt == "passed", None),
    ]
    has_ramsch, has_reversed = collect(lf.select((gt == "ramsch").any(), (gt == "reversed").any().alias("r"))).row(0)
    if has_ramsch:
        figures.append(("Ramsch", "% of deals", gt == "ramsch", None))
    figures += [
        ("declarer wins", "% of declared games", pl.col("won"), played),
        ("Grand", "% of declared games", gt == "grand", played),
        ("suit games", "% of declared games", gt.is_in(["diamonds", "hearts", "spades", "clubs"]), played),
        ("Null (all kinds)", "% of declared games", gt == "null", played),
    ]
    if has_reversed:  # Saechsische Spitze: the mix is whole with it
        figures.append(("reversed game", "% of declared games", gt == "reversed", played))
    figures += [
        ("hand games", "% of declared games", pl.col("hand"), played),
        ("Schneider", "% of declared games", pl.col("schneider"), played),
        ("Schwarz", "% of declared games", pl.col("schwarz"), played),
    ]
    if "kontra_level" in names:
        figures.append(("Kontra", "% of declared games", pl.col("kontra_level").fill_null(0) >= 1, played))
    parts = []
    for name, unit, success, among in figures:
        frame = rate_table(lf, success, ["source"], among=among, level=level)
        parts.append(
            frame.select("source", pl.col("rate").alias("value"), "lo", "hi", "n").with_columns(
                pl.lit(name).alias("figure"), pl.lit(unit).alias("unit")
            )
        )
    means = [
        ("mean winning bid", "bid value", pl.col("bid"), played & (pl.col("bid") > 0)),
        ("declarer's score", "points per declared game", pl.col("score"), played),
    ]
    for name, unit, value, among in means:
        frame = mean_table(lf, value, ["source"], among=among, level=level)
        parts.append(
            frame.select("source", pl.col("mean").alias("value"), "lo", "hi", "n").with_columns(
                pl.lit(name).alias("figure"), pl.lit(unit).alias("unit")
            )
        )
    out = pl.concat(parts, how="vertical_relaxed")
    return out.select("figure", "unit", "source", "value", "lo", "hi", "n")


def bid_shares(lf: pl.LazyFrame, min_share: float = 0.002, level: float = LEVEL) -> pl.DataFrame:
    """Share of declared games per final bid, per source, every bid accounted for: bids reaching
    ``min_share`` in some source have their own row (``bid`` as text, in order), the others are summed
    into one ``rest`` row (with the bids it holds in ``holds``)."""
    dist = bid_distribution(lf, level)
    common = dist.group_by("bid").agg(pl.col("rate").max()).filter(pl.col("rate") >= min_share)["bid"]
    shown = dist.filter(pl.col("bid").is_in(common.implode()))
    rest = dist.filter(~pl.col("bid").is_in(common.implode()))
    out = shown.sort("source", "bid").select(
        "source", pl.col("bid").cast(pl.String), "count", "n", pl.lit(None, pl.String).alias("holds")
    )
    if rest.height:
        totals = dist.group_by("source").agg(pl.col("n").first())
        lumped = rest.group_by("source").agg(
            pl.col("count").sum(), pl.col("bid").sort().cast(pl.String).str.join(", ").alias("holds")
        )
        lumped = totals.join(lumped, on="source", how="left").with_columns(
            pl.lit("rest").alias("bid"), pl.col("count").fill_null(0)
        )
        out = pl.concat([out, lumped.select(out.columns)], how="vertical_relaxed")
    out = out.with_columns(wilson_exprs(pl.col("count"), pl.col("n"), level))
    return out.select("source", "bid", "count", "rate", "lo", "hi", "n", "holds")


# --------------------------------------------------------------------------- house rules


def ramsch_stats(lf: pl.LazyFrame, level: float = LEVEL) -> dict[str, pl.DataFrame] | None:
    """Ramsch: share of deals, loser seat, each seat's mean score per Ramsch, Jungfrau/Durchmarsch/pushes.

    ``None`` unless the games have a ``ramsch_loser`` column.
    """
    names = columns(lf)
    if "ramsch_loser" not in names:
        return None
    is_ramsch = pl.col("game_type") == "ramsch"
    ramsch = lf.filter(is_ramsch)
    seat = pl.col("ramsch_loser").replace_strict({0: "FH", 1: "MH", 2: "RH"}, default=None, return_dtype=pl.String)
    out = {
        "share": rate_table(lf, is_ramsch, ["source"], level=level),
        "loser": share_table(
            ramsch.filter(pl.col("ramsch_loser").is_not_null()), seat.alias("loser"), ["source"], level=level
        ),
        "seat_score": mean_table(
            _seat_long(ramsch, "score_", "points"), pl.col("points"), ["source", "seat"], level=level
        ),
    }
    if "jungfrau_count" in names:
        out["jungfrau"] = rate_table(ramsch, pl.col("jungfrau_count") > 0, ["source"], level=level)
    if "durchmarsch" in names:
        out["durchmarsch"] = rate_table(ramsch, pl.col("durchmarsch").cast(pl.Boolean), ["source"], level=level)
    if "schiebe_count" in names:
        out["pushes"] = mean_table(ramsch, pl.col("schiebe_count"), ["source"], level=level)
    return out


def kontra_stats(lf: pl.LazyFrame, level: float = LEVEL) -> dict[str, pl.DataFrame] | None:
    """Kontra/Re: how often each level is reached, the declarer's win rate and mean score per level.

    ``None`` unless the games have a ``kontra_level`` column (0 none, 1 Kontra, 2 Re, 3 beyond).
    """
    if "kontra_level" not in columns(lf):
        return None
    played = lf.filter(declared())
    level_col = pl.col("kontra_level").fill_null(0)
    parts = [
        played.with_columns(pl.lit(name, CALLS).alias("call"), (level_col >= k).alias("_hit"))
        for k, name in enumerate(CALLS.categories, start=1)
    ]
    calls = rate_table(pl.concat(parts, how="vertical_relaxed"), pl.col("_hit"), ["source", "call"], level=level)
    return {
        "calls": calls,
        "win_rate": rate_table(
            played.with_columns(level_col.alias("kontra_level")), pl.col("won"), ["source", "kontra_level"], level=level
        ),
        "score": mean_table(
            played.with_columns(level_col.alias("kontra_level")),
            pl.col("score"),
            ["source", "kontra_level"],
            level=level,
        ),
    }


def bock_stats(lf: pl.LazyFrame, level: float = LEVEL) -> dict[str, pl.DataFrame] | None:
    """Bock rounds: share of deals played under Bock, the multipliers seen, mean |score| with and without.

    ``None`` unless the games have a ``bock`` column (the score multiplier, 1 outside Bock).
    """
    if "bock" not in columns(lf):
        return None
    multiplier = pl.col("bock").cast(pl.Int64).fill_null(1)
    in_bock = (multiplier > 1).alias("in_bock")
    return {
        "share": rate_table(lf, multiplier > 1, ["source"], level=level),
        "multiplier": share_table(lf.with_columns(multiplier.alias("bock")), "bock", ["source"], level=level),
        "abs_score": mean_table(
            lf.filter(declared()).with_columns(in_bock), pl.col("score").abs(), ["source", "in_bock"], level=level
        ),
    }
