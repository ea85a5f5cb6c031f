"""What each key of a variant file accepts, in words: the ``allowed`` part of error messages
and the reference page docs/variants.md."""

from __future__ import annotations

import types
from typing import Any, Literal, Union, get_args, get_origin

from annotated_types import Ge, Le, MaxLen, MinLen
from pydantic import BaseModel

from .model import Variant


def field_at(loc: tuple[str, ...]) -> tuple[Any, Any]:
    """The type expected at a key path of :class:`Variant` and the field that declares it.

    List items (``bock.events.0``) give the item type and the list's field;
    an unknown path gives ``(None, None)``.
    """
    annotation: Any = Variant
    info: Any = None
    for part in loc:
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            if part not in annotation.model_fields:
                return None, None
            info = annotation.model_fields[part]
            annotation = info.annotation
        elif get_origin(annotation) is tuple:
            annotation = get_args(annotation)[0]
        else:
            return None, None
    return annotation, info


def describe_type(annotation: Any, info: Any = None) -> str:
    """What a key accepts, in words: the ``allowed`` of error messages and the reference page."""
    origin = get_origin(annotation)
    if origin is Literal:
        return ", ".join(str(arg) for arg in get_args(annotation))
    if origin is tuple:
        return f"a list of: {describe_type(get_args(annotation)[0])}"
    if origin in (Union, types.UnionType):
        args = [arg for arg in get_args(annotation) if arg is not type(None)]
        if all(arg is bool or get_origin(arg) is Literal for arg in args):
            words = [w for arg in args for w in (("true", "false") if arg is bool else map(str, get_args(arg)))]
            return ", ".join(words[:-1]) + " or " + words[-1]
        return "a file path, or a list of file paths"
    if annotation is bool:
        return "true or false"
    if annotation is int:
        return _int_range(info)
    if annotation is str:
        return _text_limits(info)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return "a mapping with keys " + ", ".join(annotation.model_fields)
    return str(annotation)


def _int_range(info: Any) -> str:
    """'a whole number from 1 to 4' from a field's ge/le constraints."""
    low = next((m.ge for m in getattr(info, "metadata", ()) if isinstance(m, Ge)), None)
    high = next((m.le for m in getattr(info, "metadata", ()) if isinstance(m, Le)), None)
    if low is not None and high is not None:
        return f"a whole number from {low} to {high}"
    return "a whole number" if low is None else f"a whole number >= {low}"


def _text_limits(info: Any) -> str:
    """'text, one line, at most 80 characters' from a str field's constraints."""
    metadata = getattr(info, "metadata", ())
    words = ["text"]
    if any(isinstance(m, MinLen) and m.min_length > 0 for m in metadata):
        words.append("not empty")
    if any(getattr(m, "pattern", None) for m in metadata):
        words.append("one line without control characters")
    longest = next((m.max_length for m in metadata if isinstance(m, MaxLen)), None)
    if longest is not None:
        words.append(f"at most {longest} characters")
    return ", ".join(words)
