"""Moved to :mod:`skatsim.records.record`; these names stay importable from here.

``Evaluation`` is the old name of :class:`~skatsim.records.record.GameResult`.
"""

from .records.record import EarlyEnd, GameRecord, GameResult, ReplayError, Trick, replay

Evaluation = GameResult

__all__ = ["EarlyEnd", "Evaluation", "GameRecord", "GameResult", "ReplayError", "Trick", "replay"]
