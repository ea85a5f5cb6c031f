"""The default bots' regret at the declaration or the bid ceiling: their choice against the best
alternative, on rollouts.

    python scripts/regret.py variants/tournament.yaml --points 2000 --samples 40
    python scripts/regret.py variants/tournament.yaml --point bid --points 2000

``--point bid`` measures how high a hand bids instead (:func:`bid_points`); the rest of this
describes the declaration.

Decision points are the declarations of ``--points`` games the default bots declared in self-play
under the variant (seed ``--seed``): after the auction, the declarer chooses hand or pickup and
the game (announcements included). At each point every declaration the variant allows, and the
bot's own choice, is played out by the bots with the what-if engine (:mod:`skatsim.whatif`) on
the same worlds (common random numbers), and so is picking up the skat to choose the game after
seeing it (the bot's own game then): the declarer's ten cards and the auction as recorded,
the other 22 cards dealt at random (``uniform`` worlds: what the declarer sees of them). The
best alternative is picked on one set of ``--samples`` rollouts and scored, with the bot's
choice, on a second, independent set, so the winner's curse does not inflate the regret. The
declarer's score is his score under the variant (his list points where the variant keeps
lists). Prints the mean regret per decision point with its 95% interval (CLT), and how often
the bot's own choice was the best on the first set. ``--bots`` measures another setting (its own
self-play and rollouts), ``--worlds consistent`` deals the unseen cards consistent with the auction
too, ``--breakdown N`` lists the N (bot's declaration, best alternative) pairs that make up most of
the regret.

Runs on older checkouts too (the bots' parameters without the variant), so a before/after pair
is measured with the same script: ``PYTHONPATH=/tmp/main python scripts/regret.py ...``.
"""

from __future__ import annotations

import argparse
import math
import time
from collections import defaultdict

import numpy as np

from skatsim import whatif as w
from skatsim.bots import DEFAULT_BOTS, bot_arrays, parse_bots, seam
from skatsim.engine.bidding import BID_VALUES
from skatsim.engine.block import simulate_block
from skatsim.engine.deal import deal_game
from skatsim.engine.gametypes import RAMSCH
from skatsim.engine.layout import (
    COL_DECLARER,
    COL_GAME_TYPE,
    COL_HAND,
    COL_LIST_POINTS_FH,
    COL_SCORE_FH,
    LOG_WIDTH,
    N_COLUMNS,
)
from skatsim.engine.rules import LIST_SCORING
from skatsim.engine.scoring import HAND
from skatsim.records.record import record_from_log
from skatsim.variant import load_variant
from skatsim.whatif.hand import declarations
from skatsim.whatif.kernels import bid_limits
from skatsim.whatif.rollouts import WORLDS, Worlds, declaration_label, label


def self_play(params: np.ndarray, games: int, seed: int, bots: str = DEFAULT_BOTS) -> tuple[np.ndarray, np.ndarray]:
    """Rows and action records of ``games`` games of the ``bots`` (the default bots unless told)."""
    seats = parse_bots(bots)
    try:
        kinds, bot_params = bot_arrays(seats, params)
    except TypeError:  # a checkout from before the bots read the variant
        kinds, bot_params = bot_arrays(seats)  # type: ignore[call-arg]
    rows = np.zeros((games, N_COLUMNS), dtype=np.int64)
    logs = np.zeros((games, LOG_WIDTH), dtype=np.int16)
    simulate_block(np.uint64(seed), 0, kinds, bot_params, params, rows, logs)
    return rows, logs


def set_seed(point: int, part: int) -> int:
    """The seed of set ``part`` (0: the set that picks the best alternative, 1: the set that scores it) of
    decision point ``point``: two independent sets of worlds per point, so picking does not flatter
    what is scored (no winner's curse)."""
    return 2 * point + part


def rollout_rows(
    start: w.Start,
    decisions: list,
    params: np.ndarray,
    samples: int,
    seed: int,
    bots: str = DEFAULT_BOTS,
    worlds: Worlds = "uniform",
    missing_ok: bool = False,
) -> np.ndarray:
    """Engine rows ``(samples, len(decisions), N_COLUMNS)``: every decision played out by the ``bots`` on
    the same ``samples`` worlds of ``seed`` (common random numbers), the cards the decider has not seen
    dealt at random (``uniform`` worlds) or consistent with the auction too (``consistent``). With
    ``missing_ok`` a rollout that finds no consistent world is left out (for every decision alike), so
    fewer than ``samples`` rows may come back; without it, it is an error."""
    query = w.plan(start, decisions, params, bots, samples=samples, seed=seed, worlds=worlds)
    rows, _, tries = query.block(0, samples, missing_ok=missing_ok)
    return rows[tries > 0] if missing_ok else rows


def _score_column(params: np.ndarray) -> int:
    """Forehand's score column under the variant (his list points where it keeps lists); + seat."""
    return COL_LIST_POINTS_FH if params[LIST_SCORING] else COL_SCORE_FH


def declarer_scores(rows: np.ndarray, params: np.ndarray) -> np.ndarray:
    """The declarer's score under the variant (his list points where it keeps lists) per rollout and
    decision of :func:`rollout_rows`."""
    column = _score_column(params) + rows[:, :, COL_DECLARER]
    return np.take_along_axis(rows, column[:, :, None], axis=2)[:, :, 0]


def seat_scores(rows: np.ndarray, params: np.ndarray, seat: int) -> np.ndarray:
    """Seat ``seat``'s score under the variant (its list points where it keeps lists) per rollout and
    decision of :func:`rollout_rows`."""
    return rows[:, :, _score_column(params) + seat]


def dealt_hands(seed: int, deals: int) -> np.ndarray:
    """The hands dealt in the first ``deals`` deals of ``seed``: ``(deals, 3)`` masks (FH, MH, RH)."""
    hands = np.zeros((deals, 3), dtype=np.uint32)
    skat = np.zeros(1, dtype=np.uint32)
    deck = np.zeros(32, dtype=np.int64)
    rng = np.zeros(2, dtype=np.uint64)
    for i in range(deals):
        deal_game(np.uint64(seed), np.uint64(i), hands[i], skat, deck, rng)
    return hands


Sources = dict[tuple[str, str], list[float]]


def _regret(sets: list[np.ndarray]) -> tuple[int, float, bool]:
    """The best alternative on the first set (the last column is the bot's own choice), its regret on the
    second, and whether the bot's choice was the best on the first."""
    best = int(np.argmax(sets[0][:-1]))
    return best, float(sets[1][best] - sets[1][-1]), bool(sets[0][-1] >= sets[0][best])


def declaration_points(args: argparse.Namespace, params: np.ndarray) -> tuple[list[float], Sources, int, list[int]]:
    """Regret at the declaration: after the auction, every declaration the variant allows, picking up to
    choose the game after seeing the skat, and the bot's own choice. On consistent worlds a rollout
    that finds none (an auction the bots' own policies make very unlikely) is left out for every
    alternative, and a point with a set left empty is skipped: both counted (the last item)."""
    rows, logs = self_play(params, 4 * args.points, args.seed, args.bots)
    decisions: list = [w.Declare(gt, flags) for gt, flags in declarations(params)]
    decisions.append(w.Pickup(False))
    decisions.append(w.Declare(None))
    regrets: list[float] = []
    sources: Sources = defaultdict(list)
    chose_best = 0
    missed = [0, 0]  # rollouts without a world, points skipped
    for i in range(rows.shape[0]):
        if len(regrets) == args.points:
            break
        if rows[i, COL_GAME_TYPE] < 0 or rows[i, COL_GAME_TYPE] == RAMSCH:
            continue
        start = w.from_record(record_from_log(rows[i], logs[i]))
        played = [
            rollout_rows(start, decisions, params, args.samples, set_seed(i, part), args.bots, args.worlds, True)
            for part in range(2)
        ]
        missed[0] += sum(args.samples - len(p) for p in played)
        if any(len(p) == 0 for p in played):
            missed[1] += 1
            continue
        sets = [declarer_scores(p, params).mean(axis=0) for p in played]
        best, regret, was_best = _regret(sets)
        regrets.append(regret)
        chose_best += was_best
        own = declaration_label(int(rows[i, COL_GAME_TYPE]), HAND if rows[i, COL_HAND] else 0)
        sources[(own, label(decisions[best]))].append(regret)
    return regrets, sources, chose_best, missed


def bid_points(args: argparse.Namespace, params: np.ndarray) -> tuple[list[float], Sources, int, list[int]]:
    """Regret at the bid ceiling: a seat's hand (the three seats of each deal of ``--seed`` in turn), how
    high it bids: passing, every bid value up to the highest a game without announcements could be
    worth with its ten cards, and the bot's own ceiling, each played out from the start of the auction
    (the other 22 cards dealt at random: all the seat knows), scored by the seat's own score."""
    seats = parse_bots(args.bots)
    kinds, bot_params = bot_arrays(seats, params)
    bots = seam.prepare(kinds, bot_params, params)
    hands = dealt_hands(args.seed, math.ceil(args.points / 3))
    own = np.zeros(hands.shape, dtype=np.int64)
    bid_limits(params, kinds, bots, hands, own)
    plain = [(gt, flags) for gt, flags in declarations(params) if flags in (0, HAND)]
    regrets: list[float] = []
    sources: Sources = defaultdict(list)
    chose_best = 0
    for i in range(args.points):
        seat = i % 3
        mask = int(hands[i // 3, seat])
        top = max(w.bid_value(gt, flags, mask) for gt, flags in plain)
        values = [0] + [int(v) for v in BID_VALUES if v <= top]
        decisions: list = [w.Ceiling(seat, v) for v in values] + [w.Ceiling(seat, None)]
        start = w.from_hand([c for c in range(32) if mask >> c & 1], seat)
        sets = [
            seat_scores(
                rollout_rows(start, decisions, params, args.samples, set_seed(i, part), args.bots), params, seat
            ).mean(axis=0)
            for part in range(2)
        ]
        best, regret, was_best = _regret(sets)
        regrets.append(regret)
        chose_best += was_best
        bot, top_level = int(own[i // 3, seat]), values[best]
        if top_level == bot:
            side = "same ceiling"
        elif bot == 0:
            side = "bot passes"
        else:
            side = "bot bids less" if top_level > bot else "bot bids more"
        sources[(side, "pass" if top_level == 0 else "best bids")].append(regret)
    return regrets, sources, chose_best, [0, 0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant")
    parser.add_argument(
        "--point",
        choices=("declaration", "bid"),
        default="declaration",
        help="the decision measured: the declaration after the auction, or how high a hand bids",
    )
    parser.add_argument("--points", type=int, default=2000)
    parser.add_argument("--samples", type=int, default=40, help="rollouts per alternative in each of the two sets")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--bots", default=DEFAULT_BOTS, help="the bots whose regret is measured (self-play and rollouts), as --bots"
    )
    parser.add_argument(
        "--worlds",
        choices=[x for x in WORLDS if x != "fixed"],
        default="uniform",
        help="how the cards the declarer has not seen are dealt in the rollouts (declarations)",
    )
    parser.add_argument(
        "--breakdown", type=int, default=0, metavar="N", help="also print the N largest sources of regret"
    )
    args = parser.parse_args()
    loaded = load_variant(args.variant).variant
    params = loaded.params()
    start_time = time.perf_counter()
    measure = bid_points if args.point == "bid" else declaration_points
    regrets, sources, chose_best, missed = measure(args, params)
    r = np.array(regrets)
    half = 1.96 * r.std(ddof=1) / math.sqrt(r.size)
    what = "bid ceilings" if args.point == "bid" else "declarations"
    print(
        f"{loaded.name}: {r.size:,} {what}, {args.samples} + {args.samples} rollouts per alternative, "
        f"bots {args.bots}, {args.worlds if args.point == 'declaration' else 'uniform'} worlds, seed {args.seed}: "
        f"mean regret {r.mean():+.2f} [{r.mean() - half:+.2f}, {r.mean() + half:+.2f}] points per decision; "
        f"the bot's choice was the best on the first set in {100 * chose_best / r.size:.1f}%; "
        f"{time.perf_counter() - start_time:.0f} s"
    )
    if missed[0]:
        print(
            f"rollouts without a consistent world (left out): {missed[0]:,} of "
            f"{2 * args.samples * (r.size + missed[1]):,}; points skipped for it: {missed[1]:,}"
        )
    if args.breakdown:
        print("\nshare of the mean | points | decisions | the bot played | the best alternative")
        ranked = sorted(sources.items(), key=lambda item: -sum(item[1]))[: args.breakdown]
        for (own, alternative), values in ranked:
            print(f"{sum(values) / r.size:+.2f} | {np.mean(values):+.1f} | {len(values)} | {own} | {alternative}")


if __name__ == "__main__":
    main()
