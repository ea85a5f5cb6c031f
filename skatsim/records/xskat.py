"""xskat 4.0's own records: its game log (``-log FILE``) and game list (``-list FILE``) as game records.

xskat (Gunter Gerhardt's Skat program, Debian package ``xskat``) plays itself with
``xskat -auto N``; ``-log FILE`` appends each game's protocol and ``-list FILE`` keeps the
game list, one ``e`` line per game. :func:`parse_log` turns the protocol (English texts:
``-lang english``, unformatted) into :class:`XskatGame` entries, each with a
:class:`~skatsim.records.record.GameRecord` of its seats; :func:`parse_list` reads the list's
entries, whose :meth:`XskatListEntry.scores` are xskat's own score of each game by player.
Replaying the records (:func:`skatsim.records.record.replay_list`) under ``variants/xskat.yaml``
and comparing the scores with the list checks skatsim's rules against xskat's
(tests/test_xskat.py).

What a protocol holds, and how it becomes a record:

* the players' names as columns (``Computer1`` .. ``Computer3``: players 0, 1, 2), a name
  written ``_Name_`` said Kontra or, for the declarer, Re;
* ten rows of tricks (the card each player put on the trick; the trick's winner in capitals,
  its leader underlined), after the game's last trick rows without marks (a Null the declarer
  could not lose any more: the record ends with his claim) or none (a lost Null);
* ``random_seed SEED GAME DEALER``: the dealer (1-based), so forehand is the next player;
* each player's ten cards as played, sorted; the skat (``Skat is``: the final skat, the
  declarer's discards), the skat dealt (``Skat was``), the last bid, and in Schieberamsch the
  skat after each player (``FH passed:``; underlined: he passed it on unseen);
* who played what (or lost / won the Ramsch), a hand, Schneider, Schwarz or ouvert
  announcement, and the declarer's card points.

The cards dealt follow from these: the declarer's ten are the cards he played, plus his
discards, minus the skat he picked up; in Schieberamsch each player's ten are the cards he
played, plus the skat he passed on, minus the skat he was given. The protocol keeps only the
final bid, so the auction is rebuilt: the declarer reaches the final bid, and a defender who
said Kontra bid or held on the way when the bid allows it (xskat's ``-kontra18`` lets only
such a defender say Kontra). A Grand hand logged without a bid was declared instead of a
Ramsch of a Bock Ramsch round. A Null ouvert played after picking up the skat is logged as a
plain Null (xskat prints the ouvert only for hand games).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.bidding import HOLD, PASS
from ..engine.cards import parse_card
from ..engine.gametypes import NULL, RAMSCH, game_type_code
from ..engine.scoring import HAND, OUVERT, SCHNEIDER_ANNOUNCED, SCHWARZ_ANNOUNCED
from ..engine.tricks import trick_winner
from .record import EarlyEnd, GameRecord

#: The line that ends each game's protocol.
END = "=" * 40
_SUITS = {"diamond": "D", "heart": "H", "spade": "S", "club": "C"}
_RANKS = {"a": "A", "10": "T", "k": "K", "q": "Q", "j": "J", "9": "9", "8": "8", "7": "7"}
_GAMES = {"diamond": "diamonds", "heart": "hearts", "spade": "spades", "club": "clubs", "grand": "grand"}
#: Announcement lines (xskat's ``ehsso``): the flags they add.
_ANNOUNCED = {
    "Played Hand": HAND,
    "Schneider announced": HAND | SCHNEIDER_ANNOUNCED,
    "Schwarz announced": HAND | SCHNEIDER_ANNOUNCED | SCHWARZ_ANNOUNCED,
    "Played ouvert": HAND | OUVERT,
    "Played ouvert Hand": HAND | OUVERT,
}
_SEED = re.compile(r"^-+ random_seed (\d+) (\d+) (\d+)( [LR])? -*$")
_COLUMN = 12


class XskatFormatError(ValueError):
    """A protocol that is not xskat 4.0's English, unformatted log; the message names the game."""


@dataclass(frozen=True)
class XskatGame:
    """One game of an xskat log: its record (seats: forehand, middlehand, rearhand) and who sat where.

    ``dealer`` is the xskat player (0 .. 2, the name columns) who dealt; forehand, middlehand and
    rearhand are players ``dealer + 1``, ``dealer + 2``, ``dealer`` (mod 3): ``players``.
    ``seed`` and ``number`` are xskat's ``random_seed`` and the game's number in the session.
    """

    record: GameRecord
    dealer: int
    seed: int
    number: int

    @property
    def players(self) -> tuple[int, int, int]:
        """The xskat player at forehand, middlehand and rearhand."""
        return ((self.dealer + 1) % 3, (self.dealer + 2) % 3, self.dealer)


@dataclass(frozen=True)
class XskatListEntry:
    """One ``e`` line of an xskat game list: ``player`` (the declarer; in a Ramsch the loser, or the
    winner when two tie for the loss or he made a Durchmarsch), whether the game was a ``ramsch`` and
    a ``durchmarsch``, its ``value`` (Kontra, Schieberamsch and Bock doublings included) and whether
    ``won``."""

    player: int
    ramsch: bool
    durchmarsch: bool
    value: int
    won: bool

    def scores(self) -> tuple[int, int, int]:
        """Each xskat player's score for the game, as xskat's normal list counts it (``modsum``): the
        declarer's +value or -value; in a Ramsch the loser's -value, each of two tied losers' -value,
        a Durchmarsch's +value."""
        out = [0, 0, 0]
        if self.ramsch and self.won and not self.durchmarsch:
            for p in range(3):
                if p != self.player:
                    out[p] = -self.value
        else:
            out[self.player] = self.value if self.won else -self.value
        return out[0], out[1], out[2]


def parse_list(text: str) -> list[XskatListEntry]:
    """The games of an xskat game list file (its ``e`` lines), in order."""
    entries = []
    for line in text.splitlines():
        parts = line.split()
        if parts[:1] == ["e"] and len(parts) == 6:
            player, ramsch, durchmarsch, value, won = (int(p) for p in parts[1:])
            entries.append(XskatListEntry(player, ramsch == 1, durchmarsch == 1, value, won == 1))
    return entries


def parse_log(text: str) -> list[XskatGame]:
    """Every game of an xskat protocol file, in order. Raises :class:`XskatFormatError`."""
    games = []
    for n, block in enumerate(text.split(END + "\n")):
        if block.strip():
            try:
                games.append(_parse_game(block))
            except (XskatFormatError, ValueError, KeyError, IndexError) as exc:
                raise XskatFormatError(f"game {n + 1} of the log: {exc}") from None
    return games


def _card(text: str) -> int:
    """A card as xskat writes it (``Heart 10``, ``CLUB J``, ``Spade_9``)."""
    suit, rank = text.replace("_", " ").split()
    return parse_card(_SUITS[suit.lower()] + _RANKS[rank.lower()])


def _columns(line: str, start: int) -> list[str]:
    return [line[start + _COLUMN * k : start + _COLUMN * (k + 1)].strip() for k in range(3)]


def _marked(cell: str) -> bool:
    """Whether a trick cell carries a mark: the winner's card in capitals or the leader's underlined."""
    return "_" in cell or cell.split()[0].isupper()


def _cards_line(line: str, label: str) -> tuple[int, ...]:
    return tuple(_card(c) for c in line[len(label) :].strip().split(","))


@dataclass
class _Protocol:
    """The parts of one game's protocol, by player where they are per player."""

    doubled: list[int]  # players whose name is underlined: Kontra or Re
    tricks: list[list[str]]  # trick rows: the three cells by player
    dealer: int
    seed: int
    number: int
    played: list[list[int]]  # each player's ten cards as played
    lines: list[str]  # the text lines after the hands


def _split(block: str) -> _Protocol:
    lines = block.split("\n")
    if len(lines) < 4 or not lines[2].startswith("-" * 40):
        raise XskatFormatError("no player header (is it an xskat -log file?)")
    doubled = [p for p, cell in enumerate(_columns(lines[0], 0)) if "_" in cell]
    k = 3
    tricks = []
    while not lines[k].startswith("----"):
        tricks.append(_columns(lines[k], 2))
        k += 1
    seed_match = _SEED.match(lines[k])
    if seed_match is None:
        raise XskatFormatError(f"expected a random_seed line, got {lines[k]!r}")
    if seed_match.group(4):
        raise XskatFormatError("rotated deals (random_seed ... L/R) are not read")
    played: list[list[int]] = [[], [], []]
    for row in lines[k + 1 : k + 11]:
        for p, cell in enumerate(_columns(row, 2)):
            played[p].append(_card(cell))
    if not lines[k + 11].startswith("-" * 40):
        raise XskatFormatError("expected ten rows of cards per player")
    seed, number, dealer = int(seed_match.group(1)), int(seed_match.group(2)), int(seed_match.group(3)) - 1
    rest = [line for line in lines[k + 12 :] if line.strip()]
    return _Protocol(doubled, tricks, dealer, seed, number, played, rest)


def _value(lines: list[str], label: str) -> str | None:
    return next((line[len(label) :].strip() for line in lines if line.startswith(label)), None)


def _parse_game(block: str) -> XskatGame:
    pr = _split(block)
    seats = ((pr.dealer + 1) % 3, (pr.dealer + 2) % 3, pr.dealer)  # xskat player at FH, MH, RH
    seat_of = {player: s for s, player in enumerate(seats)}
    skat_is = _cards_line(next(line for line in pr.lines if line.startswith("Skat is:")), "Skat is:")
    outcome = next(
        (line for line in pr.lines if " played " in line or line.endswith(" the Ramsch")),
        None,
    )
    if outcome is None:  # all passed: redealt
        hands = [pr.played[p] for p in seats]
        return _game(pr, GameRecord(deal=_deal(hands, skat_is), bids=((1, PASS), (2, PASS), (0, PASS))))
    if outcome.endswith(" the Ramsch"):
        return _game(pr, _ramsch(pr, seats, skat_is))
    name, game = outcome.split(" played ")
    declarer = seat_of[_player(block, name)]
    skat_was = _cards_line(next(line for line in pr.lines if line.startswith("Skat was:")), "Skat was:")
    flags = next((_ANNOUNCED[line] for line in pr.lines if line in _ANNOUNCED), 0)
    gt = NULL if game == "Null" else game_type_code(_GAMES[game.lower()])
    if gt == NULL and flags & OUVERT and not flags & HAND:
        flags = OUVERT
    hands = [list(pr.played[p]) for p in seats]
    pickup = not flags & HAND
    if pickup:
        hands[declarer] = sorted((set(hands[declarer]) | set(skat_is)) - set(skat_was))
    bid = _value(pr.lines, "Last bid:")
    calls = _calls(pr, seats, declarer)
    cards, end = _play(pr, seats, gt, declarer)
    record = GameRecord(
        deal=_deal(hands, skat_was),
        bids=_auction(declarer, int(bid), calls[0] if calls else None) if bid is not None else (),
        pickup=pickup,
        discards=tuple(sorted(skat_is)) if pickup else (),
        game_type=gt,
        flags=flags,
        cards=cards,
        end=end,
        kontra=calls,
        grand_hand_instead=declarer if bid is None else None,
    )
    return _game(pr, record)


def _game(pr: _Protocol, record: GameRecord) -> XskatGame:
    return XskatGame(record, pr.dealer, pr.seed, pr.number)


def _player(block: str, name: str) -> int:
    """The player (name column) called ``name`` in the header."""
    names = [cell.strip("_ ") for cell in _columns(block.split("\n")[0], 0)]
    return names.index(name)


def _deal(hands: list[list[int]], skat: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(c for hand in hands for c in sorted(hand)) + tuple(sorted(skat))


def _calls(pr: _Protocol, seats: tuple[int, int, int], declarer: int) -> tuple[int, ...]:
    """Kontra (a defender's name underlined) and Re (the declarer's too), as seats in calling order."""
    doubled = [seats.index(p) for p in pr.doubled]
    defenders = [s for s in doubled if s != declarer]
    if not defenders:
        return ()
    return (defenders[0], declarer) if declarer in doubled else (defenders[0],)


def _auction(declarer: int, bid: int, caller: int | None) -> tuple[tuple[int, int], ...]:
    """An auction in which ``declarer`` gets the game at ``bid`` and, where the bid allows, the Kontra
    ``caller`` bid or held (seats; see the module's docstring)."""
    low = 18
    fh, mh, rh = 0, 1, 2
    if declarer == fh:
        if caller == mh:
            return ((mh, bid), (fh, HOLD), (mh, PASS), (rh, PASS))
        if caller == rh:
            return ((mh, PASS), (rh, bid), (fh, HOLD), (rh, PASS))
        return ((mh, PASS), (rh, PASS), (fh, bid))
    if declarer == mh:
        if caller == fh and bid > low:
            return ((mh, low), (fh, HOLD), (mh, bid), (fh, PASS), (rh, PASS))
        if caller == rh and bid > low:
            return ((mh, low), (fh, PASS), (rh, bid), (mh, HOLD), (rh, PASS))
        return ((mh, bid), (fh, PASS), (rh, PASS))
    if caller == fh and bid > low:
        return ((mh, PASS), (rh, low), (fh, HOLD), (rh, bid), (fh, PASS))
    if caller == mh and bid > low:
        return ((mh, low), (fh, PASS), (rh, bid), (mh, PASS))
    return ((mh, PASS), (rh, bid), (fh, PASS))


def _play(
    pr: _Protocol, seats: tuple[int, int, int], gt: int, declarer: int
) -> tuple[tuple[int, ...], EarlyEnd | None]:
    """The cards in playing order, from forehand's lead, each trick's winner leading the next; a
    protocol whose last tricks carry no marks ended early with the declarer's claim."""
    cards: list[int] = []
    leader = 0
    end = None
    for row in pr.tricks:
        if not any(_marked(cell) for cell in row):
            end = EarlyEnd("claim", declarer)
            break
        trick = [_card(row[seats[(leader + i) % 3]]) for i in range(3)]
        cards += trick
        winner = (leader + trick_winner(gt, *trick)) % 3
        shown = [seats.index(p) for p, cell in enumerate(row) if cell.split()[0].isupper()]
        if shown != [winner]:
            raise XskatFormatError(f"trick {len(cards) // 3}: the protocol's winner is not the rules' winner")
        leader = winner
    return tuple(cards), end


def _ramsch(pr: _Protocol, seats: tuple[int, int, int], skat_is: tuple[int, ...]) -> GameRecord:
    """A Ramsch, with the Schieberamsch pushes when the protocol shows them."""
    hands = [list(pr.played[p]) for p in seats]
    cards, _ = _play(pr, seats, RAMSCH, -1)
    steps = [line for line in pr.lines if line[:3] in ("FH ", "FH_", "MH ", "MH_", "RH ", "RH_")]
    if not steps:
        return GameRecord(
            deal=_deal(hands, skat_is), bids=((1, PASS), (2, PASS), (0, PASS)), game_type=RAMSCH, cards=cards
        )
    skat = _cards_line(next(line for line in pr.lines if line.startswith("Skat was:")), "Skat was:")
    dealt_skat = skat
    pushes = []
    for s, line in enumerate(steps):
        after = _cards_line(line, line.split(":")[0] + ":")
        declined = line[2] == "_"
        pushes.append(() if declined else tuple(sorted(after)))
        hands[s] = sorted((set(hands[s]) | set(after)) - set(skat))
        skat = after
    return GameRecord(
        deal=_deal(hands, dealt_skat),
        bids=((1, PASS), (2, PASS), (0, PASS)),
        game_type=RAMSCH,
        cards=cards,
        pushes=tuple(pushes),
    )


#: xskat's ``-bockevents`` bits and the Bock events they are (``bock.events``).
BOCK_EVENTS = {
    1: "lost_sixty_sixty",
    2: "won_grand_hand",
    4: "lost_after_kontra",
    8: "kontra_re",
    16: "total_three_equal_digits",
    32: "total_multiple_100",
    64: "won_value_72",
    128: "won_value_96",
}
_IGNORED = {"-nlist", "-newrules", "-noramsch", "-nosramsch", "-skattolast", "-nokontra", "-nobock"}


def variant_keys(options: Sequence[str], list_length: int = 36) -> dict[str, Any]:
    """The keys that, in a file saying ``extends: xskat.yaml``, play the rules of xskat's command-line
    rule options (``-ramsch -kontra18 -bock -bockevents 63 ...``; variants/xskat.yaml lists them).

    ``list_length`` is the list's length when the options need lists (xskat keeps one list until it is
    cleared). Options of rules skatsim does not play (``-alist``, ``-spitze``, ``-revolution``,
    ``-klopfen``, ``-schenken``) and options that are not rules raise ``ValueError``.
    """
    ramsch = kontra = bock = events = 0
    sramsch = to_loser = oldrules = tlist = False
    items = list(options)
    while items:
        option = items.pop(0)
        if option in ("-ramsch", "-ramschonly"):
            ramsch = 1 if option == "-ramsch" else 2
        elif option in ("-kontra", "-kontra18"):
            kontra = 1 if option == "-kontra" else 2
        elif option in ("-bock", "-bockramsch"):
            bock = 1 if option == "-bock" else 2
        elif option == "-bockevents" and items:
            events = int(items.pop(0))
        elif option in ("-sramsch", "-skattoloser", "-oldrules", "-tlist"):
            sramsch |= option == "-sramsch"
            to_loser |= option == "-skattoloser"
            oldrules |= option == "-oldrules"
            tlist |= option == "-tlist"
        elif option not in _IGNORED:
            raise ValueError(f"xskat option {option}: not a rule skatsim plays")
    keys: dict[str, Any] = {}
    kind = "schieberamsch" if sramsch else "ramsch"
    if ramsch:
        keys["all_pass"] = kind
    if ramsch == 2:
        keys["ramsch"] = {"every_deal": True}
    if kontra:
        keys["kontra"] = {"enabled": True, "only_if_bid": kontra == 2}
    names = [name for bit, name in BOCK_EVENTS.items() if events & bit and (kontra or bit not in (4, 8))]
    rounds = bock == 2 and bool(names)
    if bock and names:
        keys["bock"] = {"enabled": True, "events": names, "ramsch_round_after": rounds}
        if rounds:
            keys["bock"]["ramsch_round_kind"] = kind
        if not tlist:
            keys["bock"]["list_length"] = list_length
    if to_loser and (ramsch or rounds):
        keys.setdefault("ramsch", {})["skat_to"] = "each_loser"
    if oldrules:
        keys["scoring"] = {"lost_hand_factor": 1, "grand_ouvert": "base_36"}
    if tlist:
        keys["tournament"] = {"enabled": True, "list_length": list_length}
    return keys
