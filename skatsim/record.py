"""Moved to :mod:`skatsim.records.record`; these names stay importable from here."""

from .records.record import EarlyEnd, Evaluation, GameRecord, ReplayError, Trick, replay

__all__ = ["EarlyEnd", "Evaluation", "GameRecord", "ReplayError", "Trick", "replay"]
