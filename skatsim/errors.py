"""Errors that reach the user as one line and exit code 2 (see :func:`skatsim.cli.main`)."""

from __future__ import annotations


class SkatsimError(Exception):
    """A problem with the user's input or files: the message says what and where."""
