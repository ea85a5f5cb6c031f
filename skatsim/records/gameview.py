"""A readable, trick-by-trick account of one replayed game (``skatsim replay``).

:func:`render_game` turns a :class:`~skatsim.records.record.GameRecord` and its
:class:`~skatsim.records.record.GameResult` into plain text with card symbols
(``♣J ♥10``): the deal (each hand sorted as a player holds it for the game
played: trumps first), the bidding, skat and discards, the declaration, every
trick with its leader, winner and points, an early end, and the result.
For an imported ISS game it adds the server's recorded result and the fields
where the engine disagrees with it.
"""

from __future__ import annotations

from ..counts import plural
from ..engine.bidding import HOLD, PASS
from ..engine.cards import display_name
from ..engine.gametypes import GAME_TYPE_NAMES, GRAND, GROUP, POWER, TRUMP_GROUP, game_type_code
from ..engine.kontra import LEVEL_NAMES
from .iss import SEAT_NAMES, compare
from .record import GameRecord, GameResult

END_WORDS = {"claim": "claims the rest", "resign": "resigns", "timeout": "times out", "left": "leaves the table"}


def render_game(
    record: GameRecord, evaluation: GameResult, title: str = "", recorded: dict[str, object] | None = None
) -> str:
    """The whole account as text; ``recorded`` holds the ``iss_*`` fields of an ISS game."""
    lines = [title] if title else []
    order = _sort_type(evaluation.game_type)
    lines += _deal(record, order, evaluation.game_type)
    lines.append(_bidding(record, evaluation))
    if evaluation.game_type == "ramsch":
        lines += _pushes(record)
        lines += _tricks(record, evaluation)
    elif record.game_type is not None and evaluation.declarer is not None:
        if record.grand_hand_instead is not None:
            lines.append(f"Instead of a Ramsch: {SEAT_NAMES[record.grand_hand_instead]} declares Grand hand")
        lines.append(_skat(record, evaluation.declarer, order))
        lines.append(_declaration(evaluation))
        if record.kontra:
            lines.append(_kontra(record))
        lines += _tricks(record, evaluation)
    if record.end is not None:
        lines.append(_end(record, evaluation))
    lines.append(_result(evaluation))
    if recorded is not None and recorded.get("iss_result") is not None:
        lines += _recorded(evaluation, recorded)
    return "\n".join(lines)


#: Order of the suits after the trumps, as players sort a hand: clubs, spades, hearts, diamonds.
_SUIT_ORDER = (3, 2, 1, 0)


def _sort_type(game_type: str | None) -> int:
    """The game whose card order sorts the hands: the one played; Grand's (jacks on top) when none was."""
    try:
        code = game_type_code(game_type) if game_type is not None else GRAND
    except ValueError:
        return GRAND
    return code if code >= 0 else GRAND


def sort_hand(cards: tuple[int, ...] | list[int], game_type: int = GRAND) -> list[int]:
    """Cards sorted as a player holds them in ``game_type``: trumps first (the jacks, then in a suit
    game the trump suit), highest first; then the other suits, clubs, spades, hearts, diamonds,
    each highest first in the game's order (A 10 K Q 9 8 7; in Null A K Q J 10 9 8 7)."""

    def key(c: int) -> tuple[int, int]:
        group = int(GROUP[game_type, c])
        rank = 0 if group == TRUMP_GROUP else 1 + _SUIT_ORDER.index(group)
        return rank, -int(POWER[game_type, c])

    return sorted(cards, key=key)


def _cards(cards: tuple[int, ...] | list[int], game_type: int | None = None) -> str:
    """Cards with suit symbols: sorted for ``game_type``, or in the order given (a trick) when None."""
    shown = list(cards) if game_type is None else sort_hand(cards, game_type)
    return " ".join(display_name(c) for c in shown)


def _deal(record: GameRecord, order: int = GRAND, game_type: str | None = None) -> list[str]:
    """The three hands and the skat, sorted for the game played (said in the heading)."""
    if game_type in GAME_TYPE_NAMES and game_type != "null":
        heading = f"Deal (sorted for {game_type}: trumps first)"
    elif game_type == "null":
        heading = "Deal (sorted for null: no trumps)"
    else:
        heading = "Deal (sorted as in a Grand: jacks first)"
    hands = [f"  {SEAT_NAMES[s]:<4} {_cards(record.deal[10 * s : 10 * s + 10], order)}" for s in range(3)]
    return [heading, *hands, f"  Skat {_cards(record.deal[30:], order)}"]


def _bid_word(seat: int, action: int) -> str:
    name = SEAT_NAMES[seat]
    if action == HOLD:
        return f"{name} holds"
    if action == PASS:
        return f"{name} passes"
    return f"{name} {action}"


def _bidding(record: GameRecord, evaluation: GameResult) -> str:
    steps = ", ".join(_bid_word(seat, action) for seat, action in record.bids) or "none"
    if evaluation.declarer is None:
        return f"Bidding: {steps}"
    return f"Bidding: {steps} -> declarer {SEAT_NAMES[evaluation.declarer]} at {evaluation.bid}"


def _skat(record: GameRecord, declarer: int, order: int = GRAND) -> str:
    name = SEAT_NAMES[declarer]
    skat = _cards(record.deal[30:], order)
    if not record.pickup:
        return f"Skat: {name} plays hand (skat {skat} untouched)"
    if not record.discards:
        return f"Skat: {name} picks up {skat}; no discards (the game ended first)"
    return f"Skat: {name} picks up {skat}, discards {_cards(record.discards, order)}"


def _declaration(evaluation: GameResult) -> str:
    words = [evaluation.game_type]
    flags = [(evaluation.hand, "hand"), (evaluation.ouvert, "ouvert")]
    flags += [
        (evaluation.schneider_announced, "Schneider announced"),
        (evaluation.schwarz_announced, "Schwarz announced"),
    ]
    words += [word for on, word in flags if on]
    assert evaluation.declarer is not None
    return f"Declaration: {SEAT_NAMES[evaluation.declarer]} plays {', '.join(words)}"


def _played(leader: int, cards: tuple[int, ...] | list[int]) -> str:
    return "  ".join(f"{SEAT_NAMES[(leader + k) % 3]} {display_name(c):<3}" for k, c in enumerate(cards))


def _pushes(record: GameRecord) -> list[str]:
    """Schieberamsch: who pushed which two cards, who passed the skat on unseen."""
    if not record.pushes:
        return ["Ramsch: nobody declares; the skat stays untouched"]
    words = [
        f"{SEAT_NAMES[s]} pushes {_cards(pair)}" if pair else f"{SEAT_NAMES[s]} passes on unseen"
        for s, pair in enumerate(record.pushes)
    ]
    return ["Schieberamsch: " + ", ".join(words)]


def _kontra(record: GameRecord) -> str:
    names = [LEVEL_NAMES[min(k + 1, len(LEVEL_NAMES) - 1)] for k in range(len(record.kontra))]
    calls = [f"{SEAT_NAMES[seat]} {name}" for seat, name in zip(record.kontra, names, strict=True)]
    return "Doubling: " + ", ".join(calls) + f" (x{2 ** len(record.kontra)})"


def _tricks(record: GameRecord, evaluation: GameResult) -> list[str]:
    lines = ["Tricks"]
    for n, trick in enumerate(evaluation.tricks, start=1):
        lines.append(f"  {n:>2}  {_played(trick.leader, trick.cards)}  -> {SEAT_NAMES[trick.winner]} {trick.points:>2}")
    rest = record.cards[3 * len(evaluation.tricks) :]
    if rest:
        leader = evaluation.tricks[-1].winner if evaluation.tricks else 0
        lines.append(f"  {len(evaluation.tricks) + 1:>2}  {_played(leader, rest)}  (unfinished)")
    if len(lines) == 1:
        lines.append("  no card played")
    return lines


def _end(record: GameRecord, evaluation: GameResult) -> str:
    end = record.end
    assert end is not None
    who = SEAT_NAMES[end.seat]
    if evaluation.declarer is None:
        return f"End: {who} {END_WORDS.get(end.kind, end.kind)} before a declaration"
    role = "declarer" if end.seat == evaluation.declarer else "defender"
    when = f"after {plural(len(evaluation.tricks), 'trick')}"
    if len(record.cards) > 3 * len(evaluation.tricks):
        when = f"during trick {len(evaluation.tricks) + 1}"
    return f"End: {who} ({role}) {END_WORDS.get(end.kind, end.kind)} {when}"


def _matadors(m: object) -> str:
    if not isinstance(m, int) or m == 0:
        return "no matadors"
    return f"with {m}" if m > 0 else f"without {-m}"


def _levels(schneider: object, schwarz: object) -> str:
    return ", ".join(word for on, word in ((schneider, "Schneider"), (schwarz, "Schwarz")) if on) or "no Schneider"


def _result(evaluation: GameResult) -> str:
    if evaluation.game_type == "passed":
        return "Result: all passed, no game"
    if evaluation.game_type == "aborted":
        return "Result: aborted before a declaration, no score"
    bock = f" (Bock x{evaluation.bock})" if (evaluation.bock or 1) > 1 else ""
    if evaluation.game_type == "ramsch":
        return _ramsch_result(evaluation) + bock
    outcome = "won" if evaluation.won else "lost"
    overbid = " (overbid)" if evaluation.overbid else ""
    return (
        f"Result: {outcome}{overbid}: {_matadors(evaluation.matadors)}, {evaluation.declarer_points} card points, "
        f"{plural(evaluation.declarer_tricks, 'trick')}, {_levels(evaluation.schneider, evaluation.schwarz)}; "
        f"value {evaluation.game_value}, score {evaluation.score:+d}{bock}"
    )


def _ramsch_result(evaluation: GameResult) -> str:
    points = (evaluation.ramsch_points_fh, evaluation.ramsch_points_mh, evaluation.ramsch_points_rh)
    scores = (evaluation.score_fh, evaluation.score_mh, evaluation.score_rh)
    counted = ", ".join(f"{SEAT_NAMES[s]} {points[s]}" for s in range(3))
    scored = ", ".join(f"{SEAT_NAMES[s]} {scores[s]:+d}" for s in range(3))
    extras = [f"{evaluation.jungfrau_count} Jungfrau"]
    if evaluation.durchmarsch:
        extras.append("Durchmarsch")
    if evaluation.schiebe_count is not None:
        extras.append(f"{evaluation.schiebe_count} pushes")
    return f"Result: Ramsch, card points {counted} ({', '.join(extras)}); scores {scored}"


def _recorded(evaluation: GameResult, recorded: dict[str, object]) -> list[str]:
    verdict = recorded["iss_result"]
    if verdict == "passed":
        return ["Server: passed"]
    if verdict == "penalty":
        return [f"Server: penalty, score {recorded['iss_score']:+d}"]
    declarer = recorded["iss_declarer"]
    who = f"declarer {SEAT_NAMES[declarer]}" if isinstance(declarer, int) else "no declarer"
    line = (
        f"Server: {verdict}{' (overbid)' if recorded['iss_overbid'] else ''}, {who}: "
        f"{_matadors(recorded['iss_matadors'])}, {recorded['iss_points']} card points, "
        f"{recorded['iss_tricks']} trick{'' if recorded['iss_tricks'] == 1 else 's'}, "
        f"{_levels(recorded['iss_schneider'], recorded['iss_schwarz'])}; score {recorded['iss_score']:+d}"
    )
    diff = compare(evaluation, recorded)
    if not diff:
        return [line, "Engine and server agree."]
    parts = "; ".join(f"{name}: engine {engine}, server {server}" for name, (engine, server) in diff.items())
    return [line, f"Engine and server differ: {parts}"]
