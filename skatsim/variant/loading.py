"""Loading variant files defensively: safe YAML only, size and alias limits, duplicate keys
refused, ``extends`` resolved with cycle detection, and every problem one line
``FILE:LINE: key.path: what is wrong (allowed: ...)``."""

from __future__ import annotations

import os
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, SkipValidation, ValidationError

from ..errors import SkatsimError
from .describe import describe_type, field_at
from .model import MAX_EXTENDS, MAX_FILE_BYTES, MAX_NODES, Variant


class LoadedVariant(BaseModel):
    """A validated variant with the text it came from (stored in run manifests).

    ``text`` is the file's text; with ``extends`` the texts of the files it
    extends follow, each after a ``# --- extends: PATH ---`` line, so a run's
    manifest records every rule that made it. ``files`` is the chain, this file first.
    """

    model_config = ConfigDict(frozen=True)

    path: str
    text: str
    #: Validated by :func:`load_variant` with the file's context (the options its extended files keep):
    #: not validated again here, where that context is gone.
    variant: SkipValidation[Variant]
    files: tuple[str, ...] = ()


class _Problem(Exception):
    """A problem in one YAML file, at a line (1-based) when known; becomes a SkatsimError."""

    def __init__(self, line: int | None, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


class _VariantLoader(yaml.SafeLoader):
    """PyYAML's SafeLoader, refusing duplicate keys (PyYAML would silently keep the last one).

    ``key_paths`` maps a mapping node (by id) to its key path, filled by
    :func:`_check_graph`, so that a duplicate is named by its full path.
    """

    key_paths: dict[int, tuple[str, ...]]

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        """Check the keys as written (before ``<<`` merges), then construct as SafeLoader does."""
        prefix = _dotted(getattr(self, "key_paths", {}).get(id(node), ()))
        seen: dict[str, int] = {}
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge" or not isinstance(key_node, yaml.ScalarNode):
                continue
            line = key_node.start_mark.line + 1
            if key_node.value in seen:
                raise _Problem(
                    line,
                    f"{prefix + '.' if prefix else ''}{key_node.value}: duplicate key, first written at line "
                    f"{seen[key_node.value]} "
                    "(allowed: each key once per mapping)",
                )
            seen[key_node.value] = line
        return super().construct_mapping(node, deep=deep)


def _read(path: Path) -> str:
    """The file's text, refusing what is not a small UTF-8 file."""
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise _Problem(None, f"file is {size} bytes (allowed: at most {MAX_FILE_BYTES} bytes)")
        return path.read_bytes().decode("utf-8")
    except OSError as exc:
        raise _Problem(None, f"cannot read variant file ({exc.strerror or exc})") from None
    except UnicodeDecodeError as exc:
        raise _Problem(None, f"not UTF-8 text (byte {exc.start}) (allowed: a UTF-8 YAML file)") from None


def _parse(text: str) -> tuple[Any, dict[tuple[str, ...], int]]:
    """Parse one document: (data, line of every key path). Raises :class:`_Problem`."""
    try:
        loader = _VariantLoader(text)  # PyYAML's reader refuses control characters (a NUL) right here
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, exc.position) + 1
        raise _Problem(
            line, f"not valid YAML: control character #x{exc.character:04x} (allowed: printable text)"
        ) from None
    try:
        node = loader.get_single_node()
        if node is None:  # empty, or blanks and comments only: most likely a truncated file
            raise _Problem(None, "the file is empty (allowed: '{}' or 'name: NAME' for the official rules)")
        loader.key_paths = _check_graph(node)
        data = loader.construct_document(node)
    except RecursionError:
        raise _Problem(None, "YAML nested too deeply (allowed: a few levels of mappings)") from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        raise _Problem(mark.line + 1 if mark else None, f"not valid YAML: {_yaml_problem(exc)}") from None
    except yaml.YAMLError as exc:
        raise _Problem(None, f"not valid YAML: {_one_line(str(exc))}") from None
    finally:
        loader.dispose()
    if not isinstance(data, dict):
        kind = "a list" if isinstance(data, list) else f"the value {_show(data)}"
        raise _Problem(
            node.start_mark.line + 1,
            f"a variant file must be a mapping of keys, got {kind} "
            "(allowed: key: value lines, e.g. 'all_pass: ramsch')",
        )
    lines: dict[tuple[str, ...], int] = {}
    _collect_lines(node, (), lines)
    return data, lines


def _yaml_problem(exc: yaml.MarkedYAMLError) -> str:
    """PyYAML's context and problem ('while scanning ...: could not find ...') on one line."""
    parts = [part for part in (exc.context, exc.problem) if part]
    return _one_line(": ".join(parts)) or "cannot be parsed"


def _check_graph(root: yaml.Node) -> dict[int, tuple[str, ...]]:
    """Refuse object-building tags, recursive aliases and alias bombs, before anything is constructed.

    The composed graph shares a node for every alias, so counting the values it
    would expand to is linear with memoisation; the count stops at ``MAX_NODES``.
    Returns the key path of every mapping node (by id; the first path that reaches it).
    """
    sizes: dict[int, int] = {}
    paths: dict[int, tuple[str, ...]] = {}
    on_path: set[int] = set()

    def size(node: yaml.Node, path: tuple[str, ...]) -> int:
        key = id(node)
        if key in sizes:
            return sizes[key]
        line = node.start_mark.line + 1
        if key in on_path:
            raise _Problem(line, "an alias refers to the mapping or list that contains it (allowed: plain values)")
        _check_tag(node)
        on_path.add(key)
        if isinstance(node, yaml.MappingNode):
            paths.setdefault(key, path)
        total = 1
        for child, child_path in _children(node, path):
            total += size(child, child_path)
            if total > MAX_NODES:
                raise _Problem(
                    line,
                    f"YAML anchors and aliases expand to more than {MAX_NODES} values "
                    f"(allowed: at most {MAX_NODES}; variant files are small)",
                )
        on_path.discard(key)
        sizes[key] = total
        return total

    size(root, ())
    return paths


def _children(node: yaml.Node, path: tuple[str, ...]) -> list[tuple[yaml.Node, tuple[str, ...]]]:
    """Keys and values of a mapping, items of a list (nothing for a scalar), each with its key path."""
    if isinstance(node, yaml.MappingNode):
        out = []
        for key_node, value_node in node.value:
            name = key_node.value if isinstance(key_node, yaml.ScalarNode) else "?"
            out += [(key_node, path), (value_node, (*path, name))]
        return out
    if isinstance(node, yaml.SequenceNode):
        return [(item, (*path, str(i))) for i, item in enumerate(node.value)]
    return []


def _check_tag(node: yaml.Node) -> None:
    """Only YAML's own types (mapping, list, text, number, bool, null) are allowed."""
    tag = node.tag or ""
    if tag.startswith("tag:yaml.org,2002:") and "python/" not in tag:
        return
    shown = tag.replace("tag:yaml.org,2002:", "!!")
    raise _Problem(
        node.start_mark.line + 1,
        f"YAML tag {shown} is not allowed (allowed: plain YAML mappings, "
        "lists, text, numbers, true/false; tags that build objects are refused)",
    )


def _collect_lines(node: yaml.Node, path: tuple[str, ...], lines: dict[tuple[str, ...], int]) -> None:
    """Map every key path (list items by index) to its line; keys must be plain names."""
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            line = key_node.start_mark.line + 1
            if not (isinstance(key_node, yaml.ScalarNode) and key_node.tag == "tag:yaml.org,2002:str"):
                raise _Problem(
                    line,
                    f"{_dotted(path) + '.' if path else ''}{getattr(key_node, 'value', '?')}: "
                    "a key must be a plain name (allowed: names such as all_pass, ramsch)",
                )
            lines[(*path, key_node.value)] = line
            _collect_lines(value_node, (*path, key_node.value), lines)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            lines[(*path, str(index))] = item.start_mark.line + 1
            _collect_lines(item, (*path, str(index)), lines)


# --- extends ------------------------------------------------------------------------------


class _Tree(typing.NamedTuple):
    """A file merged with the files it extends: data, (file, line) per key path, texts in chain order,
    and the key paths whose unused options are kept (written by an extended file that says
    ``unused_options: allowed``)."""

    data: dict[str, Any]
    sources: dict[tuple[str, ...], tuple[Path, int]]
    texts: list[tuple[Path, str]]
    kept: frozenset[tuple[str, ...]] = frozenset()


def _load_tree(path: Path, chain: tuple[Path, ...], root: Path) -> _Tree:
    """Parse ``path`` and, through ``extends``, its ancestors; merge them (this file wins).

    ``chain`` holds the files from the root down to ``path``, as named, to detect cycles.
    """
    try:
        text = _read(path)
        data, lines = _parse(text)
    except _Problem as problem:
        raise SkatsimError(_where(path, problem.line, root) + problem.message) from None
    kept_here = frozenset(lines) if data.get("unused_options") == "allowed" else frozenset()
    own = _Tree(data, {key: (path, line) for key, line in lines.items()}, [(path, text)], kept_here)
    if "extends" not in data:
        return own
    merged: dict[str, Any] = {}
    sources: dict[tuple[str, ...], tuple[Path, int]] = {}
    texts = list(own.texts)
    kept: set[tuple[str, ...]] = set()
    for parent in _extends_targets(path, data["extends"], lines, chain, root):
        base = _load_tree(parent, (*chain, parent), root)
        inherited = {key: value for key, value in base.data.items() if key != "unused_options"}  # not inherited
        merged = _merge(merged, inherited)
        sources.update(base.sources)
        texts += base.texts
        kept |= base.kept
    merged = _merge(merged, data)
    return _Tree(merged, {**sources, **own.sources}, texts, frozenset((kept - set(lines)) | kept_here))


def _extends_targets(
    path: Path, value: Any, lines: dict[tuple[str, ...], int], chain: tuple[Path, ...], root: Path
) -> list[Path]:
    """The files named by ``extends`` (one path or a list), each checked by :func:`_extends_target`."""
    if isinstance(value, list) and value:
        return [
            _extends_target(path, item, lines.get(("extends", str(i))), chain, root) for i, item in enumerate(value)
        ]
    return [_extends_target(path, value, lines.get(("extends",)), chain, root)]


def _extends_target(path: Path, value: Any, line: int | None, chain: tuple[Path, ...], root: Path) -> Path:
    """The file named by one ``extends`` entry, refusing a non-path, a missing file, a cycle or a long chain."""
    where = _where(path, line, root) + "extends: "
    if not isinstance(value, str) or not value.strip():
        raise SkatsimError(
            where + f"expected a file path, got {_show(value)} (allowed: a variant file "
            "relative to this one, e.g. official.yaml, or a list of them)"
        )
    target = path.parent / value
    if target.resolve() in {p.resolve() for p in chain}:
        names = " -> ".join(str(p) for p in (*chain, target))
        raise SkatsimError(where + f"cycle {names} (allowed: a chain that ends in a file without extends)")
    if len(chain) >= MAX_EXTENDS:
        raise SkatsimError(where + f"more than {MAX_EXTENDS} files in the extends chain (allowed: {MAX_EXTENDS})")
    if not target.is_file():
        found = "is a folder" if target.is_dir() else "not found"
        raise SkatsimError(
            where + f"{value!r} {found} (looked for {target}; allowed: an existing variant file, relative to this one)"
        )
    return target


def _merge(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    """Deep merge: mappings merge key by key; anything else in ``override`` replaces."""
    merged = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def _where(path: Path, line: int | None, root: Path) -> str:
    """``FILE:LINE: `` (or ``FILE: ``), naming the root file when the problem is in a file it extends."""
    via = "" if path == root else f"(extended by {root}) "
    return f"{path}:{line}: {via}" if line else f"{path}: {via}"


# --- validation errors, one line each -----------------------------------------------------

#: Words YAML 1.1 (PyYAML) reads as booleans when unquoted: ``name: off`` is ``false``.
_YAML_BOOLEANS = frozenset("y yes n no on off true false".split())
#: The value of a key path as the file wrote it (``off``), or None when not found.
Written = Callable[[tuple[str, ...]], str | None]


def _validation_messages(root: Path, tree: _Tree, exc: ValidationError) -> list[str]:
    """One ``FILE:LINE: key.path: problem (allowed: ...)`` line per problem, in the file's order.

    Field errors (wrong types, unknown keys, values out of range) are all
    reported; combinations are checked only once every field is valid, and
    then all of them are reported too.
    """
    found: list[tuple[tuple[str, ...], str]] = []
    for err in exc.errors():
        for problem in _describe_error(err, lambda loc: _written_word(loc, tree)):
            if problem not in found:  # a value that fits no member of a union: one line, not one per member
                found.append(problem)
    lines = []
    for loc, text in found:
        path, line = _source(loc, tree.sources, root)
        lines.append((_order(path, line, tree), f"{_where(path, line, root)}{_dotted(loc) or '(top level)'}: {text}"))
    return [text for _, text in sorted(lines, key=lambda item: item[0])]


def _order(path: Path, line: int | None, tree: _Tree) -> tuple[int, int]:
    """Sort key of a problem: the file's place in the extends chain, then the line."""
    files = [p for p, _ in tree.texts]
    return (files.index(path) if path in files else len(files), line or 0)


def _written_word(loc: tuple[str, ...], tree: _Tree) -> str | None:
    """The value as written on the line that set ``loc`` (``off`` in ``name: off``), if found."""
    import re

    if not loc or loc not in tree.sources:
        return None
    path, line = tree.sources[loc]
    text = next((t for p, t in tree.texts if p == path), "")
    lines = text.splitlines()
    if not 0 < line <= len(lines):
        return None
    match = re.search(rf"(?:^|[\s{{,]){re.escape(loc[-1])}\s*:\s*([^\s,}}#]+)", lines[line - 1])
    return match.group(1) if match else None


def _source(
    loc: tuple[str, ...], sources: dict[tuple[str, ...], tuple[Path, int]], root: Path
) -> tuple[Path, int | None]:
    """The file and line that wrote ``loc`` (or its closest written parent)."""
    for end in range(len(loc), 0, -1):
        if loc[:end] in sources:
            return sources[loc[:end]]
    return root, None


def _key_path(loc: tuple[str, ...]) -> tuple[str, ...]:
    """The key path of an error's location without pydantic's union-member tags (``bool``,
    ``literal['ramsch_rounds']``) after the key whose value fits no member."""
    while loc and field_at(loc) == (None, None) and field_at(loc[:-1]) != (None, None):
        if field_at(loc[:-1])[0] is Variant or _is_section(field_at(loc[:-1])[0]):
            break  # an unknown key of a section: keep it
        loc = loc[:-1]
    return loc


def _is_section(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


def _describe_error(err: Any, written: Written | None = None) -> list[tuple[tuple[str, ...], str]]:
    """One pydantic error as (key path, problem with what is allowed) pairs: one, or one per combination.

    ``written(loc)`` gives the value as the file wrote it, to explain YAML
    reading an unquoted ``off`` as ``false``.
    """
    raw = tuple(str(part) for part in err["loc"])
    loc = _key_path(raw)
    kind = err["type"]
    if kind == "impossible_combination":
        return [(tuple(path.split(".")), problem) for path, problem in err["ctx"]["problems"]]
    if loc != raw:  # a value that fits no member of a union (true, false or ramsch_rounds)
        annotation, info = field_at(loc)
        return [(loc, f"{_show(err['input'])} is not allowed (allowed: {describe_type(annotation, info)})")]
    if kind == "extra_forbidden":
        return [(loc, _unknown_key(loc))]
    annotation, info = field_at(loc)
    allowed = describe_type(annotation, info) if annotation is not None else "see docs/variants.md"
    got = _show(err["input"])
    if isinstance(err["input"], bool) and annotation is not bool:
        return [(loc, _yaml_boolean(loc, err["input"], annotation, allowed, written))]
    if kind == "value_error":
        return [(loc, str(err["ctx"]["error"]))]
    if kind == "literal_error":
        return [(loc, f"{got} is not allowed (allowed: {allowed})")]
    if kind.endswith(("_type", "_parsing")) or kind == "int_from_float":
        return [(loc, f"wrong type: got {got} (allowed: {allowed})")]
    return [(loc, f"{got} is not allowed (allowed: {allowed})")]


def _yaml_boolean(loc: tuple[str, ...], value: bool, annotation: Any, allowed: str, written: Written | None) -> str:
    """A boolean where text was expected: YAML 1.1 read an unquoted on/off/yes/no as true or false."""
    word = written(loc) if written is not None else None
    if word is None or word.lower() not in _YAML_BOOLEANS:
        word = "on" if value else "off"
    got = _show(value)
    if annotation is str:
        return f"got {got}: YAML reads an unquoted {word} as {got}; quote it to keep the word: {loc[-1]}: '{word}'"
    return f"wrong type: got {got} (YAML reads an unquoted {word} as {got}) (allowed: {allowed})"


def _unknown_key(loc: tuple[str, ...]) -> str:
    """'unknown key' with a close match and the keys that section allows."""
    import difflib

    owner, _ = field_at(loc[:-1])
    keys = list(owner.model_fields) if isinstance(owner, type) and issubclass(owner, BaseModel) else []
    close = difflib.get_close_matches(loc[-1], keys, n=1)
    hint = f"did you mean {close[0]}? " if close else ""
    return f"unknown key ({hint}allowed: {', '.join(keys)})"


def _dotted(loc: tuple[str, ...]) -> str:
    return ".".join(loc)


def _show(value: Any) -> str:
    """A value as the user wrote it in YAML, shortened."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "an empty value"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list | tuple):
        return "a list"
    shown = repr(value) if isinstance(value, str) else str(value)
    return _one_line(shown if len(shown) <= 40 else shown[:37] + "...")


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def load_variant(path: str | os.PathLike[str]) -> LoadedVariant:
    """Read, parse (safe YAML only), merge ``extends`` and validate a variant file.

    Raises :class:`SkatsimError` with one line ``FILE:LINE: key.path: problem (allowed: ...)`` per
    problem of the file (several lines when it has several problems).
    """
    if not os.fspath(path).strip():  # Path("") is "." (the current folder): say what was given instead
        raise SkatsimError(
            f"{os.fspath(path)!r}: no variant file named (allowed: a YAML file, e.g. variants/official.yaml)"
        )
    root = Path(path)
    tree = _load_tree(root, (root,), root)
    try:
        variant = Variant.model_validate(tree.data, context={"unused_allowed": {_dotted(k) for k in tree.kept}})
    except ValidationError as exc:
        raise SkatsimError("\n".join(_validation_messages(root, tree, exc))) from None
    text = tree.texts[0][1] + "".join(f"\n# --- extends: {p} ---\n{t}" for p, t in tree.texts[1:])
    return LoadedVariant(path=str(root), text=text, variant=variant, files=tuple(str(p) for p, _ in tree.texts))
