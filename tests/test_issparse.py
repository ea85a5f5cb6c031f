"""The compiled ISS parser against the pure-Python parser it replaced (``tests/iss_reference.py``).

For every line, real or damaged, both must give the same :class:`IssGame` (record, server result,
moves, move numbers, seats) or the same message. The damage is what a large archive holds: moves
dropped, repeated, swapped or cut off, moves of the wrong kind in the wrong place, stray bytes,
every kind of whitespace ``str.split`` knows.
"""

from __future__ import annotations

import random
from pathlib import Path

import iss_reference
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skatsim.records.iss import IssFormatError, IssGame, parse_line

FIXTURE = Path(__file__).parent / "fixtures" / "iss" / "real_games.sgf"
LINES = FIXTURE.read_text(encoding="utf-8").splitlines()

#: Moves of every kind, right and wrong, to put anywhere in a move list.
MOVES = (
    *("w TI.0", "w LE.1", "w TI.", "w TI", "w TI.3", "w LE.2.1", "0 SC", "1 RE", "2 RE", "w SC", "w RE"),
    *("1 s", "2 s", "w CJ.ST", "w ??.??", "w ??.CJ", "w CJ", "w XX.YY", "0 s.x"),
    *("0 G", "1 GO", "2 NOH", "0 CHZ", "0 GHH", "0 GX", "2 G.CJ.ST", "2 G.CJ", "2 G.", "0 G.??.CJ"),
    *("1 CJ.ST", "1 CJ.ST.SA", "1 ??.ST", "1 ??", "0 ??", "0 DJ", "1 DJ", "2 HQ", "0 X", "0 C"),
    *("0 18", "1 y", "2 p", "0 999", "0 1000", "1 20", "x 18", "3 p", "0 007", "0 Y"),
    "0 G.CJ.SJ.HJ.DJ.CA.CT.CK.CQ.C9.C8.C7.SA",
    "0 NO.HA.HQ.CJ.SJ.HJ.DJ.CA.CT.CK.CQ.C9.C8",
)
SPACES = (" ", "  ", "\t", "\u00a0", "\u2003", " \u3000 ", "\x1c", "\u0085", "\u200b")


def outcome(parse: object, line: str) -> tuple[str, IssGame | str]:
    try:
        return "ok", parse(line)  # type: ignore[operator]
    except IssFormatError as exc:
        return "error", str(exc)


def same(line: str) -> None:
    assert outcome(parse_line, line) == outcome(iss_reference.parse_line, line), repr(line)


@pytest.mark.parametrize("line", LINES)
def test_real_lines(line: str) -> None:
    same(line)
    assert outcome(parse_line, line)[0] == "ok"


def damaged(rng: random.Random, line: str) -> str:
    """``line`` with its move list damaged one to three times, joined by some whitespace."""
    head, rest = line.split("MV[", 1)
    tokens, tail = rest.split("]", 1)
    words = tokens.split()
    moves = [f"{words[k]} {words[k + 1]}" for k in range(0, len(words) - 1, 2)]
    for _ in range(rng.randint(1, 3)):
        at = rng.randrange(len(moves) + 1)
        op = rng.random()
        if op < 0.4:
            moves.insert(at, rng.choice(MOVES))
        elif op < 0.6 and moves:
            del moves[min(at, len(moves) - 1)]
        elif op < 0.8 and len(moves) > 2:
            a, b = rng.randrange(1, len(moves)), rng.randrange(1, len(moves))
            moves[a], moves[b] = moves[b], moves[a]
        else:
            moves = moves[:at]
    text = f"{head}MV[{rng.choice(SPACES).join(moves)} ]{tail}"
    if rng.random() < 0.1:
        text = text.replace("R[", rng.choice(["R[passed ", "R[ passed", "R[p:3 ", "R[win ", "R[d:1 d:0 "]), 1)
    return text


def test_damaged_move_lists() -> None:
    rng = random.Random(2026)
    results = {outcome(parse_line, damaged(rng, rng.choice(LINES)))[0] for _ in range(50)}
    assert results == {"ok", "error"}  # the damage makes both kinds of line
    for _ in range(4000):
        same(damaged(rng, rng.choice(LINES)))


def test_damaged_bytes() -> None:
    rng = random.Random(7)
    alphabet = "(;)[] .|?wspyGCSHDNOHZ0123456789RETISCLEPDT:ab\t\u00a0\u2028é"
    for _ in range(4000):
        chars = list(rng.choice(LINES))
        for _ in range(rng.randint(1, 3)):
            k = rng.randrange(len(chars))
            if rng.random() < 0.5:
                chars[k] = rng.choice(alphabet)
            else:
                del chars[k : k + rng.randint(1, 40)]
        same("".join(chars))


@pytest.mark.parametrize(
    "line",
    [
        "",
        "   ",
        "(;)",
        "(;;)",
        "(;ID[1]ID[2];)",
        "(;A[1]B[2]A[3];)",
        "(;" + "".join(f"K{k}[x]" for k in range(80)) + "K3[y];)",
        "(;" + "".join(f"K{k}[x]" for k in range(80)) + "ID[1]MV[w]R[passed];)",
        "(;GM[Skat]ID[1]MV[w]R[passed] junk ;)",
        "(;GM[skat]ID[1]MV[w]R[passed];)",
        "(;ID[-0]MV[w]R[passed];)",
        "(;ID[9223372036854775808]MV[w]R[passed];)",
        "(;ID[99999999999999999999]MV[w]R[passed];)",
        "(;ID[1]MV[]R[passed];)",
        "(;ID[1]MV[w]R[win bidok d:0 v:1 m:1 p:1 t:1 s:0];)",
        "(;ID[1]MV[w]R[win bidok d:3 v:1 m:1 p:1 t:1 s:0 z:0];)",
        "(;ID[1]MV[w]R[win win bidok d:0];)",
        "(;ID[1]MV[w a]R[passed];)",
        "(;ID[1]MV[w a b]R[passed];)",
        "(;ID[1]MV[x a]R[passed];)",
        "(;ID[1]MV[0 a]R[passed];)",
        "(;ID[1]MV[w A.B]R[passed];)",
        "(;ID[1]MV[w a[b]R[passed];)",
        "(;ID[1]MV[w a]R[passed] \u00a0;)\u2028",
        "\u3000(;ID[1]MV[w a]R[passed];)",
    ],
)
def test_edge_lines(line: str) -> None:
    same(line)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=200))
def test_any_text(text: str) -> None:
    same(text)
    same(f"(;{text};)")


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(LINES), st.lists(st.sampled_from(MOVES), max_size=4), st.integers(0, 60), st.integers(0, 3))
def test_moves_inserted_anywhere(line: str, extra: list[str], at: int, cut: int) -> None:
    head, rest = line.split("MV[", 1)
    tokens, tail = rest.split("]", 1)
    words = tokens.split()
    at = min(2 * at, len(words))
    words = words[:at] + " ".join(extra).split() + words[at + 2 * cut :]
    same(f"{head}MV[{' '.join(words)} ]{tail}")
