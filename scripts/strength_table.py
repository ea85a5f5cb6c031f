"""Print README's strength table: a duel (``skatsim duel``) between every pair of bot settings.

Usage::

    python scripts/strength_table.py --deals 10M --jobs 2
    python scripts/strength_table.py --bots random,heuristic,heuristic:loss_aversion=2 --deals 1M

By default the settings are every bot the registry lets ``--bots`` seat (``skatsim bots``), with
its default parameters, so a bot added to ``skatsim/bots`` joins the table without a change here.
For each pair the later setting is A (registered bots come roughly weakest first), so the
difference is read "A ahead of B by". Prints one Markdown table and the command that made it.
"""

from __future__ import annotations

import argparse
import os
import sys
from itertools import combinations

from skatsim.analysis.duel import DuelResult, run_duel
from skatsim.bots import BOTS
from skatsim.counts import parse_count
from skatsim.run.duel import parse_duel_bot


def row(result: DuelResult) -> str:
    """One Markdown table row of a duel."""
    lo, hi = result.sf.ci
    ratio = result.ordinary_ratio
    return (
        f"| `{result.a}` | `{result.b}` | {result.deals:,} | {result.sf.per_game_a:+.2f} | {result.sf.per_game_b:+.2f} "
        f"| **{result.sf.difference:+.2f}** | {lo:+.2f} .. {hi:+.2f} | {result.score.difference:+.2f} "
        f"| {result.deals_for_one_point:,} | {'-' if ratio is None else f'{ratio:.2f}x'} |"
    )


HEADER = (
    "| A | B | deals | A points/game | B points/game | A - B | 95% interval | A - B, official score "
    "| deals for ±1 point | ordinary match needs |\n"
    "| --- | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: |"
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    seatable = ",".join(name for name, spec in BOTS.items() if spec.seatable)
    parser.add_argument("--bots", default=seatable, help=f"bot settings, comma-separated (default: {seatable})")
    parser.add_argument("--deals", default="1M", help="deals per duel, each played in six seatings (1M)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="jobs of each duel (default: CPUs)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    settings = [parse_duel_bot(text, "--bots") for text in args.bots.split(",")]
    deals = parse_count(args.deals)

    lines = [HEADER]
    for b, a in combinations(settings, 2):
        lines.append(row(run_duel(a, b, deals, seed=args.seed, jobs=args.jobs)))
        print(f"{a} vs {b}: done", file=sys.stderr)
    print("\n".join(lines))
    command = f"python scripts/strength_table.py --bots {','.join(settings)} --deals {args.deals} --seed {args.seed}"
    print(f"\nSeeger-Fabian points per game, official rules, seed {args.seed}: `{command}`")
    return 0


if __name__ == "__main__":
    sys.exit(main())
