"""The heuristic bot's calibrated outcome model, loaded once as constant tables.

``calibration.json`` is written by ``scripts/calibrate_bots.py`` (self-play
Monte Carlo + logistic regression): :data:`COEFFICIENTS`, an array of shape
``(N_CLASSES * N_SITUATIONS, N_FEATURES)``, one row of log-odds weights per
game class and situation over the features of :func:`~skatsim.bots.handeval.row_features`.
They give ``z``, the log-odds that the declarer wins.

Winning is not all the scoring tells apart: a game is won, won Schneider or won Schwarz,
lost, lost Schneider or lost Schwarz, and each is worth another amount. The model is
ordinal with ``z`` as the hand's strength (:data:`OUTCOME_MODELS`, one row per class and
situation): P(Schneider | won), P(Schwarz | won Schneider), P(Schneider | lost) and
P(Schwarz | lost Schneider) are logistic in ``z`` (``sigma(a + b z)``). Keeping every outcome a
function of ``z`` alone keeps a game's expected score a function of ``z``, so a bid decision is
one comparison of ``z`` against a threshold worked out once per block
(:func:`skatsim.bots.expected.prepare`); features beyond ``z`` would sharpen P(Schwarz)
(docs/bots.md gives the log-losses) but cost that. The six outcome probabilities are
tabulated over a grid of ``z`` (:data:`OUTCOME_P`) and read with linear interpolation
(:func:`outcome_probs`): no exponential at decision time.

The kernels read the model through :func:`game_logit`. The log-odds are
linear in the features, and every feature but two (the longest side suit, the
worst Null risk: maxima) is a sum over suits, so each row's log-odds are
tabulated per suit byte once (:data:`TABLES`; the side suits' table per jack
count, whose features weigh them anew); a game's log-odds then take four
lookups instead of a feature vector of 160 and a dot product. Both tables are
module constants, compiled into the kernels.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from .._jit import inlined_kernel, kernel
from ..engine.cards import JACK
from ..engine.gametypes import GRAND, NULL, REVERSED
from .handeval import (
    AFTER_PICKUP,
    FIRST_GROUP_FEATURE,
    FIRST_HOLDING_FEATURE,
    GROUP_WIDTH,
    JACK_GROUPS,
    N_CLASSES,
    N_FEATURES,
    N_SITUATIONS,
    NULL_CLASS,
    NULL_OUVERT_CLASS,
    REVERSED_CLASS,
    SIDE_FEATURES,
    SUIT_CLASS,
    holding_index,
    mirror,
)
from .suitstats import N_PLAIN, NULL_WORST, TRUMP_ACE_TEN, null_counts, side_counts

CALIBRATION_FILE = Path(__file__).with_name("calibration.json")

#: The six outcomes of a suit game, Grand or reversed game, from the declarer's worst to his best
#: (Null: only ``O_LOST`` and ``O_WON``). Schneider: the declarer has 90 points or more (won) or 30
#: or fewer (lost); Schwarz: all ten tricks or none.
O_LOST_SCHWARZ, O_LOST_SCHNEIDER, O_LOST, O_WON, O_WON_SCHNEIDER, O_WON_SCHWARZ = range(6)
N_OUTCOMES = 6
#: Columns of an outcome-model row: ``(a, b)`` of P(Schneider | won), P(Schwarz | won Schneider),
#: P(Schneider | lost), P(Schwarz | lost Schneider).
N_OUTCOME_COEFFICIENTS = 8
#: The grid :data:`OUTCOME_P` tabulates: ``z`` from ``Z_MIN`` in steps of ``1 / Z_STEPS_PER_UNIT``.
Z_MIN = -12.0
Z_STEPS_PER_UNIT = 8
N_Z = 193
Z_MAX = Z_MIN + (N_Z - 1) / Z_STEPS_PER_UNIT

#: Kinds of per-suit log-odds in :data:`TABLES`: what a side suit adds (for Null: any suit), what
#: the trump suit adds, and what the jacks add (indexed by their four bits, DJ lowest); then what a
#: side suit adds beside each jack count of ``handeval.JACK_GROUPS`` (``SIDE_Z``: beside fewer).
SIDE_Z, TRUMP_Z, JACKS_Z = range(3)
N_TABLE_KINDS = 3 + len(JACK_GROUPS)
#: The side-suit kind of :data:`TABLES` for a hand's four jack bits.
SIDE_KIND = np.array(
    [SIDE_Z if bin(j).count("1") < JACK_GROUPS[0] else 3 + bin(j).count("1") - JACK_GROUPS[0] for j in range(16)],
    dtype=np.int64,
)
SIDE_KIND.flags.writeable = False


def _load_table(path: Path, key: str, columns: int, what: str) -> np.ndarray:
    """The read-only table ``key`` of a calibration file: one row per class and situation
    (``N_CLASSES * N_SITUATIONS``) of ``columns`` numbers; a ``ValueError`` naming ``what`` when
    its shape is another (a calibration file written for another feature set)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    table = np.array(data[key], dtype=np.float64)
    if table.shape != (N_CLASSES * N_SITUATIONS, columns):
        raise ValueError(f"{path}: {what} table has shape {table.shape}")
    table.flags.writeable = False
    return table


def load_model(path: Path = CALIBRATION_FILE) -> np.ndarray:
    """Coefficient table from a calibration file."""
    return _load_table(path, "coefficients", N_FEATURES, "coefficient")


def load_outcome_models(path: Path = CALIBRATION_FILE) -> np.ndarray:
    """Outcome-model table (``N_CLASSES * N_SITUATIONS`` rows of ``N_OUTCOME_COEFFICIENTS``) from a
    calibration file."""
    return _load_table(path, "outcome_models", N_OUTCOME_COEFFICIENTS, "outcome-model")


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(x, -60.0, 60.0)))


def outcome_table(models: np.ndarray) -> np.ndarray:
    """Per row, grid point of ``z`` and outcome ``O_*``, the outcome's probability: shape
    ``(rows, N_Z, N_OUTCOMES)``. Each row's six probabilities sum to 1 at every ``z``."""
    z = Z_MIN + np.arange(N_Z) / Z_STEPS_PER_UNIT
    table = np.zeros((models.shape[0], N_Z, N_OUTCOMES))
    for row, m in enumerate(models):
        won = _sigmoid(z)
        if row // N_SITUATIONS in (NULL_CLASS, NULL_OUVERT_CLASS):
            table[row, :, O_WON] = won
            table[row, :, O_LOST] = 1.0 - won
            continue
        won_schneider = won * _sigmoid(m[0] + m[1] * z)
        won_schwarz = won_schneider * _sigmoid(m[2] + m[3] * z)
        lost_schneider = (1.0 - won) * _sigmoid(m[4] + m[5] * z)
        lost_schwarz = lost_schneider * _sigmoid(m[6] + m[7] * z)
        table[row, :, O_WON_SCHWARZ] = won_schwarz
        table[row, :, O_WON_SCHNEIDER] = won_schneider - won_schwarz
        table[row, :, O_WON] = won - won_schneider
        table[row, :, O_LOST] = 1.0 - won - lost_schneider
        table[row, :, O_LOST_SCHNEIDER] = lost_schneider - lost_schwarz
        table[row, :, O_LOST_SCHWARZ] = lost_schwarz
    table.flags.writeable = False
    return table


def _per_byte() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For every suit byte: :func:`null_counts`, :func:`side_counts` of its plain cards (one row per
    count) and its holding's index. The kernel :func:`holding_index` is run as Python here: its first call
    from Python would load a compiled twin from numba's cache, a twentieth of a second of every command's
    start."""
    null = np.array([null_counts(b) for b in range(256)], dtype=np.int64).T
    side = np.array([side_counts(b & ~(1 << JACK)) for b in range(256)], dtype=np.int64).T
    holding = np.array([holding_index.py_func(b) for b in range(256)], dtype=np.int64)
    return null, side, holding


def tabulate(coefficients: np.ndarray) -> np.ndarray:
    """Per row of ``coefficients``, kind (``SIDE_Z``, ``TRUMP_Z``, ``JACKS_Z``) and suit byte, the
    log-odds that suit adds: ``coefficients[row] @ row_features(...)`` is the row's constant terms
    plus one entry per suit (plus the jacks' entry and the maximum term outside suit games). Every
    byte at once, each sum in the order of the features (the tables do not depend on how they were
    vectorised, to the bit)."""
    (risky, suits, voids, safe, high, _), counts, holding = _per_byte()
    tables = np.zeros((coefficients.shape[0], N_TABLE_KINDS, 256))
    for row, w in enumerate(coefficients):
        null = row // N_SITUATIONS in (NULL_CLASS, NULL_OUVERT_CLASS)
        if null:
            tables[row, SIDE_Z] = w[1] * risky + w[2] * suits + w[4] * voids + w[5] * safe + w[6] * high
        else:
            base = np.zeros(256)
            for f, c in zip(SIDE_FEATURES, counts, strict=True):  # in the order of handeval.SIDE_FEATURES
                base = base + w[f] * c
            base = base + w[FIRST_HOLDING_FEATURE + holding]
            tables[row, SIDE_Z] = base
            for g in range(len(JACK_GROUPS)):
                first = FIRST_GROUP_FEATURE + GROUP_WIDTH * g + 1
                group = np.zeros(256)
                for i, c in enumerate(counts):
                    group = group + w[first + i] * c
                tables[row, 3 + g] = base + group
            tables[row, TRUMP_Z] = w[1] * N_PLAIN + w[5] * TRUMP_ACE_TEN
        for j in range(16):
            jacks = bin(j).count("1")
            tables[row, JACKS_Z, j] = (w[1] + w[2]) * jacks + w[3] * (j >> 3 & 1) + w[4] * (j >> 2 & 1)
            if not null and jacks >= JACK_GROUPS[0]:
                tables[row, JACKS_Z, j] += w[FIRST_GROUP_FEATURE + GROUP_WIDTH * (jacks - JACK_GROUPS[0])]
    tables.flags.writeable = False
    return tables


def hand_gaps(coefficients: np.ndarray, tables: np.ndarray) -> np.ndarray:
    """``gaps[cls, fh, jacks]``: the largest amount by which a ten-card hand's hand log-odds in game class
    ``cls`` can exceed its before-pickup log-odds, for forehand (``fh`` 1) or not and the hand's four jacks
    (``jacks`` as :func:`jack_bits` numbers them; the reversed game's of the mirrored cards, as
    :func:`game_logit` reads them). An exact maximum over every such hand (a dynamic programme over the
    suits, the cards counted to ten), so that a game whose before-pickup log-odds plus this cannot
    reach a hand threshold need not be judged hand (:mod:`skatsim.bots.heuristic`). Per seat and
    jacks, not one figure per class: the jacks' term is the largest part of the gap, and with the
    class's largest gap most weak hands' hand log-odds were worked out in vain. Written into
    ``calibration.json`` beside the coefficients (``hand_gaps``) so importing costs nothing."""
    gaps = np.zeros((N_CLASSES, 2, 16))
    for cls in range(N_CLASSES):
        before, hand = cls * N_SITUATIONS + 0, cls * N_SITUATIONS + 1  # BEFORE_PICKUP, HAND_GAME
        d = tables[hand] - tables[before]
        c = coefficients[hand] - coefficients[before]
        for jacks in range(16):
            if cls in (NULL_CLASS, NULL_OUVERT_CLASS):
                best = _null_gap(d, c, jacks)
            else:
                best = _trump_gap(d, c, jacks, grand=cls != SUIT_CLASS) + d[JACKS_Z, jacks]
            gaps[cls, 0, jacks] = c[0] + best
            gaps[cls, 1, jacks] = c[0] + c[11] + best
    return gaps


def _most(states: dict[tuple[int, int], float], n: int, other: int, v: float) -> None:
    """Raise the state (``n`` cards so far, ``other``) of ``states`` to at least ``v``."""
    if v > states.get((n, other), -1e18):
        states[(n, other)] = v


def _null_gap(d: np.ndarray, c: np.ndarray, jacks: int) -> float:
    """:func:`hand_gaps` of a Null class for hands with these jacks: the suits' bytes (each with its jack
    or without, as ``jacks`` says), the cards counted to ten, the worst suit's weight at the end."""
    states: dict[tuple[int, int], float] = {(0, 0): 0.0}
    for suit in range(4):
        nxt: dict[tuple[int, int], float] = {}
        for b in range(256):
            if (b >> JACK & 1) != (jacks >> suit & 1):
                continue
            k = bin(b).count("1")
            for (n, worst), v in states.items():
                if n + k <= 10:
                    _most(nxt, n + k, max(worst, int(NULL_WORST[b])), v + d[SIDE_Z, b])
        states = nxt
    return max(v + c[3] * w for (n, w), v in states.items() if n == 10)


def _trump_gap(d: np.ndarray, c: np.ndarray, jacks: int, grand: bool) -> float:
    """:func:`hand_gaps` of a suit game (``grand`` False: a trump suit and three side suits) or of Grand
    and the reversed game (four side suits) for hands with these jacks, the jacks' own term left out:
    the side suits weighed as the jacks make them, the plain cards counted to ten less the jacks, the
    longest side suit's weight at the end."""
    plain = [b for b in range(256) if not b & (1 << JACK)]
    side = int(SIDE_KIND[jacks])
    states: dict[tuple[int, int], float] = {(0, 0): 0.0}
    for _ in range(4 if grand else 3):
        nxt: dict[tuple[int, int], float] = {}
        for b in plain:
            k = int(N_PLAIN[b])
            for (n, longest), v in states.items():
                if n + k <= 10:
                    _most(nxt, n + k, max(longest, k), v + d[side, b])
        states = nxt
    trumps = [(0, 0.0)] if grand else [(int(N_PLAIN[b]), float(d[TRUMP_Z, b])) for b in plain]
    want = 10 - bin(jacks).count("1")
    return max(v + c[13] * longest + vt for (n, longest), v in states.items() for kt, vt in trumps if n + kt == want)


def load_hand_gaps(path: Path = CALIBRATION_FILE) -> np.ndarray:
    """The hand gaps (:func:`hand_gaps`) a calibration file records, ``[class, fh, jacks]``."""
    gaps = np.array(json.loads(path.read_text(encoding="utf-8"))["hand_gaps"], dtype=np.float64)
    gaps = gaps.reshape(N_CLASSES, 2, 16)
    gaps.flags.writeable = False
    return gaps


COEFFICIENTS = load_model()
TABLES = tabulate(COEFFICIENTS)
HAND_GAPS = load_hand_gaps()
OUTCOME_MODELS = load_outcome_models()
OUTCOME_P = outcome_table(OUTCOME_MODELS)
_BYTE = np.uint32(0xFF)


#: The logistic function on the grid of :data:`OUTCOME_P`: the chance of winning at each grid point.
WIN_P = outcome_table(np.zeros((1, N_OUTCOME_COEFFICIENTS)))[0, :, 3:].sum(axis=1)
WIN_P.flags.writeable = False


@kernel
def win_probability(z: float) -> float:
    """The chance of winning at log-odds ``z``, interpolated on the grid as :func:`outcome_probs` does
    (the sum of its three won outcomes, to rounding): no exponential."""
    t = (min(max(z, Z_MIN), Z_MAX - 1e-9) - Z_MIN) * Z_STEPS_PER_UNIT
    i = int(t)
    return WIN_P[i] + (t - i) * (WIN_P[i + 1] - WIN_P[i])


@kernel
def outcome_probs(row: int, z: float) -> tuple[float, float, float, float, float, float]:
    """The probabilities of the six outcomes (``O_*`` order) of model row ``row`` (class x
    situation) at log-odds ``z``, linearly interpolated on the grid of :data:`OUTCOME_P` (clamped
    at its ends, where they are 0 and 1 to within 1e-5)."""
    t = (min(max(z, Z_MIN), Z_MAX - 1e-9) - Z_MIN) * Z_STEPS_PER_UNIT
    i = int(t)
    f = t - i
    a = OUTCOME_P[row, i]
    b = OUTCOME_P[row, i + 1]
    return (
        a[0] + f * (b[0] - a[0]),
        a[1] + f * (b[1] - a[1]),
        a[2] + f * (b[2] - a[2]),
        a[3] + f * (b[3] - a[3]),
        a[4] + f * (b[4] - a[4]),
        a[5] + f * (b[5] - a[5]),
    )


@kernel
def jack_bits(cards: np.uint32) -> int:
    """The four jacks of ``cards`` as bits 0 (DJ) .. 3 (CJ)."""
    j = cards >> np.uint32(4)
    return int((j & 1) | (j >> 7 & 2) | (j >> 14 & 4) | (j >> 21 & 8))


@kernel
def hand_gap_of_jacks(cls: int, fh: int, jacks: int) -> float:
    """How far the hand log-odds of game class ``cls`` can exceed their before-pickup log-odds at most
    (:func:`hand_gaps`) for a hand whose jacks are ``jacks`` (as :func:`jack_bits` numbers them), at
    forehand (``fh`` 1) or not; of the reversed game, whose gap is read from the mirrored cards' jacks,
    the largest over every jacks (still an upper bound)."""
    if cls == REVERSED_CLASS:
        most = HAND_GAPS[cls, fh, 0]
        for j in range(1, 16):
            most = max(most, HAND_GAPS[cls, fh, j])
        return most
    return HAND_GAPS[cls, fh, jacks]


@kernel
def game_logit(cls: int, situation: int, gt: int, cards: np.uint32, skat_points: float, seat: int) -> float:
    """The model's log-odds of a win for game type ``gt`` of class ``cls`` in ``situation``
    with ``cards`` (``skat_points``: the discards' points after pickup; ``seat`` 0 is forehand)."""
    row = cls * N_SITUATIONS + situation
    z = COEFFICIENTS[row, 0] + COEFFICIENTS[row, 10] * skat_points
    if seat == 0:
        z += COEFFICIENTS[row, 11]
    if gt == NULL:
        worst = 0
        for s in range(4):
            b = (cards >> np.uint32(8 * s)) & _BYTE
            z += TABLES[row, SIDE_Z, b]
            worst = max(worst, NULL_WORST[b])
        return z + COEFFICIENTS[row, 3] * worst
    trump = gt
    if gt == REVERSED:
        cards = mirror(cards)
        trump = GRAND
    jacks = jack_bits(cards)
    z += TABLES[row, JACKS_Z, jacks]
    side = SIDE_KIND[jacks]
    longest = 0
    for s in range(4):
        b = (cards >> np.uint32(8 * s)) & _BYTE
        if s == trump:
            z += TABLES[row, TRUMP_Z, b]
        else:
            z += TABLES[row, side, b]
            longest = max(longest, N_PLAIN[b])
    return z + COEFFICIENTS[row, 13] * longest


@kernel
def null_logits(situation: int, cards: np.uint32, skat_points: float, seat: int) -> tuple[float, float]:
    """:func:`game_logit` of Null and of Null ouvert with the same ``cards`` in ``situation``, sharing
    the lookups: each sum adds the same terms in the same order as :func:`game_logit`."""
    row = NULL_CLASS * N_SITUATIONS + situation
    ro = NULL_OUVERT_CLASS * N_SITUATIONS + situation
    z = COEFFICIENTS[row, 0] + COEFFICIENTS[row, 10] * skat_points
    zo = COEFFICIENTS[ro, 0] + COEFFICIENTS[ro, 10] * skat_points
    if seat == 0:
        z += COEFFICIENTS[row, 11]
        zo += COEFFICIENTS[ro, 11]
    worst = 0
    for s in range(4):
        b = (cards >> np.uint32(8 * s)) & _BYTE
        z += TABLES[row, SIDE_Z, b]
        zo += TABLES[ro, SIDE_Z, b]
        worst = max(worst, NULL_WORST[b])
    return z + COEFFICIENTS[row, 3] * worst, zo + COEFFICIENTS[ro, 3] * worst


@kernel
def _four_suits(row: int, z: float, cards: np.uint32) -> tuple[float, float, float, float]:
    """The four suit games' log-odds in model ``row`` from the constant terms ``z``: the jacks, then per
    game the trump suit and the three side suits, then the longest side suit, in :func:`game_logit`'s
    order (so the sums are the same to the bit)."""
    jacks = jack_bits(cards)
    z += TABLES[row, JACKS_Z, jacks]
    side = SIDE_KIND[jacks]
    b0 = cards & _BYTE
    b1 = (cards >> np.uint32(8)) & _BYTE
    b2 = (cards >> np.uint32(16)) & _BYTE
    b3 = cards >> np.uint32(24)
    s0, s1, s2, s3 = TABLES[row, side, b0], TABLES[row, side, b1], TABLES[row, side, b2], TABLES[row, side, b3]
    t0, t1, t2, t3 = (
        TABLES[row, TRUMP_Z, b0],
        TABLES[row, TRUMP_Z, b1],
        TABLES[row, TRUMP_Z, b2],
        TABLES[row, TRUMP_Z, b3],
    )
    n0, n1, n2, n3 = N_PLAIN[b0], N_PLAIN[b1], N_PLAIN[b2], N_PLAIN[b3]
    w = COEFFICIENTS[row, 13]
    return (
        z + t0 + s1 + s2 + s3 + w * max(n1, n2, n3),
        z + s0 + t1 + s2 + s3 + w * max(n0, n2, n3),
        z + s0 + s1 + t2 + s3 + w * max(n0, n1, n3),
        z + s0 + s1 + s2 + t3 + w * max(n0, n1, n2),
    )


@inlined_kernel
def suit_logits(situation: int, cards: np.uint32, seat: int) -> tuple[float, float, float, float]:
    """:func:`game_logit` of the four suit games (diamonds .. clubs) with ``cards`` before pickup or
    hand (no skat points), sharing the lookups: each sum adds the same terms in the same order.
    Compiled into its callers (the bid ceilings, twice a seat, and the declaration's log-odds): its
    four numbers not passed back through memory (docs/speed.md)."""
    row = SUIT_CLASS * N_SITUATIONS + situation
    z = COEFFICIENTS[row, 0]
    if seat == 0:
        z += COEFFICIENTS[row, 11]
    return _four_suits(row, z, cards)


@kernel
def suit_logits_after(cards: np.uint32, skat_points: float, seat: int) -> tuple[float, float, float, float]:
    """:func:`game_logit` of the four suit games (diamonds .. clubs) after the pickup with the same final
    ``cards`` and discards worth ``skat_points``, sharing the lookups as :func:`suit_logits` does: each
    sum adds the same terms in the same order as :func:`game_logit`."""
    row = SUIT_CLASS * N_SITUATIONS + AFTER_PICKUP
    z = COEFFICIENTS[row, 0] + COEFFICIENTS[row, 10] * skat_points
    if seat == 0:
        z += COEFFICIENTS[row, 11]
    return _four_suits(row, z, cards)
