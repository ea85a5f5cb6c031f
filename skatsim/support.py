"""Which validated house rules the compiled engine plays yet.

A variant file may validate (``skatsim validate``) before the kernels play
every rule it sets: :func:`unimplemented` names those rules so that a
simulation refuses them instead of silently playing the official rules.
Each entry of :data:`_RULES` is one rule; when a kernel learns a rule, its
line is deleted here (and its test in tests/test_variant.py updated).
"""

from __future__ import annotations

from collections.abc import Callable

from .errors import SkatsimError
from .variant import LoadedVariant, Variant

#: (rule as named in messages, whether this variant uses it). Empty: the kernels apply every rule
#: a variant file can set — scoring.*, Ramsch and Schieberamsch (all_pass, ramsch.*, schieberamsch.*),
#: Kontra/Re (kontra.*), Bock rounds (bock.*), the reversed game (reversed_game.*) and Seeger-Fabian
#: lists (tournament.*). A key added to the variant model before its kernel comes here.
_RULES: tuple[tuple[str, Callable[[Variant], bool]], ...] = ()


def unimplemented(variant: Variant) -> list[str]:
    """The rules this variant sets that the compiled engine does not play yet (empty: all played)."""
    return [name for name, used in _RULES if used(variant)]


def check_supported(loaded: LoadedVariant) -> None:
    """Refuse a variant the engine cannot simulate faithfully, in one line naming the file and rules.

    Call it where a simulation starts, after :func:`skatsim.variant.load_variant`.
    """
    missing = unimplemented(loaded.variant)
    if missing:
        rules = ", ".join(missing)
        noun = "rule" if len(missing) == 1 else "rules"
        raise SkatsimError(f"{loaded.path}: {noun} {rules} not simulated yet (the file is valid; see docs/variants.md)")
