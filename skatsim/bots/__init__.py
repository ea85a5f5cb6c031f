"""Bots: compiled players for every decision of a deal, behind one seam (:mod:`.seam`).

A bot is a kind code plus a parameter vector (``float64``), both per seat, so a
deal can seat different bots and settings side by side. The registry below is
the one place that names bots, their parameters, ranges, defaults and meaning;
``skatsim bots`` prints it. A bot setting is written ``name`` or
``name:param=value:param=value`` (``heuristic:risk=0.7``); :func:`parse_bots`
turns ``--bots`` into canonical settings (parameters in registry order, defaults
left out), which is what runs record and the ``bot_*`` columns show.

Adding a bot: its kernels in a module here, an entry in :data:`BOTS` with a new
kind code, and its branch in each decision of :mod:`.seam`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..errors import SkatsimError

RANDOM = 0
HEURISTIC = 1
#: The player of a replayed game: it has no decisions of its own, every one comes from the record.
RECORDED = 2
PIMC = 3


@dataclass(frozen=True)
class BotParam:
    """One tunable bot parameter: name, default, the range it may take, and its meaning."""

    name: str
    default: float
    doc: str
    low: float = -math.inf
    high: float = math.inf


@dataclass(frozen=True)
class BotSpec:
    """A bot kind: its code, a one-line description, its parameters (in vector order), and whether
    ``--bots`` may seat it (the recorded-decisions player only replays records)."""

    name: str
    kind: int
    doc: str
    params: tuple[BotParam, ...] = ()
    seatable: bool = True


N_BOT_PARAMS = 13
#: Width of a prepared parameter row: the registry's parameters, then what each bot derives from them.
N_PREPARED = 16

#: Scratch for bots that search, kept in every deal state (``DealState.search``, ``search_tt``,
#: ``search_work``; kernels allocate nothing): the most worlds the pimc bot samples per card, the
#: int64 slots it needs for them, and the solver table's size (2**16 entries of 24 bytes: 1.5 MiB, enough
#: for the small searches of one decision; entries stay valid across decisions and deals).
MAX_WORLDS = 100
N_SEARCH = 64 + 4 * MAX_WORLDS
SEARCH_TABLE_LOG2 = 20

#: The heuristic's parameters (bidding, declaring, Kontra/Re); the pimc bot bids and declares by them too.
HEURISTIC_PARAMS: tuple[BotParam, ...] = (
    BotParam("risk", 0.613, "bid a game played with the skat when its win probability is at least this", 0.0, 1.0),
    BotParam(
        "hand_risk",
        0.893,
        "play (and bid) a hand game when its win probability is at least this",
        0.0,
        1.0,
    ),
    BotParam("grand_bias", -0.1, "log-odds added to every Grand estimate (> 0 favours Grand)", -10.0, 10.0),
    BotParam("null_bias", 0.1, "log-odds added to every Null estimate (> 0 favours Null)", -10.0, 10.0),
    BotParam("suit_bias", 0.0, "log-odds added to every suit-game estimate (> 0 favours suit games)", -10.0, 10.0),
    BotParam("ouvert_bias", -2.15, "log-odds added to Null ouvert estimates on top of null_bias", -10.0, 10.0),
    BotParam(
        "win_bonus",
        16.5,
        "points a won game is worth beyond its value when choosing what to declare "
        "(50: the tournament bonus the published human statistics were played under)",
        -200.0,
        200.0,
    ),
    BotParam(
        "kontra",
        8.0,
        "a defender says Kontra when his trumps of the declared game, plus his jacks again, plus the "
        "side suits whose top card he holds reach this plus the declarer's bid multiplier above 2",
        0.0,
        30.0,
    ),
    BotParam("re", 0.8, "the declarer says Re when his calibrated win probability is at least this", 0.0, 1.0),
    BotParam(
        "push",
        4.0,
        "Schieberamsch: pick up the skat and push two cards when the hand holds at least this many "
        "jacks, aces and tens together",
        0.0,
        13.0,
    ),
    BotParam(
        "reversed_bias",
        0.0,
        "log-odds added to every reversed-game estimate (> 0 favours it)",
        -10.0,
        10.0,
    ),
    BotParam(
        "grand_bid_bias",
        -1.0,
        "log-odds added to Grand estimates when deciding how high to bid (< 0: bid up to a Grand's "
        "value only with a safer hand, so fewer auctions end in a Grand the hand cannot carry)",
        -10.0,
        10.0,
    ),
)
#: Slot of the pimc bot's ``worlds`` in its parameter vector: after the heuristic's.
PIMC_WORLDS = len(HEURISTIC_PARAMS)

BOTS: dict[str, BotSpec] = {
    "random": BotSpec("random", RANDOM, "uniform legal choices at every decision (a baseline)"),
    "heuristic": BotSpec(
        "heuristic",
        HEURISTIC,
        "club-player habits: calibrated hand evaluation for bidding and declaring, rule-based card play",
        HEURISTIC_PARAMS,
    ),
    "pimc": BotSpec(
        "pimc",
        PIMC,
        "perfect-information Monte Carlo card play (samples the unseen cards, solves each world open-handed, "
        "plays the card winning in most); bids, declares and doubles as the heuristic",
        (
            *HEURISTIC_PARAMS,
            BotParam("worlds", 20.0, "worlds (deals of the unseen cards) sampled and solved per card", 1.0, MAX_WORLDS),
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
        values[key] = value
    return spec, values


def canonical(spec: BotSpec, values: dict[str, float]) -> str:
    """The setting as runs record it: the name, then the parameters that differ from their defaults
    in registry order (``heuristic:risk=0.7``)."""
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


def bot_arrays(settings: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Kind codes and parameter vectors (defaults where a setting leaves them) of seated bots,
    one row per setting."""
    kinds = np.zeros(len(settings), dtype=np.int64)
    params = np.zeros((len(settings), N_BOT_PARAMS), dtype=np.float64)
    for row, setting in enumerate(settings):
        spec, values = (BOTS[setting], {}) if setting in BOTS else parse_setting(setting)
        kinds[row] = spec.kind
        for k, p in enumerate(spec.params):
            params[row, k] = values.get(p.name, p.default)
    return kinds, params
