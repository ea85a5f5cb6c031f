"""Variant files: YAML house rules validated into one frozen object, compiled to rule parameters.

Data flows one way: YAML text -> :class:`Variant` (validated, defaults are the
official rules) -> :meth:`Variant.params` (the ``int64`` array of
:mod:`skatsim.rules`) -> kernels. Unknown keys, wrong types and impossible
combinations are errors naming the file and the key path.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import numpy as np
import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from . import rules
from .errors import SkatsimError


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Scoring(_Section):
    """How a deal's score is reckoned (RULES.md §5, §6)."""

    lost_factor: int = Field(2, ge=1, le=4, description="a lost game costs this many times its value (2 since 1999)")
    lost_hand_factor: int = Field(
        2, ge=1, le=4, description="the same for a lost hand game (1 under the pre-1999 rules)"
    )


class Tournament(_Section):
    """Seeger-Fabian list scoring (RULES.md §5)."""

    enabled: bool = Field(False, description="keep Seeger-Fabian list points")
    won_bonus: int = Field(50, ge=0, description="list points added to a won game")
    lost_malus: int = Field(50, ge=0, description="list points subtracted from a lost game")
    defender_bonus: int = Field(40, ge=0, description="list points to each defender when the declarer loses")


class Variant(_Section):
    """A complete rule set. Every key defaults to the official rules (ISkO)."""

    name: str = Field("official", min_length=1, description="short name, stored in every row's `variant` column")
    description: str = Field("", description="what the variant models and its sources")
    all_pass: Literal["redeal"] = Field("redeal", description="what happens when all three pass")
    scoring: Scoring = Scoring()
    tournament: Tournament = Tournament()

    def params(self) -> np.ndarray:
        """Compile to the kernels' rule parameter array."""
        p = rules.official_params()
        p[rules.LOST_FACTOR] = self.scoring.lost_factor
        p[rules.LOST_HAND_FACTOR] = self.scoring.lost_hand_factor
        p[rules.LIST_SCORING] = int(self.tournament.enabled)
        p[rules.LIST_WON_BONUS] = self.tournament.won_bonus
        p[rules.LIST_LOST_MALUS] = self.tournament.lost_malus
        p[rules.LIST_DEFENDER_BONUS] = self.tournament.defender_bonus
        return p


class LoadedVariant(BaseModel):
    """A validated variant with the text it came from (stored in run manifests)."""

    model_config = ConfigDict(frozen=True)

    path: str
    text: str
    variant: Variant


def _format_error(path: Path, exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(part) for part in err["loc"]) or "(top level)"
    more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
    if err["type"] == "extra_forbidden":
        return f"{path}: {where}: unknown key{more}"
    return f"{path}: {where}: {err['msg']}{more}"


def load_variant(path: str | Path) -> LoadedVariant:
    """Read, parse (safe YAML only) and validate a variant file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise SkatsimError(f"{path}: cannot read variant file ({exc.strerror or exc})") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f" line {mark.line + 1}" if mark is not None else ""
        raise SkatsimError(f"{path}:{line}: not valid YAML ({getattr(exc, 'problem', exc)})") from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise SkatsimError(f"{path}: a variant file must be a mapping of keys, got {type(data).__name__}")
    try:
        variant = Variant.model_validate(data)
    except ValidationError as exc:
        raise SkatsimError(_format_error(path, exc)) from None
    return LoadedVariant(path=str(path), text=text, variant=variant)
