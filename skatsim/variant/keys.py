"""The vocabulary of variant keys whose values are names: what ``all_pass`` and ``bock.events`` may say.

Shared by the model (:mod:`.model`) and the combination rules (:mod:`.combinations`), which
read each other's words but not each other.
"""

from __future__ import annotations

from typing import Literal

AllPass = Literal["redeal", "ramsch", "schieberamsch"]
BockEvent = Literal[
    "all_passed",
    "kontra_re",
    "lost_after_kontra",
    "sixty_sixty",
    "lost_sixty_sixty",
    "lost_grand",
    "lost_grand_hand",
    "value_100",
    "won_grand_hand",
    "won_null_ouvert_hand",
    "total_multiple_100",
    "total_three_equal_digits",
    "won_value_72",
    "won_value_96",
]
#: Bock events that only a Kontra can cause.
KONTRA_EVENTS = ("kontra_re", "lost_after_kontra")
#: Bock events of a player's running total (checked once the deal is scored).
TOTAL_EVENTS = ("total_multiple_100", "total_three_equal_digits")
