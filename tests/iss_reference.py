"""The ISS line parser as it was before the compiled one (skatsim 0.x, pure Python): the oracle the
compiled parser (:mod:`skatsim.records.issparse`) is checked against, line by line and message by
message (``tests/test_issparse.py``). Test code only; nothing in skatsim imports it."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from skatsim.engine.bidding import HOLD, PASS
from skatsim.engine.cards import CardError, iss_name, parse_card
from skatsim.engine.gametypes import ISS_LETTERS
from skatsim.engine.scoring import OUVERT
from skatsim.records.iss import HIDDEN, MODIFIERS, RESULTS, SERVER_ENDS, IssFormatError, IssGame
from skatsim.records.record import EarlyEnd, GameRecord

_FIELD = re.compile(r"([A-Z][A-Z0-9]*)\[([^\]]*)\]")
_DECLARATION = re.compile(r"([GCSHDN])([A-Z]*)$")


def parse_line(line: str) -> IssGame:
    """Parse one ISS game line into an :class:`IssGame`; raises :class:`IssFormatError`."""
    fields = _fields(line)
    if fields.get("GM", "Skat") != "Skat":
        raise IssFormatError(f"GM[{fields['GM']}]: not a Skat game")
    for key in ("ID", "MV", "R"):
        if key not in fields:
            raise IssFormatError(f"missing field {key}[]")
    result: dict[str, object] = {"iss_id": _int(fields["ID"], "ID[]")}
    result.update(parse_result(fields["R"]))
    result["iss_date"] = fields.get("DT")
    result["iss_players"] = ",".join(fields.get(f"P{s}", "") for s in range(3))
    return _MoveReader(_moves(fields["MV"])).read(result)


def _fields(line: str) -> dict[str, str]:
    """The ``KEY[value]`` fields of a line, checking the ``(; ... ;)`` frame."""
    text = line.strip()
    if not text.startswith("(;"):
        raise IssFormatError("not an ISS game record (expected a line starting with '(;')")
    if not text.endswith(";)"):
        raise IssFormatError("record is cut off (the line does not end with ';)')")
    body = text[2:-2]
    fields: dict[str, str] = {}
    for match in _FIELD.finditer(body):
        key, value = match.groups()
        if key in fields:
            raise IssFormatError(f"field {key}[] given twice")
        fields[key] = value
    rest = _FIELD.sub("", body).strip()
    if rest:
        raise IssFormatError(f"unexpected text {rest[:30]!r} (expected KEY[value] fields)")
    return fields


def _int(text: str, what: str, low: int = 0, high: int = 2**63 - 1) -> int:
    """An integer field within ``low..high`` (the bounds keep every value inside its column's dtype)."""
    if not re.fullmatch(r"-?[0-9]{1,19}", text) or not low <= int(text) <= high:
        raise IssFormatError(f"{what}: expected an integer from {low} to {high}, got {text[:20]!r}")
    return int(text)


#: Bounds of the numbers in ``R[]``: declarer seat (-1 none), score, matadors, points, tricks, Schneider, Schwarz.
_RESULT_BOUNDS = {"d": (-1, 2), "v": (-(2**31), 2**31 - 1), "m": (-11, 11), "p": (0, 120), "t": (0, 10)}
_RESULT_BOUNDS |= {"s": (0, 1), "z": (0, 1)}


def parse_result(text: str) -> dict[str, object]:
    """The server's result ``R[...]`` as ``iss_*`` fields (None where a passed game has none)."""
    if text.strip() == "passed":
        keys = ("declarer", "won", "score", "matadors", "overbid", "points", "tricks", "schneider", "schwarz")
        return {"iss_result": "passed"} | {f"iss_{k}": None for k in keys}
    words = text.split()
    values = dict(w.split(":", 1) for w in words if ":" in w)
    outcome = [w for w in words if w in RESULTS[:3]]
    bid_ok = [w for w in words if w in ("bidok", "overbid")]
    if len(outcome) != 1 or len(bid_ok) != 1:
        raise IssFormatError("R[]: expected one word of win/loss/penalty and one of bidok/overbid")
    missing = [k for k in _RESULT_BOUNDS if k not in values]
    if missing:
        raise IssFormatError(f"R[]: missing {', '.join(k + ':' for k in missing)}")
    number = {k: _int(values[k], f"R[] {k}:", *bounds) for k, bounds in _RESULT_BOUNDS.items()}
    won = {"win": True, "loss": False}.get(outcome[0])
    return {
        "iss_declarer": None if number["d"] < 0 else number["d"],
        "iss_result": outcome[0],
        "iss_won": won,
        "iss_score": number["v"],
        "iss_matadors": number["m"],
        "iss_overbid": bid_ok[0] == "overbid",
        "iss_points": number["p"],
        "iss_tricks": number["t"],
        "iss_schneider": bool(number["s"]),
        "iss_schwarz": bool(number["z"]),
    }


def _moves(text: str) -> list[tuple[str, str]]:
    tokens = text.split()
    if len(tokens) % 2:
        raise IssFormatError("MV: odd number of tokens (each move is '<who> <action>')")
    moves = list(zip(tokens[0::2], tokens[1::2], strict=True))
    for n, (who, action) in enumerate(moves, start=1):
        if who not in ("w", "0", "1", "2"):
            raise IssFormatError(f"MV move {n} ({who} {action}): unknown player {who!r} (expected w, 0, 1 or 2)")
    return moves


def _card(text: str) -> int:
    """A card in ISS notation; a hidden or unknown card is an :class:`IssFormatError`."""
    if text == HIDDEN:
        raise IssFormatError("a hidden card (??) here cannot be replayed")
    try:
        return parse_card(text)
    except CardError as exc:
        raise IssFormatError(str(exc)) from None


def _deal_card(k: int, text: str) -> int | None:
    """The ``k``-th card of the deal (None when hidden)."""
    if text == HIDDEN:
        return None
    try:
        return _card(text)
    except IssFormatError as exc:
        raise IssFormatError(f"MV move 1 (deal) card {k + 1}: {exc}") from None


@dataclass
class _MoveReader:
    """Walks the move list once, phase by phase, collecting the record's parts."""

    moves: list[tuple[str, str]]
    n: int = 0  # number of the move being read (1-based)
    deal: list[int | None] = field(default_factory=list)
    bids: list[tuple[int, int]] = field(default_factory=list)
    bid_moves: list[int] = field(default_factory=list)
    declarer: int | None = None
    declare_move: int = 0
    pickup: bool = False
    game_type: int | None = None
    flags: int = 0
    discards: tuple[int, ...] = ()
    cards: list[int] = field(default_factory=list)
    card_moves: list[int] = field(default_factory=list)
    card_seats: list[int] = field(default_factory=list)
    hidden_play: bool = False
    resigned: set[int] = field(default_factory=set)
    pending: EarlyEnd | None = None
    end: EarlyEnd | None = None

    def fail(self, problem: str) -> IssFormatError:
        """An error naming the current move."""
        who, action = self.moves[self.n - 1]
        return IssFormatError(f"MV move {self.n} ({who} {action}): {problem}")

    def _card(self, name: str) -> int:
        """A card named in the current move."""
        try:
            return _card(name)
        except IssFormatError as exc:
            raise self.fail(str(exc)) from None

    def read(self, result: dict[str, object]) -> IssGame:
        """Read every move and assemble the game."""
        if not self.moves or self.moves[0][0] != "w":
            raise IssFormatError("MV: the first move must be the deal 'w <32 cards>'")
        self.n = 1
        self._read_deal(self.moves[0][1])
        for n, (who, action) in enumerate(self.moves[1:], start=2):
            self.n = n
            self._step(who, action)
        if self.end is None and self.game_type is not None:
            self.end = self.pending
        return self._game(result)

    def _step(self, who: str, action: str) -> None:
        if self.end is not None:
            raise self.fail("a move after the game ended")
        if self._early_end(who, action):
            return
        if who == "w":
            self._server_move(action)
        elif self.game_type is not None and (self.discards or not self.pickup):
            self._play(int(who), action)
        elif self.game_type is not None:
            self._discard(int(who), action)
        elif action == "s":
            self._pick_up(int(who))
        elif _DECLARATION.match(action.split(".")[0]):
            self._declare(int(who), action)
        else:
            self._bid(int(who), action)

    def _read_deal(self, text: str) -> None:
        names = re.split(r"[.|]", text)
        if len(names) != 32:
            raise self.fail(f"the deal must list 32 cards, got {len(names)}")
        self.deal = [_deal_card(k, name) for k, name in enumerate(names)]
        known = [c for c in self.deal if c is not None]
        if len(set(known)) != len(known):
            twice = sorted({c for c in known if known.count(c) > 1})
            raise self.fail(f"card {iss_name(twice[0])} is dealt twice")

    def _bid(self, seat: int, action: str) -> None:
        if self.declarer is not None:
            raise self.fail("expected the declaration after picking up the skat")
        if action == "y":
            value = HOLD
        elif action == "p":
            value = PASS
        elif re.fullmatch(r"[0-9]{1,3}", action):
            value = int(action)
        else:
            raise self.fail("not a bid (a number, y or p), a declaration or a pickup")
        self.bids.append((seat, value))
        self.bid_moves.append(self.n)

    def _pick_up(self, seat: int) -> None:
        if self.pickup:
            raise self.fail("the skat was already picked up")
        self.pickup = True
        self.declarer = seat
        self.declare_move = self.n

    def _server_move(self, action: str) -> None:
        if not self.pickup or self.game_type is not None:
            raise self.fail("unexpected server move")
        shown = action.split(".")
        if len(shown) != 2:
            raise self.fail("the skat shown after a pickup must be 2 cards")
        self._show_skat([self._card(name) for name in shown if name != HIDDEN])

    def _show_skat(self, cards: list[int]) -> None:
        """The skat shown after a pickup: fills hidden skat cards, must match known ones."""
        dealt = self.deal[30:32]
        for c in cards:
            if c in dealt:
                continue
            if None not in dealt or c in self.deal:
                raise self.fail(f"{iss_name(c)} is not in the skat dealt")
            dealt[dealt.index(None)] = c
        self.deal[30:32] = dealt

    def _declare(self, seat: int, action: str) -> None:
        if self.declarer is not None and seat != self.declarer:
            raise self.fail(f"seat {seat} declares, but seat {self.declarer} picked up the skat")
        head, *names = action.split(".")
        match = _DECLARATION.match(head)
        assert match is not None
        letters = match.group(2)
        if any(m not in MODIFIERS for m in letters) or len(set(letters)) != len(letters):
            raise self.fail(f"unknown declaration {head!r} (type G C S H D N, then any of O H S Z)")
        self.declarer, self.declare_move = seat, self.n
        self.game_type = ISS_LETTERS[match.group(1)]
        for m in letters:
            self.flags |= MODIFIERS[m]
        cards = [self._card(name) for name in names]
        if self.pickup and cards:
            self._set_discards(cards[:2])
            cards = cards[2:]
        if cards:
            self._check_shown(cards)

    def _set_discards(self, cards: list[int]) -> None:
        if len(cards) != 2:
            raise self.fail(f"expected 2 discards, got {len(cards)}")
        self.discards = tuple(cards)

    def _check_shown(self, cards: list[int]) -> None:
        """Cards shown with an ouvert declaration must be the declarer's 10 cards."""
        if not self.flags & OUVERT or len(cards) != 10:
            raise self.fail("a declaration lists 2 discards, or an ouvert hand of 10 cards")
        assert self.declarer is not None
        hand = set(self.deal[10 * self.declarer : 10 * self.declarer + 10])
        if self.pickup:
            hand = (hand | {self.deal[30], self.deal[31]}) - set(self.discards)
        if None not in hand and hand != set(cards):
            raise self.fail("the ouvert cards shown are not the declarer's hand")

    def _discard(self, seat: int, action: str) -> None:
        if seat != self.declarer:
            raise self.fail("expected the declarer's two discards")
        self._set_discards([self._card(name) for name in action.split(".")])

    def _play(self, seat: int, action: str) -> None:
        if action == HIDDEN:
            self.hidden_play = True
            return
        c = self._card(action)
        if self.hidden_play:
            return
        self.pending = None  # play went on: an earlier claim or single resignation did not end the game
        self.cards.append(c)
        self.card_moves.append(self.n)
        self.card_seats.append(seat)

    def _early_end(self, who: str, action: str) -> bool:
        """Handle SC, RE, w TI.<p>, w LE.<p>; True when the move was one of them."""
        kind, _, seat_text = action.partition(".")
        if who == "w" and kind in SERVER_ENDS:
            if seat_text not in ("0", "1", "2"):
                raise self.fail("expected the seat after TI./LE.")
            self.end = EarlyEnd(SERVER_ENDS[kind], int(seat_text))
            return True
        if action not in ("SC", "RE") or who == "w":
            return False
        seat = int(who)
        if self.game_type is None:
            if action == "SC":
                raise self.fail("SC before the declaration")
            self.end = EarlyEnd("resign", seat)
        elif seat == self.declarer:
            self._declarer_end(action, seat)
        elif action == "SC":
            raise self.fail("SC (show cards and claim the rest) by a defender")
        else:
            self._defender_resigns(seat)
        return True

    def _declarer_end(self, action: str, seat: int) -> None:
        if action == "RE":
            self.end = EarlyEnd("resign", seat)
        else:
            self.pending = EarlyEnd("claim", seat)

    def _defender_resigns(self, seat: int) -> None:
        self.resigned.add(seat)
        self.pending = EarlyEnd("resign", seat)
        if len(self.resigned) == 2:
            self.end = self.pending

    def _game(self, result: dict[str, object]) -> IssGame:
        hidden = self.deal.count(None)
        if hidden:
            raise IssFormatError(
                f"the deal has {hidden} hidden cards (??): a game with hidden cards cannot be replayed"
            )
        record = GameRecord(
            deal=tuple(c for c in self.deal if c is not None),
            bids=tuple(self.bids),
            pickup=self.pickup,
            discards=self.discards,
            game_type=self.game_type,
            flags=self.flags,
            cards=tuple(self.cards),
            end=self.end,
        )
        return IssGame(
            record=record,
            result=result,
            moves=tuple(self.moves),
            bid_moves=tuple(self.bid_moves),
            card_moves=tuple(self.card_moves),
            card_seats=tuple(self.card_seats),
            declarer=self.declarer,
            declare_move=self.declare_move,
        )
