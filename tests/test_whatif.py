"""What-if rollouts (``skatsim.whatif``): reproducible, faithful to the record, worlds the decider cannot
tell apart, calibrated against what happened; and ``skatsim whatif`` as a user meets it."""

from __future__ import annotations

import math
from itertools import combinations
from pathlib import Path
from statistics import NormalDist
from typing import Any

import numpy as np
import pytest

from skatsim import whatif as w
from skatsim.bots import bot_arrays, parse_bots, seam
from skatsim.cli import main
from skatsim.engine import bidding
from skatsim.engine.block import simulate_block
from skatsim.engine.cards import parse_card
from skatsim.engine.deal import unpack_deal
from skatsim.engine.gametypes import CLUBS_GAME, GRAND, GROUP, GROUP_MASK, NULL, RAMSCH
from skatsim.engine.layout import (
    COL_DEAL,
    COL_DECLARER,
    COL_GAME_TYPE,
    COL_POINTS,
    COL_SCORE,
    COL_SKAT_DISCARD,
    COL_WON,
    LOG_WIDTH,
    N_COLUMNS,
)
from skatsim.engine.scoring import HAND
from skatsim.errors import SkatsimError
from skatsim.records.record import GameRecord, record_from_log
from skatsim.variant import official_params
from skatsim.whatif import kernels
from skatsim.whatif.rollouts import _replayed
from skatsim.whatif.worlds import NO_BOUND, bid_bounds, fill_counts, reached_auction_reach, won_auction_bounds

ROOT = Path(__file__).resolve().parent.parent
ISS = ROOT / "tests" / "fixtures" / "iss" / "real_games.sgf"
PARAMS = official_params()


def _run(games: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    kinds, bot_params = bot_arrays(parse_bots("heuristic"), PARAMS)
    rows = np.zeros((games, N_COLUMNS), dtype=np.int64)
    logs = np.zeros((games, LOG_WIDTH), dtype=np.int16)
    simulate_block(np.uint64(seed), 0, kinds, bot_params, PARAMS, rows, logs)
    return rows, logs


@pytest.fixture(scope="module")
def run() -> tuple[np.ndarray, np.ndarray]:
    """3000 deals of the official rules with the default bots (seed 11), with their action records."""
    return _run(3000, 11)


def _declared(rows: np.ndarray, logs: np.ndarray, limit: int | None = None) -> list[tuple[int, GameRecord]]:
    out = []
    for i in range(rows.shape[0]):
        if rows[i, COL_GAME_TYPE] >= 0 and rows[i, COL_GAME_TYPE] != RAMSCH:
            out.append((i, record_from_log(rows[i], logs[i])))
            if limit is not None and len(out) == limit:
                break
    return out


def _flags(record: GameRecord) -> int:
    return record.flags | (0 if record.pickup else HAND)


# --------------------------------------------------------------------------- reproducibility


def test_same_seed_same_numbers_whatever_the_batching() -> None:
    """Rollout i is a pure function of (seed, i): chunks, threads and repeated calls give the same rows."""
    start = w.from_run(5, 17)
    record = start.record
    assert record is not None and record.game_type is not None
    decisions = [w.Declare(record.game_type, _flags(record)), w.Declare(GRAND, HAND)]
    query = w.plan(start, decisions, samples=300, seed=9, worlds="consistent")
    whole = query.frame(0, 300, jobs=2)
    parts = [query.frame(0, 120, jobs=1), query.frame(120, 180, jobs=2)]
    import polars as pl

    assert pl.concat(parts).equals(whole)
    assert query.frame(0, 300, jobs=1).equals(whole)
    assert w.evaluate(start, decisions, samples=300, seed=9, jobs=2).equals(whole)
    other = w.plan(start, decisions, samples=300, seed=10, worlds="consistent").frame(0, 300)
    assert not other.equals(whole)
    assert whole.height == 600 and whole["rollout"].n_unique() == 300


def test_alternatives_meet_the_same_worlds() -> None:
    start = w.from_hand([parse_card(c) for c in "CJ SJ CA CT C9 HA HT SK S8 D7".split()], 1)
    query = w.plan(start, [w.Declare(CLUBS_GAME, 0), w.Declare(GRAND, HAND), w.Ceiling(1, 0)], samples=200)
    rows, errors, tries = query.block(0, 200)
    assert (errors == 0).all() and (tries == 1).all()
    assert (rows[:, 0, COL_DEAL] == rows[:, 1, COL_DEAL]).all()
    assert (rows[:, 0, COL_DEAL] == rows[:, 2, COL_DEAL]).all()
    hands = np.zeros(3, dtype=np.uint32)
    seen = set()
    for packed in rows[:, 0, COL_DEAL]:
        unpack_deal(np.int64(packed), hands)
        assert int(hands[1]) == start.hands[1]  # the hand stays at its seat
        seen.add(int(packed))
    assert len(seen) == 200  # the other cards are dealt anew in every rollout


# --------------------------------------------------------------------------- faithful to the record


def test_the_recorded_decisions_replay_the_recorded_game(run: tuple[np.ndarray, np.ndarray]) -> None:
    """With the real cards, forcing the decision the bots took (or letting them take it) gives back the row
    the simulation wrote: the what-if is the same deal flow, only entered at another point."""
    rows, logs = run
    checked = 0
    for i, record in _declared(rows, logs, 40):
        start = w.from_record(record)
        cards = record.cards
        n = len(cards) // 2
        for decisions in (
            [w.Declare(record.game_type, _flags(record)), w.Declare(None)],
            [w.Pickup(not record.pickup), w.Pickup(None)],
            [w.Card(n, cards[n]), w.Card(n, None)],
            [w.Ceiling(0, None)],
        ):
            out, errors, _ = w.plan(start, decisions, samples=1, worlds="fixed").block(0, 1)
            assert (errors == 0).all()
            for k in range(len(decisions)):
                got = out[0, k]
                for col in (COL_GAME_TYPE, COL_DECLARER, COL_WON, COL_POINTS, COL_SCORE, COL_SKAT_DISCARD):
                    assert got[col] == rows[i, col], (i, decisions[k], col)
        checked += 1
    assert checked == 40


def test_another_declaration_is_played_with_the_bots_discards_for_it(run: tuple[np.ndarray, np.ndarray]) -> None:
    rows, logs = run
    i, record = next((i, r) for i, r in _declared(rows, logs) if r.pickup and r.game_type != GRAND)
    start = w.from_record(record)
    out, errors, _ = w.plan(start, [w.Declare(GRAND, 0)], samples=1, worlds="fixed").block(0, 1)
    assert errors[0, 0] == 0
    assert out[0, 0, COL_GAME_TYPE] == GRAND and out[0, 0, COL_DECLARER] == rows[i, COL_DECLARER]
    from skatsim.bots.handeval import choose_discard

    d = int(rows[i, COL_DECLARER])
    twelve = start.hands[d] | start.skat
    assert out[0, 0, COL_SKAT_DISCARD] == int(choose_discard(GRAND, np.uint32(twelve)))


# --------------------------------------------------------------------------- worlds


def test_fill_counts_count_the_fillings() -> None:
    """ways[0] is the number of ways to place the cards, by brute force on a small case with bars."""
    allowed = [7, 5, 3, 7, 6, 1, 7]  # bits: 1 A, 2 B, 4 S
    holes = (3, 2, 2)
    brute = 0
    cards = range(len(allowed))
    for a in combinations(cards, holes[0]):
        rest = [c for c in cards if c not in a]
        for b in combinations(rest, holes[1]):
            s = [c for c in rest if c not in b]
            if all(allowed[c] & 1 for c in a) and all(allowed[c] & 2 for c in b) and all(allowed[c] & 4 for c in s):
                brute += 1
    ways = fill_counts(np.array(allowed), holes)
    assert ways[0, 3, 2] == brute == 30


def test_bid_bounds_read_the_auction() -> None:
    bids = ((1, 18), (0, 0), (1, 20), (0, -1), (2, 22), (1, 0), (2, 23), (1, -1))
    bounds = bid_bounds(bids)
    assert bounds[0] == (18, 19)  # held 18, passed when asked to hold 20
    assert bounds[1] == (22, 22)  # bid to 20, held 22, passed at 23
    assert bounds[2] == (23, NO_BOUND)  # won at 23: at least 23
    assert bid_bounds(((1, -1), (2, -1), (0, -1))) == [(0, 17), (0, 17), (0, 17)]


def _wins(limits: list[int]) -> int:
    """The declarer of an auction whose seats bid step by step up to ``limits`` (the engine's protocol)."""
    state = np.zeros(bidding.N_FIELDS, dtype=np.int64)
    bidding.run_bidding(state, np.array(limits, dtype=np.int64))
    return int(state[bidding.DECLARER])


def test_won_auction_bounds_are_the_auction_won() -> None:
    """A seat bidding up to ``v`` wins the auction exactly when the others' ceilings lie inside the bounds
    (holding wins ties: a seat before it must stay below ``v``, one after it may bid ``v`` itself)."""
    grid = [0, 17, 18, 19, 20, 22, 46, 47, 48, 49, 50, 95, 96, 97, 99, 100, 263, 264, 300]
    for seat in range(3):
        for v in (18, 20, 48, 96, 264):
            bounds = won_auction_bounds(seat, v)
            assert bounds[seat] is None
            others = [s for s in range(3) if s != seat]
            for a in grid:
                for b in grid:
                    limits = [v, v, v]
                    limits[others[0]], limits[others[1]] = a, b
                    inside = all(lo <= c <= hi for c, (lo, hi) in zip((a, b), (bounds[o] for o in others), strict=True))
                    assert (_wins(limits) == seat) == inside, (seat, v, a, b)


def _auction(limits: list[int]) -> tuple[int, int]:
    """The declarer and final bid of an auction whose seats bid step by step up to ``limits``."""
    state = np.zeros(bidding.N_FIELDS, dtype=np.int64)
    bidding.run_bidding(state, np.array(limits, dtype=np.int64))
    return int(state[bidding.DECLARER]), int(state[bidding.BID])


def test_reached_auction_reach_is_the_auction_pushed_to_the_window() -> None:
    """A seat bidding up to ``v`` wins the auction at a bid from ``low`` to ``v`` exactly when the others'
    ceilings lie inside :func:`won_auction_bounds` and one of them reaches its value of
    :func:`reached_auction_reach` (a seat after it ``low`` itself, one before it the bid value below)."""
    grid = [0, 17, 18, 20, 36, 39, 40, 43, 44, 45, 46, 47, 48, 49, 50, 80, 81, 83, 84, 88, 90, 95, 96, 98, 99, 120]
    for seat in range(3):
        for v, low in ((48, 44), (48, 48), (96, 84), (96, 96), (20, 20)):
            bounds = won_auction_bounds(seat, v)
            reach = reached_auction_reach(seat, low)
            assert reach[seat] == 0
            others = [s for s in range(3) if s != seat]
            for a in grid:
                for b in grid:
                    limits = [v, v, v]
                    limits[others[0]], limits[others[1]] = a, b
                    declarer, bid = _auction(limits)
                    inside = all(lo <= c <= hi for c, (lo, hi) in zip((a, b), (bounds[o] for o in others), strict=True))
                    pushed = any(c >= reach[o] for c, o in zip((a, b), others, strict=True))
                    assert (declarer == seat and low <= bid <= v) == (inside and pushed), (seat, v, low, a, b)
    assert reached_auction_reach(1, 18) == (0, 0, 0)  # the first bid: nobody needs to push


def _ceilings_in_worlds(rows: np.ndarray, start: w.Start, v: int) -> np.ndarray:
    """The default bots' bid ceilings on each rollout's dealt hands, the hand's own seat bidding up to
    ``v`` (and holding its own cards in every world)."""
    seat = start.seat
    assert seat is not None
    kinds, bot_params = bot_arrays(parse_bots("heuristic"), PARAMS)
    bots = seam.prepare(kinds, bot_params, PARAMS)
    hands = np.zeros(3, dtype=np.uint32)
    dealt = np.zeros((rows.shape[0], 3), dtype=np.uint32)
    for i, packed in enumerate(rows[:, 0, COL_DEAL]):
        unpack_deal(np.int64(packed), hands)
        dealt[i] = hands
        assert int(hands[seat]) == start.hands[seat]
    ceilings = np.zeros(dealt.shape, dtype=np.int64)
    kernels.bid_limits(PARAMS, kinds, bots, dealt, ceilings)
    ceilings[:, seat] = v
    return ceilings


def test_a_hand_pushed_to_a_bid_meets_worlds_in_which_the_auction_got_there() -> None:
    """``from_hand(cards, seat, bid=v, reached=low)`` with consistent worlds: in every world the engine's
    auction, the seat bidding up to ``v`` and the others by their bots' ceilings, ends with the seat
    declaring at a bid from ``low`` to ``v`` (the break-even's default yardstick at 48); the worlds
    without ``reached`` do not all get there (so the check has teeth). A rollout that finds no such
    world within the tries raises, or with ``missing_ok`` comes back with 0 worlds drawn."""
    cards = [parse_card(c) for c in "DJ HA HT H9 SA S7 D9 D8 C7 C8".split()]
    for seat, v, low in ((0, 48, 44), (1, 48, 44), (2, 48, 44), (1, 48, 48), (0, 96, 84)):
        bids = {}
        for reached in (None, low):
            start = w.from_hand(cards, seat, bid=v, reached=reached)
            rows, errors, tries = w.plan(start, [w.Declare(0)], samples=100, seed=4, worlds="consistent").block(0, 100)
            assert (errors == 0).all() and (rows[:, 0, COL_DECLARER] == seat).all()
            outcome = [_auction(list(c)) for c in _ceilings_in_worlds(rows, start, v)]
            assert all(declarer == seat for declarer, _ in outcome)
            bids[reached] = np.array([bid for _, bid in outcome])
        assert ((bids[low] >= low) & (bids[low] <= v)).all(), (seat, v, low)
        assert not (bids[None] >= low).all(), (seat, v, low)
    start = w.from_hand(cards, 2, bid=96, reached=96)
    query = w.plan(start, [w.Declare(4)], samples=20, seed=4, worlds="consistent", max_tries=1)
    with pytest.raises(SkatsimError, match="no deal consistent"):
        query.block(0, 20)
    rows, errors, tries = query.block(0, 20, missing_ok=True)
    assert (tries == 0).any() and ((tries == 0) == (errors[:, 0] == kernels.NO_WORLD)).all()
    with pytest.raises(SkatsimError, match="reached needs a bid"):
        w.from_hand(cards, 0, bid=44, reached=48)


def test_a_hand_played_at_a_bid_meets_worlds_in_which_it_won_the_auction() -> None:
    """``from_hand(cards, seat, bid=v)`` with consistent worlds: in every world the other seats' bots would
    have let the seat, bidding up to ``v``, win the auction (the break-even's yardstick); uniform worlds
    do not (so the check has teeth). A Ceiling, decided before the auction, cannot share them."""
    cards = [parse_card(c) for c in "DJ HA HT H9 SA S7 D9 D8 C7 C8".split()]
    for seat, v in ((0, 18), (1, 18), (2, 18), (2, 48)):
        start = w.from_hand(cards, seat, bid=v)
        won = {}
        for worlds in ("uniform", "consistent"):
            rows, errors, tries = w.plan(start, [w.Declare(0)], samples=200, seed=4, worlds=worlds).block(0, 200)
            assert (errors == 0).all() and (rows[:, 0, COL_DECLARER] == seat).all()
            won[worlds] = np.array([_wins(list(c)) == seat for c in _ceilings_in_worlds(rows, start, v)])
            if worlds == "consistent":
                assert tries.max() > 1  # worlds were rejected
        assert won["consistent"].all(), (seat, v)
        assert not won["uniform"].all(), (seat, v)
    with pytest.raises(SkatsimError, match="one bid"):
        w.plan(w.from_hand(cards, 0, bid=18), [w.Declare(0), w.Ceiling(0, 18)], worlds="consistent")
    with pytest.raises(SkatsimError, match="one bid"):
        w.plan(w.from_hand(cards, 0), [w.Declare(0, bid=18), w.Declare(3)], worlds="consistent")
    plain = w.plan(w.from_hand(cards, 0), [w.Declare(0), w.Declare(3)], samples=50, seed=4, worlds="consistent")
    assert (plain.block(0, 50)[2] == 1).all()  # no bid given: each at its own value, nothing to condition on


def _worlds(frame_rows: np.ndarray) -> list[tuple[list[int], int]]:
    out = []
    hands = np.zeros(3, dtype=np.uint32)
    for packed in frame_rows[:, 0, COL_DEAL]:
        skat = int(unpack_deal(np.int64(packed), hands))
        out.append(([int(h) for h in hands], skat))
    return out


def test_worlds_keep_what_the_decider_saw(run: tuple[np.ndarray, np.ndarray]) -> None:
    """Mid-game: every world keeps the decider's hand, puts each played card with the seat that played
    it, gives no seat a card of a suit it showed void in, and (consistent) lets every other seat's bot
    bid as recorded."""
    rows, logs = run
    kinds, bot_params = bot_arrays(parse_bots("heuristic"), PARAMS)
    prepared = seam.prepare(kinds, bot_params, PARAMS)
    checked = 0
    for _, record in _declared(rows, logs):
        if len(record.cards) < 16 or not record.pickup:
            continue
        n = 15
        played = _replayed(record, PARAMS)
        decider = played.card_seats[n]
        if decider == played.declarer:
            continue
        start = w.from_record(record)
        query = w.plan(start, [w.Card(n, None)], samples=60, seed=3, worlds="consistent")
        out, _, tries = query.block(0, 60)
        assert (tries >= 1).all()
        gt = played.game_type
        barred = [0, 0, 0]
        for t in range(0, n - n % 3, 3):
            led = GROUP[gt, record.cards[t]]
            for p in (1, 2):
                if GROUP[gt, record.cards[t + p]] != led:
                    barred[played.card_seats[t + p]] |= int(GROUP_MASK[gt, led])
        bounds = bid_bounds(record.bids)
        for hands, skat in _worlds(out):
            assert hands[decider] == start.hands[decider]
            d = played.declarer
            held = [hands[0], hands[1], hands[2]]
            held[d] |= skat  # the declarer picked up
            for c, s in zip(record.cards[:n], played.card_seats, strict=False):
                assert held[s] >> c & 1
                held[s] &= ~(1 << c)
            for s in range(3):
                if s != decider and s != d:
                    assert not held[s] & barred[s], "a seat holds a card of a suit it showed void in"
                if s != decider and bounds[s] is not None:
                    limit = kernels.bid_limit_of(PARAMS, kinds, prepared, s, np.uint32(hands[s]))
                    lo, hi = bounds[s]  # type: ignore[misc]
                    assert lo <= limit <= hi, "a sampled hand on which the bot would not have bid as recorded"
        checked += 1
        if checked == 6:
            break
    assert checked == 6


#: Five bins of predicted win probability, each checked at 99% (95% for the five together, Bonferroni).
BINS = ((0.0, 0.5), (0.5, 0.7), (0.7, 0.85), (0.85, 0.95), (0.95, 1.01))
Z_BIN = NormalDist().inv_cdf(1 - 0.05 / (2 * len(BINS)))


def _calibration(
    rows: np.ndarray, logs: np.ndarray, point: str, worlds: str, samples: int
) -> list[tuple[float, float, float, int]]:
    """Per bin of predicted win probability: (mean prediction, observed rate, standard error, games).

    Half of each game's rollouts choose its bin, the other half predict: binning by the same estimate
    that is checked would favour estimates that came out high at the top and low at the bottom. A game
    whose auction no consistent world is found for in 100,000 draws (one the bots' ceilings make very
    rare) is left out; at most one in 500 may be."""
    binned, predicted, observed = [], [], []
    rare: list[int] = []
    for i, record in _declared(rows, logs):
        start = w.from_record(record)
        if point == "declaration":
            decisions: list[w.Decision] = [w.Declare(record.game_type, _flags(record))]
        else:
            if len(record.cards) <= 9:
                continue
            decisions = [w.Card(9, None)]
        query = w.plan(start, decisions, samples=samples, seed=i, worlds=worlds, max_tries=100_000)  # type: ignore[arg-type]
        try:
            won = query.block(0, samples)[0][:, 0, COL_WON]
        except SkatsimError as exc:  # an auction so rare that 100,000 draws find no world for it
            assert worlds == "consistent" and "no deal consistent" in str(exc)
            rare.append(i)
            continue
        binned.append(won[: samples // 2].mean())
        predicted.append(won[samples // 2 :].mean())
        observed.append(rows[i, COL_WON])
    # at most one game in 500 (e.g. MH holding exactly to 70, a ceiling few of his possible hands have)
    assert len(rare) <= len(binned) // 500, rare
    b, p, o = np.array(binned), np.array(predicted), np.array(observed)
    half = samples - samples // 2
    out = []
    for lo, hi in BINS:
        m = (b >= lo) & (b < hi)
        n = int(m.sum())
        if n < 30:
            continue
        var = (p[m] * (1 - p[m])).sum() * (1 + 1 / half) / n**2  # the outcomes, and the predictions' own noise
        out.append((float(p[m].mean()), float(o[m].mean()), math.sqrt(var), n))
    return out


def test_what_if_win_probability_is_calibrated(run: tuple[np.ndarray, np.ndarray]) -> None:
    """The declared game's win probability, rolled out on worlds consistent with what the declarer knew
    (his cards, the skat he saw, the auction), binned by prediction: in each bin the observed win rate
    lies inside the interval the bin's predictions imply."""
    rows, logs = run
    bins = _calibration(rows[:2000], logs[:2000], "declaration", "consistent", 160)
    declared = len(_declared(rows[:2000], logs[:2000]))
    # every declared game is binned but the one in 500 no consistent world is found for
    assert len(bins) == len(BINS) and sum(b[3] for b in bins) >= declared - declared // 500
    for predicted, observed, se, n in bins:
        assert abs(observed - predicted) <= Z_BIN * se, (predicted, observed, se, n)


def test_mid_game_worlds_are_calibrated_only_when_consistent() -> None:
    """From card 10, whoever is to play: with the auction, the declaration and the declarer's own discards
    honoured the rollouts predict the outcome; dealing the unseen cards uniformly does not (the declarer
    looks far weaker than he is), so the check can fail."""
    rows, logs = _run(1500, 13)
    bins = _calibration(rows, logs, "card", "consistent", 40)
    assert len(bins) >= 4
    for predicted, observed, se, n in bins:
        assert abs(observed - predicted) <= Z_BIN * se, (predicted, observed, se, n)
    uniform = _calibration(rows, logs, "card", "uniform", 40)
    assert any(abs(observed - predicted) > Z_BIN * se for predicted, observed, se, _ in uniform)


# --------------------------------------------------------------------------- mistakes


def test_mistakes_are_one_line_errors(run: tuple[np.ndarray, np.ndarray]) -> None:
    rows, logs = run
    _, record = next((i, r) for i, r in _declared(rows, logs) if len(r.cards) > 4)
    start = w.from_record(record)
    with pytest.raises(SkatsimError, match="not a legal card"):
        held_elsewhere = record.cards[2]
        w.plan(start, [w.Card(0, held_elsewhere)])
    with pytest.raises(SkatsimError, match="same point"):
        w.plan(start, [w.Card(3, None), w.Declare(GRAND, 0)])
    with pytest.raises(SkatsimError, match="reversed game is not allowed"):
        w.plan(start, [w.Declare(7, HAND)])
    with pytest.raises(SkatsimError, match="real cards are unknown"):
        w.plan(w.from_hand(list(range(10))), [w.Declare(NULL, 0)], worlds="fixed")


def _cli(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    code = main(["whatif", *(str(a) for a in args)])
    out, err = capsys.readouterr()
    return code, out, err


def test_too_many_samples_for_memory_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    """An absurd --samples is refused before the rows are allocated, not by numpy's MemoryError."""
    code, out, err = _cli(
        capsys, "--iss", ISS, "--line", 2, "--declare", "grand", "--worlds", "uniform", "--samples", 10**15
    )
    assert code == 2 and out == "" and "Traceback" not in err
    assert len(err.splitlines()) == 1
    assert err.startswith("skatsim: error: --samples 1,000,000,000,000,000: the rollouts' rows need "), err
    assert err.rstrip().endswith("GiB are available; use fewer samples"), err


def test_could_i_have_won_an_iss_game(capsys: pytest.CaptureFixture[str]) -> None:
    """ISS game 9: RH played clubs hand and lost with 56 points; with the real cards the bots lose the
    same declaration and a Grand with the skat too, with 45 points (won with 65 before stop 52's
    defence rules and the models learnt with them)."""
    code, out, err = _cli(capsys, "--iss", ISS, "--line", 2, "--declare", "grand")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == f"{ISS} line 2 (ISS game 9)"
    assert (
        lines[1]
        == "RH won the auction at 20 and declared clubs hand: lost with 56 points, score -96 (as played at the table)"
    )
    assert lines[4].split() == ["clubs", "hand", "(as", "declared)", "no", "26", "3", "60", "-120"]
    assert lines[5].split() == ["grand", "no", "45", "3", "72", "-144"]
    code, out, err = _cli(
        capsys,
        "--iss",
        ISS,
        "--line",
        2,
        "--declare",
        "grand",
        "--hand",
        "--worlds",
        "consistent",
        "--samples",
        200,
        "--json",
    )
    assert (code, err) == (0, "")
    import json

    data = json.loads(out)
    assert data["worlds"] == "consistent" and data["samples"] == 200
    assert [o["declaration"] for o in data["outcomes"]] == ["clubs hand (as declared)", "grand hand"]
    assert 0.0 <= data["outcomes"][1]["win_probability"] <= 1.0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--iss", ISS, "--line", 1, "--declare", "grand"], "sgf line 1 (ISS game 8): nobody won the auction"),
        (["--iss", ISS, "--line", 2, "--declare", "reversed"], "--declare: this variant does not allow reversed"),
        (["--iss", ISS, "--line", 2, "--declare", "skat"], "--declare: unknown game 'skat'"),
        (["--iss", ISS, "--declare", "grand"], "exactly one of --line N or --id ID"),
        (["--iss", ISS, "--line", 2, "--declare", "grand", "--schneider"], "hand games only"),
    ],
)
def test_whatif_mistakes(capsys: pytest.CaptureFixture[str], args: list[object], message: str) -> None:
    code, out, err = _cli(capsys, *args)
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and message in err


def test_whatif_of_a_folder_that_is_no_run_says_why(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A missing folder, a folder without a run and a run whose manifest.json is damaged: each its own line
    (a damaged manifest was called missing)."""
    (tmp_path / "plain").mkdir()
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    (damaged / "manifest.json").write_text("{")
    cases = [
        (tmp_path / "missing", f"{tmp_path / 'missing'}: no such run folder"),
        (tmp_path / "plain", f"{tmp_path / 'plain'}: not a run folder (no manifest.json)"),
        (damaged, f"{damaged / 'manifest.json'}: not a skatsim run manifest"),
    ]
    for folder, message in cases:
        code, out, err = _cli(capsys, folder, "--game", 0, "--declare", "grand")
        assert (code, out) == (2, "") and len(err.splitlines()) == 1 and message in err, err


def _first_declared(out: Path, variant: str, games: int) -> dict[str, Any]:
    """Simulate ``games`` games of ``variants/VARIANT`` (seed 8) into ``out``; the first declared game's row."""
    import polars as pl

    from skatsim.run.runner import run_simulation

    run_simulation(str(ROOT / "variants" / variant), games, 8, str(out), jobs=1, progress=False)
    declared = pl.read_parquet(out / "*.parquet").filter(pl.col("declarer").is_not_null())
    return declared.row(0, named=True)


def test_could_i_have_won_a_game_of_a_run(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """RUN_DIR --game N plays the run's game again from its seed: the declaration as recorded, played out by
    the bots with the real cards, is the run's own row."""
    import json

    row = _first_declared(tmp_path / "run", "kontra_re.yaml", 60)
    code, out, err = _cli(capsys, tmp_path / "run", "--game", row["game_id"], "--declare", "null", "--json")
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert data["declarer"] == ("FH", "MH", "RH")[row["declarer"]] and data["bid"] == row["bid"]
    recorded, other = data["outcomes"]
    assert recorded["win_probability"] == float(row["won"]) and recorded["expected_score"] == row["score"]
    assert other["declaration"] == "null"
    code, out, err = _cli(capsys, tmp_path / "run", "--game", 60, "--declare", "null")
    assert code == 2 and "out of range" in err and len(err.splitlines()) == 1


def test_could_i_have_won_a_game_of_a_four_player_run(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A four-player run's manifest names four bots (the dealer sits out): RUN_DIR --game N seats them as the
    run did, instead of refusing the run's own bots as a --bots of three players."""
    import json

    row = _first_declared(tmp_path / "run", "tournament4.yaml", 60)
    code, out, err = _cli(capsys, tmp_path / "run", "--game", row["game_id"], "--declare", "grand", "--json")
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert data["declarer"] == ("FH", "MH", "RH")[row["declarer"]] and data["bid"] == row["bid"]
    seat = ("fh", "mh", "rh")[row["declarer"]]
    assert data["outcomes"][0]["expected_score"] == row[f"list_points_{seat}"]


def test_the_game_as_played_is_scored_as_its_rollouts(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Under list scoring the rollouts' score is the declarer's list points: the game as played at the table
    says its list points too, so the recorded declaration played out with the real cards reads the same."""
    import json

    row = _first_declared(tmp_path / "run", "tournament.yaml", 40)
    code, out, err = _cli(capsys, tmp_path / "run", "--game", row["game_id"], "--declare", "grand", "--json")
    assert (code, err) == (0, "")
    data = json.loads(out)
    points = row[f"list_points_{('fh', 'mh', 'rh')[row['declarer']]}"]
    assert points != row["score"] and data["outcomes"][0]["expected_score"] == points
    assert f"{points:+d} list points (as played at the table)" in data["recorded_result"]
