"""Bots: compiled players for every decision of a deal.

A bot is a kind code plus a parameter vector (``float64``), both per seat, so
the simulator can seat different bots and settings side by side. The
registry below is the one place that names bots, their parameters, defaults
and meaning; ``skatsim bots`` prints it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import SkatsimError

RANDOM = 0
HEURISTIC = 1


@dataclass(frozen=True)
class BotParam:
    """One tunable bot parameter: name, default and meaning."""

    name: str
    default: float
    doc: str


@dataclass(frozen=True)
class BotSpec:
    """A bot kind: its code, a one-line description and its parameters (in vector order)."""

    name: str
    kind: int
    doc: str
    params: tuple[BotParam, ...] = ()


N_BOT_PARAMS = 12

BOTS: dict[str, BotSpec] = {
    "random": BotSpec("random", RANDOM, "uniform legal choices at every decision (a baseline)"),
    "heuristic": BotSpec(
        "heuristic",
        HEURISTIC,
        "club-player habits: calibrated hand evaluation for bidding and declaring, rule-based card play",
        (
            BotParam("risk", 0.613, "bid a game played with the skat when its win probability is at least this"),
            BotParam("hand_risk", 0.893, "play (and bid) a hand game when its win probability is at least this"),
            BotParam("grand_bias", -0.1, "log-odds added to every Grand estimate (> 0 favours Grand)"),
            BotParam("null_bias", 0.1, "log-odds added to every Null estimate (> 0 favours Null)"),
            BotParam("suit_bias", 0.0, "log-odds added to every suit-game estimate (> 0 favours suit games)"),
            BotParam("ouvert_bias", -2.15, "log-odds added to Null ouvert estimates on top of null_bias"),
            BotParam(
                "win_bonus",
                16.5,
                "points a won game is worth beyond its value when choosing what to declare "
                "(50: the tournament bonus the published human statistics were played under)",
            ),
            BotParam(
                "kontra",
                8.0,
                "a defender says Kontra when his trumps of the declared game, plus his jacks again, plus the "
                "side suits whose top card he holds reach this plus the declarer's bid multiplier above 2",
            ),
            BotParam("re", 0.8, "the declarer says Re when his calibrated win probability is at least this"),
            BotParam(
                "push",
                4.0,
                "Schieberamsch: pick up the skat and push two cards when the hand holds at least this many "
                "jacks, aces and tens together",
            ),
            BotParam("reversed_bias", 0.0, "log-odds added to every reversed-game estimate (> 0 favours it)"),
            BotParam(
                "grand_bid_bias",
                -1.0,
                "log-odds added to Grand estimates when deciding how high to bid (< 0: bid up to a Grand's "
                "value only with a safer hand, so fewer auctions end in a Grand the hand cannot carry)",
            ),
        ),
    ),
}
#: The bots seated when ``--bots`` is not given.
DEFAULT_BOTS = "heuristic"


def register(spec: BotSpec) -> None:
    """Add a bot kind to the registry (used by the bot modules at import)."""
    if len(spec.params) > N_BOT_PARAMS:
        raise ValueError(f"bot {spec.name} has more than {N_BOT_PARAMS} parameters")
    BOTS[spec.name] = spec


def parse_bots(text: str) -> tuple[str, str, str]:
    """Parse ``--bots``: one name for all seats or three comma-separated names (FH, MH, RH)."""
    names = [part.strip() for part in text.split(",")]
    if len(names) == 1:
        names = names * 3
    if len(names) != 3:
        raise SkatsimError(f"--bots: give one bot name or three (FH,MH,RH), got {len(names)} in {text!r}")
    for name in names:
        if name not in BOTS:
            raise SkatsimError(f"--bots: unknown bot {name!r}; known bots: {', '.join(sorted(BOTS))}")
    return names[0], names[1], names[2]


def bot_arrays(names: tuple[str, str, str]) -> tuple[np.ndarray, np.ndarray]:
    """Kind codes and default parameter vectors of three seated bots."""
    kinds = np.array([BOTS[n].kind for n in names], dtype=np.int64)
    params = np.zeros((3, N_BOT_PARAMS), dtype=np.float64)
    for seat, name in enumerate(names):
        for k, p in enumerate(BOTS[name].params):
            params[seat, k] = p.default
    return kinds, params
