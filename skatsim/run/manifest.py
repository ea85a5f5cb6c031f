"""``manifest.json``: what made a run (variant text, bots, seed, version), its chunk plan and
how far it got. Written atomically; read back to resume a run or to replay one of its games.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Literal

from pydantic import BaseModel, ValidationError

from ..errors import SkatsimError
from . import storage

MANIFEST = "manifest.json"
RUN_FORMAT = "skatsim-run"
RUN_FORMAT_VERSION = 1


class ChunkEntry(BaseModel):
    """One planned chunk: games ``first .. first + count - 1`` in ``file``."""

    first: int
    count: int
    file: str


class RunManifest(BaseModel):
    """``manifest.json``: what made the run (variant text, bots, seed, version) and how far it got."""

    format: Literal["skatsim-run"]
    format_version: Literal[1]
    skatsim_version: str
    variant_path: str
    variant_name: str
    variant_text: str
    bots: tuple[str, ...]
    seed: int
    games: int
    chunk_size: int
    record_play: bool
    chunks: list[ChunkEntry]
    chunks_done: list[str]
    created: str
    updated: str
    finished: str | None = None
    #: The compiled variant (:meth:`skatsim.variant.Variant.params`), so a recorded game can be
    #: replayed under its rules (``skatsim replay``); absent in manifests written before it existed.
    params: list[int] | None = None


def timestamp() -> str:
    """Now, in UTC, as the manifest records times."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def write_manifest(out_dir: str, manifest: RunManifest) -> None:
    """Write ``manifest.json`` atomically (temporary file, then rename)."""
    path = storage.join(out_dir, MANIFEST)
    data = (manifest.model_dump_json(indent=2) + "\n").encode("utf-8")
    try:
        storage.write_atomic(path, lambda f: f.write(data))
    except OSError as exc:
        raise SkatsimError(f"{out_dir}: cannot write {MANIFEST} ({exc.strerror or exc})") from None


def read_manifest(out_dir: str) -> RunManifest | None:
    """The run's manifest, or ``None`` when the folder has no ``manifest.json``.

    A ``manifest.json`` that is not a skatsim run manifest is an error: the
    folder belongs to something else.
    """
    path = storage.join(out_dir, MANIFEST)
    try:
        text = storage.read_bytes(path).decode("utf-8", errors="replace")
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise SkatsimError(f"{path}: cannot read ({exc.strerror or exc})") from None
    try:
        return RunManifest.model_validate(json.loads(text))
    except (ValueError, ValidationError):
        raise SkatsimError(f"{path}: not a skatsim run manifest; {out_dir} is not a skatsim run folder") from None


def check_same_run(manifest: RunManifest, fresh: RunManifest, out_dir: str) -> None:
    """Refuse to resume with settings that would change the rows, naming the first difference."""

    def on_off(flag: bool) -> str:
        return "on" if flag else "off"

    checks = (
        ("seed", manifest.seed, fresh.seed),
        ("games", manifest.games, fresh.games),
        ("bots", ",".join(manifest.bots), ",".join(fresh.bots)),
        ("record-play", on_off(manifest.record_play), on_off(fresh.record_play)),
        ("skatsim version", manifest.skatsim_version, fresh.skatsim_version),
    )
    for what, old, new in checks:
        if old != new:
            raise SkatsimError(f"{out_dir}: cannot resume: the run was made with {what} {old}, not {new}")
    if manifest.variant_text != fresh.variant_text:
        raise SkatsimError(
            f"{out_dir}: cannot resume: the variant file text differs from the run's "
            f"(made with {manifest.variant_path}, variant {manifest.variant_name!r})"
        )
