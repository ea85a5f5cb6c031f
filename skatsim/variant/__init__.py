"""Variant files: YAML house rules validated into one frozen object, compiled to rule parameters.

Data flows one way: YAML text -> :class:`Variant` (validated; every default is
the official rule, ISkO) -> :meth:`Variant.params` (the ``int64`` array of
:mod:`skatsim.engine.rules`) -> kernels. The keys are RULES.md §6's house rules and
their options, one section per rule; docs/variants.md is generated from these
models (``scripts/variant_reference.py``).

Options form a tree (as in jskat): an option counts only when its parent rule
is on, so setting ``kontra.when`` while ``kontra.enabled`` is false, or any
``ramsch`` option while no rule can produce a Ramsch, is an error rather than
a silent no-op. Keys written in the file are told apart from defaults with
pydantic's ``model_fields_set``.

Loading (:func:`load_variant`) is defensive: safe YAML only (tags that build
Python objects are refused), a size limit, a limit on values after anchor/alias
expansion ("billion laughs"), duplicate keys refused, ``extends`` resolved
relative to the file with cycle detection. Every problem is one
:class:`~skatsim.errors.SkatsimError` line ``FILE:LINE: key.path: what is wrong
(allowed: ...)``, the line found from the composed YAML node tree.
"""

from .combinations import combination_problems
from .describe import describe_type, field_at
from .keys import KONTRA_EVENTS, BockEvent
from .loading import LoadedVariant, load_variant
from .model import (
    COMBINATION_RULES,
    MAX_EXTENDS,
    MAX_FILE_BYTES,
    MAX_NODES,
    Variant,
    official_params,
)

__all__ = [
    "COMBINATION_RULES",
    "KONTRA_EVENTS",
    "MAX_EXTENDS",
    "MAX_FILE_BYTES",
    "MAX_NODES",
    "BockEvent",
    "LoadedVariant",
    "Variant",
    "combination_problems",
    "describe_type",
    "field_at",
    "load_variant",
    "official_params",
]
