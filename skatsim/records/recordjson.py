"""Game records as JSON, compiled: the text :meth:`skatsim.records.record.GameRecord.to_json` gives,
written straight from the deal and the action record (:mod:`skatsim.engine.layout`).

One writer for every table of games with a ``record`` column: an ISS import writes the lines it parsed
(:mod:`skatsim.records.issbatch`), a ``--record-play`` run the games it simulated
(:func:`skatsim.records.record.records_as_json`). Building a :class:`GameRecord` per game in Python and
serialising it was most of a recorded run (200,000 games: 4.7 s against 2.0 s with this writer,
docs/history/speed.md). The tests hold both writers to the same bytes on every shipped variant and on
the real games of the fixtures.
"""

from __future__ import annotations

import numpy as np

from .._jit import kernel
from ..engine import layout
from ..engine.cards import RANK_LETTERS, SUIT_LETTERS
from ..engine.gametypes import GAME_TYPE_NAMES, RAMSCH


def _fragments(*texts: str) -> tuple[np.ndarray, np.ndarray]:
    """Byte strings as one array and their start offsets (``starts[k]`` .. ``starts[k + 1]``)."""
    data = b"".join(t.encode("ascii") for t in texts)
    starts = np.cumsum([0, *(len(t) for t in texts)]).astype(np.int64)
    return np.frombuffer(data, dtype=np.uint8).copy(), starts


_J_OPEN, _J_BIDS, _J_PICKUP, _J_TRUE, _J_FALSE, _J_NULL, _J_DISCARDS, _J_GAME = range(8)
_J_FLAGS, _J_CARDS, _J_END, _J_KIND, _J_SEAT, _J_SEP, _J_CLOSE = range(8, 15)
_J_KONTRA, _J_PUSHES, _J_INSTEAD, _J_ROUND, _J_BOCK, _J_LINE_END = range(15, 21)
_J_GAME_NAMES = 21  # + game type
_J_END_NAMES = _J_GAME_NAMES + len(GAME_TYPE_NAMES)  # + end kind
_JSON, _JSON_AT = _fragments(
    '{"deal": [',
    '], "bids": [',
    '], "pickup": ',
    "true",
    "false",
    "null",
    ', "discards": [',
    '], "game_type": ',
    ', "flags": ',
    ', "cards": [',
    '], "end": ',
    '{"kind": "',
    '", "seat": ',
    ", ",
    "}",
    ', "kontra": [',
    '], "pushes": [',
    '], "grand_hand_instead": ',
    ', "ramsch_round": ',
    ', "bock": ',
    "}\n",
    *(f'"{name}"' for name in GAME_TYPE_NAMES),
    *layout.END_KINDS,
)
_SUIT_LETTERS = np.frombuffer(SUIT_LETTERS.encode("ascii"), dtype=np.uint8).copy()
_RANK_LETTERS = np.frombuffer(RANK_LETTERS.encode("ascii"), dtype=np.uint8).copy()
#: Bytes :func:`write_json` writes at most for a game: ``JSON_FIXED`` (the deal, the discards, every key,
#: Kontra calls, pushes and the numbers of the tail), plus ``JSON_PER_BID`` a bid (``[2, 999], ``), plus
#: ``JSON_PER_CARD`` a card played (``"CJ", ``).
JSON_PER_CARD = 6
JSON_PER_BID = 10
JSON_FIXED = (34 + 6) * JSON_PER_CARD + len(_JSON) + layout.N_KONTRA_SLOTS * 4 + 3 * 4 + 64


@kernel
def _put(out: np.ndarray, at: int, fragment: int) -> int:
    for k in range(_JSON_AT[fragment], _JSON_AT[fragment + 1]):
        out[at] = _JSON[k]
        at += 1
    return at


@kernel
def _put_card(out: np.ndarray, at: int, c: int, first: bool) -> int:
    if not first:
        at = _put(out, at, _J_SEP)
    out[at] = 34
    out[at + 1] = _SUIT_LETTERS[c // 8]
    out[at + 2] = _RANK_LETTERS[c % 8]
    out[at + 3] = 34
    return at + 4


@kernel
def _put_int(out: np.ndarray, at: int, value: int) -> int:
    if value < 0:
        out[at] = 45
        at += 1
        value = -value
    digits = 1
    while value >= 10**digits:
        digits += 1
    for k in range(digits - 1, -1, -1):
        out[at + k] = 48 + value % 10
        value //= 10
    return at + digits


@kernel
def _flags(row: np.ndarray) -> int:
    """A declaration's flags as the action record holds them (0 for a Ramsch and where nothing was
    declared)."""
    game = row[layout.LOG_GAME]
    return 0 if game < 0 or game == RAMSCH else row[layout.LOG_FLAGS]


@kernel
def _put_tail(out: np.ndarray, at: int, row: np.ndarray) -> int:
    """The house-rule fields: the Kontra calls and a Grand hand instead of a Ramsch (a declared game's),
    a Schieberamsch's pushes, the Ramsch round and the Bock multiplier; then the closing brace."""
    game = row[layout.LOG_GAME]
    declared = game >= 0 and game != RAMSCH
    at = _put(out, at, _J_KONTRA)
    first = True
    for k in range(layout.N_KONTRA_SLOTS):
        seat = row[layout.LOG_KONTRA + k]
        if declared and seat >= 0:
            if not first:
                at = _put(out, at, _J_SEP)
            at = _put_int(out, at, seat)
            first = False
    at = _put(out, at, _J_PUSHES)
    if game == RAMSCH and row[layout.LOG_KIND] == layout.SCHIEBERAMSCH:
        for s in range(3):
            if s:
                at = _put(out, at, _J_SEP)
            out[at] = 91
            at += 1
            if row[layout.LOG_PUSH + 2 * s] >= 0:
                at = _put_card(out, at, row[layout.LOG_PUSH + 2 * s], True)
                at = _put_card(out, at, row[layout.LOG_PUSH + 2 * s + 1], False)
            out[at] = 93
            at += 1
    at = _put(out, at, _J_INSTEAD)
    if declared and row[layout.LOG_INSTEAD] >= 0:
        at = _put_int(out, at, row[layout.LOG_INSTEAD])
    else:
        at = _put(out, at, _J_NULL)
    at = _put(out, at, _J_ROUND)
    at = _put_int(out, at, row[layout.LOG_ROUND])
    at = _put(out, at, _J_BOCK)
    at = _put_int(out, at, row[layout.LOG_BOCK])
    return _put(out, at, _J_LINE_END)


@kernel
def write_json(deal: np.ndarray, log: np.ndarray, lines: np.ndarray, out: np.ndarray, ends: np.ndarray) -> None:
    """Write the :meth:`~skatsim.records.record.GameRecord.to_json` text of games ``lines`` (their deal
    in a record's order and their action record, at most ``layout.MAX_LOGGED_BIDS`` bids), each followed
    by a newline, one after the other into ``out``; ``ends[j]`` is where game j's ends."""
    at = 0
    for j in range(lines.shape[0]):
        i = lines[j]
        row = log[i]
        at = _put(out, at, _J_OPEN)
        for k in range(32):
            at = _put_card(out, at, deal[i, k], k == 0)
        at = _put(out, at, _J_BIDS)
        for k in range(row[layout.LOG_N_BIDS]):
            if k:
                at = _put(out, at, _J_SEP)
            value = row[layout.LOG_BIDS + k]
            out[at] = 91
            at = _put_int(out, at + 1, value // 1024)
            at = _put(out, at, _J_SEP)
            at = _put_int(out, at, value % 1024 - 1)
            out[at] = 93
            at += 1
        at = _put(out, at, _J_PICKUP)
        at = _put(out, at, _J_TRUE if row[layout.LOG_PICKUP] == 1 else _J_FALSE)
        at = _put(out, at, _J_DISCARDS)
        if row[layout.LOG_DISCARD] >= 0:
            at = _put_card(out, at, row[layout.LOG_DISCARD], True)
            at = _put_card(out, at, row[layout.LOG_DISCARD + 1], False)
        at = _put(out, at, _J_GAME)
        game = row[layout.LOG_GAME]
        at = _put(out, at, _J_GAME_NAMES + game if game >= 0 else _J_NULL)
        at = _put(out, at, _J_FLAGS)
        at = _put_int(out, at, _flags(row))
        at = _put(out, at, _J_CARDS)
        for k in range(30):
            if row[layout.LOG_CARDS + k] < 0:
                break
            at = _put_card(out, at, row[layout.LOG_CARDS + k], k == 0)
        at = _put(out, at, _J_END)
        if row[layout.LOG_END] >= 0:
            at = _put(out, at, _J_KIND)
            at = _put(out, at, _J_END_NAMES + row[layout.LOG_END] // 3)
            at = _put(out, at, _J_SEAT)
            at = _put_int(out, at, row[layout.LOG_END] % 3)
            at = _put(out, at, _J_CLOSE)
        else:
            at = _put(out, at, _J_NULL)
        at = _put_tail(out, at, row)
        ends[j] = at


def json_bytes(deal: np.ndarray, log: np.ndarray, lines: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A buffer large enough for :func:`write_json` of ``lines``, written; and where each game's text ends."""
    rows = log[lines]
    bids = np.clip(rows[:, layout.LOG_N_BIDS].astype(np.int64), 0, layout.MAX_LOGGED_BIDS)
    cards = np.sum(rows[:, layout.LOG_CARDS : layout.LOG_CARDS + 30] >= 0)
    size = lines.size * JSON_FIXED + int(np.sum(bids)) * JSON_PER_BID + int(cards) * JSON_PER_CARD
    out = np.empty(size, dtype=np.uint8)
    ends = np.zeros(lines.size, dtype=np.int64)
    write_json(deal, log, lines, out, ends)
    return out, ends


def texts(out: np.ndarray, ends: np.ndarray, encoding: str = "ascii") -> list[str]:
    """Newline-ended texts written one after the other into ``out`` (``ends``: where each ends)."""
    size = int(ends[-1]) if ends.size else 0
    return out[:size].tobytes().decode(encoding, errors="replace").split("\n")[:-1]
