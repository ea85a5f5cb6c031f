"""Print how the default bots' games compare with games played by people.

    python scripts/realism.py --games 1000000

The people's figures (Skat-Online, 17.97 million games) come from tournaments played under
Seeger-Fabian list scoring, so the games are simulated under ``variants/tournament.yaml``
(``--variant``) with the default bots, in this process on one core, and a Markdown table of
:data:`skatsim.analysis.realism.PEOPLE` is printed beside the simulated figures: the shares of
the game mix, the declarer's win rates, Schneider, and the four kinds of Null.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from skatsim.analysis.realism import realism_table
from skatsim.bots import DEFAULT_BOTS, parse_bots
from skatsim.run.chunks import simulate_frame
from skatsim.variant import load_variant

TOURNAMENT = str(Path(__file__).resolve().parents[1] / "variants" / "tournament.yaml")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--bots", default=DEFAULT_BOTS)
    parser.add_argument("--variant", default=TOURNAMENT)
    args = parser.parse_args()
    seats = parse_bots(args.bots)
    variant = load_variant(args.variant).variant
    frame = simulate_frame(args.seed, 0, args.games, variant.params(), seats, variant.name)
    table = realism_table(frame.lazy())
    print(f"{args.games:,} games, variant {variant.name}, bots {','.join(seats)}, seed {args.seed}\n")
    print("| figure | people | bots | band | within |")
    print("| --- | ---: | ---: | --- | --- |")
    for row in table.iter_rows(named=True):
        within = "yes" if row["within"] else "no"
        print(f"| {row['figure']} | {row['people']:.1f} | {row['bots']:.1f} | {row['band']} | {within} |")
    print(f"\n{int(table['within'].sum())} of {table.height} figures inside their bands")


if __name__ == "__main__":
    main()
