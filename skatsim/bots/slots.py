"""The layout of a heuristic bot's prepared row: what every heuristic kernel takes as ``bot``.

A seat's row (``DealState.bots[seat]``) has three parts, in this order:

1. the registry's parameters (``P_*``, :data:`skatsim.bots.BOTS`): the player's attitudes;
2. the variant's calibration (``CAL_*``, :mod:`skatsim.bots.variantcal`): what self-play under the
   variant taught the bots about the situations its rules create (the value of passing when
   the others may pass too, what a Ramsch costs a hand, how often a declaration draws Kontra);
3. the scoring view (``V_*``), derived once per block from the variant's rule parameters and the
   two parts above by :func:`skatsim.bots.expected.prepare`: the list bonuses read off the
   engine's own list-point kernel, which outcomes count as won under each announcement (the
   engine's own outcome kernel), and the per-block bid thresholds.

Plain integers only (no kernels here): :mod:`skatsim.bots` sizes the deal state from them.
"""

from __future__ import annotations

# --- 1. the registry's parameters (order of skatsim.bots.BOTS["heuristic"].params) ------------------
P_LOSS_AVERSION = 0
P_HAND_BIAS = 1
P_GRAND_BIAS = 2
P_NULL_BIAS = 3
P_SUIT_BIAS = 4
P_OUVERT_BIAS = 5
P_REVERSED_BIAS = 6
P_GRAND_BID_BIAS = 7
P_NULL_HAND_BIAS = 8
P_NULL_BID_BIAS = 9
P_OUVERT_HAND_BIAS = 10
P_NULL_HAND_SPREAD = 11
P_FIRST_BID_BIAS = 12
N_BOT_PARAMS = 13

# --- 2. the variant's calibration (skatsim.bots.variantcal writes it; zeros: nothing learnt) --------
CAL0 = N_BOT_PARAMS
#: P(all three pass | middlehand passes at once), and the same for rearhand's first word (forehand
#: alone decides last: for him an all-pass is certain when he passes).
CAL_ALL_PASS_MH = CAL0
CAL_ALL_PASS_RH = CAL0 + 1
#: What a seat can expect as a defender (its own points: the +40 of a lost game in a Seeger-Fabian list).
CAL_DEFENDER = CAL0 + 2
#: Ramsch features (:mod:`skatsim.bots.ramschmodel`) and the two linear models over them: the seat's
#: expected score in the Ramsch that follows an all-pass (``CAL_RAMSCH``), and a Schieberamsch's
#: score per unit of its doubling for the hand the seat ends with (``CAL_PUSH``).
N_RAMSCH_FEATURES = 16
CAL_RAMSCH = CAL0 + 3
CAL_PUSH = CAL_RAMSCH + N_RAMSCH_FEATURES
#: Kontra, per game class and situation (:data:`skatsim.bots.handeval.N_CLASSES` x ``N_KONTRA_SITUATIONS``
#: rows of ``N_KONTRA_FIELDS``, row ``cls * N_KONTRA_SITUATIONS + situation`` as the outcome model's
#: rows): the log-odds of drawing Kontra are ``a + b z`` (``z``: the declarer's own log-odds of
#: winning as he judges them in that situation: before the pickup, hand, after the pickup), and his
#: log-odds of winning move by ``shift_kontra`` when Kontra comes, ``shift_none`` when not (each
#: measured against the outcome model's own bias on the declared games of that class and situation).
CAL_KONTRA = CAL_PUSH + N_RAMSCH_FEATURES
K_A, K_B, K_SHIFT_KONTRA, K_SHIFT_NONE = range(4)
N_KONTRA_FIELDS = 4
N_GAME_CLASSES = 5
N_KONTRA_SITUATIONS = 3  # skatsim.bots.handeval.N_SITUATIONS (asserted in skatsim.bots.expected)
#: How the defenders' estimate of the declarer's chance moves (log-odds) once he has said Re.
CAL_RE_SHIFT = CAL_KONTRA + N_GAME_CLASSES * N_KONTRA_SITUATIONS * N_KONTRA_FIELDS
N_CALIB = CAL_RE_SHIFT + 1 - CAL0

# --- 3. the scoring view (derived per block) ---------------------------------------------------------
V0 = CAL0 + N_CALIB
V_WON_BONUS = V0  # the declarer's list points beyond his score for a won game (+50), 0 without lists
V_LOST_MALUS = V0 + 1  # ... taken off for a lost game (50)
V_DEFENDER_BONUS = V0 + 2  # each defender's list points when the declarer loses (40)
V_BONUS_DOUBLES = V0 + 3  # 1 when Kontra and Re multiply those bonuses too
V_KONTRA = V0 + 4  # 1 when a declaration may draw Kontra (the variant allows it)
V_TOP_LEVEL = V0 + 5  # the highest doubling level the variant allows (2: Re)
V_RAMSCH = V0 + 6  # 1 when a Ramsch follows an all-pass (its expectation is the value of passing)
V_PASS = V0 + 7  # the value of passing once someone has bid: what a defender expects (CAL_DEFENDER)
V_OPEN_FLOOR = V0 + 8  # the lowest value of passing before anyone has bid, over every hand and seat
#: Which of the six outcomes (``skatsim.bots.winprob.O_*``) count as won with no announcement, with
#: Schneider announced, with Schwarz announced (ouvert included): 3 x 6 entries of 0 or 1.
V_WON = V0 + 9
N_OUTCOMES = 6
#: Bid thresholds: the least (biased) log-odds at which a game, played with the skat or hand, is worth
#: more than passing once someone has bid (``V_PASS``), per game and matadors (``V_ZSTAR_PASS``). Index:
#: :func:`skatsim.bots.expected.threshold_slot`. Against the values of passing before anyone has bid:
#: the ladder ``V_ZSTAR_RUNGS`` below.
N_THRESHOLDS = 108
V_ZSTAR_PASS = V_WON + 3 * N_OUTCOMES
#: The least of those thresholds per game and way of playing (any matadors), ``V_ZMIN_PASS``: a game
#: below it is not worth counting its matadors. Index :func:`skatsim.bots.expected.least_slot`.
N_LEAST = 16
V_ZMIN_PASS = V_ZSTAR_PASS + N_THRESHOLDS
#: Bound terms per threshold slot (:func:`skatsim.bots.expected.bound`): the utility of the best a win
#: can score (``V_BOUND_WIN``) and of the least a loss costs (``V_BOUND_LOSE``), so that ranking the
#: candidate games by an upper bound of their expected score costs one interpolation each.
V_BOUND_WIN = V_ZMIN_PASS + N_LEAST
V_BOUND_LOSE = V_BOUND_WIN + N_THRESHOLDS
#: Scratch: the seat's log-odds per candidate game while it works out its bids and its declaration,
#: with the skat and hand (its kernels allocate nothing).
V_LOGITS = V_BOUND_LOSE + N_THRESHOLDS
N_LOGITS = 16
#: Scratch space the seat's kernels count features into.
V_SCRATCH = V_LOGITS + N_LOGITS
N_SCRATCH = 16
#: Scratch: the matadors of each candidate game in the cards the seat weighs its declaration with
#: (:func:`skatsim.bots.heuristic._fill_mats`), counted once per set of cards.
V_MATS = V_SCRATCH + N_SCRATCH
N_MATS = 8
#: The log-odds the seat's bid ceiling worked out (``skatsim.bots.heuristic.bid_ceilings``), kept for
#: its declaration in the same deal: for the cards ``V_KEPT_CARDS`` (a mask; 0: none kept) at seat
#: ``V_KEPT_SEAT``, per candidate game with the skat, then hand (NaN: not worked out).
V_KEPT_CARDS = V_MATS + N_MATS
V_KEPT_SEAT = V_KEPT_CARDS + 1
V_KEPT_Z = V_KEPT_SEAT + 1
N_KEPT_Z = 16
#: Bid thresholds against a ladder of values of passing before anyone has bid: ``N_RUNGS`` values from
#: ``V_OPEN_FLOOR`` (the first rung: no game below its thresholds is worth a first bid) up, ascending
#: (``V_RUNGS``; without a Ramsch they include the three seats' own), and per rung ``N_THRESHOLDS``
#: thresholds as ``V_ZSTAR_PASS`` (``V_ZSTAR_RUNGS + rung * N_THRESHOLDS``) and their ``N_LEAST`` least
#: as ``V_ZMIN_PASS`` (``V_ZMIN_RUNGS + rung * N_LEAST``): the first-bid question, a game's expected
#: score against the seat's value of passing, is read off the rungs next to that value
#: (:func:`skatsim.bots.heuristic._worth_opening`).
N_RUNGS = 12
V_RUNGS = V_KEPT_Z + N_KEPT_Z
V_ZSTAR_RUNGS = V_RUNGS + N_RUNGS
V_ZMIN_RUNGS = V_ZSTAR_RUNGS + N_RUNGS * N_THRESHOLDS

#: Hand floors (:func:`skatsim.bots.expected.hand_floors`): per forehand or not, the hand's four jacks and
#: game played hand (``least_slot - N_LEAST // 2``), the log-odds with the skat below which its hand
#: log-odds cannot reach its least hand threshold ``V_ZMIN_PASS``: that threshold less the bot's hand bias
#: and the hand gap (:func:`skatsim.bots.winprob.hand_gap_of_jacks`). The test deciding whether a hand game's
#: hand log-odds are worth working out, as one comparison.
N_HAND_FLOORS = 2 * 16 * (N_LEAST // 2)
V_HAND_FLOOR = V_ZMIN_RUNGS + N_RUNGS * N_LEAST

# --- 4. what other bots add (the pimc bot: the heuristic's row, then its worlds) ---------------------
#: The pimc bot's worlds per card: the parameter :func:`skatsim.bots.bot_arrays` writes after the
#: calibration (``N_EXTRA`` such parameters), copied here by :func:`skatsim.bots.seam.prepare`.
N_EXTRA = 1
X_WORLDS = V_HAND_FLOOR + N_HAND_FLOORS
N_PREPARED = X_WORLDS + N_EXTRA

# --- scratch for bots that search, kept in every deal state (kernels allocate nothing) ---------------
#: The most worlds the pimc bot samples per card, the int64 slots it needs for them
#: (``DealState.search``), and the size of its open-hand solver table (``search_tt``: 2**20 entries).
MAX_WORLDS = 100
N_SEARCH = 64 + 4 * MAX_WORLDS
SEARCH_TABLE_LOG2 = 20
