"""``manifest.json``: what made a run (variant text, bots, seed, version), its chunk plan and
how far it got. Written atomically; read back to resume a run or to replay one of its games.

The chunk plan is not listed: chunk ``i`` holds games ``i * chunk_size`` up to
``min((i + 1) * chunk_size, games) - 1``, so the manifest stays a few hundred bytes
whatever ``games`` is, and the chunks done are recorded as ranges of chunk numbers
(:class:`DoneChunks`), which stay few because chunks finish nearly in order. Every run
has a ``run_id`` (a uuid), also written into each chunk file's Parquet metadata, so a
chunk file copied in from another run is recognised and refused.
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Annotated, Any, Literal, Self

from pydantic import BaseModel, BeforeValidator, ValidationError

from .. import __version__
from ..errors import SkatsimError
from . import storage

MANIFEST = "manifest.json"
RUN_FORMAT = "skatsim-run"
RUN_FORMAT_VERSION = 3
#: The run formats this version reads: format 2 differs only in its chunk files' label columns (``variant``,
#: ``bot_*`` and ``skat_discard`` plain strings, now categorical and enum), so it is read but not resumed.
READABLE_RUN_FORMATS = (2, 3)
#: Parquet key-value metadata key holding the run id in every chunk file.
RUN_ID_KEY = "skatsim_run_id"
_CHUNK_NAME = re.compile(r"^chunk-(\d{12,})-(\d+)\.parquet$")


def chunk_name(first: int, count: int) -> str:
    """File name of the chunk holding games ``first .. first + count - 1`` (sorts by ``first``)."""
    return f"chunk-{first:012d}-{count}.parquet"


def parse_chunk_name(name: str) -> tuple[int, int] | None:
    """``(first, count)`` of a chunk file name made by :func:`chunk_name`; ``None`` for any other name."""
    match = _CHUNK_NAME.match(name)
    return None if match is None else (int(match[1]), int(match[2]))


class DoneChunks:
    """A set of chunk numbers kept as sorted, disjoint, non-adjacent ranges ``[start, stop)``.

    Chunks finish nearly in order, so a run of millions of chunks is a handful
    of ranges: memory and manifest size do not grow with the number of chunks.
    """

    def __init__(self, ranges: list[tuple[int, int]] | None = None) -> None:
        self._starts: list[int] = []
        self._stops: list[int] = []
        for start, stop in sorted(r for r in ranges or [] if r[0] < r[1]):
            if self._stops and start <= self._stops[-1]:
                self._stops[-1] = max(self._stops[-1], stop)
            else:
                self._starts.append(start)
                self._stops.append(stop)

    def __contains__(self, i: object) -> bool:
        if not isinstance(i, int):
            return False
        k = bisect.bisect_right(self._starts, i) - 1
        return k >= 0 and i < self._stops[k]

    def add(self, i: int) -> None:
        """Record chunk ``i`` as done (idempotent)."""
        k = bisect.bisect_right(self._starts, i) - 1
        if k >= 0 and i < self._stops[k]:
            return
        joins_left = k >= 0 and self._stops[k] == i
        joins_right = k + 1 < len(self._starts) and self._starts[k + 1] == i + 1
        if joins_left and joins_right:
            self._stops[k] = self._stops.pop(k + 1)
            self._starts.pop(k + 1)
        elif joins_left:
            self._stops[k] = i + 1
        elif joins_right:
            self._starts[k + 1] = i
        else:
            self._starts.insert(k + 1, i)
            self._stops.insert(k + 1, i + 1)

    def __len__(self) -> int:
        return sum(stop - start for start, stop in zip(self._starts, self._stops, strict=True))

    def ranges(self) -> list[tuple[int, int]]:
        """The ranges ``[start, stop)``, in order."""
        return list(zip(self._starts, self._stops, strict=True))

    def missing(self, total: int) -> Iterator[int]:
        """Chunk numbers ``0 .. total - 1`` not done, in order, lazily."""
        at = 0
        for start, stop in self.ranges():
            yield from range(at, min(start, total))
            at = max(at, stop)
        yield from range(at, total)


#: What ``--open-hand`` solves, by name: whether the exact card points are solved
#: (:func:`skatsim.engine.openhand.open_hand_values`), else whether the game is won alone.
OPEN_HAND_MODES = {"points": True, "won": False}


def open_hand_mode(value: bool | str) -> str:
    """``open_hand`` as callers and older manifests give it, as a name of :data:`OPEN_HAND_MODES` ("" for
    none): True is ``points`` (what ``--open-hand`` solved before ``won`` existed), False none."""
    if value is True:
        return "points"
    if not value:
        return ""
    if value not in OPEN_HAND_MODES:
        raise ValueError(f"open_hand must be one of {', '.join(OPEN_HAND_MODES)}, got {value!r}")
    return str(value)


#: A manifest's ``open_hand``: a name of :data:`OPEN_HAND_MODES` or "" (none); ``true`` or ``false`` in
#: manifests written before ``--open-hand won`` existed.
OpenHand = Annotated[str, BeforeValidator(open_hand_mode)]


class JobManifest(BaseModel):
    """What the manifest of a job's folder holds whatever the job (a run's :class:`RunManifest`, an ISS
    import's :class:`skatsim.records.importer.ImportManifest`): its format, the skatsim that made it and
    how far it got."""

    format: str
    format_version: int
    run_id: str
    skatsim_version: str
    #: Chunks done, as ranges of chunk numbers ``[start, stop)`` (:class:`DoneChunks`; a progress
    #: record: the chunk files are the truth).
    chunks_done: list[tuple[int, int]]
    created: str
    updated: str
    finished: str | None = None

    @classmethod
    def started(cls, **fields: Any) -> Self:
        """The manifest of a job starting now: made by this skatsim, no chunk done."""
        now = timestamp()
        return cls(skatsim_version=__version__, chunks_done=[], created=now, updated=now, **fields)

    def progressed(self, done: DoneChunks, **update: object) -> Self:
        """This manifest with the chunks ``done``, updated now (and the fields in ``update``)."""
        return self.model_copy(update={"chunks_done": done.ranges(), "updated": timestamp(), **update})


class RunManifest(JobManifest):
    """``manifest.json``: what made the run (variant text, bots, seed, version) and how far it got."""

    format: Literal["skatsim-run"]
    format_version: Literal[2, 3]
    #: The command whose output the folder holds: ``simulate`` (one row per game, the game
    #: table every analysis reads) or another job's (``duel``: one row per deal of a duplicate
    #: match, :mod:`skatsim.run.duel`). Readers check it (:func:`skatsim.run.reader.finished_run`).
    job: str = "simulate"
    variant_path: str
    variant_name: str
    variant_text: str
    bots: tuple[str, ...]
    #: Every parameter of each player's bot, defaults included (``bots`` lists only what differs).
    bot_parameters: list[dict[str, float]] = []
    #: The heuristic bot's calibration for the variant (:mod:`skatsim.bots.variantcal`): its key and
    #: where it came from (shipped, cache, computed, not needed); empty when no heuristic bot plays.
    bot_calibration: dict[str, str] = {}
    seed: int
    games: int
    chunk_size: int
    record_play: bool
    #: What the open-hand columns hold (``simulate --open-hand``: ``points`` or ``won``); "" without them.
    open_hand: OpenHand = ""
    #: The compiled variant (:meth:`skatsim.variant.Variant.params`), so a recorded game can be
    #: replayed under its rules (``skatsim replay``).
    params: list[int] | None = None

    @property
    def n_chunks(self) -> int:
        """Number of chunks in the plan."""
        return -(-self.games // self.chunk_size)

    def chunk(self, i: int) -> tuple[int, int]:
        """``(first, count)`` of chunk ``i``."""
        first = i * self.chunk_size
        return first, min(self.chunk_size, self.games - first)

    def chunk_file(self, i: int) -> str:
        """File name of chunk ``i``."""
        return chunk_name(*self.chunk(i))

    def chunk_index(self, name: str) -> int | None:
        """The number of the chunk whose file is ``name`` in this run's plan; ``None`` if none is."""
        parsed = parse_chunk_name(name)
        if parsed is None or parsed[0] % self.chunk_size or parsed[0] >= self.games:
            return None
        i = parsed[0] // self.chunk_size
        return i if self.chunk(i) == parsed else None

    def done(self) -> DoneChunks:
        """The chunks done, as a set to grow."""
        return DoneChunks(self.chunks_done)

    def games_in(self, done: DoneChunks) -> int:
        """Games held by the chunks ``done``."""
        return sum(min(stop * self.chunk_size, self.games) - start * self.chunk_size for start, stop in done.ranges())


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
    folder belongs to something else. A manifest of an older run format is an
    error saying how to get the run again (the same settings give the same rows).
    """
    path = storage.join(out_dir, MANIFEST)
    try:
        text = storage.read_bytes(path).decode("utf-8", errors="replace")
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise SkatsimError(f"{path}: cannot read ({exc.strerror or exc})") from None
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if (
        isinstance(data, dict)
        and data.get("format") == RUN_FORMAT
        and data.get("format_version") not in READABLE_RUN_FORMATS
    ):
        raise SkatsimError(
            f"{path}: a run of format {data.get('format_version')} (an older skatsim); this version reads formats "
            f"{' and '.join(map(str, READABLE_RUN_FORMATS))}: simulate it again into a new folder (the same settings "
            "give the same rows)"
        )
    try:
        return RunManifest.model_validate(data)
    except ValidationError:
        raise SkatsimError(f"{path}: not a skatsim run manifest; {out_dir} is not a skatsim run folder") from None


def _show(value: object) -> str:
    """A recorded setting as the user wrote it: seats joined with ``,``, flags on/off (an empty name off)."""
    if isinstance(value, bool) or value == "":
        return "on" if value else "off"
    if isinstance(value, tuple | list) and all(isinstance(v, str) for v in value):
        return ",".join(value)
    return str(value)


def made_with(option: str, value: object) -> str:
    """How a run or import was made, as the option that repeats it: ``with --games 3000``, ``without
    --record-play``, ``with --open-hand won``."""
    if isinstance(value, bool) or value == "":
        return f"with {option}" if value else f"without {option}"
    return f"with {option} {_show(value)}"


def check_same_run(manifest: RunManifest, fresh: RunManifest, out_dir: str) -> None:
    """Refuse to resume with settings that would change the rows (or the code that makes them),
    naming the first difference.

    The bots are compared as recorded (every seat's bot with whatever parameters the manifest carries);
    a run whose bots had parameters this skatsim no longer has (:data:`skatsim.bots.RETIRED`) is
    refused, naming what replaced them, and so is one made with another calibration of the bots.
    """
    if manifest.job != fresh.job:
        raise SkatsimError(
            f"{out_dir}: cannot resume: the folder holds the output of skatsim {manifest.job}, "
            f"not of skatsim {fresh.job}"
        )
    from ..bots import retired

    for names in manifest.bot_parameters:
        if gone := retired(names):
            raise SkatsimError(f"{out_dir}: cannot resume: the run's bots had parameters of an older skatsim: {gone}")
    # (setting, whether ``simulate`` has an option --SETTING that repeats it, as recorded, as asked now)
    checks = (
        ("seed", True, manifest.seed, fresh.seed),
        ("games", True, manifest.games, fresh.games),
        ("bots", True, manifest.bots, fresh.bots),
        ("record-play", True, manifest.record_play, fresh.record_play),
        ("bot calibration", False, manifest.bot_calibration.get("key"), fresh.bot_calibration.get("key")),
        ("open-hand", True, manifest.open_hand, fresh.open_hand),
        ("skatsim version", False, manifest.skatsim_version, fresh.skatsim_version),
        ("run format", False, manifest.format_version, fresh.format_version),
    )
    for what, option, old, new in checks:
        if old == new:
            continue
        if not option or manifest.job != "simulate":
            raise SkatsimError(f"{out_dir}: cannot resume: the run was made with {what} {_show(old)}, not {_show(new)}")
        made = made_with(f"--{what}", old)
        raise SkatsimError(f"{out_dir}: cannot resume: the run was made {made}; resume it {made}")
    if manifest.variant_text != fresh.variant_text:
        raise SkatsimError(
            f"{out_dir}: cannot resume: the variant file text differs from the run's "
            f"(made with {manifest.variant_path}, variant {manifest.variant_name!r})"
        )
