"""Counts on the command line: ``1000000``, ``1_000_000``, ``1,000,000``, ``1e6``, ``1M`` and ``1.5M`` alike.

Messages write counts with :func:`plural` (``1 deal``, ``1,000 deals``).

Every option that takes a number of things (games, bootstrap samples, games
per chunk) uses :data:`COUNT` (or :class:`Count` with bounds), so the same
spellings work everywhere and a value that is not a whole number (``1e-3``,
``2.5``) is refused in one line naming the option, before any work starts.
"""

from __future__ import annotations

import re
from decimal import Decimal

import click

#: Suffixes and their factors: thousand, million, billion (G), trillion (T); either case.
SUFFIXES = {"k": 10**3, "m": 10**6, "g": 10**9, "t": 10**12}
#: An optional minus, digits with optional ``_`` or ``,`` group separators, a decimal part, an exponent, then a suffix.
_COUNT = re.compile(r"^(?P<number>-?[0-9][0-9_,]*(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?)(?P<suffix>[kKmMgGtT]?)$")


def parse_count(text: str) -> int:
    """The whole number ``text`` spells; ``ValueError`` (with the reason) when it spells none.

    >>> [parse_count(t) for t in ("1000", "1_000_000", "1e6", "1M", "1.5M", "2k", "3G")]
    [1000, 1000000, 1000000, 1000000, 1500000, 2000, 3000000000]
    """
    shown = text.strip()
    bad = f"{shown!r} is not a count (allowed: 1000000, 1_000_000, 1e6, 1M, 1.5M, 2k, 3G)"
    match = _COUNT.match(shown)
    if match is None:
        raise ValueError(bad)
    digits = match["number"].replace("_", "").replace(",", "")
    try:
        value = Decimal(digits) * SUFFIXES.get(match["suffix"].lower(), 1)
    except ArithmeticError:  # InvalidOperation, Overflow
        raise ValueError(bad) from None
    if value.adjusted() > 30:  # far beyond any bound; spares building a huge int from 1e999999999
        raise ValueError(f"{shown} is far too large")
    if value != value.to_integral_value():
        raise ValueError(f"{shown} is not a whole number")
    return int(value)


def plural(n: int, noun: str, many: str | None = None) -> str:
    """``n`` and the noun, in thousands as every count is written, singular for exactly one.

    >>> plural(1, "deal"), plural(1_000, "deal"), plural(1, "more line"), plural(2, "match", "matches")
    ('1 deal', '1,000 deals', '1 more line', '2 matches')
    """
    return f"{n:,} {noun if n == 1 else many or noun + 's'}"


class Count(click.ParamType):
    """A click type for counts (:func:`parse_count`) between ``min`` and ``max`` (inclusive, ``None``: open)."""

    name = "count"

    def __init__(self, min: int | None = 1, max: int | None = None) -> None:  # noqa: A002 - click's own names
        self.min = min
        self.max = max

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> int:
        """The value as an ``int``; fails (one line naming the option) when it is not a count in range."""
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            try:
                number = parse_count(str(value))
            except ValueError as exc:
                self.fail(str(exc), param, ctx)
        if self.min is not None and number < self.min:
            self.fail(f"{value} is below {self.min:,}", param, ctx)
        if self.max is not None and number > self.max:
            self.fail(f"{value} is above {self.max:,}", param, ctx)
        return number

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        """``N`` in help texts."""
        return "N"


#: A count of at least 1 (games, resamples).
COUNT = Count(min=1)
