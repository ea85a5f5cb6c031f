"""International Skat Server (ISS) game records: parse one line into a :class:`GameRecord`.

An ISS record is one line ``(;GM[Skat]...ID[..]DT[..]P0[..]P1[..]P2[..]MV[...]R[...] ;)``
(RULES.md §7). :func:`parse_line` turns the move list ``MV`` into a
:class:`~skatsim.records.record.GameRecord` the engine can replay, and the server's
result ``R`` into ``iss_*`` fields, so that every real game checks the rule
kernels against an independent implementation. :func:`replay_iss` replays a
parsed game and checks what the record alone cannot: who played each card and
who declared.

How the move list maps to a record:

* ``w <32 cards>`` is the deal (``|`` may separate hands, ``??`` hides a card;
  a skat shown after ``<d> s`` fills hidden skat cards). A deal that still has
  hidden cards cannot be replayed: :class:`IssFormatError`.
* Bids are numbers, ``y`` (hold) and ``p`` (pass).
* ``<d> s`` picks up the skat; the declaration ``<d> G.c.c`` names the two
  discards, or comes split as ``<d> G`` then ``<d> c.c``. Without ``s`` the game
  is a hand game. Letters after the type: ``O`` ouvert, ``H`` hand, ``S``
  Schneider announced, ``Z`` Schwarz announced.
* ``<p> <card>`` plays a card; ``<p> ??`` is a hidden card: the known card
  sequence ends there and later cards are ignored (an early end still counts).
* Early ends: the game ends when the declarer resigns (``RE``), times out or
  leaves (``w TI.<p>``, ``w LE.<p>``), when a defender times out or leaves, or
  when both defenders have resigned. ``SC`` (the declarer shows his cards and
  claims the rest) and a single defender's ``RE`` end the game only when the
  record stops there; otherwise play went on (the ISS lets the defenders
  decline a claim). The end is recorded as the action that ended the game
  (kinds ``claim``, ``resign``, ``timeout``, ``left``; see
  :func:`skatsim.records.record._apply_end` for what each gives to whom).

The parsing itself is compiled (:mod:`skatsim.records.issparse`, the one parser, which the
archive import runs on whole batches of lines); this module builds the :class:`IssGame` from
its arrays (:class:`ParsedLines`) and turns its error codes into the messages, each with a
``reason`` that names the kind of problem (:data:`REASONS`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..engine import layout
from ..engine.cards import CardError, iss_name, parse_card
from ..engine.scoring import HAND, OUVERT, SCHNEIDER_ANNOUNCED, SCHWARZ_ANNOUNCED
from ..errors import ReasonedError
from . import issparse
from .record import EarlyEnd, GameRecord, GameResult, ReplayError, replay

#: Declaration modifier letters and the flags they set.
MODIFIERS = {"O": OUVERT, "H": HAND, "S": SCHNEIDER_ANNOUNCED, "Z": SCHWARZ_ANNOUNCED}
#: Server end actions ``w TI.<p>`` / ``w LE.<p>`` and the EarlyEnd kinds they map to.
SERVER_ENDS = {"TI": "timeout", "LE": "left"}
HIDDEN = "??"
#: The server's result words in ``R[]``, and ``passed`` for ``R[passed]``.
RESULTS = ("win", "loss", "penalty", "passed")
SEAT_NAMES = ("FH", "MH", "RH")

_FIELD = re.compile(r"([A-Z][A-Z0-9]*)\[([^\]]*)\]")
_STEP = re.compile(r"(bid|card) (\d+) ")


class IssFormatError(ReasonedError):
    """An ISS line that is not a well-formed game record; the message says what and where, ``reason``
    the kind of problem (import counts the lines it skips by reason)."""


@dataclass(frozen=True)
class IssGame:
    """One parsed ISS line.

    ``result`` holds the server's record as ``iss_*`` fields. ``moves`` is the
    move list as ``(who, action)`` pairs, numbered from 1 in messages (move 1
    is the deal). ``bid_moves`` and ``card_moves`` give the move number of each
    entry of ``record.bids`` and ``record.cards``; ``card_seats`` the seat the
    record names for each card. ``declarer`` is the seat that picked up or
    declared (None when nobody did), ``declare_move`` that move's number.
    """

    record: GameRecord
    result: dict[str, object]
    moves: tuple[tuple[str, str], ...] = ()
    bid_moves: tuple[int, ...] = ()
    card_moves: tuple[int, ...] = ()
    card_seats: tuple[int, ...] = ()
    declarer: int | None = None
    declare_move: int = 0


@dataclass
class ParsedLines:
    """The arrays :func:`skatsim.records.issparse.parse_lines` fills for ``n`` lines (its doc names
    them); ``bid_cap``, ``card_cap`` and ``move_cap`` are how many bids, cards and moves per line
    are kept beside the action record (0 for a batch, which reads the action record)."""

    info: np.ndarray
    err: np.ndarray
    deal: np.ndarray
    log: np.ndarray
    bids: np.ndarray
    bid_moves: np.ndarray
    cards: np.ndarray
    card_moves: np.ndarray
    card_seats: np.ndarray
    moves: np.ndarray

    @classmethod
    def allocate(cls, n: int, bid_cap: int = 0, card_cap: int = 0, move_cap: int = 0) -> ParsedLines:
        """Arrays for ``n`` lines."""
        return cls(
            info=np.zeros((n, issparse.N_INFO), dtype=np.int64),
            err=np.zeros((n, issparse.N_ERR), dtype=np.int64),
            deal=np.zeros((n, 32), dtype=np.int8),
            log=np.zeros((n, layout.LOG_WIDTH), dtype=np.int16),
            bids=np.zeros((n, bid_cap, 2), dtype=np.int16),
            bid_moves=np.zeros((n, bid_cap), dtype=np.int32),
            cards=np.zeros((n, card_cap), dtype=np.int8),
            card_moves=np.zeros((n, card_cap), dtype=np.int32),
            card_seats=np.zeros((n, max(card_cap, 30)), dtype=np.int8),
            moves=np.zeros((move_cap, 4), dtype=np.int64),
        )

    def parse(self, data: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> None:
        """Parse lines ``data[starts[i]:ends[i]]`` (uint8 array) into these arrays."""
        spans = np.zeros((issparse.N_FIELDS, 2), dtype=np.int64)
        keys = np.zeros((issparse.KEY_ROWS, 4), dtype=np.int64)
        lines = (
            self.info,
            self.err,
            self.deal,
            self.log,
            self.bids,
            self.bid_moves,
            self.cards,
            self.card_moves,
            self.card_seats,
        )
        issparse.parse_lines(data, starts, ends, lines, self.moves, spans, keys)

    def iss_result(self, i: int) -> dict[str, object]:
        """The server's result ``R[]`` of line ``i`` as ``iss_*`` fields (None where a passed game has none)."""
        info = self.info[i]
        word = RESULTS[int(info[issparse.I_RESULT])]
        if word == "passed":
            keys = ("declarer", "won", "score", "matadors", "overbid", "points", "tricks", "schneider", "schwarz")
            return {"iss_result": "passed"} | {f"iss_{k}": None for k in keys}
        d, v, m, p, t, s, z = (int(x) for x in info[issparse.I_R : issparse.I_R + 7])
        return {
            "iss_declarer": None if d < 0 else d,
            "iss_result": word,
            "iss_won": {"win": True, "loss": False}.get(word),
            "iss_score": v,
            "iss_matadors": m,
            "iss_overbid": bool(info[issparse.I_OVERBID]),
            "iss_points": p,
            "iss_tricks": t,
            "iss_schneider": bool(s),
            "iss_schwarz": bool(z),
        }

    def record(self, i: int) -> GameRecord:
        """Line ``i``'s game record (its bids and cards must fit the capacities)."""
        info, log = self.info[i], self.log[i]
        n_bids, n_cards = int(info[issparse.I_N_BIDS]), int(info[issparse.I_N_CARDS])
        if n_bids > self.bids.shape[1] or n_cards > self.cards.shape[1]:
            raise ValueError("ParsedLines.record: allocated without room for every bid and card")
        declared = int(log[layout.LOG_GAME]) >= 0
        end = int(log[layout.LOG_END])
        return GameRecord(
            deal=tuple(int(c) for c in self.deal[i]),
            bids=tuple((int(s), int(a)) for s, a in self.bids[i, :n_bids]),
            pickup=int(log[layout.LOG_PICKUP]) == 1,
            discards=tuple(int(c) for c in log[layout.LOG_DISCARD : layout.LOG_DISCARD + 2] if c >= 0),
            game_type=int(log[layout.LOG_GAME]) if declared else None,
            flags=int(log[layout.LOG_FLAGS]) if declared else 0,
            cards=tuple(int(c) for c in self.cards[i, :n_cards]),
            end=None if end < 0 else EarlyEnd.from_log_code(end),
        )


def parse_line(line: str) -> IssGame:
    """Parse one ISS game line into an :class:`IssGame`; raises :class:`IssFormatError`."""
    data = np.frombuffer(line.encode("utf-8", "surrogatepass"), dtype=np.uint8)
    room = data.size // 2 + 1  # no line holds more moves, bids or cards than this
    parsed = ParsedLines.allocate(1, room, room, room)
    parsed.parse(data, np.zeros(1, dtype=np.int64), np.array([data.size], dtype=np.int64))
    if parsed.err[0, issparse.X_CODE]:
        raise format_error(parsed.err[0], data)
    info = parsed.info[0]
    text = _text(data)
    result: dict[str, object] = {"iss_id": int(info[issparse.I_ID])}
    result.update(parsed.iss_result(0))
    dt = int(info[issparse.I_DT])
    result["iss_date"] = None if dt < 0 else text(dt, int(info[issparse.I_DT + 1]))
    players = (info[issparse.I_PLAYERS + 2 * s : issparse.I_PLAYERS + 2 * s + 2] for s in range(3))
    result["iss_players"] = ",".join("" if lo < 0 else text(int(lo), int(hi)) for lo, hi in players)
    n_moves, n_bids = int(info[issparse.I_N_MOVES]), int(info[issparse.I_N_BIDS])
    n_cards, declarer = int(info[issparse.I_N_CARDS]), int(info[issparse.I_DECLARER])
    return IssGame(
        record=parsed.record(0),
        result=result,
        moves=tuple((text(int(w0), int(w1)), text(int(a0), int(a1))) for w0, w1, a0, a1 in parsed.moves[:n_moves]),
        bid_moves=tuple(int(n) for n in parsed.bid_moves[0, :n_bids]),
        card_moves=tuple(int(n) for n in parsed.card_moves[0, :n_cards]),
        card_seats=tuple(int(s) for s in parsed.card_seats[0, :n_cards]),
        declarer=None if declarer < 0 else declarer,
        declare_move=int(info[issparse.I_DECLARE_MOVE]),
    )


def _text(data: np.ndarray) -> Callable[[int, int], str]:
    """``text(lo, hi)``: the characters of the line at bytes ``lo:hi``."""
    raw = data.tobytes()
    return lambda lo, hi: raw[lo:hi].decode("utf-8", "surrogatepass")


# --- messages ----------------------------------------------------------------------------------

#: The kind of each problem the parser finds, as an import counts the lines it skips.
REASONS = {
    issparse.E_NOT_RECORD: "not an ISS game record",
    issparse.E_CUT_OFF: "record cut off",
    issparse.E_FIELD_TWICE: "a field given twice",
    issparse.E_UNEXPECTED_TEXT: "unexpected text between the fields",
    issparse.E_NOT_SKAT: "not a Skat game (GM[])",
    issparse.E_MISSING: "missing field ID[], MV[] or R[]",
    issparse.E_ID: "ID[] not a number",
    issparse.E_RESULT_WORDS: "R[] without one result word and one of bidok/overbid",
    issparse.E_RESULT_MISSING: "R[] missing a value",
    issparse.E_RESULT_NUMBER: "R[] value not a number in range",
    issparse.E_ODD_TOKENS: "MV[] with an odd number of tokens",
    issparse.E_UNKNOWN_PLAYER: "MV[] names an unknown player",
    issparse.E_FIRST_MOVE: "MV[] does not start with the deal",
    issparse.E_DEAL_COUNT: "a deal of other than 32 cards",
    issparse.E_DEAL_CARD: "an unknown card in the deal",
    issparse.E_DEALT_TWICE: "a card dealt twice",
    issparse.E_AFTER_END: "a move after the game ended",
    issparse.E_END_SEAT: "TI./LE. without a seat",
    issparse.E_SC_BEFORE: "SC before the declaration",
    issparse.E_SC_DEFENDER: "SC by a defender",
    issparse.E_SERVER_MOVE: "an unexpected server move",
    issparse.E_SKAT_COUNT: "a skat shown of other than 2 cards",
    issparse.E_CARD: "an unknown card in a move",
    issparse.E_HIDDEN_CARD: "a hidden card (??) where the card is needed",
    issparse.E_NOT_IN_SKAT: "a skat shown that was not dealt",
    issparse.E_BID_AFTER_PICKUP: "a bid after the pickup",
    issparse.E_NOT_A_BID: "a move that is no bid, declaration or pickup",
    issparse.E_PICKED_UP_TWICE: "the skat picked up twice",
    issparse.E_OTHER_DECLARER: "declared by another seat than picked up the skat",
    issparse.E_UNKNOWN_DECLARATION: "an unknown declaration",
    issparse.E_DISCARD_COUNT: "other than 2 discards",
    issparse.E_SHOWN_FORM: "cards after a declaration that are neither 2 discards nor an ouvert hand",
    issparse.E_SHOWN_HAND: "ouvert cards shown that are not the declarer's hand",
    issparse.E_DISCARDER: "discards by another seat than the declarer",
    issparse.E_HIDDEN_DEAL: "hidden cards (??) in the deal",
}
#: Reasons of the checks :func:`replay_iss` makes after the replay.
WRONG_DECLARER = "declared by another seat than the bidding made declarer"
WRONG_SEAT = "a card played out of turn"


def format_error(err: np.ndarray, data: np.ndarray) -> IssFormatError:
    """The :class:`IssFormatError` of a line the parser refused (``err``: its ``X_*`` slots, ``data`` its bytes)."""
    text = _text(data)
    code, n, a, b = (int(err[k]) for k in (issparse.X_CODE, issparse.X_MOVE, issparse.X_A, issparse.X_B))
    quoted = text(int(err[issparse.X_SPAN]), int(err[issparse.X_SPAN + 1]))
    who = text(int(err[issparse.X_WHO]), int(err[issparse.X_WHO + 1]))
    move = f"MV move {n} ({who} {text(int(err[issparse.X_ACTION]), int(err[issparse.X_ACTION + 1]))}): "
    messages: dict[int, Callable[[], str]] = {
        issparse.E_NOT_RECORD: lambda: "not an ISS game record (expected a line starting with '(;')",
        issparse.E_CUT_OFF: lambda: "record is cut off (the line does not end with ';)')",
        issparse.E_FIELD_TWICE: lambda: f"field {quoted}[] given twice",
        issparse.E_UNEXPECTED_TEXT: lambda: (
            f"unexpected text {_rest(text(0, data.size))[:30]!r} (expected KEY[value] fields)"
        ),
        issparse.E_NOT_SKAT: lambda: f"GM[{quoted}]: not a Skat game",
        issparse.E_MISSING: lambda: f"missing field {('ID', 'MV', 'R')[a]}[]",
        issparse.E_ID: lambda: f"ID[]: expected an integer from 0 to {issparse.MAX_ID}, got {quoted[:20]!r}",
        issparse.E_RESULT_WORDS: lambda: "R[]: expected one word of win/loss/penalty and one of bidok/overbid",
        issparse.E_RESULT_MISSING: lambda: (
            "R[]: missing " + ", ".join(k + ":" for bit, k in enumerate(issparse.R_KEYS) if a >> bit & 1)
        ),
        issparse.E_RESULT_NUMBER: lambda: (
            f"R[] {issparse.R_KEYS[a]}:: expected an integer from "
            f"{issparse.R_LOW[a]} to {issparse.R_HIGH[a]}, got {quoted[:20]!r}"
        ),
        issparse.E_ODD_TOKENS: lambda: "MV: odd number of tokens (each move is '<who> <action>')",
        issparse.E_UNKNOWN_PLAYER: lambda: f"{move}unknown player {who!r} (expected w, 0, 1 or 2)",
        issparse.E_FIRST_MOVE: lambda: "MV: the first move must be the deal 'w <32 cards>'",
        issparse.E_DEAL_COUNT: lambda: f"{move}the deal must list 32 cards, got {a}",
        issparse.E_DEAL_CARD: lambda: f"MV move 1 (deal) card {a}: {_card_problem(quoted)}",
        issparse.E_DEALT_TWICE: lambda: f"{move}card {iss_name(a)} is dealt twice",
        issparse.E_AFTER_END: lambda: f"{move}a move after the game ended",
        issparse.E_END_SEAT: lambda: f"{move}expected the seat after TI./LE.",
        issparse.E_SC_BEFORE: lambda: f"{move}SC before the declaration",
        issparse.E_SC_DEFENDER: lambda: f"{move}SC (show cards and claim the rest) by a defender",
        issparse.E_SERVER_MOVE: lambda: f"{move}unexpected server move",
        issparse.E_SKAT_COUNT: lambda: f"{move}the skat shown after a pickup must be 2 cards",
        issparse.E_CARD: lambda: f"{move}{_card_problem(quoted)}",
        issparse.E_HIDDEN_CARD: lambda: f"{move}a hidden card (??) here cannot be replayed",
        issparse.E_NOT_IN_SKAT: lambda: f"{move}{iss_name(a)} is not in the skat dealt",
        issparse.E_BID_AFTER_PICKUP: lambda: f"{move}expected the declaration after picking up the skat",
        issparse.E_NOT_A_BID: lambda: f"{move}not a bid (a number, y or p), a declaration or a pickup",
        issparse.E_PICKED_UP_TWICE: lambda: f"{move}the skat was already picked up",
        issparse.E_OTHER_DECLARER: lambda: f"{move}seat {a} declares, but seat {b} picked up the skat",
        issparse.E_UNKNOWN_DECLARATION: lambda: (
            f"{move}unknown declaration {quoted!r} (type G C S H D N, then any of O H S Z)"
        ),
        issparse.E_DISCARD_COUNT: lambda: f"{move}expected 2 discards, got {a}",
        issparse.E_SHOWN_FORM: lambda: f"{move}a declaration lists 2 discards, or an ouvert hand of 10 cards",
        issparse.E_SHOWN_HAND: lambda: f"{move}the ouvert cards shown are not the declarer's hand",
        issparse.E_DISCARDER: lambda: f"{move}expected the declarer's two discards",
        issparse.E_HIDDEN_DEAL: lambda: (
            f"the deal has {a} hidden cards (??): a game with hidden cards cannot be replayed"
        ),
    }
    return IssFormatError(messages[code](), REASONS[code])


def _card_problem(name: str) -> str:
    """What is wrong with a card name, in :func:`skatsim.engine.cards.parse_card`'s words."""
    try:
        parse_card(name)
    except CardError as exc:
        return str(exc)
    raise AssertionError(f"{name!r} is a card")  # the parser only reports names that are not


def _rest(line: str) -> str:
    """The first 30 characters a line holds besides its ``KEY[value]`` fields (for the message naming them)."""
    return _FIELD.sub("", line.strip()[2:-2]).strip()[:30]


def replay_iss(game: IssGame) -> GameResult:
    """Replay a parsed game with the rule kernels and check the seats the record names.

    Errors name the move: :class:`ReplayError` for a step the rules reject,
    :class:`IssFormatError` when the record names the wrong player.
    """
    try:
        evaluation = replay(game.record)
    except ReplayError as exc:
        raise ReplayError(f"{_move_of(game, str(exc))}{exc}", exc.reason) from None
    _check_declarer(game, evaluation)
    _check_card_seats(game, evaluation)
    return evaluation


def _move_label(game: IssGame, n: int) -> str:
    who, action = game.moves[n - 1]
    return f"MV move {n} ({who} {action}): "


def _move_of(game: IssGame, message: str) -> str:
    """The ``MV move N (..): `` prefix for a replay error, found from the step it names."""
    step = _STEP.match(message)
    if step:
        moves = game.bid_moves if step.group(1) == "bid" else game.card_moves
        k = int(step.group(2))
        return _move_label(game, moves[k - 1]) if 0 < k <= len(moves) else ""
    if message.startswith(("declaration", "discard")) and game.declare_move:
        return _move_label(game, game.declare_move)
    return ""


def _check_declarer(game: IssGame, evaluation: GameResult) -> None:
    if game.declarer is not None and evaluation.declarer is not None and game.declarer != evaluation.declarer:
        raise IssFormatError(
            f"{_move_label(game, game.declare_move)}seat {game.declarer} declares, "
            f"but the bidding made seat {evaluation.declarer} the declarer",
            WRONG_DECLARER,
        )


def _check_card_seats(game: IssGame, evaluation: GameResult) -> None:
    for k, seat in enumerate(game.card_seats):
        trick = k // 3
        if trick < len(evaluation.tricks):
            leader = evaluation.tricks[trick].leader
        else:
            leader = evaluation.tricks[-1].winner if evaluation.tricks else 0
        expected = (leader + k % 3) % 3
        if seat != expected:
            raise IssFormatError(
                f"{_move_label(game, game.card_moves[k])}seat {seat} plays, but it is seat {expected}'s turn",
                WRONG_SEAT,
            )


#: Engine evaluation field -> server result field, for :func:`compare`.
COMPARED = {
    "declarer": "iss_declarer",
    "won": "iss_won",
    "score": "iss_score",
    "matadors": "iss_matadors",
    "declarer_points": "iss_points",
    "declarer_tricks": "iss_tricks",
    "schneider": "iss_schneider",
    "schwarz": "iss_schwarz",
    "overbid": "iss_overbid",
}


def compare(evaluation: GameResult, result: dict[str, object]) -> dict[str, tuple[object, object]]:
    """Fields where the engine and the server's record differ: ``{field: (engine, server)}``.

    Only declared games played or ended early are compared; passed and
    penalty records carry no result to check.
    """
    if result.get("iss_result") not in ("win", "loss"):
        return {}
    engine = {name: getattr(evaluation, name) for name in COMPARED}
    return {name: (engine[name], result[iss]) for name, iss in COMPARED.items() if engine[name] != result[iss]}
