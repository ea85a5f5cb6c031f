"""Where the heuristic bot's card play loses against open-hand search, by situation (defence first).

    python scripts/defence_check.py --games 300

Two ``pimc`` defenders hold the heuristic declarer to 7.2 points fewer wins on the same deals
(docs/duel.md, By role); this says where the heuristic's defence gives that away. It plays ``--games``
deals of self-play with the default bots under ``--variant`` (seed ``--seed``, in this process), replays
every declared game's card play and, at each card a defender chooses (``--seats``: the declarer's, or
both), asks what the ``pimc`` bot asks (:mod:`skatsim.bots.pimc`): the cards the seat cannot see are
dealt ``--worlds`` times consistent with what it has seen (pimc's sampler, ``deal_hidden``), and every
world is solved open-handed after each legal card (one per class of equivalent cards): does the mover's
side win the game's yes/no question (the declarer reaches 61, 90 with Schneider announced, takes every
trick with Schwarz announced, none in Null; a defender wins when he does not).

Two independent sets of worlds: the best card is the one winning the most worlds of set 1 (ties to the
heuristic's card, then the lowest, as pimc breaks them); set 2 then scores that card and the
heuristic's, so picking does not flatter the best (no winner's curse). A decision's loss is the share of
set-2 worlds the mover's side wins with the best card minus the share with the heuristic's card; it is
"worse" when that difference exceeds noise (the worlds where only one of the two cards wins differ by more
than 1.96 standard deviations of a fair coin over them). Open-hand worlds flatter the defence (each world
is solved as if every card were seen), so the losses are an upper bound of what a real player could gain;
their ranking by situation is the point. Decisions with one class of legal cards are not counted.

Prints Markdown tables by game class, seat in the trick, trick number, the led card, following or not,
and who wins the trick so far (each table's rows add up to every decision), the situations and the pairs
of cards (the heuristic's -> the best, by kind) that lose the most per game, and the largest single
losses with their positions.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from skatsim.analysis.intervals import clt_interval
from skatsim.bots import DEFAULT_BOTS, SEARCH_TABLE_LOG2, bot_arrays, parse_bots
from skatsim.bots.cardplay import choose_card, note_voids
from skatsim.bots.pimc import card_classes, deal_world, declarer_wins, settled_record, world_constraints
from skatsim.engine import play
from skatsim.engine.block import simulate_block
from skatsim.engine.cards import ACE, JACK, NINE, QUEEN, TEN, format_cards
from skatsim.engine.deal import STREAM_WORLD, stream_key
from skatsim.engine.gametypes import GAME_TYPE_NAMES, GRAND, GROUP, NULL, RAMSCH, TRUMP_GROUP
from skatsim.engine.layout import COL_GAME_TYPE, LOG_WIDTH, N_COLUMNS
from skatsim.engine.solver import new_table, new_work
from skatsim.engine.solver_search import ROOT_FIRST, ROOT_HIGH, ROOT_LOW
from skatsim.engine.solver_tables import TO_POS
from skatsim.engine.tricks import trick_winner
from skatsim.errors import SkatsimError
from skatsim.records.record import record_from_log
from skatsim.solve import position
from skatsim.variant import load_variant

SEATS = ("defence", "declarer", "all")
OFFICIAL = str(Path(__file__).resolve().parents[1] / "variants" / "official.yaml")
SEAT_NAMES = ("FH", "MH", "RH")
#: The situation's fields, in the order the tables come (a decision also has ``cards``: the kinds of the
#: heuristic's card and the best card, see :func:`kind`).
FIELDS = ("class", "role", "seat in trick", "trick", "led", "follows", "winning")


@dataclass
class Decision:
    """One card decision: its situation, the two cards, and their worlds won on each set."""

    game: int
    situation: dict[str, str]
    heuristic: int
    best: int
    set1: tuple[int, int]  # worlds won with (best, heuristic) on set 1
    set2: tuple[int, int]  # ... on set 2
    only_best: int  # set-2 worlds only the best card wins
    only_heuristic: int  # set-2 worlds only the heuristic's card wins
    worlds: int
    state: np.ndarray  # the position (a play state) and the voids shown, as the seat saw them
    voids: np.ndarray
    rng: np.ndarray  # set 1's random stream, as it was before the worlds were dealt

    @property
    def loss(self) -> float:
        return (self.set2[0] - self.set2[1]) / self.worlds

    @property
    def worse(self) -> bool:
        """The best card wins more set-2 worlds than the heuristic's by more than noise."""
        a, b = self.only_best, self.only_heuristic
        return a > b and a - b > 1.96 * math.sqrt(a + b)


def self_play(params: np.ndarray, games: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Rows and action records of ``games`` games of the default bots."""
    kinds, bot_params = bot_arrays(parse_bots(DEFAULT_BOTS), params)
    rows = np.zeros((games, N_COLUMNS), dtype=np.int64)
    logs = np.zeros((games, LOG_WIDTH), dtype=np.int16)
    simulate_block(np.uint64(seed), 0, kinds, bot_params, params, rows, logs)
    return rows, logs


def candidates(state: np.ndarray, seat: int, card: int) -> tuple[list[int], int]:
    """One legal card per class of equivalent cards (pimc's classes, :func:`skatsim.bots.pimc.card_classes`),
    and the one standing for ``card``'s class."""
    classes, rep = card_classes(state, seat, play.legal_now(state), card)
    return [c for c in range(32) if int(classes) >> c & 1], int(rep)


def world_rng(seed: int, game: int, k: int, part: int) -> np.ndarray:
    """The random stream of set ``part`` (0 or 1) at the ``k``-th card of game ``game``: independent
    sets, every decision its own (the deal's own streams untouched)."""
    key = stream_key(np.uint64(seed), np.uint64(game * 64 + 2 * k + part), STREAM_WORLD)
    return np.array([key, 0], dtype=np.uint64)


def worlds(state: np.ndarray, seat: int, voids: np.ndarray, rng: np.ndarray, n: int) -> list[np.ndarray]:
    """``n`` play states of the real position with the cards ``seat`` cannot see dealt anew, consistent
    with what it has seen, as pimc deals them (:func:`skatsim.bots.pimc.world_constraints`)."""
    known = world_constraints(state, seat, voids)
    a, b = (seat + 1) % 3, (seat + 2) % 3
    out = []
    deal = np.zeros(3, dtype=np.int64)
    for _ in range(n):
        deal_world(rng, known, deal)
        world = state.copy()
        for field, held in zip((play.HAND0 + a, play.HAND0 + b, play.SKAT), deal, strict=True):
            if held:
                world[field] = held
        out.append(world)
    return out


class Judge:
    """The solver's table and scratch, and the worlds won after each candidate card."""

    def __init__(self) -> None:
        self.tt = new_table(SEARCH_TABLE_LOG2)
        self.work = new_work()

    def wins(self, states: list[np.ndarray], seat: int, cards: list[int], first: int) -> np.ndarray:
        """``(len(states), len(cards))``: 1 where the mover's side wins the world after the card. As pimc:
        one root search per world, ``first`` tried first, keeps every card it settles; the rest alone."""
        gt = int(states[0][play.GT])
        is_declarer = seat == int(states[0][play.DECLARER])
        mask = np.uint32(sum(1 << c for c in cards))
        order = sorted(cards)  # settled_record's bit i is the i-th lowest candidate
        out = np.zeros((len(states), len(cards)), dtype=np.int64)
        work = self.work
        for w, world in enumerate(states):
            work[ROOT_FIRST] = TO_POS[gt, first] + 1
            work[ROOT_HIGH] = 0
            work[ROOT_LOW] = 0
            win = bool(declarer_wins(world, self.tt, work)) == is_declarer
            work[ROOT_FIRST] = 0
            rec = int(settled_record(work, gt, mask, is_declarer, win))
            for j, c in enumerate(cards):
                i = order.index(c)
                if rec >> i & 1:
                    out[w, j] = 1
                elif not rec >> (16 + i) & 1:
                    child = world.copy()
                    play.apply_card(child, seat, c)
                    out[w, j] = bool(declarer_wins(child, self.tt, work)) == is_declarer
        return out


def kind(state: np.ndarray, voids: np.ndarray, c: int) -> str:
    """A card's kind, for the table of card pairs: a jack or another trump; a plain card by rank (in Null
    by Null rank), marked when the declarer has shown void in its suit (he ruffs it, or in Grand and Null
    throws off)."""
    gt, d = int(state[play.GT]), int(state[play.DECLARER])
    g = int(GROUP[gt, c])
    if g == TRUMP_GROUP and gt != NULL:
        return "jack" if c % 8 == JACK else "trump"
    rank = c % 8
    if gt == NULL:
        name = "7-9" if rank <= NINE else "T-J" if rank <= JACK else "Q-A"
    else:
        name = "A" if rank == ACE else "T" if rank == TEN else "K/Q" if rank >= QUEEN else "7-9"
    return name + (" (declarer void)" if int(voids[d]) >> g & 1 else "")


def situation(state: np.ndarray, seat: int) -> dict[str, str]:
    """The decision's situation (see :data:`FIELDS`)."""
    gt, d = int(state[play.GT]), int(state[play.DECLARER])
    n = int(state[play.N_IN_TRICK])
    trick = int(state[play.TRICK_NO]) + 1
    out = {
        "class": "Null" if gt == NULL else "Grand" if gt == GRAND else "suit",
        "role": "declarer" if seat == d else "defender",
        "seat in trick": ("leads", "second", "third")[n],
        "trick": "1-3" if trick <= 3 else "4-6" if trick <= 6 else "7-10",
        "led": "-",
        "follows": "-",
        "winning": "-",
    }
    if n == 0:
        return out
    led = int(state[play.TRICK0])
    lg = int(GROUP[gt, led])
    hand = int(play.hand_of(state, seat))
    groups = {int(GROUP[gt, c]) for c in range(32) if hand >> c & 1}
    out["led"] = "trump" if lg == TRUMP_GROUP and gt != NULL else "plain"
    if lg in groups:
        out["follows"] = "must follow"
    elif TRUMP_GROUP in groups and gt != NULL:
        out["follows"] = "void: may ruff"
    else:
        out["follows"] = "void: discards"
    leader = int(state[play.LEADER])
    if n == 1:
        top = leader
    else:
        c1 = int(state[play.TRICK0 + 1])
        top = (leader + trick_winner(gt, led, c1, c1)) % 3  # the second card against the first
    out["winning"] = "declarer" if top == d else "a defender" if seat == d else "partner"
    return out


def describe(state: np.ndarray, seat: int) -> str:
    """A position in the engine's card notation: the game, the hands, the skat, the trick so far."""
    gt, d = int(state[play.GT]), int(state[play.DECLARER])
    hands = " ".join(
        f"{SEAT_NAMES[s]}{'*' if s == d else ''}{'>' if s == seat else ''}: {format_cards(int(play.hand_of(state, s)))}"
        for s in range(3)
    )
    trick = [int(state[play.TRICK0 + k]) for k in range(int(state[play.N_IN_TRICK]))]
    skat = format_cards(int(state[play.SKAT]))
    so_far = " ".join(format_cards([c]) for c in trick) if trick else "(leads)"  # in the order played
    return f"{GAME_TYPE_NAMES[gt]}, trick {int(state[play.TRICK_NO]) + 1}, {hands}; skat {skat}; trick so far: {so_far}"


def check_game(
    judge: Judge, record, params: np.ndarray, game: int, seed: int, n_worlds: int, seats: str
) -> list[Decision]:
    """The decisions of one declared game's card play (the record's cards replayed)."""
    state = position(record, 0, params)
    d = int(state[play.DECLARER])
    voids = np.zeros(3, dtype=np.int64)
    out = []
    for k, card in enumerate(record.cards):
        seat = int(play.to_move(state))
        mine = seats == "all" or (seats == "declarer") == (seat == d)
        if mine:
            heuristic = int(choose_card(state, seat, voids, False))
            if heuristic != card:
                raise AssertionError(f"game {game}, card {k + 1}: the heuristic plays {heuristic}, the record {card}")
            cands, fb = candidates(state, seat, heuristic)
            if len(cands) > 1:
                out.append(decide(judge, state, seat, voids, cands, heuristic, fb, game, seed, k, n_worlds))
        note_voids(state, seat, card, voids)
        play.apply_card(state, seat, card)
        if state[play.OVER]:
            break
    return out


def decide(
    judge: Judge,
    state: np.ndarray,
    seat: int,
    voids: np.ndarray,
    cands: list[int],
    heuristic: int,
    fb: int,
    game: int,
    seed: int,
    k: int,
    n_worlds: int,
) -> Decision:
    """Best card on set 1, both cards scored on set 2 (``fb``: the candidate of the heuristic's class)."""
    sets = [worlds(state, seat, voids, world_rng(seed, game, k, part), n_worlds) for part in range(2)]
    won1 = judge.wins(sets[0], seat, cands, fb).sum(axis=0)
    # most worlds won; ties to the heuristic's card, then the lowest card
    best = max(cands, key=lambda c: (won1[cands.index(c)], c == fb, -c))
    pair = [best, fb] if best != fb else [fb]
    two = judge.wins(sets[1], seat, pair, fb)
    b2, h2 = two[:, 0], two[:, -1]
    return Decision(
        game=game,
        situation=situation(state, seat) | {"cards": f"{kind(state, voids, heuristic)} -> {kind(state, voids, best)}"},
        heuristic=heuristic,
        best=best,
        set1=(int(won1[cands.index(best)]), int(won1[cands.index(fb)])),
        set2=(int(b2.sum()), int(h2.sum())),
        only_best=int((b2 > h2).sum()),
        only_heuristic=int((h2 > b2).sum()),
        worlds=n_worlds,
        state=state.copy(),
        voids=voids.copy(),
        rng=world_rng(seed, game, k, 0),
    )


def grouped(decisions: list[Decision], keys: tuple[str, ...]) -> dict[tuple[str, ...], list[Decision]]:
    """The decisions by the values of the situation fields ``keys``."""
    out: dict[tuple[str, ...], list[Decision]] = defaultdict(list)
    for x in decisions:
        out[tuple(x.situation[f] for f in keys)].append(x)
    return out


def table(decisions: list[Decision], keys: tuple[str, ...], games: int, top: int = 0) -> list[str]:
    """Markdown rows by the situation fields ``keys``: decisions, share worse, mean loss (95%), loss per
    game; the ``top`` rows losing the most per game when ``top`` is set (all rows, by key, otherwise)."""
    groups = grouped(decisions, keys)
    rows = sorted(groups, key=lambda key: -sum(x.loss for x in groups[key])) if top else sorted(groups)
    lines = [
        f"| {' | '.join(keys)} | decisions | worse | mean loss | 95% interval | loss per game |",
        f"| {' | '.join('---' for _ in keys)} | ---: | ---: | ---: | --- | ---: |",
    ]
    for key in rows[: top or None]:
        loss = np.array([x.loss for x in groups[key]])
        n = len(loss)
        worse = sum(x.worse for x in groups[key])
        lo, hi = clt_interval(loss.mean(), loss.std(ddof=1) if n > 1 else math.nan, n)
        lines.append(
            f"| {' | '.join(key)} | {n:,} | {100 * worse / n:.1f}% | {100 * loss.mean():.2f} | "
            f"{100 * lo:.2f} .. {100 * hi:.2f} | {100 * loss.sum() / games:.2f} |"
        )
    return lines


def report(decisions: list[Decision], declared: int, header: str, biggest: int = 10) -> str:
    """The whole printout: a table per field, the worst situations, the largest losses."""
    out = [header, ""]
    out += ["Losses in percentage points of worlds won; per game: summed over the decisions, per declared game.", ""]
    out += table(decisions, ("role",), declared) + [""]
    for field in FIELDS:
        if field != "role":
            out += table(decisions, ("role", field), declared) + [""]
    out += ["Situations losing the most per game:", ""]
    out += table(decisions, ("role", "class", "seat in trick", "led", "follows", "winning"), declared, top=15) + [""]
    out += ["Card pairs losing the most per game (the heuristic's card -> the best card, by kind):", ""]
    out += table(decisions, ("role", "class", "seat in trick", "cards"), declared, top=15) + [""]
    out += [f"The {biggest} largest single losses:", ""]
    out += ["| loss | game | position (* declarer, > to move) | heuristic | best | set 1 best/heur | set 2 best/heur |"]
    out += ["| ---: | ---: | --- | --- | --- | --- | --- |"]
    for x in sorted(decisions, key=lambda x: -x.loss)[:biggest]:
        where = describe(x.state, int(play.to_move(x.state)))
        cards = f"{format_cards([x.heuristic])} | {format_cards([x.best])}"
        scores = f"{x.set1[0]}/{x.set1[1]} | {x.set2[0]}/{x.set2[1]}"
        out.append(f"| {100 * x.loss:.0f} | {x.game} | {where} | {cards} | {scores} |")
    return "\n".join(out)


def run(games: int, seed: int, n_worlds: int, variant_path: str, seats: str) -> tuple[list[Decision], int]:
    """Every decision of ``games`` self-play deals, and the number of declared games among them."""
    params = load_variant(variant_path).variant.params()
    rows, logs = self_play(params, games, seed)
    judge = Judge()
    decisions: list[Decision] = []
    declared = 0
    start = time.perf_counter()
    for g in range(games):
        gt = int(rows[g, COL_GAME_TYPE])
        if 0 <= gt != RAMSCH:
            declared += 1
            decisions += check_game(judge, record_from_log(rows[g], logs[g]), params, g, seed, n_worlds, seats)
        if (g + 1) % 10 == 0 or g + 1 == games:
            took = time.perf_counter() - start
            print(f"{g + 1}/{games} games, {len(decisions):,} decisions, {took:.0f} s", file=sys.stderr)
    return decisions, declared


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--worlds", type=int, default=20, help="worlds per set (two sets per decision)")
    parser.add_argument("--variant", default=OFFICIAL, help="variant file (default: the official rules)")
    parser.add_argument("--seats", choices=SEATS, default="defence", help="whose cards are checked")
    args = parser.parse_args(argv)
    if args.games < 1:
        print(f"defence_check: --games {args.games}: give at least 1", file=sys.stderr)
        return 2
    if not 1 <= args.worlds <= 1000:
        print(f"defence_check: --worlds {args.worlds}: give 1 .. 1000", file=sys.stderr)
        return 2
    if args.seed < 0:
        print(f"defence_check: --seed {args.seed}: give a seed >= 0", file=sys.stderr)
        return 2
    start = time.perf_counter()
    try:
        decisions, declared = run(args.games, args.seed, args.worlds, args.variant, args.seats)
    except (SkatsimError, OSError) as exc:
        print(f"defence_check: {exc}", file=sys.stderr)
        return 2
    header = (
        f"{args.games:,} games ({declared:,} declared), variant {args.variant}, seed {args.seed}, "
        f"{args.worlds} worlds per set, seats {args.seats}: {len(decisions):,} decisions, "
        f"{time.perf_counter() - start:.0f} s"
    )
    print(report(decisions, declared, header))
    return 0


if __name__ == "__main__":
    sys.exit(main())
