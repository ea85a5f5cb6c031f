"""Bots: compiled players for every decision of a deal, behind one seam (:mod:`.seam`).

A bot is a kind code plus a parameter vector (``float64``), both per seat, so a
deal can seat different bots and settings side by side. The registry below is
the one place that names bots, their parameters, ranges, defaults and meaning;
``skatsim bots`` prints it. A bot setting is written ``name`` or
``name:param=value:param=value`` (``heuristic:loss_aversion=2``); :func:`parse_bots`
turns ``--bots`` into canonical settings (parameters in registry order, defaults
left out), which is what runs record and the ``bot_*`` columns show.

Adding a bot: its kernels in a module here, an entry in :data:`BOTS` with a new
kind code, and its branch in each decision of :mod:`.seam`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from ..errors import SkatsimError
from . import slots

RANDOM = 0
HEURISTIC = 1
#: The player of a replayed game: it has no decisions of its own, every one comes from the record.
RECORDED = 2
PIMC = 3


@dataclass(frozen=True)
class BotParam:
    """One tunable bot parameter: name, default, the range it may take, its meaning, and whether it
    counts something (``whole``: only whole numbers, a count the kernels would otherwise truncate)."""

    name: str
    default: float
    doc: str
    low: float = -math.inf
    high: float = math.inf
    whole: bool = False


@dataclass(frozen=True)
class BotSpec:
    """A bot kind: its code, a one-line description, its parameters (in vector order), and whether
    ``--bots`` may seat it (the recorded-decisions player only replays records)."""

    name: str
    kind: int
    doc: str
    params: tuple[BotParam, ...] = ()
    seatable: bool = True


N_BOT_PARAMS = slots.N_BOT_PARAMS
#: Numbers a variant's calibration adds to a heuristic bot's row (:mod:`skatsim.bots.variantcal`).
N_CALIB = slots.N_CALIB
#: Width of a prepared row: the registry's parameters, the variant's calibration, and what each bot
#: derives from them once per block (:mod:`skatsim.bots.slots`).
N_PREPARED = slots.N_PREPARED

#: Scratch for bots that search, kept in every deal state (:mod:`skatsim.bots.slots`).
MAX_WORLDS = slots.MAX_WORLDS
N_SEARCH = slots.N_SEARCH
SEARCH_TABLE_LOG2 = slots.SEARCH_TABLE_LOG2

#: The heuristic's parameters (bidding, declaring, Kontra/Re); the pimc bot bids and declares by them too.
HEURISTIC_PARAMS: tuple[BotParam, ...] = (
    BotParam(
        "loss_aversion",
        1.0,
        "how many times a loss counts against an equal gain when the bot weighs its choices "
        "(1: it maximises its expected score)",
        0.25,
        4.0,
    ),
    BotParam(
        "hand_bias",
        0.0,
        "log-odds added to the bot's chance in every hand game but Null (< 0: wary of playing without the skat)",
        -10.0,
        10.0,
    ),
    BotParam(
        "grand_bias",
        -0.48,
        "log-odds added to the bot's chance in every Grand (> 0: trusts Grand)",
        -10.0,
        10.0,
    ),
    BotParam("null_bias", -0.07, "log-odds added to the bot's chance in every Null (> 0: trusts Null)", -10.0, 10.0),
    BotParam(
        "suit_bias",
        -0.37,
        "log-odds added to the bot's chance in every suit game (> 0: trusts suit games)",
        -10.0,
        10.0,
    ),
    BotParam(
        "ouvert_bias",
        -0.46,
        "log-odds added to the bot's chance in Null ouvert, on top of null_bias",
        -10.0,
        10.0,
    ),
    BotParam(
        "reversed_bias",
        0.0,
        "log-odds added to the bot's chance in the reversed game (> 0: trusts it)",
        -10.0,
        10.0,
    ),
    BotParam(
        "grand_bid_bias",
        0.18,
        "log-odds added to Grand estimates when deciding how high to bid, on top of grand_bias (> 0: "
        "bid a Grand's value on a hand it would not readily declare a Grand on; < 0: only on a safer one)",
        -10.0,
        10.0,
    ),
    BotParam(
        "null_hand_bias",
        -2.49,
        "log-odds added to the bot's chance in Null hand and Null ouvert hand (on top of null_bias and ouvert_bias)",
        -10.0,
        10.0,
    ),
    BotParam(
        "null_bid_bias",
        0.55,
        "log-odds added to Null estimates when deciding how high to bid (> 0: bid a Null's value on "
        "hopes, and play the Null the auction leaves, hand if it must)",
        -10.0,
        10.0,
    ),
    BotParam(
        "ouvert_hand_bias",
        1.94,
        "log-odds added to the bot's chance in Null ouvert hand, on top of null_bias, ouvert_bias and null_hand_bias",
        -10.0,
        10.0,
    ),
    BotParam(
        "null_hand_spread",
        3.84,
        "how far the bot misjudges a Null hand (not ouvert): log-odds added to its chance, an amount "
        "fixed for the ten cards, triangular between -spread and +spread (0: judges it as every game)",
        0.0,
        10.0,
    ),
    BotParam(
        "first_bid_bias",
        0.25,
        "log-odds added to every estimate but Null's when deciding whether to make the first bid (> 0: "
        "counts on the others' weakness where a first bid wins the auction)",
        -10.0,
        10.0,
    ),
)

#: Where the pimc bot's ``worlds`` stands among its parameters: after the heuristic's (in a
#: :func:`bot_arrays` row it goes after the calibration, :data:`skatsim.bots.slots.X_WORLDS` prepared).
PIMC_WORLDS = len(HEURISTIC_PARAMS)

BOTS: dict[str, BotSpec] = {
    "random": BotSpec("random", RANDOM, "uniform legal choices at every decision (a baseline)"),
    "heuristic": BotSpec(
        "heuristic",
        HEURISTIC,
        "bids, declares and doubles for the best expected score under the variant's own scoring "
        "(calibrated outcome model); club players' card play",
        HEURISTIC_PARAMS,
    ),
    "pimc": BotSpec(
        "pimc",
        PIMC,
        "perfect-information Monte Carlo card play (samples the unseen cards, solves each world open-handed, "
        "plays the card winning in most); bids, declares and doubles as the heuristic",
        (
            *HEURISTIC_PARAMS,
            BotParam(
                "worlds", 20.0, "worlds (deals of the unseen cards) sampled and solved per card", 1.0, MAX_WORLDS, True
            ),
        ),
    ),
    "recorded": BotSpec(
        "recorded",
        RECORDED,
        "replays a game record: every decision comes from the record (not for simulation)",
        seatable=False,
    ),
}
#: The bots seated when ``--bots`` is not given.
DEFAULT_BOTS = "heuristic"
#: The cheapest seating that compiles every bot's kernels (a seat's kind is a run-time value of the
#: same compiled block), with no calibration to load: what :mod:`skatsim.precompile` plays.
COMPILE_BOTS = ("random",) * 3


#: Parameters of the heuristic bot before its decisions followed the variant's scoring, and what
#: replaced each: a setting or a recorded run naming one is refused, naming the new ones.
RETIRED = {
    "risk": "loss_aversion (bids follow the expected score under the variant)",
    "hand_risk": "hand_bias (hand games are taken when their expected score is higher)",
    "win_bonus": "the variant's own bonus (tournament.won_bonus)",
    "kontra": "nothing (a defender calls when the declarer's expected score says so)",
    "re": "nothing (the declarer answers when his expected score says so)",
    "push": "nothing (Schieberamsch pushes follow the variant's calibrated Ramsch model)",
}


def retired(names: Iterable[str], spec_name: str = "heuristic") -> str | None:
    """One line naming the retired parameters among ``names`` and what replaced them; None if none is."""
    old = [n for n in names if n in RETIRED]
    if not old or spec_name not in ("heuristic", "pimc"):
        return None
    spec = BOTS[spec_name]
    now = ", ".join(p.name for p in spec.params)
    was = "; ".join(f"{n} -> {RETIRED[n]}" for n in old)
    what = "is no longer a heuristic parameter" if len(old) == 1 else "are no longer heuristic parameters"
    return f"{', '.join(old)} {what} ({was}); its parameters now: {now}"


def _known() -> str:
    return ", ".join(sorted(name for name, spec in BOTS.items() if spec.seatable))


def _parameters(spec: BotSpec) -> str:
    if not spec.params:
        return f"bot {spec.name!r} has no parameters"
    return f"{spec.name}'s parameters: " + ", ".join(f"{p.name} ({p.low:g}..{p.high:g})" for p in spec.params)


def parse_setting(text: str) -> tuple[BotSpec, dict[str, float]]:
    """One bot setting ``name[:param=value...]``: its spec and the parameters it sets, checked."""
    name, *assignments = [part.strip() for part in text.strip().split(":")]
    spec = BOTS.get(name)
    if spec is None or not spec.seatable:
        raise SkatsimError(f"--bots: unknown bot {name!r}; known bots: {_known()}")
    known = {p.name: p for p in spec.params}
    values: dict[str, float] = {}
    for assignment in assignments:
        key, sep, raw = assignment.partition("=")
        key = key.strip()
        if key not in known and (gone := retired([key], spec.name)):
            raise SkatsimError(f"--bots: {text!r}: {gone}")
        if not sep or key not in known:
            raise SkatsimError(f"--bots: {text!r}: {key or assignment!r} is not a parameter; {_parameters(spec)}")
        if key in values:
            raise SkatsimError(f"--bots: {text!r}: {key} is set twice")
        try:
            value = float(raw)
        except ValueError:
            raise SkatsimError(f"--bots: {text!r}: {key} must be a number, got {raw.strip()!r}") from None
        param = known[key]
        if not param.low <= value <= param.high:
            raise SkatsimError(
                f"--bots: {text!r}: {key} must be between {param.low:g} and {param.high:g}, got {value:g}; "
                f"{_parameters(spec)}"
            )
        if param.whole and not value.is_integer():
            raise SkatsimError(f"--bots: {text!r}: {key} must be a whole number, got {raw.strip()}")
        values[key] = value
    return spec, values


def canonical(spec: BotSpec, values: dict[str, float]) -> str:
    """The setting as runs record it: the name, then the parameters that differ from their defaults
    in registry order (``heuristic:loss_aversion=2``)."""
    parts = [spec.name]
    for param in spec.params:
        value = values.get(param.name, param.default)
        if value != param.default:
            parts.append(f"{param.name}={value!r}")
    return ":".join(parts)


def parse_bots(text: str, players: int = 3) -> tuple[str, ...]:
    """Parse ``--bots``: one setting for every player or one per player, comma-separated (at a
    three-player table FH, MH, RH of the first deal); returns the canonical settings."""
    settings = [part.strip() for part in text.split(",")]
    if len(settings) == 1:
        settings = settings * players
    if len(settings) != players:
        raise SkatsimError(
            f"--bots: give one bot setting or {players} (one per player), got {len(settings)} in {text!r}"
        )
    return tuple(canonical(*parse_setting(s)) for s in settings)


def bot_values(setting: str) -> dict[str, float]:
    """Every parameter of a setting, defaults included (what a run's manifest records)."""
    spec, values = parse_setting(setting)
    return {p.name: values.get(p.name, p.default) for p in spec.params}


def bot_calibration(settings: tuple[str, ...], params: np.ndarray) -> dict[str, str]:
    """Which calibration the heuristic bots of ``settings`` use for the variant ``params`` (its key and
    source, learnt now if it must be: what a run's manifest records); empty without a heuristic bot."""
    if not any(parse_setting(s)[0].kind in (HEURISTIC, PIMC) for s in settings):
        return {}
    from .variantcal import calibration_for

    return calibration_for(np.asarray(params, dtype=np.int64)).describe()


def calibration_pending(settings: tuple[str, ...], params: np.ndarray) -> bool:
    """Whether :func:`bot_calibration` would learn the variant's calibration now (a heuristic bot is
    seated and the variant's calibration is neither shipped nor cached): seconds of self-play."""
    if not any(parse_setting(s)[0].kind in (HEURISTIC, PIMC) for s in settings):
        return False
    from .variantcal import find

    return find(np.asarray(params, dtype=np.int64)) is None


def bot_arrays(settings: tuple[str, ...], params: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Kind codes and parameter rows of seated bots for the variant ``params``, one row per setting:
    the bot's parameters (defaults where a setting leaves them) and, for the heuristic bot, the
    variant's calibration (:func:`skatsim.bots.variantcal.calibration_for`: shipped, cached, or
    learnt now by self-play). What :func:`skatsim.bots.seam.prepare` prepares per block."""
    kinds = np.zeros(len(settings), dtype=np.int64)
    rows = np.zeros((len(settings), N_BOT_PARAMS + N_CALIB + slots.N_EXTRA), dtype=np.float64)
    calibration = None
    for row, setting in enumerate(settings):
        spec, values = (BOTS[setting], {}) if setting in BOTS else parse_setting(setting)
        kinds[row] = spec.kind
        for k, p in enumerate(spec.params):  # a bot's own parameters beyond the heuristic's go after the calibration
            rows[row, k if k < N_BOT_PARAMS else k + N_CALIB] = values.get(p.name, p.default)
        if spec.kind in (HEURISTIC, PIMC):
            if calibration is None:
                from .variantcal import calibration_for

                calibration = calibration_for(np.asarray(params, dtype=np.int64)).vector
            rows[row, N_BOT_PARAMS : N_BOT_PARAMS + N_CALIB] = calibration
    return kinds, rows
