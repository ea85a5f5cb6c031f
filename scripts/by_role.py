"""Where a stronger bot's strength lies: the declarer's win rate by who declares and who defends.

    skatsim simulate variants/official.yaml --games 4000 --seed 11 --bots heuristic --out runs/role/hhh
    skatsim simulate variants/official.yaml --games 4000 --seed 11 --bots pimc,heuristic,heuristic --out runs/role/phh
    skatsim simulate variants/official.yaml --games 4000 --seed 11 --bots heuristic,pimc,pimc --out runs/role/hpp
    python scripts/by_role.py runs/role/hhh runs/role/phh runs/role/hpp
    python scripts/by_role.py runs/role/hhh runs/role/phh runs/role/hpp --bid 18

``--bid 18`` compares only the games declared at a final bid of 18: the games of the first bid, where a
stronger defence moves the break-even the bots bid by (docs/bots.md, Break-even).

The runs play the same deals (one seed) with other bots in some seats. Where two runs give a deal the
same declaration (declarer, game, bid, hand) but another declarer's bot or other defenders, the
difference of their results on that deal is the effect of that swap alone: the luck of the cards
cancels. A duel (``skatsim duel``) tells which bot scores more; this tells whether it wins more as
declarer or holds the declarer to less as a defender. Bots that bid alike (``pimc`` bids as
``heuristic``) give every deal the same declaration; for others only the deals they declare alike count,
and their number is printed. Read from each row's ``bot_fh`` .. ``bot_rh`` columns, so runs whose
bots change seats (list variants rotate them) are attributed correctly.

With three runs or more, a last table pools runs 2 to N against run 1 (the same pair of roles met in
several runs adds up). Each table has one Markdown row per game class and pair of roles: the deals
compared, the declarer's win rate in role B, and A - B with its 95% interval (paired, normal
approximation), in percentage points.
"""

from __future__ import annotations

import argparse
import sys
from itertools import combinations

import numpy as np
import polars as pl

from skatsim.analysis.intervals import clt_interval
from skatsim.errors import SkatsimError
from skatsim.run.reader import scan_run

SEATS = ("fh", "mh", "rh")
#: Game classes: their ``game_type`` labels (None: every declared game).
CLASSES: dict[str, tuple[str, ...] | None] = {
    "suit": ("diamonds", "hearts", "spades", "clubs"),
    "Grand": ("grand",),
    "Null": ("null",),
    "all": None,
}
DECLARATION = ("declarer", "game_type", "bid", "hand")


def roles(games: pl.LazyFrame) -> pl.DataFrame:
    """One row per declared game of a run's ``games``: its declaration, whether it was won, and the
    role ``declarer's bot vs defenders' bots`` (the defenders in alphabetical order)."""
    bots = [pl.col(f"bot_{seat}").cast(pl.String) for seat in SEATS]
    seat = pl.col("declarer")

    def after_declarer(offset: int) -> pl.Expr:
        """The bot ``offset`` seats after the declarer's (0: the declarer's own)."""
        return (
            pl.when(seat == 0)
            .then(bots[offset % 3])
            .when(seat == 1)
            .then(bots[(1 + offset) % 3])
            .otherwise(bots[(2 + offset) % 3])
        )

    first, second = after_declarer(1), after_declarer(2)
    defence = pl.concat_str(pl.min_horizontal(first, second), pl.max_horizontal(first, second), separator=" + ")
    return (
        games.filter(seat.is_not_null())
        .select(
            "game_id",
            "declarer",
            pl.col("game_type").cast(pl.String),
            "bid",
            "hand",
            pl.col("won").cast(pl.Int8),
            pl.concat_str(after_declarer(0), defence, separator=" vs ").alias("role"),
        )
        .collect()
    )


def compare(a: pl.DataFrame, b: pl.DataFrame) -> list[tuple[str, str, str, int, float, float, float, float]]:
    """Rows ``(class, role A, role B, deals, B's win rate, A - B, low, high)`` over the deals both runs
    declare alike with other roles, win rates and differences in percentage points."""
    joined = a.join(b, on=["game_id", *DECLARATION], suffix="_b").filter(pl.col("role") != pl.col("role_b"))
    out = []
    for name, types in CLASSES.items():
        part = joined if types is None else joined.filter(pl.col("game_type").is_in(types))
        for (role_a, role_b), group in part.group_by("role", "role_b", maintain_order=True):
            diff = (group["won"] - group["won_b"]).to_numpy().astype(np.float64)
            n = len(diff)
            mean = diff.mean()
            lo, hi = clt_interval(mean, diff.std(ddof=1) if n > 1 else float("nan"), n)
            out.append(
                (
                    name,
                    str(role_a),
                    str(role_b),
                    n,
                    100 * group["won_b"].mean(),
                    100 * mean,
                    100 * lo,
                    100 * hi,
                )
            )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", help="run folders of the same deals (same seed and variant)")
    parser.add_argument("--bid", type=int, help="only the games declared at this final bid (e.g. 18)")
    args = parser.parse_args(argv)
    if len(args.runs) < 2:
        parser.error("give at least two run folders")
    try:
        games = [roles(scan_run(folder)) for folder in args.runs]
        if args.bid is not None:
            games = [g.filter(pl.col("bid") == args.bid) for g in games]
    except (SkatsimError, pl.exceptions.PolarsError, OSError) as exc:
        print(f"by_role: {exc}", file=sys.stderr)
        return 2
    for (i, a), (j, b) in combinations(enumerate(games), 2):
        alike = a.join(b, on=["game_id", *DECLARATION]).height
        declared = max(a.height, b.height)
        print(f"Run {j + 1} against run {i + 1}: {alike:,} of {declared:,} declared games declared alike.\n")
        _table(compare(b, a))
    if len(games) > 2:
        # e.g. hhh against hpp, php and pph: each player declaring against two pimc defenders, pooled
        print(f"Runs 2 to {len(games)} against run 1, pooled (the same roles in several runs add up):\n")
        _table(compare(pl.concat(games[1:]), games[0]))
    return 0


def _table(rows: list[tuple[str, str, str, int, float, float, float, float]]) -> None:
    """Print :func:`compare`'s rows as a Markdown table."""
    print("| class | A | B | deals | B's declarer wins | A - B | 95% interval |")
    print("| --- | --- | --- | ---: | ---: | ---: | --- |")
    for name, role_a, role_b, n, won, diff, lo, hi in rows:
        print(f"| {name} | {role_a} | {role_b} | {n:,} | {won:.1f}% | **{diff:+.1f}** | {lo:+.1f} .. {hi:+.1f} |")
    print()


if __name__ == "__main__":
    sys.exit(main())
