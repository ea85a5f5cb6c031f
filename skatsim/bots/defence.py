"""A defender's estimate of the declarer's chance: the heuristic bot's model for Kontra and beyond.

A defender sees his own ten cards, the declared game, the bid and whether the declarer plays
hand. :func:`features` counts what tells him the declarer is in trouble — trumps and jacks
he holds himself, side aces and tens, voids, the bid (a declarer who bid high holds more) —
and :data:`DEFENCE` (``"defence"`` in ``calibration.json``, fitted by
``scripts/calibrate_bots.py`` on the declared games of official self-play: card play does not
depend on the house rules) turns them into the log-odds that the declarer wins
(:func:`declarer_logit`). The reversed game is judged as the Grand of equal trick power, as the
declarer's own model does (:func:`skatsim.bots.handeval.mirror`).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from .._jit import kernel, popcount
from ..engine.cards import ACES, JACK, JACKS, SUIT_MASKS, TENS
from ..engine.gametypes import BASE_VALUE, GRAND, NULL, REVERSED, TRUMPS
from ..engine.scoring import HAND, OUVERT, null_value
from .handeval import N_CLASSES, class_of, mirror
from .slots import N_SCRATCH, V_SCRATCH

N_DEFENCE_FEATURES = 12
assert N_DEFENCE_FEATURES <= N_SCRATCH
FEATURE_NAMES = (
    "bias",
    "trumps",
    "jacks",
    "club_jack",
    "side_aces",
    "side_tens",
    "side_voids",
    "bid_multiplier",
    "hand",
    "leads_first",
    "no_trumps",
    "trumps_past_share",
)
NULL_FEATURE_NAMES = (
    "bias",
    "sevens",
    "eights",
    "nines",
    "voids",
    "aces",
    "hand",
    "ouvert",
    "leads_first",
    "unused",
    "unused",
    "unused",
)

_CALIBRATION_FILE = Path(__file__).with_name("calibration.json")
_JACKS = np.uint32(JACKS)
_CLUB_JACK = np.uint32(1 << (3 * 8 + JACK))
_SEVENS = np.uint32(0x01010101)
_EIGHTS = np.uint32(0x02020202)
_NINES = np.uint32(0x04040404)


def load_defence(path: Path = _CALIBRATION_FILE) -> np.ndarray:
    """The defence model (one row of ``N_DEFENCE_FEATURES`` weights per game class) of a calibration
    file; zeros (an even chance) where the file has none yet."""
    data = json.loads(path.read_text(encoding="utf-8"))
    model = np.array(data.get("defence", np.zeros((N_CLASSES, N_DEFENCE_FEATURES))), dtype=np.float64)
    if model.shape != (N_CLASSES, N_DEFENCE_FEATURES):
        raise ValueError(f"{path}: defence table has shape {model.shape}")
    model.flags.writeable = False
    return model


DEFENCE = load_defence()


@kernel
def features(gt: int, flags: int, hand: np.uint32, bid: int, leads_first: bool, out: np.ndarray) -> None:
    """Fill ``out[N_DEFENCE_FEATURES]`` with what a defender holding ``hand`` counts against the
    declared game ``gt`` (``flags``), bid ``bid``; ``leads_first``: he plays the first card."""
    out[:] = 0.0
    out[0] = 1.0
    if gt == NULL:
        out[1] = popcount(hand & _SEVENS)
        out[2] = popcount(hand & _EIGHTS)
        out[3] = popcount(hand & _NINES)
        voids = 0
        for s in range(4):
            voids += (hand & SUIT_MASKS[s]) == 0
        out[4] = voids
        out[5] = popcount(hand & np.uint32(ACES))
        out[6] = 1.0 if flags & HAND else 0.0
        out[7] = 1.0 if flags & OUVERT else 0.0
        out[8] = 1.0 if leads_first else 0.0
        return
    trump = gt
    if gt == REVERSED:
        hand = mirror(hand)
        trump = GRAND
    trumps = hand & TRUMPS[trump]
    out[1] = popcount(trumps)
    out[2] = popcount(hand & _JACKS)
    out[3] = 1.0 if hand & _CLUB_JACK else 0.0
    side = hand & ~TRUMPS[trump]
    out[4] = popcount(side & np.uint32(ACES))
    out[5] = popcount(side & np.uint32(TENS))
    voids = 0
    for s in range(4):
        if s != trump:
            voids += (side & SUIT_MASKS[s]) == 0
    out[6] = voids
    out[7] = bid / BASE_VALUE[gt] if bid > 0 else 0.0
    out[8] = 1.0 if flags & HAND else 0.0
    out[9] = 1.0 if leads_first else 0.0
    # The declarer's chance is not monotone in a defender's trumps: with none, his partner holds them
    # all; past his share (3 of a suit game's 11, 1 of a Grand's 4 jacks) every trump is a trick.
    out[10] = 1.0 if out[1] == 0 else 0.0
    out[11] = max(0.0, out[1] - (1.0 if trump == GRAND else 3.0))


@kernel
def declarer_logit(bot: np.ndarray, gt: int, flags: int, hand: np.uint32, bid: int, leads_first: bool) -> float:
    """The defender's log-odds that the declarer wins (counted in the scratch slots of his row ``bot``)."""
    scratch = bot[V_SCRATCH : V_SCRATCH + N_DEFENCE_FEATURES]
    features(gt, flags, hand, bid, leads_first, scratch)
    w = DEFENCE[class_of(gt, (flags & OUVERT) != 0)]
    z = 0.0
    for k in range(N_DEFENCE_FEATURES):
        z += w[k] * scratch[k]
    return z


@kernel
def value_at_least(gt: int, flags: int, bid: int) -> int:
    """The least the declared game can be worth as far as a defender knows: its bid, the Null value,
    or (a Grand hand instead of a Ramsch, not bid) twice its base value."""
    if gt == NULL:
        return null_value(flags)
    return max(bid, 2 * BASE_VALUE[gt])
