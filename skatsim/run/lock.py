"""One writer per run folder: ``run.lock``, created exclusively, naming its holder.

A run (``simulate``, ``sweep``, ``compare``) creates ``run.lock`` in its folder
before it touches anything else there and removes it when it ends, however it
ends. The file is created with an exclusive create (``O_EXCL`` locally, mode
``"xb"`` through fsspec), so of two writers starting at once exactly one
succeeds; the other is refused in one line naming the holder (host, pid,
start time). A lock left by a process that is gone (same host, pid no longer
running, or running but started at another time: the pid was reused) is
stale: it is taken over, with a note on stderr. A lock from another host
cannot be checked from here and is never taken over: the message names the
file to remove once that writer is known to be gone.

Readers (:func:`skatsim.run.reader.finished_run`) look at the lock too, to say
"still being written" instead of reading half a run.

Object stores: where fsspec's filesystem refuses mode ``"xb"`` (or ignores
it), the lock is written after checking that none exists and read back, which
narrows but does not close the window in which two writers starting in the
same second both proceed (docs/distributed.md).
"""

from __future__ import annotations

import json
import os
import socket
import sys
import uuid
from dataclasses import asdict, dataclass

from ..errors import SkatsimError
from . import storage
from .manifest import timestamp

LOCK = "run.lock"
#: The host a lock file names when its bytes cannot be read or parsed (:attr:`LockHolder.unreadable`).
_UNREADABLE = "(unreadable lock file)"


def _process_start(pid: int) -> int | None:
    """When process ``pid`` started (clock ticks since boot, Linux ``/proc``); ``None`` where unknown."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read().decode("ascii", errors="replace")
        return int(stat.rsplit(")", 1)[1].split()[19])
    except (OSError, ValueError, IndexError):
        return None


@dataclass(frozen=True)
class LockHolder:
    """What ``run.lock`` says about the writer holding it."""

    host: str
    pid: int
    started: str
    token: str
    process_start: int | None = None

    @property
    def unreadable(self) -> bool:
        """Whether the lock file could not be read or parsed (it names no writer; never taken over)."""
        return self.host == _UNREADABLE

    def describe(self) -> str:
        """``pid 123 on host h since 2026-01-01T10:00:00+00:00``."""
        return f"pid {self.pid} on host {self.host} since {self.started}"

    def alive(self) -> bool | None:
        """Whether the holder still runs: ``True``/``False`` on this host, ``None`` (unknown) on another."""
        if self.host != socket.gethostname():
            return None
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:  # another user's process: it exists
            pass
        if self.process_start is not None and _process_start(self.pid) not in (None, self.process_start):
            return False  # the pid now belongs to a process started later: the holder is gone
        return True


def _parse(raw: bytes) -> LockHolder:
    """The holder a lock file's bytes name; unparsable bytes (a writer killed while writing them)
    name a holder on an unknown host, which is never taken over."""
    try:
        data = json.loads(raw.decode("utf-8", errors="replace"))
        return LockHolder(
            str(data["host"]), int(data["pid"]), str(data["started"]), str(data["token"]), data.get("process_start")
        )
    except (ValueError, KeyError, TypeError):
        return LockHolder(_UNREADABLE, -1, "?", "?")


def unreadable_lock(folder: str, what: str = "run") -> SkatsimError:
    """The one-line error for a lock file that cannot be read: it names no writer to wait for."""
    path = storage.join(folder, LOCK)
    return SkatsimError(
        f"{path}: the {what}'s lock file cannot be read; if nothing is writing the {what}, remove that file "
        "and try again"
    )


def _read_raw(folder: str) -> bytes | None:
    try:
        return storage.read_bytes(storage.join(folder, LOCK))
    except FileNotFoundError:
        return None


def read_lock(folder: str) -> LockHolder | None:
    """The holder named by ``folder/run.lock``, or ``None`` when there is no lock."""
    try:
        raw = _read_raw(folder)
    except OSError:
        return LockHolder(_UNREADABLE, -1, "?", "?")
    return None if raw is None else _parse(raw)


def _create_exclusive(path: str, data: bytes) -> bool:
    """Create ``path`` holding ``data`` unless it exists; whether it was created by this call.

    On a URL the lock is also looked for first and read back after: a store that accepts
    mode ``"xb"`` without honouring it (or refuses it: then the lock is written plainly)
    still never overwrites a lock it can see, nor lets two writers both believe they hold it.
    """
    url = storage.is_url(path)
    if url and storage.exists(path):
        return False
    try:
        storage.write_exclusive(path, data)
    except FileExistsError:
        return False
    except (NotImplementedError, ValueError):  # the store has no exclusive create
        storage.write_atomic(path, lambda f: f.write(data))
    return not url or storage.read_bytes(path) == data


#: The locks this process holds, for an end that cannot wait for the code holding them (:func:`release_held`).
_HELD: list[RunLock] = []


def release_held() -> None:
    """Release every run lock this process holds (a second Ctrl-C ends it at once, from anywhere)."""
    for lock in list(_HELD):
        lock.release()


class RunLock:
    """The lock of one run folder, held from :meth:`acquire` to :meth:`release`."""

    def __init__(self, folder: str, what: str = "run") -> None:
        self.folder = folder
        self.what = what  # what the folder holds, for messages: a run, an import
        self.path = storage.join(folder, LOCK)
        pid = os.getpid()
        self.holder = LockHolder(socket.gethostname(), pid, timestamp(), uuid.uuid4().hex, _process_start(pid))
        self.held = False

    def acquire(self) -> RunLock:
        """Take the lock, taking over a stale one; a live holder is a one-line :class:`SkatsimError`."""
        data = (json.dumps(asdict(self.holder), indent=2) + "\n").encode("utf-8")
        for _ in range(5):  # another writer may take over the same stale lock at the same moment
            try:
                if _create_exclusive(self.path, data):
                    self.held = True
                    _HELD.append(self)
                    return self
            except OSError as exc:
                raise SkatsimError(f"{self.path}: cannot create the run's lock file ({exc.strerror or exc})") from None
            raw = _read_raw(self.folder)
            if raw is None:
                continue  # released meanwhile: try again
            other = _parse(raw)
            if other.unreadable:
                raise unreadable_lock(self.folder, self.what)
            alive = other.alive()
            if alive is not False:
                where = "" if alive else f"; if that writer is gone, remove {self.path}"
                raise SkatsimError(
                    f"{self.folder}: another skatsim is writing this run ({other.describe()}){where}; "
                    "wait for it to finish or choose another output folder"
                )
            print(
                f"skatsim: note: {self.folder}: taking over the lock of {other.describe()}, which is no longer running",
                file=sys.stderr,
            )
            _remove_stale(self.path, raw)
        raise SkatsimError(f"{self.path}: cannot take the run's lock (other writers keep taking it); try again")

    def release(self) -> None:
        """Remove the lock file if it is still this writer's; never fails.

        The file goes before the lock counts as released: a second Ctrl-C may land inside this call, and
        its :func:`release_held` must still find the lock and remove the file before the process ends."""
        if not self.held:
            return
        current = read_lock(self.folder)
        if current is not None and current.token == self.holder.token:
            storage.remove_quietly(self.path)
        self.held = False
        if self in _HELD:
            _HELD.remove(self)


def _remove_stale(path: str, raw: bytes) -> None:
    """Remove the lock file at ``path`` if it still holds ``raw`` (the stale lock).

    Locally the file is first renamed to a name of this process's own, which
    only one of two writers taking over the same lock at once can do; should the
    renamed file turn out to be a fresh lock (taken over meanwhile), it is put back.
    """
    if storage.is_url(path):
        if storage.read_bytes(path) == raw:
            storage.remove_quietly(path)
        return
    aside = storage.temp_path(path)  # a hidden temporary name: a resumed run removes it if left behind
    try:
        os.rename(path, aside)
    except FileNotFoundError:
        return  # another writer took it over first
    with open(aside, "rb") as f:
        moved = f.read()
    if moved != raw:
        try:
            os.link(aside, path)  # put the fresh lock back, unless yet another one is there
        except FileExistsError:
            pass
    os.remove(aside)
