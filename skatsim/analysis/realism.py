"""How much simulated games look like games played by people.

The reference is the published statistics of 17.97 million tournament games played
by people on Skat-Online (as quoted in issues 3 and 13): the share of deals all passed, the
mix of declared games, the declarer's win rates and the Schneider rate, and the four kinds
of Null (share of Null games and declarer's win rate each). Those games were played under
Seeger-Fabian list scoring, so the bots are held to them under ``variants/tournament.yaml``
(``scripts/realism.py``). Each figure carries the tolerance skatsim holds its default bots to:
shares and the Schneider rate within 2 points, win rates within 3 points, Nulls inside 71-79%;
the Null kinds' win rates within 5 points, the shares of Null and Null ouvert within 5 points,
and of the two rare hand kinds between half and twice people's share.
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl


@dataclass(frozen=True)
class Reference:
    """One published figure (percent) and the band simulated games must fall in."""

    name: str
    people: float
    low: float
    high: float
    meaning: str


#: The published figures, in percent.
PEOPLE = (
    Reference("passed", 4.9, 2.9, 6.9, "deals all passed"),
    Reference("grand", 32.2, 30.2, 34.2, "Grand, share of games played"),
    Reference("clubs", 21.1, 19.1, 23.1, "clubs, share of games played"),
    Reference("spades", 16.2, 14.2, 18.2, "spades, share of games played"),
    Reference("hearts", 13.4, 11.4, 15.4, "hearts, share of games played"),
    Reference("diamonds", 10.7, 8.7, 12.7, "diamonds, share of games played"),
    Reference("null", 6.4, 4.4, 8.4, "Null (all kinds), share of games played"),
    Reference("win", 81.6, 78.6, 84.6, "declarer wins, all games"),
    Reference("win_suit", 77.6, 74.6, 80.6, "declarer wins, suit games"),
    Reference("win_grand", 91.4, 88.4, 94.4, "declarer wins, Grand"),
    Reference("win_null", 75.0, 71.0, 79.0, "declarer wins, Null (people: 70.7-78.5 by kind)"),
    Reference("schneider", 23.4, 21.4, 25.4, "Schneider, share of games played"),
    Reference("null_plain", 50.8, 45.8, 55.8, "Null, share of Null games"),
    Reference("null_hand", 1.8, 0.9, 3.6, "Null hand, share of Null games"),
    Reference("null_ouvert", 42.8, 37.8, 47.8, "Null ouvert, share of Null games"),
    Reference("null_ouvert_hand", 4.6, 2.3, 9.2, "Null ouvert hand, share of Null games"),
    Reference("win_null_plain", 70.7, 65.7, 75.7, "declarer wins, Null"),
    Reference("win_null_hand", 65.7, 60.7, 70.7, "declarer wins, Null hand"),
    Reference("win_null_ouvert", 86.9, 81.9, 91.9, "declarer wins, Null ouvert"),
    Reference("win_null_ouvert_hand", 91.1, 86.1, 96.1, "declarer wins, Null ouvert hand"),
)
#: The four kinds of Null: (name, hand, ouvert).
NULL_KINDS = (
    ("null_plain", False, False),
    ("null_hand", True, False),
    ("null_ouvert", False, True),
    ("null_ouvert_hand", True, True),
)
SUITS = ("diamonds", "hearts", "spades", "clubs")


def bot_figures(lf: pl.LazyFrame) -> dict[str, float]:
    """The figures of :data:`PEOPLE` for simulated (or imported) games, in percent."""
    gt = pl.col("game_type").cast(pl.String)
    played = gt != "passed"
    exprs = [
        (1 - played.mean()).alias("passed"),
        *[((gt == name).sum() / played.sum()).alias(name) for name in (*SUITS, "grand", "null")],
        pl.col("won").filter(played).mean().alias("win"),
        pl.col("won").filter(gt.is_in(SUITS)).mean().alias("win_suit"),
        pl.col("won").filter(gt == "grand").mean().alias("win_grand"),
        pl.col("won").filter(gt == "null").mean().alias("win_null"),
        pl.col("schneider").filter(played).mean().alias("schneider"),
    ]
    null = gt == "null"
    for name, hand, ouvert in NULL_KINDS:
        kind = null & (pl.col("hand") == hand) & (pl.col("ouvert") == ouvert)
        exprs.append((kind.sum() / null.sum()).alias(name))
        exprs.append(pl.col("won").filter(kind).mean().alias(f"win_{name}"))
    row = lf.select(exprs).collect().row(0, named=True)
    return {name: 100.0 * float(value or 0.0) for name, value in row.items()}


def realism_table(lf: pl.LazyFrame) -> pl.DataFrame:
    """People's figures beside the simulated ones, with the band and whether it is met."""
    bots = bot_figures(lf)
    return pl.DataFrame(
        {
            "figure": [r.meaning for r in PEOPLE],
            "people": [r.people for r in PEOPLE],
            "bots": [round(bots[r.name], 1) for r in PEOPLE],
            "band": [f"{r.low:g}-{r.high:g}" for r in PEOPLE],
            "within": [r.low <= bots[r.name] <= r.high for r in PEOPLE],
        }
    )


def distance(figures: dict[str, float]) -> float:
    """Sum of squared deviations from people's figures, each in units of half its band."""
    return sum(((figures[r.name] - r.people) / ((r.high - r.low) / 2)) ** 2 for r in PEOPLE)
