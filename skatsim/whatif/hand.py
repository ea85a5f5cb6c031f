"""What is this hand worth? Every game a seat could declare with ten cards, rolled out by the bots.

:func:`evaluate_hand` takes ten cards at a seat (the skat's two cards too, if known) and,
for every declaration the variant allows — the four suits, Grand, the reversed game where
allowed, each with the skat, hand, hand with Schneider or Schwarz announced and ouvert, and
Null with the skat, hand, ouvert and ouvert hand — plays ``samples`` deals in which the other
22 cards are dealt at random (:mod:`skatsim.whatif`, worlds ``"uniform"``), the seat wins the
auction at the declaration's bid value with both others passing, and the bots do the rest
(with the skat: the seat's bot discards for that game; all card play; Kontra and Re where
the variant has them). All declarations meet the same deals (common random numbers), so
their differences are measured deal by deal.

For each declaration: the bid value counted from the ten cards (what a player bids on), the
mean game value charged (the skat can change matadors: an overbid is charged as one), the win
probability, the declarer's Schneider and Schwarz probabilities, his mean card points and
the expected score under the variant (lost factors, Kontra/Re as the bots play them,
Seeger-Fabian list points under tournament scoring), each with a 95% interval. Also: the
expected score of passing (0, or the Ramsch that follows where the variant plays one, or the
list points others' games bring), and the bots' own choice: how high the seat's bot bids with
the hand and what it declares when it wins at that value.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..analysis.intervals import clt_interval, wilson
from ..bots import DEFAULT_BOTS
from ..engine.cards import RANK_DISPLAY, RANK_LETTERS, SUIT_LETTERS, SUIT_SYMBOLS, display_name, iss_name
from ..engine.declaration import declaration_error
from ..engine.gametypes import GAME_TYPE_LABELS, GRAND, NULL, REVERSED
from ..engine.layout import (
    COL_DECLARER,
    COL_GAME_TYPE,
    COL_HAND,
    COL_LIST_POINTS_FH,
    COL_OUVERT,
    COL_POINTS,
    COL_SCHNEIDER,
    COL_SCHWARZ,
    COL_SCORE_FH,
    COL_TRICKS,
    COL_VALUE,
    COL_WON,
)
from ..engine.rules import LIST_SCORING
from ..engine.scoring import HAND, OUVERT, SCHNEIDER_ANNOUNCED, SCHWARZ_ANNOUNCED
from ..errors import SkatsimError
from ..variant import official_params
from . import kernels
from .rollouts import Ceiling, Declare, bid_value, declaration_label, from_hand, plan

SEATS = ("FH", "MH", "RH")
#: Rollouts per declaration by default.
SAMPLES = 10_000
#: Announcements tried for suit games, Grand and the reversed game; Null's kinds.
SUIT_FLAGS = (0, HAND, HAND | SCHNEIDER_ANNOUNCED, HAND | SCHWARZ_ANNOUNCED, HAND | OUVERT)
NULL_FLAGS = (0, HAND, OUVERT, HAND | OUVERT)
#: Game types in the order options are built (suits from clubs down, as players name them).
GAME_ORDER = (3, 2, 1, 0, GRAND, REVERSED, NULL)


# --------------------------------------------------------------------------- cards


_SYMBOL_RANKS = {name.upper(): r for r, name in enumerate(RANK_DISPLAY)} | {"T": 3}


def parse_hand_cards(text: str | Sequence[str], what: str = "hand") -> list[int]:
    """Cards in ISS notation (``CJ SJ CA``) or with suit symbols (``♣J ♠J ♣A ♥10``), separated by
    spaces, commas or dots; one :class:`SkatsimError` line for an unknown card or one given twice."""
    tokens = (
        re.split(r"[\s,.;]+", text.strip())
        if isinstance(text, str)
        else [t for part in text for t in re.split(r"[\s,.;]+", part.strip())]
    )
    cards: list[int] = []
    for token in (t for t in tokens if t):
        c = _card(token)
        if c is None:
            raise SkatsimError(
                f"{what}: unknown card {token!r} (ISS notation like CJ, HT, D7, or a suit symbol and rank like ♣J, ♥10)"
            )
        if c in cards:
            raise SkatsimError(f"{what}: {iss_name(c)} is given twice")
        cards.append(c)
    return cards


def _card(token: str) -> int | None:
    up = token.upper()
    if len(up) == 2 and up[0] in SUIT_LETTERS and up[1] in RANK_LETTERS:
        return SUIT_LETTERS.index(up[0]) * 8 + RANK_LETTERS.index(up[1])
    if token[0] in SUIT_SYMBOLS and token[1:].upper() in _SYMBOL_RANKS:
        return SUIT_SYMBOLS.index(token[0]) * 8 + _SYMBOL_RANKS[token[1:].upper()]
    return None


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class Estimate:
    """A rate or mean with its 95% interval (``None`` where it does not apply)."""

    value: float | None
    lo: float | None
    hi: float | None

    @classmethod
    def rate(cls, hits: np.ndarray) -> Estimate:
        rate, lo, hi = wilson(int(hits.sum()), hits.size)
        return cls(rate, lo, hi)

    @classmethod
    def mean(cls, values: np.ndarray) -> Estimate:
        values = values.astype(np.float64)
        mean = float(values.mean())
        sd = float(values.std(ddof=1)) if values.size > 1 else math.nan
        lo, hi = clt_interval(mean, sd, values.size)
        if sd == 0.0:
            lo = hi = mean
        return cls(mean, lo, hi)

    def ci(self) -> list[float | None] | None:
        return None if self.value is None else [_num(self.lo), _num(self.hi)]


NONE = Estimate(None, None, None)


def _num(x: float | None) -> float | None:
    return None if x is None or math.isnan(x) else round(float(x), 6)


@dataclass(frozen=True)
class HandOption:
    """One declaration of the hand and what the rollouts made of it."""

    game: str
    game_type: int
    flags: int
    bid_value: int
    game_value: Estimate
    win_probability: Estimate
    schneider_probability: Estimate
    schwarz_probability: Estimate
    declarer_points: Estimate
    expected_score: Estimate

    @property
    def label(self) -> str:
        return declaration_label(self.game_type, self.flags)

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "game": self.game,
            "hand": bool(self.flags & HAND),
            "ouvert": bool(self.flags & OUVERT),
            "schneider_announced": bool(self.flags & SCHNEIDER_ANNOUNCED)
            or bool(self.flags & OUVERT and self.game_type != NULL),
            "schwarz_announced": bool(self.flags & SCHWARZ_ANNOUNCED)
            or bool(self.flags & OUVERT and self.game_type != NULL),
            "label": self.label,
            "bid_value": self.bid_value,
        }
        for name in (
            "game_value",
            "win_probability",
            "schneider_probability",
            "schwarz_probability",
            "declarer_points",
            "expected_score",
        ):
            est: Estimate = getattr(self, name)
            out[name] = _num(est.value)
            out[f"{name}_ci"] = est.ci()
        return out


@dataclass(frozen=True)
class BotChoice:
    """What the seat's bot does with the hand: bids up to ``bid_limit`` (0: passes; ``None``: the bot
    does not bid by a ceiling) and, winning there, declares ``game`` (its most frequent declaration
    over the rollouts, ``share`` of them; ``hand``: played hand) for ``expected_score``."""

    game: str | None
    hand: bool | None
    bid_limit: int | None
    share: float | None
    games: dict[str, float]
    expected_score: Estimate


@dataclass(frozen=True)
class HandEvaluation:
    """The result of :func:`evaluate_hand`: options sorted by expected score, best first."""

    cards: tuple[int, ...]
    seat: int
    skat: tuple[int, ...]
    variant: str
    samples: int
    seed: int
    bots: tuple[str, ...]
    options: tuple[HandOption, ...]
    passing: Estimate
    bot_choice: BotChoice

    def to_json(self) -> str:
        """The evaluation as a JSON object (``hand``, ``seat``, ``variant``, ``samples``, ``seed``,
        ``options``, ``pass``, ``bot_choice``; every estimate with its ``*_ci`` interval)."""
        choice = self.bot_choice
        data = {
            "hand": [iss_name(c) for c in self.cards],
            "seat": SEATS[self.seat],
            "skat": [iss_name(c) for c in self.skat] or None,
            "variant": self.variant,
            "samples": self.samples,
            "seed": self.seed,
            "bots": list(self.bots),
            "options": [o.to_json() for o in self.options],
            "pass": {"expected_score": _num(self.passing.value), "expected_score_ci": self.passing.ci()},
            "bot_choice": {
                "game": choice.game,
                "hand": choice.hand,
                "bid_limit": choice.bid_limit,
                "share": _num(choice.share),
                "games": {k: _num(v) for k, v in choice.games.items()},
                "expected_score": _num(choice.expected_score.value),
                "expected_score_ci": choice.expected_score.ci(),
            },
        }
        return json.dumps(data, indent=2, ensure_ascii=False)

    def text(self) -> str:
        """A table of the options, best expected score first, with the passing row among them."""
        from ..records.gameview import sort_hand

        cards = " ".join(display_name(c) for c in sort_hand(list(self.cards)))
        head = [f"{cards}  ({SEATS[self.seat]}"]
        if self.skat:
            head[0] += ", skat " + " ".join(display_name(c) for c in self.skat)
        head[0] += f"; {self.variant}; {self.samples:,} deals per game, seed {self.seed})"
        rest = "the other 20 cards" if self.skat else "the other 22 cards"
        head.append(f"{rest} dealt at random; the seat wins the auction at the game's bid value and the others")
        head.append("pass; the bots discard (for the game), play the cards and double where the variant lets them")
        header = (
            f"{'game':<24}{'bid':>4}  {'value':>11}  {'win %':>19}  {'Schn%':>5}  {'Schw%':>5}  {'points':>6}  "
            f"{'expected score':>14}"
        )
        lines = [*head, "", header]
        rows = [(o.expected_score.value or 0.0, self._row(o)) for o in self.options]
        blank = f"{'':>4}  {'':>11}  {'':>19}  {'':>5}  {'':>5}  {'':>6}"
        rows.append((self.passing.value or 0.0, f"{'pass':<24}{blank}  {_mean(self.passing, 1):>14}"))
        rows.sort(key=lambda r: -r[0])
        lines += [r for _, r in rows]
        lines += ["", self._choice_line()]
        return "\n".join(lines) + "\n"

    @staticmethod
    def _row(o: HandOption) -> str:
        return (
            f"{o.label:<24}{o.bid_value:>4}  {_mean(o.game_value, 1):>11}  {_pct_ci(o.win_probability):>19}  "
            f"{_pct(o.schneider_probability):>5}  {_pct(o.schwarz_probability):>5}  "
            f"{_plain(o.declarer_points):>6}  {_mean(o.expected_score, 1):>14}"
        )

    def _choice_line(self) -> str:
        c = self.bot_choice
        if c.bid_limit is None:
            return "bots' choice: this bot does not bid by a ceiling (no single choice to show)"
        if c.bid_limit == 0:
            return f"bots' choice: pass at once; expected score {_mean(c.expected_score, 1)}"
        how = "hand" if c.hand else "with the skat"
        others = ", ".join(f"{name} {100 * share:.0f}%" for name, share in list(c.games.items())[1:4])
        tail = f" ({100 * (c.share or 0):.0f}% of deals; {others})" if others else ""
        return (
            f"bots' choice: bid up to {c.bid_limit}; winning there, declare {c.game} {how}{tail}; "
            f"expected score {_mean(c.expected_score, 1)}"
        )


def _pct(e: Estimate) -> str:
    return "" if e.value is None else f"{100 * e.value:.1f}"


def _pct_ci(e: Estimate) -> str:
    if e.value is None:
        return ""
    return f"{100 * e.value:.1f} [{100 * (e.lo or 0):.1f}, {100 * (e.hi or 0):.1f}]"


def _plain(e: Estimate) -> str:
    return "" if e.value is None else f"{e.value:.1f}"


def _mean(e: Estimate, digits: int) -> str:
    if e.value is None:
        return ""
    if e.lo is None or e.hi is None or math.isnan(e.lo):
        return f"{e.value:.{digits}f}"
    return f"{e.value:.{digits}f} ± {(e.hi - e.lo) / 2:.{digits}f}"


# --------------------------------------------------------------------------- the evaluation


def declarations(params: np.ndarray, games: Sequence[int] | None = None) -> list[tuple[int, int]]:
    """Every ``(game type, flags)`` the variant lets a declarer choose (of ``games`` when given)."""
    out = []
    for gt in GAME_ORDER:
        if games is not None and gt not in games:
            continue
        for flags in NULL_FLAGS if gt == NULL else SUIT_FLAGS:
            if not declaration_error(gt, flags, not flags & HAND, params):
                out.append((gt, flags))
    return out


def game_codes(names: Sequence[str], params: np.ndarray, option: str = "--game") -> list[int]:
    """Game-type codes of game names (``clubs``, ``grand``, ``null``, ...) given to ``option``, checked
    against the variant."""
    codes = []
    allowed = {gt for gt, _ in declarations(params)}
    choosable = [GAME_TYPE_LABELS[g] for g in GAME_ORDER]
    for name in names:
        key = name.strip().lower()
        code = next((g for g in GAME_ORDER if GAME_TYPE_LABELS[g] == key), None)
        if code is None:
            raise SkatsimError(f"{option}: unknown game {name!r} (choose from {', '.join(choosable)})")
        if code not in allowed:
            raise SkatsimError(f"{option}: this variant does not allow {key} (reversed_game.enabled is off)")
        codes.append(code)
    return codes


def evaluate_hand(
    cards: Sequence[int],
    seat: int = 0,
    skat: Sequence[int] = (),
    params: np.ndarray | None = None,
    bots: str = DEFAULT_BOTS,
    samples: int = SAMPLES,
    seed: int = 1,
    games: Sequence[int] | None = None,
    bid: int | None = None,
    variant: str = "official",
    jobs: int | None = None,
) -> HandEvaluation:
    """Evaluate ten ``cards`` at ``seat`` (0 FH, 1 MH, 2 RH): every declaration the variant ``params``
    allows (only those of ``games`` when given), passing, and the bots' own choice, each rolled out
    ``samples`` times on the same deals (the other cards random, ``skat`` fixed when given).
    ``bid``: play every declaration at this final bid instead of its own bid value (the highest bid
    value it covers, where the value itself is none, as a reversed game's 220). Rollout ``i``
    is a pure function of ``(seed, i)``: the same seed gives the same numbers on any machine."""
    params = official_params() if params is None else np.asarray(params, dtype=np.int64)
    _check_cards(cards, skat, seat)
    if samples < 2:
        raise SkatsimError(f"--samples: at least 2 deals are needed for an interval, got {samples}")
    mask = sum(1 << c for c in cards)
    options = declarations(params, games)
    decisions: list = [Declare(gt, flags, bid) for gt, flags in options]
    decisions.append(Ceiling(seat, 0))
    start = from_hand(cards, seat, skat)
    probe = plan(start, decisions[-1:], params, bots, 2, seed, "uniform")
    limit = int(kernels.bid_limit_of(params, probe.kinds, probe.bots, seat, np.uint32(mask)))
    if limit > 0:
        decisions.append(Declare(None, 0, limit))
    query = plan(start, decisions, params, bots, samples, seed, "uniform")
    rows, _, _ = query.block(0, samples, jobs or os.cpu_count() or 1)
    score_col = (COL_LIST_POINTS_FH if params[LIST_SCORING] else COL_SCORE_FH) + seat
    results = []
    for k, (gt, flags) in enumerate(options):
        r = rows[:, k]
        suit_like = gt != NULL
        points = r[:, COL_POINTS]
        results.append(
            HandOption(
                game=GAME_TYPE_LABELS[gt],
                game_type=gt,
                flags=flags,
                bid_value=bid_value(gt, flags, mask),
                game_value=Estimate.mean(r[:, COL_VALUE]),
                win_probability=Estimate.rate(r[:, COL_WON] == 1),
                schneider_probability=Estimate.rate((points >= 90) & (r[:, COL_SCHNEIDER] == 1)) if suit_like else NONE,
                schwarz_probability=Estimate.rate((r[:, COL_TRICKS] == 10) & (r[:, COL_SCHWARZ] == 1))
                if suit_like
                else NONE,
                declarer_points=Estimate.mean(points) if suit_like else NONE,
                expected_score=Estimate.mean(r[:, score_col]),
            )
        )
    results.sort(key=lambda o: -(o.expected_score.value or 0.0))
    passing = Estimate.mean(rows[:, len(options), score_col])
    choice = _bot_choice(rows[:, -1] if limit > 0 else None, limit, seat, score_col, passing)
    return HandEvaluation(
        cards=tuple(cards),
        seat=seat,
        skat=tuple(skat),
        variant=variant,
        samples=samples,
        seed=seed,
        bots=query.bot_settings,
        options=tuple(results),
        passing=passing,
        bot_choice=choice,
    )


def _bot_choice(rows: np.ndarray | None, limit: int, seat: int, score_col: int, passing: Estimate) -> BotChoice:
    if limit < 0:
        return BotChoice(None, None, None, None, {}, NONE)
    if rows is None:
        return BotChoice("pass", False, 0, 1.0, {"pass": 1.0}, passing)
    assert np.all(rows[:, COL_DECLARER] == seat)
    names = Counter(
        declaration_label(int(gt), HAND * int(hand) + OUVERT * int(ouvert))
        for gt, hand, ouvert in zip(rows[:, COL_GAME_TYPE], rows[:, COL_HAND], rows[:, COL_OUVERT], strict=True)
    )
    n = rows.shape[0]
    games = {name: count / n for name, count in names.most_common()}
    pairs = Counter(zip(rows[:, COL_GAME_TYPE].tolist(), rows[:, COL_HAND].tolist(), strict=True))
    (top_gt, top_hand), count = pairs.most_common(1)[0]
    return BotChoice(
        GAME_TYPE_LABELS[int(top_gt)], bool(top_hand), limit, count / n, games, Estimate.mean(rows[:, score_col])
    )


def _check_cards(cards: Sequence[int], skat: Sequence[int], seat: int) -> None:
    if len(cards) != 10:
        raise SkatsimError(f"hand: expected 10 cards, got {len(cards)}")
    if seat not in (0, 1, 2):
        raise SkatsimError(f"--seat: {seat} (allowed: FH, MH, RH)")
    if skat:
        if len(skat) != 2:
            raise SkatsimError(f"--skat: expected 2 cards, got {len(skat)}")
        both = [iss_name(c) for c in skat if c in cards]
        if both:
            raise SkatsimError(f"--skat: {' '.join(both)} is in the hand too")
