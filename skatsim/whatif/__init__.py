"""What is this hand worth, and what if a decision had gone the other way? Rollouts with the bots.

* :mod:`~skatsim.whatif.rollouts` -- starts (a run's game, a record, an ISS line, a hand with the
  rest random), decisions to force, :func:`evaluate` (alternatives on the same worlds) and the
  chunkable :class:`Query`;
* :mod:`~skatsim.whatif.hand` -- :func:`evaluate_hand`, every game a hand could be declared as;
* :mod:`~skatsim.whatif.worlds` -- what the deciding seat knows, and how worlds are drawn from it;
* :mod:`~skatsim.whatif.kernels` -- the compiled sampling and rollout loops.

The method and its numbers: ``docs/whatif.md``.
"""

from __future__ import annotations

from .rollouts import (
    Card,
    Ceiling,
    Decision,
    Declare,
    Discard,
    Pickup,
    Query,
    Start,
    bid_value,
    evaluate,
    from_hand,
    from_iss,
    from_record,
    from_run,
    plan,
    summary,
)

__all__ = [
    "Card",
    "Ceiling",
    "Decision",
    "Declare",
    "Discard",
    "Pickup",
    "Query",
    "Start",
    "bid_value",
    "evaluate",
    "from_hand",
    "from_iss",
    "from_record",
    "from_run",
    "plan",
    "summary",
]
