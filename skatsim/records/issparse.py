"""The ISS line parser, compiled: raw bytes of many lines in, the engine's arrays out.

This is THE parser of ISS game records (RULES.md §7): :func:`skatsim.records.iss.parse_line`
runs it on one line and builds an :class:`~skatsim.records.iss.IssGame` from its arrays, and
the archive import (:mod:`skatsim.records.issbatch`) runs it on tens of thousands of lines per
call. It reads a line once, byte by byte, and writes what a replay needs straight into the
deal flow's action record (:mod:`skatsim.engine.layout`), so no Python object is made per line.
Its semantics are those of the parser it replaced, down to Python's ``str.split``/``str.strip``
whitespace (every character ``str.isspace`` accepts, multi-byte ones included) and the order in
which problems are found; every message keeps its wording (:mod:`skatsim.records.iss` formats
them from the error codes and byte spans written here).

Per line ``i`` it fills:

* ``info[i]``: the ``I_*`` slots (game ID, declarer, counts, the server's result ``R[]``,
  byte spans of ``DT[]`` and ``P0[]``..``P2[]``, the packed deal, :data:`I_SHAPE` when the
  record parses but cannot become an action record: a bid value out of range, more than 30 cards);
* ``err[i]``: the ``X_*`` slots, ``X_CODE`` one of the ``E_*`` codes (0: the line parsed);
* ``deal[i]``: the 32 dealt cards in the line's order (-1: hidden, ``??``);
* ``log[i]``: the action record exactly as :func:`skatsim.records.record.action_record` writes it;
* up to their capacity (the arrays' second axis; 0 to skip), every bid ``(seat, action)`` with
  its move number, every card with its move number and the seat the line names, and, in
  ``moves``, the byte spans of each move's two tokens (single-line use).

:func:`skatsim.records.recordjson.write_json` writes each game's :meth:`GameRecord.to_json` text
from the same arrays; :func:`check_seats` makes the checks a replay alone cannot (who declared, who
played each card).
"""

from __future__ import annotations

import numpy as np

from .._jit import kernel
from ..engine import layout
from ..engine.bidding import HOLD, MAX_BID, PASS
from ..engine.cards import RANK_LETTERS, SUIT_LETTERS
from ..engine.gametypes import ISS_LETTERS
from ..engine.layout import EMPTY, NO
from ..engine.scoring import HAND, OUVERT, SCHNEIDER_ANNOUNCED, SCHWARZ_ANNOUNCED
from ..engine.tricks import trick_winner

# --- info slots ---------------------------------------------------------------------------------
I_BLANK = 0  # 1 when the line is empty or whitespace only
I_ID = 1  # ID[]
I_DECLARER = 2  # seat that picked up or declared, -1 none
I_DECLARE_MOVE = 3  # that move's number (1-based), 0 none
I_N_BIDS = 4  # bidding actions in the line (all, not only those kept)
I_N_CARDS = 5  # cards played in the line (all)
I_N_MOVES = 6  # moves in MV[]
I_SHAPE = 7  # 1: parses, but a bid value or the number of cards cannot be an action record
I_DEAL = 8  # the deal packed as skatsim.engine.deal.pack_deal packs it
I_DT = 9  # byte span of DT[] (9, 10); -1 -1 when the line has none
I_PLAYERS = 11  # byte spans of P0[], P1[], P2[] (11..16); -1 -1 for a missing one
I_RESULT = 17  # 0 win, 1 loss, 2 penalty, 3 passed (then the slots below are 0)
I_R = 18  # R[] d v m p t s z (18..24)
I_OVERBID = 25  # 1 overbid, 0 bidok
N_INFO = 26
#: Keys of ``R[]`` in the order they are checked, with their bounds (the column dtypes' ranges).
R_KEYS = "dvmptsz"
R_LOW = np.array([-1, -(2**31), -11, 0, 0, 0, 0], dtype=np.int64)
R_HIGH = np.array([2, 2**31 - 1, 11, 120, 10, 1, 1], dtype=np.int64)
_R_KEY_BYTES = np.frombuffer(R_KEYS.encode(), dtype=np.uint8).copy()
MAX_ID = 2**63 - 1

# --- error slots and codes ----------------------------------------------------------------------
X_CODE = 0
X_MOVE = 1  # number of the move the problem is in (1-based), 0 none
X_WHO = 2  # byte span of that move's first token (2, 3)
X_ACTION = 4  # and of its second (4, 5)
X_SPAN = 6  # byte span of the text the message quotes (6, 7)
X_A = 8  # numbers the message names
X_B = 9
N_ERR = 10

(
    OK,
    E_NOT_RECORD,
    E_CUT_OFF,
    E_FIELD_TWICE,
    E_UNEXPECTED_TEXT,
    E_NOT_SKAT,
    E_MISSING,
    E_ID,
    E_RESULT_WORDS,
    E_RESULT_MISSING,
    E_RESULT_NUMBER,
    E_ODD_TOKENS,
    E_UNKNOWN_PLAYER,
    E_FIRST_MOVE,
    E_DEAL_COUNT,
    E_DEAL_CARD,
    E_DEALT_TWICE,
    E_AFTER_END,
    E_END_SEAT,
    E_SC_BEFORE,
    E_SC_DEFENDER,
    E_SERVER_MOVE,
    E_SKAT_COUNT,
    E_CARD,
    E_HIDDEN_CARD,
    E_NOT_IN_SKAT,
    E_BID_AFTER_PICKUP,
    E_NOT_A_BID,
    E_PICKED_UP_TWICE,
    E_OTHER_DECLARER,
    E_UNKNOWN_DECLARATION,
    E_DISCARD_COUNT,
    E_SHOWN_FORM,
    E_SHOWN_HAND,
    E_DISCARDER,
    E_HIDDEN_DEAL,
) = range(36)

# --- byte tables --------------------------------------------------------------------------------
_SUIT = np.full(256, -1, dtype=np.int64)
_RANK = np.full(256, -1, dtype=np.int64)
for _k, _ch in enumerate(SUIT_LETTERS):
    _SUIT[ord(_ch)] = _k
for _k, _ch in enumerate(RANK_LETTERS):
    _RANK[ord(_ch)] = _k
#: ISS letter of a game type -> its code; -1 for any other byte.
_GAME_LETTER = np.full(256, -1, dtype=np.int64)
for _ch, _gt in ISS_LETTERS.items():
    _GAME_LETTER[ord(_ch)] = _gt
#: Declaration modifier letter -> its flag; 0 for any other byte.
_MODIFIER = np.zeros(256, dtype=np.int64)
for _ch, _flag in {"O": OUVERT, "H": HAND, "S": SCHNEIDER_ANNOUNCED, "Z": SCHWARZ_ANNOUNCED}.items():
    _MODIFIER[ord(_ch)] = _flag
_END_CLAIM, _END_RESIGN, _END_TIMEOUT, _END_LEFT = (
    layout.END_KINDS.index(k) for k in ("claim", "resign", "timeout", "left")
)
_NO_KIND = -1

_HIDDEN = -1  # a hidden card (??)
_BAD = -2  # not a card name


@kernel
def _space(buf: np.ndarray, i: int, hi: int) -> int:
    """Bytes of the whitespace character (as ``str.isspace``) starting at ``buf[i]``; 0 when none."""
    b = buf[i]
    if b == 32 or 9 <= b <= 13 or 28 <= b <= 31:
        return 1
    if b == 0xC2:
        if i + 1 < hi and (buf[i + 1] == 0x85 or buf[i + 1] == 0xA0):
            return 2
        return 0
    if b < 0xE1 or b > 0xE3 or i + 2 >= hi:
        return 0
    c = buf[i + 1]
    d = buf[i + 2]
    if b == 0xE1:
        return 3 if c == 0x9A and d == 0x80 else 0
    if b == 0xE3:
        return 3 if c == 0x80 and d == 0x80 else 0
    if c == 0x80 and (0x80 <= d <= 0x8A or d == 0xA8 or d == 0xA9 or d == 0xAF):
        return 3
    return 3 if c == 0x81 and d == 0x9F else 0


@kernel
def _skip_space(buf: np.ndarray, i: int, hi: int) -> int:
    """The first position at or after ``i`` that does not start a whitespace character."""
    while i < hi:
        n = _space(buf, i, hi)
        if n == 0:
            return i
        i += n
    return hi


@kernel
def _token_end(buf: np.ndarray, i: int, hi: int) -> int:
    """The end of the token (a run of non-whitespace characters) starting at ``i``."""
    while i < hi and _space(buf, i, hi) == 0:
        i += 1
    return i


@kernel
def _next_token(buf: np.ndarray, i: int, hi: int) -> tuple[int, int]:
    """Start and end of the first token at or after ``i`` (``hi, hi`` when only whitespace is left)."""
    start = _skip_space(buf, i, hi)
    return start, _token_end(buf, start, hi)


@kernel
def _rstrip(buf: np.ndarray, lo: int, hi: int) -> int:
    """``hi`` moved left past trailing whitespace (one-, two- and three-byte characters)."""
    while hi > lo:
        if _space(buf, hi - 1, hi) == 1:
            hi -= 1
        elif hi - 2 >= lo and _space(buf, hi - 2, hi) == 2:
            hi -= 2
        elif hi - 3 >= lo and _space(buf, hi - 3, hi) == 3:
            hi -= 3
        else:
            return hi
    return hi


@kernel
def _is(buf: np.ndarray, lo: int, hi: int, a: int, b: int) -> bool:
    """Whether ``buf[lo:hi]`` is the two bytes ``a b`` (or the one byte ``a`` when ``b`` < 0)."""
    if b < 0:
        return hi - lo == 1 and buf[lo] == a
    return hi - lo == 2 and buf[lo] == a and buf[lo + 1] == b


@kernel
def _same(buf: np.ndarray, lo1: int, hi1: int, lo2: int, hi2: int) -> bool:
    if hi1 - lo1 != hi2 - lo2:
        return False
    for k in range(hi1 - lo1):
        if buf[lo1 + k] != buf[lo2 + k]:
            return False
    return True


@kernel
def _card(buf: np.ndarray, lo: int, hi: int) -> int:
    """The card named by ``buf[lo:hi]`` in ISS notation, ``_HIDDEN`` for ``??``, ``_BAD`` otherwise."""
    if hi - lo != 2:
        return _BAD
    if buf[lo] == 63 and buf[lo + 1] == 63:
        return _HIDDEN
    suit = _SUIT[buf[lo]]
    rank = _RANK[buf[lo + 1]]
    if suit < 0 or rank < 0:
        return _BAD
    return suit * 8 + rank


@kernel
def _find(buf: np.ndarray, lo: int, hi: int, byte: int) -> int:
    """Position of the first ``byte`` in ``buf[lo:hi]``; ``hi`` when there is none."""
    while lo < hi and buf[lo] != byte:
        lo += 1
    return lo


@kernel
def _piece_end(buf: np.ndarray, lo: int, hi: int, bar: bool) -> int:
    """End of a ``.``-separated piece (also ``|``-separated when ``bar``) starting at ``lo``."""
    while lo < hi and buf[lo] != 46 and not (bar and buf[lo] == 124):
        lo += 1
    return lo


@kernel
def _integer(buf: np.ndarray, lo: int, hi: int, low: int, high: int) -> tuple[bool, int]:
    """``buf[lo:hi]`` as an integer ``-?[0-9]{1,19}`` within ``low..high`` (bounds within int64)."""
    neg = hi > lo and buf[lo] == 45
    start = lo + 1 if neg else lo
    if hi - start < 1 or hi - start > 19:
        return False, 0
    value = 0
    for k in range(start, hi):
        d = buf[k] - 48
        if d < 0 or d > 9:
            return False, 0
        if value > (MAX_ID - d) // 10:
            return False, 0  # beyond int64, so beyond every bound used here
        value = value * 10 + d
    if neg:
        value = -value
    return low <= value <= high, value


@kernel
def _fail(err: np.ndarray, code: int, move: int, a: int, b: int) -> int:
    err[X_CODE] = code
    err[X_MOVE] = move
    err[X_A] = a
    err[X_B] = b
    return code


@kernel
def _span(err: np.ndarray, lo: int, hi: int) -> None:
    err[X_SPAN] = lo
    err[X_SPAN + 1] = hi


@kernel
def _next_field(buf: np.ndarray, i: int, hi: int, out: np.ndarray) -> int:
    """Find the next ``KEY[value]`` field at or after ``i`` (as ``re.finditer`` with
    ``([A-Z][A-Z0-9]*)\\[([^\\]]*)\\]`` does); ``out`` receives the key and value spans and the
    match start. Returns the position after the match, or -1 when there is none."""
    while i < hi:
        b = buf[i]
        if 65 <= b <= 90:
            j = i + 1
            while j < hi and (65 <= buf[j] <= 90 or 48 <= buf[j] <= 57):
                j += 1
            if j < hi and buf[j] == 91:
                e = _find(buf, j + 1, hi, 93)
                if e == hi:
                    return -1  # no closing bracket anywhere after: no further match
                out[0] = i
                out[1] = j
                out[2] = j + 1
                out[3] = e
                return e + 1
            i = j  # no match starts inside this run of key characters
        else:
            i += 1
    return -1


# --- fields -------------------------------------------------------------------------------------
#: Rows of the ``spans`` workspace: the fields the parser reads.
F_GM, F_ID, F_MV, F_R, F_DT, F_P0 = 0, 1, 2, 3, 4, 5
N_FIELDS = 8


@kernel
def _known_key(buf: np.ndarray, lo: int, hi: int) -> int:
    """Row of ``spans`` for the key ``buf[lo:hi]`` (GM ID MV R DT P0 P1 P2), -1 for any other key."""
    n = hi - lo
    a = buf[lo]
    b = buf[lo + 1] if n == 2 else 0
    if n == 1:
        return F_R if a == 82 else -1
    if n != 2:
        return -1
    if a == 71 and b == 77:
        return F_GM
    if a == 73 and b == 68:
        return F_ID
    if a == 77 and b == 86:
        return F_MV
    if a == 68 and b == 84:
        return F_DT
    if a == 80 and 48 <= b <= 50:
        return F_P0 + b - 48
    return -1


@kernel
def _seen_before(buf: np.ndarray, lo: int, klo: int, khi: int, found: np.ndarray) -> bool:
    """Whether a field between ``lo`` and ``klo`` has the key ``buf[klo:khi]``: the fallback for
    lines with more fields than the key workspace holds (the scan up to ``klo`` finds the same
    fields as the scan of the whole body did, since they all end before ``klo``)."""
    at = lo
    while True:
        at = _next_field(buf, at, klo, found)
        if at < 0:
            return False
        if _same(buf, found[0], found[1], klo, khi):
            return True


@kernel
def _fields(buf: np.ndarray, lo: int, hi: int, spans: np.ndarray, err: np.ndarray, keys: np.ndarray) -> int:
    """Check the ``(; ... ;)`` frame and collect the fields into ``spans`` (value lo, hi per row;
    -1 when absent). ``keys`` is a workspace: rows 0 and 1 hold match spans, the rest the keys seen,
    so that a key given twice is found wherever it is."""
    lo = _skip_space(buf, lo, hi)
    hi = _rstrip(buf, lo, hi)
    if hi - lo < 2 or buf[lo] != 40 or buf[lo + 1] != 59:
        return _fail(err, E_NOT_RECORD, 0, 0, 0)
    if buf[hi - 2] != 59 or buf[hi - 1] != 41:
        return _fail(err, E_CUT_OFF, 0, 0, 0)
    body_lo = lo + 2
    body_hi = max(hi - 2, body_lo)
    spans[:] = -1
    found = keys[0]
    n_keys = 0
    rest = False
    at = body_lo
    while True:
        nxt = _next_field(buf, at, body_hi, found)
        stop = body_hi if nxt < 0 else found[0]
        if not rest and _skip_space(buf, at, stop) < stop:
            rest = True
        if nxt < 0:
            break
        klo = found[0]
        khi = found[1]
        for k in range(n_keys):
            if _same(buf, keys[2 + k, 0], keys[2 + k, 1], klo, khi):
                _span(err, klo, khi)
                return _fail(err, E_FIELD_TWICE, 0, 0, 0)
        if 2 + n_keys < keys.shape[0]:
            keys[2 + n_keys, 0] = klo
            keys[2 + n_keys, 1] = khi
            n_keys += 1
        elif _seen_before(buf, body_lo, klo, khi, keys[1]):
            _span(err, klo, khi)
            return _fail(err, E_FIELD_TWICE, 0, 0, 0)
        slot = _known_key(buf, klo, khi)
        if slot >= 0:
            spans[slot, 0] = found[2]
            spans[slot, 1] = found[3]
        at = nxt
    if rest:
        return _fail(err, E_UNEXPECTED_TEXT, 0, 0, 0)
    return OK


@kernel
def _result(buf: np.ndarray, lo: int, hi: int, info: np.ndarray, err: np.ndarray, values: np.ndarray) -> int:
    """The server's result ``R[...]`` into ``info`` (``values``: a (7, 2) workspace for the spans of
    ``d: v: m: p: t: s: z:``; a key given twice counts with its last value)."""
    s = _skip_space(buf, lo, hi)
    e = _rstrip(buf, s, hi)
    if e - s == 6 and buf[s] == 112 and buf[s + 1] == 97 and buf[s + 2] == 115 and buf[s + 3] == 115:
        if buf[s + 4] == 101 and buf[s + 5] == 100:
            info[I_RESULT] = 3
            return OK
    values[:] = -1
    outcomes = 0
    bid_words = 0
    i, j = _next_token(buf, s, e)
    while i < e:
        colon = _find(buf, i, j, 58)
        n = j - i
        if colon < j:
            if colon - i == 1:
                for k in range(7):
                    if buf[i] == _R_KEY_BYTES[k]:
                        values[k, 0] = colon + 1
                        values[k, 1] = j
        elif n == 3 and buf[i] == 119 and buf[i + 1] == 105 and buf[i + 2] == 110:  # win
            info[I_RESULT] = 0
            outcomes += 1
        elif n == 4 and buf[i] == 108 and buf[i + 1] == 111 and buf[i + 2] == 115 and buf[i + 3] == 115:  # loss
            info[I_RESULT] = 1
            outcomes += 1
        elif n == 7 and _word(buf, i, 0):  # penalty
            info[I_RESULT] = 2
            outcomes += 1
        elif n == 5 and _word(buf, i, 1):  # bidok
            info[I_OVERBID] = 0
            bid_words += 1
        elif n == 7 and _word(buf, i, 2):  # overbid
            info[I_OVERBID] = 1
            bid_words += 1
        i, j = _next_token(buf, j, e)
    if outcomes != 1 or bid_words != 1:
        return _fail(err, E_RESULT_WORDS, 0, 0, 0)
    missing = 0
    for k in range(7):
        if values[k, 0] < 0:
            missing |= 1 << k
    if missing:
        return _fail(err, E_RESULT_MISSING, 0, missing, 0)
    for k in range(7):
        ok, value = _integer(buf, values[k, 0], values[k, 1], R_LOW[k], R_HIGH[k])
        if not ok:
            _span(err, values[k, 0], values[k, 1])
            return _fail(err, E_RESULT_NUMBER, 0, k, 0)
        info[I_R + k] = value
    return OK


_WORDS = np.zeros((3, 7), dtype=np.uint8)
for _k, _w in enumerate(("penalty", "bidok", "overbid")):
    _WORDS[_k, : len(_w)] = np.frombuffer(_w.encode(), dtype=np.uint8)
_WORD_LEN = np.array([7, 5, 7], dtype=np.int64)


@kernel
def _word(buf: np.ndarray, i: int, w: int) -> bool:
    for k in range(_WORD_LEN[w]):
        if buf[i + k] != _WORDS[w, k]:
            return False
    return True


# --- moves --------------------------------------------------------------------------------------


@kernel
def _move_fail(err: np.ndarray, code: int, n: int, wlo: int, whi: int, alo: int, ahi: int, a: int, b: int) -> int:
    err[X_WHO] = wlo
    err[X_WHO + 1] = whi
    err[X_ACTION] = alo
    err[X_ACTION + 1] = ahi
    return _fail(err, code, n, a, b)


@kernel
def _check_players(buf: np.ndarray, lo: int, hi: int, err: np.ndarray) -> int:
    """Count the tokens of ``MV[]`` and check every move's first token names a player
    (``w``, ``0``, ``1``, ``2``); returns the number of moves, or -1 after an error (written into
    ``err``; nothing is written when there is none)."""
    tokens = 0
    bad = 0
    i, j = _next_token(buf, lo, hi)
    while i < hi:
        if tokens % 2 == 0:
            if bad == 0 and not (j - i == 1 and (buf[i] == 119 or 48 <= buf[i] <= 50)):
                bad = tokens // 2 + 1
                err[X_WHO] = i
                err[X_WHO + 1] = j
        elif bad == tokens // 2 + 1:
            err[X_ACTION] = i
            err[X_ACTION + 1] = j
        tokens += 1
        i, j = _next_token(buf, j, hi)
    if tokens % 2:
        _fail(err, E_ODD_TOKENS, 0, 0, 0)
        return -1
    if bad:
        _fail(err, E_UNKNOWN_PLAYER, bad, 0, 0)
        return -1
    return tokens // 2


@kernel
def _parse_line(
    buf: np.ndarray, lo: int, hi: int, row: tuple, moves: np.ndarray, spans: np.ndarray, keys: np.ndarray
) -> int:
    """Parse the line ``buf[lo:hi]`` into ``row`` (the line's rows of :func:`parse_lines`'s ``lines``);
    returns the error code (``OK`` = 0)."""
    info, err, deal, log = row[0], row[1], row[2], row[3]
    info[:] = 0
    err[:] = 0
    log[:] = EMPTY
    deal[:] = _HIDDEN
    info[I_DECLARER] = -1
    for k in range(I_DT, I_PLAYERS + 6):
        info[k] = -1
    if _skip_space(buf, lo, hi) == hi:
        info[I_BLANK] = 1
    code = _fields(buf, lo, hi, spans, err, keys)
    if code:
        return code
    gm_lo = spans[F_GM, 0]
    gm_hi = spans[F_GM, 1]
    if gm_lo >= 0:
        skat = gm_hi - gm_lo == 4 and buf[gm_lo] == 83 and buf[gm_lo + 1] == 107
        if not (skat and buf[gm_lo + 2] == 97 and buf[gm_lo + 3] == 116):
            _span(err, gm_lo, gm_hi)
            return _fail(err, E_NOT_SKAT, 0, 0, 0)
    for k, slot in enumerate((F_ID, F_MV, F_R)):
        if spans[slot, 0] < 0:
            return _fail(err, E_MISSING, 0, k, 0)
    ok, game_id = _integer(buf, spans[F_ID, 0], spans[F_ID, 1], 0, MAX_ID)
    if not ok:
        _span(err, spans[F_ID, 0], spans[F_ID, 1])
        return _fail(err, E_ID, 0, 0, 0)
    info[I_ID] = game_id
    code = _result(buf, spans[F_R, 0], spans[F_R, 1], info, err, keys[2:9])
    if code:
        return code
    info[I_DT] = spans[F_DT, 0]
    info[I_DT + 1] = spans[F_DT, 1]
    for s in range(3):
        info[I_PLAYERS + 2 * s] = spans[F_P0 + s, 0]
        info[I_PLAYERS + 2 * s + 1] = spans[F_P0 + s, 1]
    mv_lo = spans[F_MV, 0]
    mv_hi = spans[F_MV, 1]
    code = _read_moves(buf, mv_lo, mv_hi, row, moves)
    if code and _check_players(buf, mv_lo, mv_hi, err) < 0:
        return err[X_CODE]  # an odd number of tokens, or a move naming no player: these come first
    return code


@kernel
def _read_deal(buf: np.ndarray, alo: int, ahi: int, deal: np.ndarray, err: np.ndarray, wlo: int, whi: int) -> int:
    """Move 1, ``w <32 cards>``: the deal into ``deal`` (-1 for a hidden card)."""
    count = 1
    for k in range(alo, ahi):
        if buf[k] == 46 or buf[k] == 124:
            count += 1
    if count != 32:
        return _move_fail(err, E_DEAL_COUNT, 1, wlo, whi, alo, ahi, count, 0)
    at = alo
    for k in range(32):
        end = _piece_end(buf, at, ahi, True)
        c = _card(buf, at, end)
        if c == _BAD:
            _span(err, at, end)
            return _move_fail(err, E_DEAL_CARD, 1, wlo, whi, alo, ahi, k + 1, 0)
        deal[k] = c
        at = end + 1
    seen = np.uint32(0)
    twice = np.uint32(0)
    for k in range(32):
        if deal[k] >= 0:
            bit = np.uint32(1) << np.uint32(deal[k])
            if seen & bit:
                twice |= bit
            seen |= bit
    if twice:
        low = 0
        while not (twice >> np.uint32(low)) & np.uint32(1):
            low += 1
        return _move_fail(err, E_DEALT_TWICE, 1, wlo, whi, alo, ahi, low, 0)
    return OK


@kernel
def _read_moves(buf: np.ndarray, lo: int, hi: int, row: tuple, moves: np.ndarray) -> int:
    """Walk ``MV[]`` once, phase by phase, writing the action record into ``row`` (as :func:`_parse_line`).
    A move that names no player, or a last token without its pair, stops the walk with that code; the
    caller then finds which of those problems comes first (:func:`_check_players`), as they come before
    any other."""
    info, err, deal, log, bids, bid_moves, cards, card_moves, card_seats = row
    end_kind = _NO_KIND
    end_seat = 0
    pend_kind = _NO_KIND
    pend_seat = 0
    game_type = -1
    flags = 0
    pickup = False
    declarer = -1
    declare_move = 0
    discards = 0  # how many discards are known (0 or 2)
    n_bids = 0
    n_cards = 0
    hidden_play = False
    resigned = 0
    dealt30 = np.uint32(0)  # known cards of the three hands (a shown skat card must not be one)
    shape = 0
    i = lo
    n = 0
    while True:
        wlo, whi = _next_token(buf, i, hi)
        if wlo >= hi:
            break
        alo, ahi = _next_token(buf, whi, hi)
        if alo >= hi:
            return E_ODD_TOKENS
        i = ahi
        n += 1
        if not (whi - wlo == 1 and (buf[wlo] == 119 or 48 <= buf[wlo] <= 50)):
            return E_UNKNOWN_PLAYER
        if n - 1 < moves.shape[0]:
            moves[n - 1, 0] = wlo
            moves[n - 1, 1] = whi
            moves[n - 1, 2] = alo
            moves[n - 1, 3] = ahi
        server = buf[wlo] == 119
        seat = buf[wlo] - 48
        if n == 1:
            if not server:
                return _fail(err, E_FIRST_MOVE, 0, 0, 0)
            code = _read_deal(buf, alo, ahi, deal, err, wlo, whi)
            if code:
                return code
            for k in range(30):
                if deal[k] >= 0:
                    dealt30 |= np.uint32(1) << np.uint32(deal[k])
            continue
        if end_kind != _NO_KIND:
            return _move_fail(err, E_AFTER_END, n, wlo, whi, alo, ahi, 0, 0)
        # early ends: w TI.<p>, w LE.<p>, <p> SC, <p> RE
        dot = _find(buf, alo, ahi, 46)
        if server and (_is(buf, alo, dot, 84, 73) or _is(buf, alo, dot, 76, 69)):
            if not (ahi - dot == 2 and 48 <= buf[dot + 1] <= 50):
                return _move_fail(err, E_END_SEAT, n, wlo, whi, alo, ahi, 0, 0)
            end_kind = _END_TIMEOUT if buf[alo] == 84 else _END_LEFT
            end_seat = buf[dot + 1] - 48
            continue
        claim = _is(buf, alo, ahi, 83, 67)
        if not server and (claim or _is(buf, alo, ahi, 82, 69)):
            if game_type < 0:
                if claim:
                    return _move_fail(err, E_SC_BEFORE, n, wlo, whi, alo, ahi, 0, 0)
                end_kind = _END_RESIGN
                end_seat = seat
            elif seat == declarer:
                if claim:
                    pend_kind = _END_CLAIM
                    pend_seat = seat
                else:
                    end_kind = _END_RESIGN
                    end_seat = seat
            elif claim:
                return _move_fail(err, E_SC_DEFENDER, n, wlo, whi, alo, ahi, 0, 0)
            else:
                resigned |= 1 << seat
                pend_kind = _END_RESIGN
                pend_seat = seat
                if resigned == 7 ^ (1 << declarer):
                    end_kind = _END_RESIGN
                    end_seat = seat
            continue
        if server:  # the skat shown after a pickup
            if not pickup or game_type >= 0:
                return _move_fail(err, E_SERVER_MOVE, n, wlo, whi, alo, ahi, 0, 0)
            if dot == ahi or _find(buf, dot + 1, ahi, 46) < ahi:
                return _move_fail(err, E_SKAT_COUNT, n, wlo, whi, alo, ahi, 0, 0)
            shown0 = _card(buf, alo, dot)
            shown1 = _card(buf, dot + 1, ahi)
            if shown0 == _BAD:
                _span(err, alo, dot)
                return _move_fail(err, E_CARD, n, wlo, whi, alo, ahi, 0, 0)
            if shown1 == _BAD:
                _span(err, dot + 1, ahi)
                return _move_fail(err, E_CARD, n, wlo, whi, alo, ahi, 0, 0)
            for c in (shown0, shown1):
                if c == _HIDDEN or c == deal[30] or c == deal[31]:
                    continue
                if (deal[30] >= 0 and deal[31] >= 0) or (dealt30 >> np.uint32(c)) & np.uint32(1):
                    return _move_fail(err, E_NOT_IN_SKAT, n, wlo, whi, alo, ahi, c, 0)
                if deal[30] < 0:
                    deal[30] = c
                else:
                    deal[31] = c
            continue
        if game_type >= 0 and (discards or not pickup):  # a card played
            if _is(buf, alo, ahi, 63, 63):
                hidden_play = True
                continue
            c = _card(buf, alo, ahi)
            if c < 0:
                _span(err, alo, ahi)
                return _move_fail(err, E_CARD, n, wlo, whi, alo, ahi, 0, 0)
            if hidden_play:
                continue
            pend_kind = _NO_KIND  # play went on: an earlier claim or single resignation did not end the game
            if n_cards < 30:
                log[layout.LOG_CARDS + n_cards] = c
            if n_cards < cards.shape[0]:
                cards[n_cards] = c
            if n_cards < card_moves.shape[0]:
                card_moves[n_cards] = n
            if n_cards < card_seats.shape[0]:
                card_seats[n_cards] = seat
            n_cards += 1
            continue
        if game_type >= 0:  # the discards after a split declaration
            if seat != declarer:
                return _move_fail(err, E_DISCARDER, n, wlo, whi, alo, ahi, 0, 0)
            count = 0
            at = alo
            while True:
                end = _piece_end(buf, at, ahi, False)
                c = _card(buf, at, end)
                if c < 0:
                    _span(err, at, end)
                    return _move_fail(err, E_HIDDEN_CARD if c == _HIDDEN else E_CARD, n, wlo, whi, alo, ahi, 0, 0)
                if count < 2:
                    log[layout.LOG_DISCARD + count] = c
                count += 1
                if end >= ahi:
                    break
                at = end + 1
            if count != 2:
                log[layout.LOG_DISCARD] = EMPTY
                log[layout.LOG_DISCARD + 1] = EMPTY
                return _move_fail(err, E_DISCARD_COUNT, n, wlo, whi, alo, ahi, count, 0)
            discards = 2
            continue
        if _is(buf, alo, ahi, 115, -1):  # s: pick up the skat
            if pickup:
                return _move_fail(err, E_PICKED_UP_TWICE, n, wlo, whi, alo, ahi, 0, 0)
            pickup = True
            declarer = seat
            declare_move = n
            continue
        head = _find(buf, alo, ahi, 46)
        declared = _GAME_LETTER[buf[alo]] >= 0
        for k in range(alo + 1, head):
            if not 65 <= buf[k] <= 90:
                declared = False
        if declared:
            if declarer >= 0 and seat != declarer:
                return _move_fail(err, E_OTHER_DECLARER, n, wlo, whi, alo, ahi, seat, declarer)
            letters = 0
            for k in range(alo + 1, head):
                flag = _MODIFIER[buf[k]]
                if flag == 0 or letters & flag:
                    _span(err, alo, head)
                    return _move_fail(err, E_UNKNOWN_DECLARATION, n, wlo, whi, alo, ahi, 0, 0)
                letters |= flag
            declarer = seat
            declare_move = n
            game_type = _GAME_LETTER[buf[alo]]
            flags = letters
            code = _declared_cards(buf, head, ahi, pickup, declarer, flags, deal, log, err)
            if code:
                return _move_fail(err, code, n, wlo, whi, alo, ahi, err[X_A], 0)
            if log[layout.LOG_DISCARD] >= 0:
                discards = 2
            continue
        if declarer >= 0:
            return _move_fail(err, E_BID_AFTER_PICKUP, n, wlo, whi, alo, ahi, 0, 0)
        if _is(buf, alo, ahi, 121, -1):
            value = HOLD
        elif _is(buf, alo, ahi, 112, -1):
            value = PASS
        else:
            value = 0
            if ahi - alo > 3:
                return _move_fail(err, E_NOT_A_BID, n, wlo, whi, alo, ahi, 0, 0)
            for k in range(alo, ahi):
                d = buf[k] - 48
                if d < 0 or d > 9:
                    return _move_fail(err, E_NOT_A_BID, n, wlo, whi, alo, ahi, 0, 0)
                value = value * 10 + d
        if n_bids < layout.MAX_LOGGED_BIDS:
            log[layout.LOG_BIDS + n_bids] = seat * 1024 + value + 1
            if value > MAX_BID:
                shape = 1
        if n_bids < bids.shape[0]:
            bids[n_bids, 0] = seat
            bids[n_bids, 1] = value
        if n_bids < bid_moves.shape[0]:
            bid_moves[n_bids] = n
        n_bids += 1
    if n == 0:
        return _fail(err, E_FIRST_MOVE, 0, 0, 0)
    info[I_N_MOVES] = n
    if end_kind == _NO_KIND and game_type >= 0:
        end_kind = pend_kind
        end_seat = pend_seat
    hidden = 0
    for k in range(32):
        if deal[k] < 0:
            hidden += 1
    if hidden:
        return _fail(err, E_HIDDEN_DEAL, 0, hidden, 0)
    # the action record, as skatsim.records.record.action_record writes it
    info[I_DECLARER] = declarer
    info[I_DECLARE_MOVE] = declare_move
    info[I_N_BIDS] = n_bids
    info[I_N_CARDS] = n_cards
    if n_cards > 30:
        shape = 1
    info[I_SHAPE] = shape
    log[layout.LOG_N_BIDS] = min(n_bids, layout.MAX_LOGGED_BIDS)
    log[layout.LOG_KONTRA] = NO
    log[layout.LOG_INSTEAD] = NO
    if game_type < 0:
        log[layout.LOG_GAME] = NO
        log[layout.LOG_PICKUP] = 1 if pickup else NO
    else:
        log[layout.LOG_GAME] = game_type
        log[layout.LOG_FLAGS] = flags
        log[layout.LOG_PICKUP] = 1 if pickup else 0
    if end_kind != _NO_KIND:
        log[layout.LOG_END] = end_kind * 3 + end_seat
    log[layout.LOG_KIND] = 0
    log[layout.LOG_ROUND] = 0
    log[layout.LOG_BOCK] = 1
    packed = np.uint64(0)
    for k in range(32):
        owner = min(k // 10, 3)
        packed |= np.uint64(owner) << np.uint64(2 * deal[k])
    info[I_DEAL] = np.int64(packed)
    return OK


@kernel
def _declared_cards(
    buf: np.ndarray,
    head: int,
    ahi: int,
    pickup: bool,
    declarer: int,
    flags: int,
    deal: np.ndarray,
    log: np.ndarray,
    err: np.ndarray,
) -> int:
    """The cards after a declaration ``<type><letters>.c.c...``: two discards after a pickup, then
    (ouvert) the declarer's ten cards. Returns an error code (``X_A`` holds a count, the span the card)."""
    if head >= ahi:
        return OK
    count = 0
    shown = np.uint32(0)
    shown_count = 0
    at = head + 1
    while True:
        end = _piece_end(buf, at, ahi, False)
        c = _card(buf, at, end)
        if c < 0:
            _span(err, at, end)
            return E_HIDDEN_CARD if c == _HIDDEN else E_CARD
        if pickup and count < 2:
            log[layout.LOG_DISCARD + count] = c
        else:
            shown |= np.uint32(1) << np.uint32(c)
            shown_count += 1
        count += 1
        if end >= ahi:
            break
        at = end + 1
    if pickup and count == 1:
        log[layout.LOG_DISCARD] = EMPTY
        err[X_A] = 1
        return E_DISCARD_COUNT
    if shown_count == 0:
        return OK
    if not flags & OUVERT or shown_count != 10:
        return E_SHOWN_FORM
    hand = np.uint32(0)
    hidden = False
    for k in range(10 * declarer, 10 * declarer + 10):
        if deal[k] < 0:
            hidden = True
        else:
            hand |= np.uint32(1) << np.uint32(deal[k])
    if pickup:
        for k in range(30, 32):
            if deal[k] < 0:
                hidden = True
            else:
                hand |= np.uint32(1) << np.uint32(deal[k])
        for k in range(2):
            hand &= ~(np.uint32(1) << np.uint32(log[layout.LOG_DISCARD + k]))
    if not hidden and hand != shown:
        return E_SHOWN_HAND
    return OK


# --- many lines ---------------------------------------------------------------------------------

#: Rows of the key workspace a line's field scan keeps (more fields fall back to a rescan).
KEY_ROWS = 66


@kernel
def parse_lines(
    buf: np.ndarray,
    starts: np.ndarray,
    ends: np.ndarray,
    lines: tuple,
    moves: np.ndarray,
    spans: np.ndarray,
    keys: np.ndarray,
) -> None:
    """Parse lines ``buf[starts[i]:ends[i]]`` into row ``i`` of the output arrays ``lines`` =
    ``(info, err, deal, log, bids, bid_moves, cards, card_moves, card_seats)`` (module doc).

    ``spans`` (``N_FIELDS``, 2) and ``keys`` (``KEY_ROWS``, 4) are workspaces; ``moves`` receives
    the token spans of the moves of line 0 (pass zero rows to skip).
    """
    info, err, deal, log, bids, bid_moves, cards, card_moves, card_seats = lines
    for i in range(starts.shape[0]):
        row = (info[i], err[i], deal[i], log[i], bids[i], bid_moves[i], cards[i], card_moves[i], card_seats[i])
        _parse_line(buf, starts[i], ends[i], row, moves, spans, keys)


# --- after the replay ---------------------------------------------------------------------------

#: Verdicts of :func:`check_seats`.
WRONG_DECLARER, WRONG_SEAT, UNDECIDED = 1, 2, 3


@kernel
def check_seats(
    info: np.ndarray, log: np.ndarray, card_seats: np.ndarray, lines: np.ndarray, rows: np.ndarray, bad: np.ndarray
) -> None:
    """The checks a replay alone cannot make, for the replayed lines ``lines`` (engine rows ``rows``):
    the seat that picked up or declared is the declarer the bidding made, and each card is played
    by the seat whose turn it is. ``bad[j]``: 0 passed, ``WRONG_DECLARER``, ``WRONG_SEAT``, or
    ``UNDECIDED`` (cards recorded for a deal the engine did not declare: left to the one-line check)."""
    for j in range(lines.shape[0]):
        i = lines[j]
        bad[j] = 0
        gt = rows[j, layout.COL_GAME_TYPE]
        engine = rows[j, layout.COL_DECLARER] if rows[j, layout.COL_DECLARER] >= 0 and gt >= 0 else -1
        if info[i, I_DECLARER] >= 0 and engine >= 0 and info[i, I_DECLARER] != engine:
            bad[j] = WRONG_DECLARER
            continue
        n = info[i, I_N_CARDS]
        if n > 0 and gt < 0:
            bad[j] = UNDECIDED
            continue
        leader = 0
        for k in range(min(n, card_seats.shape[1])):
            if k >= 3 and k % 3 == 0:
                c = layout.LOG_CARDS + k - 3
                leader = (leader + trick_winner(gt, log[i, c], log[i, c + 1], log[i, c + 2])) % 3
            if card_seats[i, k] != (leader + k % 3) % 3:
                bad[j] = WRONG_SEAT
                break


@kernel
def join_spans(
    buf: np.ndarray, info: np.ndarray, lines: np.ndarray, slot: int, count: int, out: np.ndarray, ends: np.ndarray
) -> None:
    """For each line of ``lines``, the text of the ``count`` byte spans ``info[i, slot + 2k]`` ..
    ``info[i, slot + 2k + 1]`` (``DT[]``; ``P0[]`` to ``P2[]``) joined by ``,`` and ended by a
    newline, into ``out``; a missing span (-1) is empty. ``ends[j]`` is where line j's text ends."""
    at = 0
    for j in range(lines.shape[0]):
        i = lines[j]
        for k in range(count):
            if k:
                out[at] = 44
                at += 1
            lo = info[i, slot + 2 * k]
            if lo >= 0:
                for b in range(lo, info[i, slot + 2 * k + 1]):
                    out[at] = buf[b]
                    at += 1
        out[at] = 10
        at += 1
        ends[j] = at


@kernel
def card_seats(game_types: np.ndarray, cards: np.ndarray, counts: np.ndarray, seats: np.ndarray) -> None:
    """The seat playing each card of game ``i`` (``cards[i, :counts[i]]`` of game type ``game_types[i]``):
    forehand leads the first trick, each trick's winner the next (as an ISS line names them)."""
    for i in range(cards.shape[0]):
        leader = 0
        for k in range(counts[i]):
            if k >= 3 and k % 3 == 0:
                leader = (leader + trick_winner(game_types[i], cards[i, k - 3], cards[i, k - 2], cards[i, k - 1])) % 3
            seats[i, k] = (leader + k % 3) % 3
