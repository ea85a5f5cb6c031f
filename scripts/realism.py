"""Print how the default bots' games compare with games played by people.

    python scripts/realism.py --games 1000000

The people's figures (Skat-Online, 17.97 million games) come from tournaments played under
Seeger-Fabian list scoring, so the games are simulated under ``variants/tournament.yaml``
(``--variant``) with the default bots, in this process on one core, and a Markdown table of
:data:`skatsim.analysis.realism.PEOPLE` is printed beside the simulated figures: the shares of
the game mix, the declarer's win rates, Schneider, and the four kinds of Null.

``--break-even`` prints instead the bots' break-even per bid level: the chance of winning (their
calibrated outcome model) at which a game worth 18 (diamonds with 1), 48 (clubs with 3) and 96
(Grand with 3), played with the skat, becomes worth more than passing once someone has bid,
under the tournament and the official scoring, beside the published Seeger-Fabian break-even
(2v + 50) / (3v + 100) (oest.tech, "Turnierskat"; the declarer's own points against a pass worth
0), the same with the bots' value of passing (a defender's expectation, +40 when the declarer
loses), and 2/3 (lost = -2 x value, a redeal when all pass). The bots' figure also counts the
outcomes the formulas leave out (Schneider and Schwarz, won or lost), which lower it a little.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from skatsim.analysis.realism import realism_table
from skatsim.bots import DEFAULT_BOTS, parse_bots
from skatsim.run.chunks import simulate_frame
from skatsim.variant import load_variant

TOURNAMENT = str(Path(__file__).resolve().parents[1] / "variants" / "tournament.yaml")


def break_even() -> None:
    """The bots' break-even chance per bid level, against the published ones (see the module doc)."""
    from skatsim.bots import bot_arrays, seam, slots
    from skatsim.bots.expected import threshold_slot
    from skatsim.bots.handeval import BEFORE_PICKUP, GRAND_CLASS, N_SITUATIONS, SUIT_CLASS
    from skatsim.bots.winprob import outcome_probs

    games = (
        (18, 0, SUIT_CLASS, 1, "diamonds with 1"),
        (48, 3, SUIT_CLASS, 3, "clubs with 3"),
        (96, 4, GRAND_CLASS, 3, "Grand with 3"),
    )
    print(
        "| variant | bid | game | bots' break-even | published | with the bots' value of passing | bots - published |"
    )
    print("| --- | ---: | --- | ---: | ---: | ---: | ---: |")
    for name in ("tournament", "official"):
        params = load_variant(Path(TOURNAMENT).with_name(f"{name}.yaml")).variant.params()
        kinds, rows = bot_arrays(("heuristic",) * 3, params)
        bot = seam.prepare(kinds, rows, params)[0]
        passing = float(bot[slots.V_PASS])
        for v, gt, cls, mat, label in games:
            z = bot[slots.V_ZSTAR_PASS + threshold_slot(gt, False, False, mat)]
            p = 100.0 * sum(outcome_probs(cls * N_SITUATIONS + BEFORE_PICKUP, z)[3:])
            if name == "tournament":
                published = 100.0 * (2 * v + 50) / (3 * v + 100)
                adjusted = 100.0 * (2 * v + 50 + passing) / (3 * v + 100)
            else:
                published = adjusted = 100.0 * 2 / 3
            print(f"| {name} | {v} | {label} | {p:.2f}% | {published:.2f}% | {adjusted:.2f}% | {p - published:+.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--bots", default=DEFAULT_BOTS)
    parser.add_argument("--variant", default=TOURNAMENT)
    parser.add_argument("--break-even", action="store_true", help="print the bots' break-even per bid level")
    args = parser.parse_args()
    if args.break_even:
        break_even()
        return
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
