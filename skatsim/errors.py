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
