"""The heuristic bot's calibration for one variant: what self-play under its rules teaches.

The outcome model (:mod:`skatsim.bots.winprob`) and the defenders' model
(:mod:`skatsim.bots.defence`) describe card play, which no house rule changes: one
calibration (``calibration.json``) serves every variant. What the rules do change is the
situation around a decision, and that is learnt here from self-play of the variant itself,
with the bots of the current calibration (twice: the second round plays with what the first
learnt):

* the chance that all pass when a seat passes before anyone has bid (middlehand; rearhand when
  middlehand passed: the chance that forehand passes alone);
* what a seat expects as a defender: its own points (the +40 of a lost game in a
  Seeger-Fabian list);
* where a Ramsch follows an all-pass (or a Grand hand may replace a compulsory one): each seat's
  Ramsch score, as a linear model of its hand (:mod:`skatsim.bots.ramschmodel`), fitted on
  deals every seat would pass, played as the variant's Ramsch; for a Schieberamsch also the
  score per unit of its doubling from the hand a seat ends with, which its pushes are weighed by;
* where Kontra is allowed: the chance that a declaration draws it, from the declarer's own
  log-odds of winning, and how those log-odds move when it comes (or does not; and after Re):
  per game class and situation, each on the log-odds the bot judges by there (before the pickup:
  those of the declared game from the ten cards he held; hand; after the pickup), the shifts
  measured against the outcome model's own bias on the same games.

A calibration is a vector of ``N_CALIB`` numbers (``CAL_*`` of :mod:`skatsim.bots.slots`),
identified by a key: a hash of the variant's rule parameters, this module's
``CALIBRATION_VERSION``, the card-play calibration it was learnt with and the default bots'
parameters (the self-play it learns from is theirs). The shipped variants'
calibrations ship in ``skatsim/bots/calibrations/`` (``scripts/calibrate_bots.py VARIANT.yaml
--ship``); any other variant is calibrated on first use (seconds, a few more the first time
the kernels compile) and kept in ``~/.cache/skatsim/calibrations/<key>.json``. A variant whose
rules need none of the above (the official rules, pre-1999 scoring, ...) needs no calibration.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .._jit import allocating_kernel
from ..engine.deal import deal_game, unpack_deal
from ..engine.flow import new_record, play_deal
from ..engine.gametypes import RAMSCH
from ..engine.layout import (
    COL_BID,
    COL_DEAL,
    COL_DECLARER,
    COL_GAME_TYPE,
    COL_HAND,
    COL_KONTRA_LEVEL,
    COL_LIST_POINTS_FH,
    COL_MAX_BID_FH,
    COL_OUVERT,
    COL_SCHIEBE_COUNT,
    COL_SCORE_FH,
    COL_SKAT_DISCARD,
    COL_WON,
    LOG_KONTRA,
    LOG_ROUND,
    LOG_WIDTH,
    N_COLUMNS,
)
from ..engine.ramsch import schiebe_factor
from ..engine.rules import (
    ALL_PASS,
    BOCK_RAMSCH_ROUND,
    KONTRA_BEYOND_RE,
    KONTRA_ENABLED,
    LIST_LENGTH,
    LIST_SCORING,
    RAMSCH_EVERY_DEAL,
    RAMSCH_GRAND_HAND,
    TABLE_PLAYERS,
)
from ..engine.scoring import HAND, OUVERT
from ..engine.state import new_state
from . import HEURISTIC, HEURISTIC_PARAMS, ramschmodel
from .calibrate import fit_logistic
from .defence import declarer_logit
from .handeval import (
    AFTER_PICKUP,
    BEFORE_PICKUP,
    HAND_GAME,
    N_CLASSES,
    N_SITUATIONS,
    NULL_CLASS,
    NULL_OUVERT_CLASS,
    class_of,
)
from .heuristic import contested_ceiling, declared_z, pickup_z
from .slots import (
    CAL0,
    CAL_ALL_PASS_MH,
    CAL_ALL_PASS_RH,
    CAL_DEFENDER,
    CAL_KONTRA,
    CAL_PUSH,
    CAL_RAMSCH,
    CAL_RE_SHIFT,
    K_A,
    K_B,
    K_SHIFT_KONTRA,
    K_SHIFT_NONE,
    N_CALIB,
    N_KONTRA_FIELDS,
    N_RAMSCH_FEATURES,
)

#: Bumped whenever the bots' decisions or this calibration change: old cached calibrations are not reused.
CALIBRATION_VERSION = 2
#: Deals of self-play per round, and the forced-Ramsch deals the Ramsch models are fitted on.
DEALS = 288_000
RAMSCH_DEALS = 400_000
ROUNDS = 2
SEED = 20_260_101
SHIPPED_DIR = Path(__file__).with_name("calibrations")
_CARD_PLAY_FILE = Path(__file__).with_name("calibration.json")
#: The Kontra intercept of a calibration that has learnt nothing about Kontra: it never comes.
NEVER = -50.0
#: Classes with fewer declared games than this in self-play take the pooled Kontra fit.
MIN_CLASS_GAMES = 400
CLASS_NAMES = ("suit", "grand", "null", "null_ouvert", "reversed")
SITUATION_NAMES = ("before_pickup", "hand", "after_pickup")


def neutral() -> np.ndarray:
    """The calibration of a variant that needs none: no all-pass risk, nothing as a defender, no
    Ramsch, no Kontra."""
    vec = np.zeros(N_CALIB)
    for row in range(N_CLASSES * N_SITUATIONS):
        vec[CAL_KONTRA - CAL0 + row * N_KONTRA_FIELDS + K_A] = NEVER
    return vec


def needs_self_play(params: np.ndarray) -> bool:
    """Whether the variant's rules put anything in a calibration: a Ramsch after an all-pass, a Grand
    hand instead of a compulsory Ramsch, Kontra, or list points a defender can earn."""
    any_ramsch = params[ALL_PASS] or params[RAMSCH_EVERY_DEAL] or params[BOCK_RAMSCH_ROUND]
    return bool(
        params[ALL_PASS] or (any_ramsch and params[RAMSCH_GRAND_HAND]) or params[KONTRA_ENABLED] or params[LIST_SCORING]
    )


def _card_play_digest() -> str:
    return hashlib.sha256(_CARD_PLAY_FILE.read_bytes()).hexdigest()[:16]


def calibration_key(params: np.ndarray) -> str:
    """The key of the variant's calibration: its rules, this calibration's version, the card-play
    model and the default bots' parameters it is learnt with; ``"none"`` for a variant that needs none."""
    if not needs_self_play(params):
        return "none"
    defaults = [[p.name, p.default] for p in HEURISTIC_PARAMS]
    text = json.dumps([CALIBRATION_VERSION, _card_play_digest(), [int(p) for p in params], defaults])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def cache_dir() -> Path:
    """Where calibrations of variants that do not ship are kept: ``$XDG_CACHE_HOME/skatsim/calibrations``
    (``~/.cache`` by default)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "skatsim" / "calibrations"


@dataclass(frozen=True)
class Calibration:
    """One variant's calibration: its key, where it came from (``shipped``, ``cache``, ``computed``,
    ``not needed``), the ``N_CALIB`` numbers, and what was learnt from (deals, samples, fits)."""

    key: str
    source: str
    vector: np.ndarray
    info: dict[str, Any] = field(default_factory=dict)

    def describe(self) -> dict[str, str]:
        """What a run's manifest records."""
        return {"key": self.key, "source": self.source}


def _read(path: Path) -> tuple[str, np.ndarray, dict[str, Any]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    vec = np.array(data["vector"], dtype=np.float64)
    if vec.shape != (N_CALIB,):
        raise ValueError(f"{path}: a calibration has {N_CALIB} numbers, this one {vec.shape}")
    return data["key"], vec, data


def _shipped() -> dict[str, Path]:
    return {json.loads(p.read_text(encoding="utf-8"))["key"]: p for p in sorted(SHIPPED_DIR.glob("*.json"))}


_MEMO: dict[str, Calibration] = {}


def find(params: np.ndarray) -> Calibration | None:
    """The variant's calibration if it ships or is cached (or needs none); None when it must be learnt."""
    key = calibration_key(params)
    if key in _MEMO:
        return _MEMO[key]
    if key == "none":
        found = Calibration(key, "not needed", neutral())
    elif key in (shipped := _shipped()):
        _, vec, data = _read(shipped[key])
        found = Calibration(key, f"shipped ({shipped[key].name})", vec, data.get("info", {}))
    elif (cached := cache_dir() / f"{key}.json").exists():
        _, vec, data = _read(cached)
        found = Calibration(key, "cache", vec, data.get("info", {}))
    else:
        return None
    _MEMO[key] = found
    return found


def calibration_for(params: np.ndarray, name: str = "") -> Calibration:
    """The variant's calibration: shipped, cached, or learnt now by self-play (and cached)."""
    found = find(params)
    if found is not None:
        return found
    made = calibrate(params, name)
    write(made, cache_dir() / f"{made.key}.json", name)
    found = Calibration(made.key, "computed", made.vector, made.info)
    _MEMO[made.key] = found
    return found


def write(calibration: Calibration, path: Path, name: str = "") -> None:
    """Write a calibration file (atomically: a reader never sees half of one)."""
    data = {
        "note": "written by skatsim.bots.variantcal (scripts/calibrate_bots.py VARIANT.yaml); see slots.py",
        "key": calibration.key,
        "variant": name,
        "version": CALIBRATION_VERSION,
        "card_play_model": _card_play_digest(),
        "vector": [round(float(v), 6) for v in calibration.vector],
        "info": calibration.info,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=1)
        fh.write("\n")
    os.replace(tmp, path)


# --------------------------------------------------------------------------- self-play


@allocating_kernel
def ramsch_samples(
    seed: np.uint64,
    first: int,
    n: int,
    bots: np.ndarray,
    params: np.ndarray,
    kind: int,
    select: bool,
    initial: np.ndarray,
    final: np.ndarray,
    score: np.ndarray,
    factor: np.ndarray,
) -> int:
    """Deals ``first .. first + n - 1`` played as a compulsory Ramsch of ``kind`` (the variant's
    options: pushes, Grand hand instead); with ``select`` only the deals on which no seat would bid
    (each seat's ceiling once someone has bid is 0). Per seat of each deal played as a Ramsch: its
    Ramsch features at the deal (``initial``) and after the pushes (``final``), its score and the
    deal's Schieberamsch factor. Returns the number of samples (3 per deal kept)."""
    buf = new_state(params)
    st = buf[0]
    for s in range(3):
        st.kinds[s] = HEURISTIC
        st.bots[s, :] = bots[s]
    row = np.zeros(N_COLUMNS, dtype=np.int64)
    log = np.zeros(LOG_WIDTH, dtype=np.int16)
    dealt = np.zeros(3, dtype=np.uint32)
    k = 0
    for i in range(n):
        index = np.uint64(first + i)
        deal_game(seed, index, st.hands, st.skat, st.deck, st.rng)
        if select:
            bid = False
            for s in range(3):
                if contested_ceiling(st.bots[s], params, st.hands[s], s) > 0:
                    bid = True
            if bid:
                continue
        for s in range(3):
            dealt[s] = st.hands[s]
        new_record(log)
        play_deal(st, index, row, log, kind)
        if row[COL_GAME_TYPE] != RAMSCH:
            continue
        pushes = row[COL_SCHIEBE_COUNT]
        f = schiebe_factor(pushes, 3 - pushes, params) if pushes >= 0 else 1
        for s in range(3):
            ramschmodel.features(dealt[s], s, initial[k])
            ramschmodel.features(st.hands[s], s, final[k])
            score[k] = row[COL_SCORE_FH + s]
            factor[k] = f
            k += 1
    return k


@allocating_kernel
def declared_logits(
    rows: np.ndarray,
    logs: np.ndarray,
    bot: np.ndarray,
    z: np.ndarray,
    zpick: np.ndarray,
    zdef: np.ndarray,
    cls: np.ndarray,
) -> None:
    """Per declared game of ``rows``: the declarer's own log-odds of winning it as the default bot
    judges them (``bot``: a prepared row) with his final hand (``z``: after the pickup, or hand),
    and for a game with the skat also with his ten cards before the pickup (``zpick``, as he judged
    the game when bidding and deciding to pick up; 0 for a hand game), its class, and the log-odds
    the defender who said Kontra gave the declarer (``zdef``; 0 without Kontra)."""
    hands = np.zeros(3, dtype=np.uint32)
    for i in range(rows.shape[0]):
        d = rows[i, COL_DECLARER]
        z[i] = 0.0
        zpick[i] = 0.0
        zdef[i] = 0.0
        cls[i] = -1
        if d < 0:
            continue
        gt = rows[i, COL_GAME_TYPE]
        flags = HAND * rows[i, COL_HAND] + OUVERT * rows[i, COL_OUVERT]
        skat = unpack_deal(rows[i, COL_DEAL], hands)
        hand = hands[d]
        if not flags & HAND:
            zpick[i] = pickup_z(bot, gt, (flags & OUVERT) != 0, hand, d)
            discard = np.uint32(rows[i, COL_SKAT_DISCARD])
            hand = (hand | skat) & ~discard
            skat = discard
        z[i] = declared_z(bot, gt, flags, hand, skat, d)
        cls[i] = class_of(gt, (flags & OUVERT) != 0)
        caller = logs[i, LOG_KONTRA]
        if rows[i, COL_KONTRA_LEVEL] >= 1 and caller >= 0:
            zdef[i] = declarer_logit(bot, gt, flags, hands[caller], rows[i, COL_BID], caller == 0)


# --------------------------------------------------------------------------- fitting


def _logistic(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The Kontra model's logistic fit (:func:`skatsim.bots.calibrate.fit_logistic`, a lighter ridge)."""
    return fit_logistic(x, y, l2=1e-4, iterations=30, tolerance=1e-9)


def _shift(z: np.ndarray, y: np.ndarray, default: float = 0.0) -> float:
    """The log-odds shift ``d`` that makes ``sigma(z + d)`` fit the outcomes ``y`` best (``default``
    with fewer than 20 outcomes)."""
    if len(y) < 20:
        return default
    d = 0.0
    for _ in range(30):
        p = 1.0 / (1.0 + np.exp(-np.clip(z + d, -30, 30)))
        step = (p - y).sum() / max((p * (1 - p)).sum(), 1e-9)
        d = float(np.clip(d - step, -10.0, 10.0))
        if abs(step) < 1e-9:
            break
    return d


def _rows_for(vec: np.ndarray, players: int) -> tuple[np.ndarray, np.ndarray]:
    """Kinds and bot rows (registry defaults, then ``vec``) of ``players`` default heuristic bots."""
    from . import BOTS

    spec = BOTS["heuristic"]
    row = np.concatenate([[p.default for p in spec.params], vec])
    return np.full(players, HEURISTIC, dtype=np.int64), np.tile(row, (players, 1))


def _ramsch_relevant(params: np.ndarray) -> bool:
    any_ramsch = params[ALL_PASS] or params[RAMSCH_EVERY_DEAL] or params[BOCK_RAMSCH_ROUND]
    return bool(params[ALL_PASS] or (any_ramsch and params[RAMSCH_GRAND_HAND]))


def _fit_ramsch(params: np.ndarray, vec: np.ndarray, deals: int, seed: int, info: dict[str, Any]) -> None:
    """Fit the Ramsch models (``CAL_RAMSCH``, ``CAL_PUSH``) on forced-Ramsch self-play into ``vec``."""
    from .expected import prepare

    _, rows = _rows_for(vec, 3)
    bots = prepare(rows, params)
    kind = int(params[ALL_PASS] or params[BOCK_RAMSCH_ROUND] or 1)
    select = bool(params[ALL_PASS]) and not params[RAMSCH_EVERY_DEAL]
    n = 3 * deals
    initial = np.zeros((n, N_RAMSCH_FEATURES))
    final = np.zeros((n, N_RAMSCH_FEATURES))
    score = np.zeros(n)
    factor = np.ones(n)
    k = ramsch_samples(np.uint64(seed), 0, deals, bots, params, kind, select, initial, final, score, factor)
    initial, final, score, factor = initial[:k], final[:k], score[:k], factor[:k]
    ridge = 1e-3 * k * np.eye(N_RAMSCH_FEATURES)
    ridge[0, 0] = 0.0
    r = np.linalg.solve(initial.T @ initial + ridge, initial.T @ score)
    unit = score / factor
    u = np.linalg.solve(final.T @ final + ridge, final.T @ unit)
    vec[CAL_RAMSCH - CAL0 : CAL_RAMSCH - CAL0 + N_RAMSCH_FEATURES] = r
    vec[CAL_PUSH - CAL0 : CAL_PUSH - CAL0 + N_RAMSCH_FEATURES] = u
    info["ramsch"] = {
        "deals": deals,
        "kind": kind,
        "only_deals_nobody_would_bid": select,
        "samples": int(k),
        "mean_score": round(float(score.mean()), 3) if k else 0.0,
        "residual_sd": round(float(np.std(score - initial @ r)), 3) if k else 0.0,
        "features": list(ramschmodel.FEATURE_NAMES),
    }


def _self_play(params: np.ndarray, vec: np.ndarray, deals: int, seed: int, info: dict[str, Any]) -> None:
    """Play the variant with the bots of ``vec`` and learn from it: the all-pass chances, a defender's
    expectation and the Kontra model, into ``vec``."""
    from ..engine.block import simulate_block
    from .expected import kontra_fields, prepare

    length = int(params[LIST_LENGTH])
    if length:
        deals = max(deals // length, 1) * length
    kinds, rows_in = _rows_for(vec, int(params[TABLE_PLAYERS]))
    rows = np.zeros((deals, N_COLUMNS), dtype=np.int64)
    logs = np.zeros((deals, LOG_WIDTH), dtype=np.int16)
    simulate_block(np.uint64(seed), 0, kinds, rows_in, params, rows, logs)
    compulsory = (logs[:, LOG_ROUND] > 0) | bool(params[RAMSCH_EVERY_DEAL])
    bid_deal = ~compulsory
    all_passed = bid_deal & (rows[:, COL_BID] == 0)
    mh_first = bid_deal & (rows[:, COL_MAX_BID_FH + 1] == 0)
    rh_first = mh_first & (rows[:, COL_MAX_BID_FH + 2] == 0)
    p_mh = float(all_passed[mh_first].mean()) if mh_first.any() else 0.0
    p_rh = float(all_passed[rh_first].mean()) if rh_first.any() else 0.0
    declarer = rows[:, COL_DECLARER]
    declared = declarer >= 0
    first = COL_LIST_POINTS_FH if params[LIST_SCORING] else COL_SCORE_FH
    points = rows[:, first : first + 3]
    defenders = points[declared].sum(axis=1) - points[declared, declarer[declared]]
    defender = float(defenders.mean() / 2) if declared.any() else 0.0
    vec[CAL_ALL_PASS_MH - CAL0] = p_mh
    vec[CAL_ALL_PASS_RH - CAL0] = p_rh
    vec[CAL_DEFENDER - CAL0] = defender
    info["self_play"] = {
        "deals": deals,
        "all_passed": round(float(all_passed.mean()), 5),
        "all_pass_after_middlehand_passes": round(p_mh, 5),
        "forehand_passes_alone": round(p_rh, 5),
        "defender_expects": round(defender, 4),
    }
    if not params[KONTRA_ENABLED]:
        return
    bot = prepare(rows_in[:1], params)[0]
    z = np.zeros(deals)
    zpick = np.zeros(deals)
    zdef = np.zeros(deals)
    cls = np.zeros(deals, dtype=np.int64)
    declared_logits(rows, logs, bot, z, zpick, zdef, cls)
    kontra = rows[:, COL_KONTRA_LEVEL] >= 1
    won = rows[:, COL_WON].astype(np.float64)
    sel = declared & (rows[:, COL_GAME_TYPE] >= 0)
    hand = rows[:, COL_HAND] == 1
    # per situation: the games it judges and the log-odds it judges them by (the bot's own at that point)
    situations = {
        BEFORE_PICKUP: (sel & ~hand, zpick),
        HAND_GAME: (sel & hand, z),
        AFTER_PICKUP: (sel & ~hand, z),
    }
    fits: dict[str, dict[str, dict[str, float | int]]] = {}
    for situation, (games, x) in situations.items():
        pooled = _logistic(np.column_stack([np.ones(games.sum()), x[games]]), kontra[games].astype(np.float64))
        fits[SITUATION_NAMES[situation]] = mine_fits = {}
        for c in range(N_CLASSES):
            mine = games & (cls == c)
            base = kontra_fields(c, situation) - CAL0
            if mine.sum() >= MIN_CLASS_GAMES and kontra[mine].sum() >= 20:
                a, b = _logistic(np.column_stack([np.ones(mine.sum()), x[mine]]), kontra[mine].astype(np.float64))
            elif kontra[games].sum() >= 20 and c not in (NULL_CLASS, NULL_OUVERT_CLASS):
                a, b = pooled
            else:
                rate = (kontra[mine].sum() + 0.5) / (mine.sum() + 50.0)
                a, b = float(np.log(rate / (1 - rate))), 0.0
            # the shifts say what a Kontra (or none) tells beyond the outcome model's own estimate for
            # declared games like these: each against the shift that fits all of them
            overall = _shift(x[mine], won[mine])
            shift_kontra = _shift(x[mine & kontra], won[mine & kontra], overall) - overall
            shift_none = _shift(x[mine & ~kontra], won[mine & ~kontra], overall) - overall
            vec[base + K_A] = a
            vec[base + K_B] = b
            vec[base + K_SHIFT_KONTRA] = shift_kontra
            vec[base + K_SHIFT_NONE] = shift_none
            mine_fits[CLASS_NAMES[c]] = {
                "games": int(mine.sum()),
                "kontra": int((mine & kontra).sum()),
                "a": round(float(a), 4),
                "b": round(float(b), 4),
                "shift_kontra": round(float(shift_kontra), 4),
                "shift_none": round(float(shift_none), 4),
                "model_bias": round(float(overall), 4),
            }
    re_said = sel & (rows[:, COL_KONTRA_LEVEL] >= 2)
    if params[KONTRA_BEYOND_RE]:
        vec[CAL_RE_SHIFT - CAL0] = _shift(zdef[re_said], won[re_said])
    re_shift = round(float(vec[CAL_RE_SHIFT - CAL0]), 4)
    info["kontra"] = {"situations": fits, "re_said": int(re_said.sum()), "re_shift": re_shift}


def calibrate(
    params: np.ndarray,
    name: str = "",
    deals: int | None = None,
    ramsch_deals: int | None = None,
    seed: int = SEED,
    rounds: int = ROUNDS,
) -> Calibration:
    """Learn the variant's calibration by self-play (see the module docstring; ``deals`` and
    ``ramsch_deals`` default to :data:`DEALS` and :data:`RAMSCH_DEALS`); reproducible: a pure
    function of the variant, the arguments and the card-play calibration."""
    deals = DEALS if deals is None else deals
    ramsch_deals = RAMSCH_DEALS if ramsch_deals is None else ramsch_deals
    params = np.asarray(params, dtype=np.int64)
    key = calibration_key(params)
    vec = neutral()
    info: dict[str, Any] = {"seed": seed, "rounds": rounds}
    if key == "none":
        return Calibration(key, "not needed", vec, info)
    for r in range(rounds):
        if _ramsch_relevant(params):
            _fit_ramsch(params, vec, ramsch_deals, seed + 2 * r, info)
        _self_play(params, vec, deals, seed + 2 * r + 1, info)
    return Calibration(key, "computed", vec, info)
