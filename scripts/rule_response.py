"""Print how the default bots answer each shipped house rule: paired comparisons against the official rules.

    python scripts/rule_response.py --games 1000000 --runs runs/response   # about 8 minutes on one core

For each house rule (pre-1999 scoring, Ramsch, Schieberamsch, Kontra/Re, tournament lists, Bock)
the same deals are played under ``variants/official.yaml`` and under the rule
(``--runs DIR``: ``DIR/official`` and ``DIR/<rule>``, played with seed ``--seed`` unless they are
there already, then paired deal by deal), and the figures the rule's
scoring should move are printed as a Markdown table: official, the rule, the paired difference
with its 95% interval, the direction the scoring predicts and whether the measured change goes
that way with its interval clear of zero. The runs are those the example report
``reports/rule_response.html`` is built from (reports/README.md). Why each change goes the way it does is
explained in docs/bots.md.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from skatsim.analysis.compare import Comparison, paired_comparison
from skatsim.errors import SkatsimError
from skatsim.run.manifest import MANIFEST
from skatsim.run.runner import run_simulation

ROOT = Path(__file__).resolve().parents[1]
VARIANTS = ROOT / "variants"

#: Per rule: (metric, predicted sign of B - A or 0 for none, why).
EXPECTED: dict[str, list[tuple[str, int, str]]] = {
    "pre1999": [
        ("hand", +1, "a lost hand game costs its single value"),
        ("win_rate", -1, "riskier hand games are worth playing"),
        ("played", 0, ""),
    ],
    "ramsch": [
        ("played", +1, "a Ramsch after an all-pass costs the weaker hands; they bid instead"),
        ("type_passed", -1, "no redeal: all-passed deals become a Ramsch"),
        ("type_ramsch", 0, ""),
        ("win_rate", -1, "the extra games are thin"),
    ],
    "schieberamsch": [
        ("played", +1, "as Ramsch"),
        ("type_ramsch", 0, ""),
        ("win_rate", -1, "the extra games are thin"),
    ],
    "kontra_re": [
        ("played", -1, "a thin game draws a Kontra that doubles its loss"),
        ("kontra", +1, "defenders double when the declarer is expected to lose more by it"),
        ("re", +1, "a doubled declarer redoubles when his expected score says so"),
        ("win_rate", 0, ""),
        ("bid", 0, ""),
    ],
    "tournament": [
        ("played", +1, "+50 for a won game makes thin games worth playing"),
        ("win_rate", -1, "the extra games are thin"),
        ("bid", +1, "games are bid higher for the bonus"),
        ("hand", 0, ""),
    ],
    "bock": [
        ("played", 0, "the Ramsch rounds Bock events bring (no declarer); the multiplier cancels in decisions"),
        ("win_rate", 0, ""),
    ],
}


def comparison(rule: str, games: int, seed: int, jobs: int, runs: Path) -> Comparison:
    """The paired comparison official -> rule from the runs ``runs/official`` and ``runs/<rule>``, each
    played first when it is not there (the layout of the report's commands in reports/README.md)."""
    for name in ("official", rule):
        folder = runs / name
        if not (folder / MANIFEST).exists():
            run_simulation(str(VARIANTS / f"{name}.yaml"), games, seed, str(folder), jobs=jobs, progress=False)
    try:
        return paired_comparison(str(runs / "official"), str(runs / rule))
    except SkatsimError as exc:  # runs of other deals, unfinished, ...: one line
        sys.exit(f"rule_response.py: {rule}: {exc}")


def scale(row: dict) -> float:
    return 100.0 if str(row["unit"]).startswith("%") else 1.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--runs", type=Path, default=Path("runs/response"), help="where the runs are kept")
    parser.add_argument("--rules", default=",".join(EXPECTED))
    args = parser.parse_args()
    print("| rule | figure | official | rule | change [95% interval] | predicted | as predicted |")
    print("| --- | --- | ---: | ---: | --- | --- | --- |")
    games = 0
    for rule in args.rules.split(","):
        result = comparison(rule, args.games, args.seed, args.jobs, args.runs)
        games = result.games
        means = {row["metric"]: row for row in result.means.iter_rows(named=True)}
        for metric, sign, why in EXPECTED[rule]:
            if metric not in means:
                continue
            row = means[metric]
            k = scale(row)
            change = f"{k * row['diff']:+.2f} [{k * row['lo']:+.2f}, {k * row['hi']:+.2f}]"
            if sign:
                ok = (row["lo"] > 0) if sign > 0 else (row["hi"] < 0)
                predicted, verdict = ("more" if sign > 0 else "fewer/lower") + f" ({why})", "yes" if ok else "**no**"
            else:
                predicted, verdict = why or "-", "-"
            unit = "%" if k == 100.0 else ""
            print(
                f"| {rule} | {row['label']} | {k * row['mean_a']:.2f}{unit} | {k * row['mean_b']:.2f}{unit} "
                f"| {change} | {predicted} | {verdict} |"
            )
    print(f"\n{games:,} deals per rule, each played under both (paired), seed {args.seed}, default bots")


if __name__ == "__main__":
    main()
