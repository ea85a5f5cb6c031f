"""Errors that reach the user as one line and exit code 2 (see :func:`skatsim.cli.main`)."""

from __future__ import annotations


class SkatsimError(Exception):
    """A problem with the user's input or files: the message says what and where."""


class ReasonedError(ValueError):
    """A refused input whose message says what and where; ``reason`` names the kind of problem without
    the input's particulars (an import counts what it skips by reason); it defaults to the message."""

    def __init__(self, message: str, reason: str = "") -> None:
        super().__init__(message)
        self.reason = reason or message


def first_line(exc: BaseException, width: int | None = None) -> str:
    """What an exception says, in one line for a one-line error: the first line of its message (at most
    ``width`` characters), or its type's name when it says nothing (polars' errors run to many lines)."""
    text = str(exc).strip()
    return text.splitlines()[0][:width] if text else type(exc).__name__
