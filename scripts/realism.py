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
This is the *model-based* break-even: read off the bots' own model, so it says what they intend,
not how they bid on real hands.

``--break-even-rollouts`` measures it instead (issue 13, item 4). ``--hands`` hands are dealt (each
seat's ten cards of ``--hands / 3`` deals of ``--seed``; every seat keeps its own seat). For each
hand and each bid level ``v`` (18, 48, 96, or those of ``--levels``; under the tournament and the
official scoring, or those of ``--scorings``: a level's figures are the same whichever others are
measured beside it, so the 18s alone, a tenth of the time, or one scoring per core may be run):

* **the best game worth at least v**: among the declarations the variant allows whose bid value
  counted from the ten cards (matadors, hand, announcements) is at least ``v``, the one with the
  highest expected score on ``--pick-samples`` what-if rollouts each (the seat wins the auction at
  ``v``, with the skat the bot discards for the game, the bots play it out: :mod:`skatsim.whatif`)
  on worlds (``--worlds``) in which the hand wins the auction at ``v``: the other 22 cards dealt at
  random and kept only when the other seats' bid ceilings lie below ``v`` as the tie rule implies
  for their seats (one before the hand's stays below ``v``, one after it bids at most ``v``:
  ``from_hand(..., bid=v)`` with consistent worlds, :func:`skatsim.whatif.worlds.won_auction_bounds`),
  what the seat knows when it plays at ``v``; and, with ``--worlds reached`` (the default), only
  when the others also push the hand to ``v`` or near it: one of their ceilings reaches a bid from
  :data:`REACHED` (44 for 48, 84 for 96: the bid values whose published break-even is within half a
  point of ``v``'s) to ``v`` as the tie rule implies for its seat (a seat after the hand's reaches
  the bid, one before it the bid value below, as the hand bids above what it held:
  ``from_hand(..., bid=v, reached=...)``, :func:`skatsim.whatif.worlds.reached_auction_reach`);
  at 18 nobody needs to push, so the worlds are the consistent ones. Such worlds are rare for some
  hands: at most :data:`REACH_TRIES` worlds are drawn per rollout, a rollout that finds none is
  dropped, and a hand whose first 4 picking (or scoring) rollouts, or half of all of them, find none
  has no world at that level (the cost is printed). ``--worlds consistent`` leaves the push out (the figures
  before, reproducible). ``--worlds uniform`` deals them at random instead,
  one set of rollouts for every level with each declaration at its own bid value (as ``skatsim
  hand`` does; the figures before the consistent worlds, reproducible). The hand counts at
  level ``v`` only when that game's bid value is exactly ``v`` (18: diamonds with or without 1;
  48: clubs with or without 3, clubs hand with or without 2, Grand with or without 1; 96: Grand
  with or without 3, Grand hand with or without 2, ...), because (2v + 50) / (3v + 100) is the
  break-even of a game worth ``v``: a hand whose best game is worth more reaches ``v`` at that
  game's (higher) break-even;
* **its win probability**: the share of ``--samples`` further rollouts of that game at bid ``v``,
  on worlds drawn alike but independent of the ones that picked it (``scripts/regret.py``'s two
  sets: picking does not flatter the estimate);
* **whether its ceiling reaches v**: the default bot's bid ceiling for the hand at its seat
  (:func:`skatsim.whatif.kernels.bid_limits`, the kernel the auction and the what-if checks use).

Hands are binned by win probability (5-point bins) and the share reaching each level is printed
per bin; the 50% point is where a logistic fit of reach on win probability crosses 1/2, with a
95% bootstrap interval over hands. The table sets it beside the published break-even and the same
with the bots' value of passing (``heuristic.pass_value``: at 18 the value of passing before
anyone has bid, which depends on the seat; above, a defender's expectation), under
``tournament.yaml`` and ``official.yaml``. A binned estimate of a win probability is noisy (its
standard error is about 50 / sqrt(samples) points), which flattens the fit; the column "half the
rollouts" repeats the fit with half of them, to show how far that moves the 50% point. A second
table gives the 50% points by seat: the tie rule makes the auctions a seat wins differ (rearhand
wins only by outbidding), and the model tells forehand from the others but not middlehand from
rearhand (docs/bots.md, Break-even, by seat).

``--worlds-check`` says how far the rollouts' worlds read a declarer's chance from self-play:
declarers of 30,000 self-play games (seed 5) who won the auction at 18 with diamonds or at 48 with
clubs or Grand, their observed win rate against what 100 rollouts give their hands, on uniform
worlds, on worlds in which the hand wins the auction at the bid, and on those in which the others
also push it there (from 44, and from 48 itself).
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from skatsim.analysis.realism import realism_table
from skatsim.bots import DEFAULT_BOTS, parse_bots
from skatsim.run.chunks import simulate_frame
from skatsim.variant import load_variant

if TYPE_CHECKING:
    from skatsim.whatif import Start

TOURNAMENT = str(Path(__file__).resolve().parents[1] / "variants" / "tournament.yaml")
#: The bid levels whose break-even is measured, and the variants it is measured under.
LEVELS = (18, 48, 96)
BREAK_EVEN_VARIANTS = ("tournament", "official")


def published_break_even(name: str, v: int, passing: float = 0.0) -> float:
    """The win probability at which a game worth ``v`` with the skat pays as much as passing worth
    ``passing``: tournament (won v + 50, lost -2v - 50) (2v + 50 + passing) / (3v + 100), the
    Seeger-Fabian figure with ``passing`` 0; official (won v, lost -2v) (2v + passing) / 3v, 2/3."""
    if name == "tournament":
        return (2 * v + 50 + passing) / (3 * v + 100)
    return (2 * v + passing) / (3 * v)


def break_even(bots: str = DEFAULT_BOTS) -> None:
    """The model-based break-even chance per bid level of the bots ``bots`` (their first seat's model and
    parameters), against the published ones (see the module doc)."""
    from skatsim.bots import bot_arrays, seam, slots
    from skatsim.bots.expected import threshold_slot
    from skatsim.bots.handeval import BEFORE_PICKUP, GRAND_CLASS, N_SITUATIONS, SUIT_CLASS
    from skatsim.bots.winprob import outcome_probs

    games = (
        (18, 0, SUIT_CLASS, 1, "diamonds with 1"),
        (48, 3, SUIT_CLASS, 3, "clubs with 3"),
        (96, 4, GRAND_CLASS, 3, "Grand with 3"),
    )
    print("Model-based break-even: where the bots' calibrated outcome model meets their value of passing\n")
    print(
        "| variant | bid | game | bots' break-even | published | with the bots' value of passing | bots - published |"
    )
    print("| --- | ---: | --- | ---: | ---: | ---: | ---: |")
    for name in ("tournament", "official"):
        params = load_variant(Path(TOURNAMENT).with_name(f"{name}.yaml")).variant.params()
        kinds, rows = bot_arrays(parse_bots(bots), params)
        bot = seam.prepare(kinds, rows, params)[0]
        passing = float(bot[slots.V_PASS])
        for v, gt, cls, mat, label in games:
            z = bot[slots.V_ZSTAR_PASS + threshold_slot(gt, False, False, mat)]
            p = 100.0 * sum(outcome_probs(cls * N_SITUATIONS + BEFORE_PICKUP, z)[3:])
            published = 100.0 * published_break_even(name, v)
            adjusted = 100.0 * published_break_even(name, v, passing if name == "tournament" else 0.0)
            print(f"| {name} | {v} | {label} | {p:.2f}% | {published:.2f}% | {adjusted:.2f}% | {p - published:+.2f} |")


#: ``--worlds reached``: per level, the lowest bid the others push the hand to (the bid values whose
#: published break-even is within half a point of the level's: 44, 45, 46 and 48 for 48; 84 to 96 for 96).
#: At 18 nobody needs to push: the consistent worlds.
REACHED = {48: 44, 96: 84}
#: ``--worlds reached``: worlds drawn at most per rollout; a rollout that finds none is dropped, and a hand
#: whose first 4 picking (or scoring) rollouts, or half of them, find none has no world at that level.
REACH_TRIES = 2000


def found_rows(
    start: Start, chosen: list, params: np.ndarray, bots: str, n: int, seed: int, low: int | None = None
) -> tuple[np.ndarray, int, int]:
    """``n`` what-if rollouts of the declarations ``chosen`` from ``start`` (a ``whatif.Start`` with its
    bid) on worlds consistent with the auction, and with ``low`` on reached worlds (at most
    :data:`REACH_TRIES` drawn each, and none after the first four if those found none): the rows of the
    rollouts that found a world, the rollouts that found none or were not run, and the worlds drawn."""
    from skatsim import whatif as w
    from skatsim.whatif.rollouts import MAX_TRIES

    cap = MAX_TRIES if low is None else REACH_TRIES
    query = w.plan(start, chosen, params, bots, samples=n, seed=seed, worlds="consistent", max_tries=cap)
    first = n if low is None else min(4, n)
    rows, _, tries = query.block(0, first, missing_ok=True)
    parts = [(rows, tries)]
    if first < n and (tries > 0).any():
        rows, _, tries = query.block(first, n - first, missing_ok=True)
        parts.append((rows, tries))
    rows = np.concatenate([p[0] for p in parts])
    tries = np.concatenate([p[1] for p in parts])
    missed = int((tries == 0).sum())
    return rows[tries > 0], missed + n - tries.size, int(tries.sum()) + missed * cap


def _measure(
    name: str,
    hands: int,
    seed: int,
    pick: int,
    samples: int,
    worlds: str = "reached",
    bots: str = DEFAULT_BOTS,
    levels: tuple[int, ...] = LEVELS,
) -> tuple[dict[int, np.ndarray], dict[int, tuple[int, ...]]]:
    """Per level, one row per hand counted there: win probability on ``samples`` rollouts, the same on
    the first half of them, whether the ceiling reaches the level, the bots' value of passing, the
    seat; and the rejection cost per level (hands tried, hands without a world, rollouts asked for, rollouts that
    found no world or were not run, worlds drawn in all).
    ``worlds`` ``"uniform"``: the other 22 cards at random, one set of picking rollouts for every
    level, each declaration at its own bid value; ``"consistent"``: per level ``v``, worlds in which
    the hand wins the auction at ``v`` (the other seats' ceilings below it as the tie rule implies),
    every declaration played at bid ``v``, for picking and scoring alike; ``"reached"``: the same,
    and the others push it to a bid from :data:`REACHED` to ``v`` (one of their ceilings gets there)."""
    sys.path.insert(0, str(Path(__file__).parent))
    from regret import dealt_hands, declarer_scores, rollout_rows, set_seed

    from skatsim import whatif as w
    from skatsim.bots import bot_arrays, seam
    from skatsim.bots.heuristic import pass_value
    from skatsim.engine.layout import COL_WON
    from skatsim.whatif.hand import declarations
    from skatsim.whatif.kernels import bid_limits

    params = load_variant(Path(TOURNAMENT).with_name(f"{name}.yaml")).variant.params()
    kinds, bot_params = bot_arrays(parse_bots(bots), params)
    prepared = seam.prepare(kinds, bot_params, params)
    deals = dealt_hands(seed, math.ceil(hands / 3))
    ceilings = np.zeros(deals.shape, dtype=np.int64)
    bid_limits(params, kinds, prepared, deals, ceilings)
    decisions: list = [w.Declare(gt, flags) for gt, flags in declarations(params)]
    out: dict[int, list[tuple[float, float, bool, float, int]]] = {v: [] for v in levels}
    cost = {v: [0, 0, 0, 0, 0] for v in levels}

    def rows_found(start: w.Start, chosen: list, n: int, rseed: int, low: int | None) -> np.ndarray:
        """:func:`found_rows`, adding to the level's cost."""
        rows, missed, drawn = found_rows(start, chosen, params, bots, n, rseed, low)
        cost[start.bid][2] += n
        cost[start.bid][3] += missed
        cost[start.bid][4] += drawn
        return rows

    for h in range(hands):
        seat = h % 3
        mask = int(deals[h // 3, seat])
        cards = [c for c in range(32) if mask >> c & 1]
        values = np.array([w.bid_value(d.game, d.flags, mask) for d in decisions])
        won_at: dict[int, np.ndarray] = {}  # per level counted: the best game's wins on the scoring rollouts
        if worlds == "uniform":
            start = w.from_hand(cards, seat)
            means = declarer_scores(rollout_rows(start, decisions, params, pick, set_seed(h, 0), bots), params).mean(
                axis=0
            )
            best = {}
            for v in levels:
                k = int(np.argmax(np.where(values >= v, means, -np.inf)))
                if values[k] == v:
                    best[v] = k
            if best:
                chosen = sorted(set(best.values()))
                rows = rollout_rows(start, [decisions[k] for k in chosen], params, samples, set_seed(h, 1), bots)
                for v, k in best.items():
                    won_at[v] = rows[:, chosen.index(k), COL_WON] == 1
        else:
            for v in levels:
                if not (values == v).any():  # no game worth exactly v: the best worth at least v is worth more
                    continue
                eligible = np.flatnonzero(values >= v)
                low = REACHED.get(v) if worlds == "reached" else None
                start = w.from_hand(cards, seat, bid=v, reached=low)
                cost[v][0] += 1
                picking = rows_found(start, [decisions[k] for k in eligible], pick, set_seed(h, 0), low)
                if 2 * len(picking) < pick:
                    cost[v][1] += 1
                    continue
                k = int(eligible[np.argmax(declarer_scores(picking, params).mean(axis=0))])
                if values[k] == v:
                    rows = rows_found(start, [decisions[k]], samples, set_seed(h, 1), low)
                    if 2 * len(rows) < samples:
                        cost[v][1] += 1
                        continue
                    won_at[v] = rows[:, 0, COL_WON] == 1
        for v, won in won_at.items():
            passing = pass_value(prepared[seat], np.uint32(mask), seat, v > LEVELS[0])
            if v == LEVELS[0]:  # the first bid: reached by beating either value of passing
                passing = min(passing, pass_value(prepared[seat], np.uint32(mask), seat, True))
            out[v].append((won.mean(), won[: won.size // 2].mean(), ceilings[h // 3, seat] >= v, passing, seat))
    measured = {v: np.array(rows, dtype=np.float64).reshape(-1, 5) for v, rows in out.items()}
    return measured, {v: tuple(c) for v, c in cost.items()}


def _fifty(p: np.ndarray, reach: np.ndarray) -> float:
    """Where a logistic fit of ``reach`` on the win probability ``p`` crosses 1/2 (nan without both outcomes)."""
    from skatsim.bots.calibrate import fit_logistic

    if reach.size == 0 or reach.min() == reach.max():
        return math.nan
    x = np.column_stack([np.ones_like(p), 10.0 * (p - 0.6)])  # centred and scaled: weights of order 1
    w0, w1 = fit_logistic(x, reach, l2=1e-6, iterations=50)
    return 0.6 - w0 / (10.0 * w1) if w1 > 0 else math.nan


def _fifty_interval(p: np.ndarray, reach: np.ndarray, seed: int, n_boot: int = 400) -> tuple[float, float]:
    """A 95% bootstrap interval of :func:`_fifty` (hands resampled)."""
    from skatsim.analysis.intervals import percentile_interval

    rng = np.random.default_rng(seed)
    picks = rng.integers(0, p.size, size=(n_boot, p.size))
    return percentile_interval(np.array([_fifty(p[i], reach[i]) for i in picks]))


def _pct(x: float) -> str:
    """A share as a percentage; a 50% point a fit puts outside 0..1 (a bootstrap sample of a few hands whose
    openings hardly depend on the chance of winning) as beyond that end, not as millions of percent."""
    if math.isnan(x):
        return "n/a"
    if x < 0 or x > 1:
        return "<0%" if x < 0 else ">100%"
    return f"{100 * x:.1f}%"


def break_even_rollouts(
    hands: int,
    seed: int,
    pick: int,
    samples: int,
    worlds: str = "reached",
    bots: str = DEFAULT_BOTS,
    levels: tuple[int, ...] = LEVELS,
    scorings: tuple[str, ...] = BREAK_EVEN_VARIANTS,
) -> None:
    """The measured break-even per bid level of ``levels`` (see the module doc), under the scorings of
    ``scorings`` (tournament, official). A level's figures do not depend on which others are measured."""
    drawn = {
        "reached": "the others push the hand to the level and it wins the auction there: one of their ceilings "
        f"reaches {', '.join(f'{lo}..{v}' for v, lo in REACHED.items())} as the tie rule implies for its seat, "
        f"both below the level; at {LEVELS[0]} as consistent; at most {REACH_TRIES:,} worlds drawn per rollout",
        "consistent": "the hand wins the auction at the level: the other seats' ceilings below it",
        "uniform": "the other 22 cards at random",
    }[worlds]
    print(
        f"Measured break-even: {hands:,} hands ({math.ceil(hands / 3):,} deals, seed {seed}), the best game "
        f"worth at least the level picked on {pick} rollouts per declaration, its win probability on "
        f"{samples} others; worlds {worlds} ({drawn}); bots {bots}\n"
    )
    summary = []
    by_seat = []
    costs = []
    for name in scorings:
        measured, cost = _measure(name, hands, seed, pick, samples, worlds, bots, levels)
        costs.extend((name, v, *cost[v]) for v in levels)
        print(
            f"{name}: share of hands whose bid ceiling reaches the level (hands), by the win probability of "
            "their best game worth exactly the level\n"
        )
        print("| win probability | " + " | ".join(f"reaches {v}" for v in levels) + " |")
        print("| --- |" + " ---: |" * len(levels))
        for b in range(20):
            cells = []
            for v in levels:
                p, reach = measured[v][:, 0], measured[v][:, 2]
                inside = (p >= b / 20) & ((p < (b + 1) / 20) | (b == 19))
                n = int(inside.sum())
                cells.append(f"{100 * reach[inside].mean():.0f}% ({n})" if n else "-")
            print(f"| {5 * b}-{5 * b + 5}% | " + " | ".join(cells) + " |")
        print()
        for v in levels:
            p, half, reach, passing, seats = measured[v].T
            fifty = _fifty(p, reach)
            lo, hi = _fifty_interval(p, reach, seed) if p.size else (math.nan, math.nan)
            published = published_break_even(name, v)
            adjusted = float(np.mean([published_break_even(name, v, x) for x in passing])) if p.size else math.nan
            summary.append((name, v, p.size, fifty, lo, hi, _fifty(half, reach), published, passing, adjusted))
            seat_fifties = [_fifty(p[seats == s], reach[seats == s]) for s in range(3)]
            by_seat.append((name, v, seat_fifties, np.bincount(seats.astype(int), minlength=3)))
    print(
        "| variant | level | hands | measured 50% point [95% interval] | half the rollouts | published | "
        "bots' value of passing | with it | measured - published | measured - with it |"
    )
    print("| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, v, n, fifty, lo, hi, half_fifty, published, passing, adjusted in summary:
        pass_mean = f"{passing.mean():+.1f}" if n else "n/a"
        d1 = "n/a" if math.isnan(fifty) else f"{100 * (fifty - published):+.1f}"
        d2 = "n/a" if math.isnan(fifty) else f"{100 * (fifty - adjusted):+.1f}"
        print(
            f"| {name} | {v} | {n:,} | {_pct(fifty)} [{_pct(lo)}, {_pct(hi)}] | {_pct(half_fifty)} | "
            f"{_pct(published)} | {pass_mean} | {_pct(adjusted)} | {d1} | {d2} |"
        )
    print(
        "\nBy seat (the tie rule differs: forehand wins the auction at 18 against seats that bid 18, "
        "rearhand only against two passes)\n"
    )
    print("| variant | level | forehand (hands) | middlehand (hands) | rearhand (hands) |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, v, fifties, counts in by_seat:
        cells = [f"{_pct(f)} ({n:,})" for f, n in zip(fifties, counts, strict=True)]
        print(f"| {name} | {v} | " + " | ".join(cells) + " |")
    if worlds == "uniform":
        return
    print(
        "\n| variant | level | hands tried | hands without a world | rollouts | rollouts without a world "
        "| worlds drawn per world kept |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, v, tried, none, asked, missed, drawn_all in costs:
        kept = asked - missed
        per = f"{drawn_all / kept:.1f}" if kept else "n/a"
        print(f"| {name} | {v} | {tried:,} | {none:,} | {asked:,} | {missed:,} | {per} |")


def worlds_check(name: str, games: int, seed: int, samples: int = 100, per_level: int = 600) -> None:
    """How far the rollouts' worlds read the declarer's chance from what happens in self-play: for
    declarers who won the auction at 18 with diamonds, and at 48 with clubs or Grand (with the skat),
    their observed win rate against the mean win probability ``samples`` rollouts give their hands,
    on uniform worlds, on worlds in which the hand wins the auction at the bid, and on those in which
    the others also push it there (the three worlds of ``--break-even-rollouts``: from
    :data:`REACHED`, and from the bid itself; a declarer none of whose rollouts finds such a world
    in 100,000 draws is left out of those two columns, their counts in brackets). The measured
    break-even bins hands by the reached worlds; the bots' model is calibrated on the uniform ones."""
    sys.path.insert(0, str(Path(__file__).parent))
    from regret import rollout_rows, self_play

    from skatsim import whatif as w
    from skatsim.engine.gametypes import GRAND
    from skatsim.engine.layout import COL_BID, COL_DECLARER, COL_GAME_TYPE, COL_HAND, COL_WON
    from skatsim.records.record import record_from_log

    params = load_variant(Path(TOURNAMENT).with_name(f"{name}.yaml")).variant.params()
    rows, logs = self_play(params, games, seed)
    for bid, games_at, label in ((18, (0,), "diamonds"), (48, (3, GRAND), "clubs or Grand")):
        observed: list[bool] = []
        estimated: list[float] = []
        consistent: list[float] = []
        reached: list[float] = []
        exact: list[float] = []
        for i in np.flatnonzero((rows[:, COL_BID] == bid) & np.isin(rows[:, COL_GAME_TYPE], games_at)):
            if rows[i, COL_HAND] == 1 or len(observed) == per_level:
                continue
            declarer = int(rows[i, COL_DECLARER])
            mask = w.from_record(record_from_log(rows[i], logs[i])).hands[declarer]
            cards = [c for c in range(32) if mask >> c & 1]
            start = w.from_hand(cards, declarer)
            game = [w.Declare(int(rows[i, COL_GAME_TYPE]))]
            out = rollout_rows(start, game, params, samples, int(i))
            won_at = w.from_hand(cards, declarer, bid=bid)
            held = rollout_rows(won_at, game, params, samples, int(i), worlds="consistent")
            observed.append(rows[i, COL_WON] == 1)
            estimated.append((out[:, 0, COL_WON] == 1).mean())
            consistent.append((held[:, 0, COL_WON] == 1).mean())
            for low, means in ((REACHED.get(bid), reached), (bid, exact)):
                pushed = w.from_hand(cards, declarer, bid=bid, reached=low)
                query = w.plan(
                    pushed, game, params, samples=samples, seed=int(i), worlds="consistent", max_tries=100_000
                )
                got, _, tries = query.block(0, samples, missing_ok=True)
                if (tries > 0).any():
                    means.append((got[tries > 0, 0, COL_WON] == 1).mean())
        print(
            f"| {name} | {bid} | {label} | {len(observed)} | {_pct(float(np.mean(observed)))} | "
            f"{_pct(float(np.mean(estimated)))} | {_pct(float(np.mean(consistent)))} | "
            f"{_pct(float(np.mean(reached)))} ({len(reached)}) | {_pct(float(np.mean(exact)))} ({len(exact)}) |"
        )


def _choose(parser: argparse.ArgumentParser, option: str, text: str, allowed: tuple, kind: type) -> tuple:
    """The comma-separated ``text`` of ``option`` as a tuple of ``allowed`` values in their order, or one
    line naming what is not allowed."""
    try:
        chosen = {kind(x.strip()) for x in text.split(",") if x.strip()}
    except ValueError:
        chosen = {text}
    unknown = chosen - set(allowed)
    if unknown or not chosen:
        parser.error(f"{option} takes some of {','.join(map(str, allowed))}, not {text!r}")
    return tuple(x for x in allowed if x in chosen)


def add_self_play_options(parser: argparse.ArgumentParser) -> None:
    """The options of a self-play run, shared with ``scripts/auction_check.py``: ``--games``, ``--seed``,
    ``--bots`` and ``--variant`` (the tournament rules people played)."""
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--bots", default=DEFAULT_BOTS)
    parser.add_argument("--variant", default=TOURNAMENT)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_self_play_options(parser)
    parser.add_argument(
        "--break-even", action="store_true", help="print the bots' model-based break-even per bid level"
    )
    parser.add_argument(
        "--break-even-rollouts", action="store_true", help="print the break-even measured on what-if rollouts"
    )
    parser.add_argument("--hands", type=int, default=9000, help="hands dealt per variant (--break-even-rollouts)")
    parser.add_argument(
        "--levels",
        default=",".join(map(str, LEVELS)),
        help="--break-even-rollouts: the bid levels to measure, of 18,48,96 (the 18s alone take a tenth of the time)",
    )
    parser.add_argument(
        "--scorings",
        default=",".join(BREAK_EVEN_VARIANTS),
        help="--break-even-rollouts: the scorings to measure under, of tournament,official (one each on two "
        "cores halves the wait)",
    )
    parser.add_argument("--pick-samples", type=int, default=32, help="rollouts per declaration picking the best game")
    parser.add_argument("--samples", type=int, default=400, help="rollouts measuring the best game's win probability")
    parser.add_argument(
        "--worlds",
        choices=("reached", "consistent", "uniform"),
        default="reached",
        help="--break-even-rollouts: worlds in which the others push the hand to the level (44..48, 84..96) "
        "and it wins the auction there (default), in which it wins the auction at the level, "
        "or the other 22 cards at random",
    )
    parser.add_argument(
        "--worlds-check",
        action="store_true",
        help="self-play declarers' win rates at 18 and 48 against uniform, consistent and reached rollouts",
    )
    args = parser.parse_args()
    if args.worlds_check and args.bots != DEFAULT_BOTS:
        parser.error("--worlds-check measures the default bots' self-play: --bots is not used there")
    if args.worlds_check:
        print(
            "| variant | bid | game | declarers | observed win rate | uniform rollouts' estimate "
            "| consistent rollouts' estimate | reached rollouts' estimate (declarers) "
            "| reached exactly at the bid (declarers) |"
        )
        print("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
        for name in BREAK_EVEN_VARIANTS:
            worlds_check(name, 30_000, 5)
        return
    if args.break_even:
        break_even(args.bots)
        return
    if args.break_even_rollouts:
        break_even_rollouts(
            args.hands,
            args.seed,
            args.pick_samples,
            args.samples,
            args.worlds,
            args.bots,
            _choose(parser, "--levels", args.levels, LEVELS, int),
            _choose(parser, "--scorings", args.scorings, BREAK_EVEN_VARIANTS, str),
        )
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
