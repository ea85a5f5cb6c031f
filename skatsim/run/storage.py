"""The runner's few filesystem calls, on a local folder or on any fsspec URL (``s3://``, ``memory://``).

A run folder is either a local path, used through :mod:`os` exactly as
before, or a URL (``protocol://...``), used through fsspec (installed with
``pip install 'skatsim[dask]'``), so Dask workers on other machines can write
their chunk files straight into an object store. Only what the runner needs
is here: existence checks, folder listing and creation, reading (bytes,
Parquet and its metadata), atomic and exclusive writes, free space and
removal. Failures are :class:`OSError`, as from :mod:`os`.

Atomic writes go to a hidden temporary name next to the target, then are
renamed over it: ``os.replace`` locally (atomic within a filesystem); on an
object store ``mv`` is a server-side copy, and an object becomes visible only
once complete, so readers never see half a file either way.
"""

from __future__ import annotations

import io
import os
import posixpath
import re
import secrets
import shutil
from collections.abc import Callable, Sequence
from typing import IO, Any

import polars as pl

from ..errors import first_line

#: ``protocol://`` at the start of a path: an fsspec URL (a Windows drive ``C:\`` never matches).
_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]+://")

INSTALL_HINT = "pip install 'skatsim[dask]'"
#: URL schemes polars scans itself (lazily, credentials from the environment); other
#: fsspec URLs (``memory://``, ``sftp://``, ...) are read through fsspec into memory.
POLARS_URLS = frozenset({"s3", "s3a", "gs", "gcs", "az", "abfs", "abfss", "adl", "http", "https", "hf"})


def is_url(path: str) -> bool:
    """Whether ``path`` is an fsspec URL rather than a local path."""
    return bool(_URL.match(path))


def _fs(url: str) -> tuple[Any, str]:
    """The fsspec filesystem of ``url`` and the path inside it; a missing fsspec is a clear error."""
    try:
        import fsspec  # imported here: only URLs need it, and it is an optional dependency
    except ImportError:
        raise OSError(f"URLs need fsspec: {INSTALL_HINT}") from None
    try:
        return fsspec.core.url_to_fs(url)
    except (ImportError, ValueError) as exc:  # unknown protocol, or its package (e.g. s3fs) missing
        raise OSError(first_line(exc)) from None


def join(folder: str, name: str) -> str:
    """``folder/name``, with ``/`` for URLs."""
    return folder.rstrip("/") + "/" + name if is_url(folder) else os.path.join(folder, name)


def dirname(path: str) -> str:
    """The folder holding ``path``."""
    return path.rsplit("/", 1)[0] if is_url(path) else os.path.dirname(path)


def basename(path: str) -> str:
    """The last part of ``path``."""
    return posixpath.basename(path) if is_url(path) else os.path.basename(path)


def absolute(path: str) -> str:
    """``path`` made independent of the working directory (URLs already are)."""
    return path if is_url(path) else os.path.abspath(path)


def exists(path: str) -> bool:
    """Whether a file or folder is at ``path``."""
    if not is_url(path):
        return os.path.exists(path)
    fs, inner = _fs(path)
    return bool(fs.exists(inner))


def isdir(path: str) -> bool:
    """Whether ``path`` is a folder (on an object store: a prefix holding objects)."""
    if not is_url(path):
        return os.path.isdir(path)
    fs, inner = _fs(path)
    return bool(fs.isdir(inner))


def makedirs(path: str) -> None:
    """Create the folder ``path`` and its parents if missing (object stores need none)."""
    if not is_url(path):
        os.makedirs(path, exist_ok=True)
        return
    fs, inner = _fs(path)
    fs.makedirs(inner, exist_ok=True)


def listdir(path: str) -> list[str]:
    """Names in the folder ``path``; a URL prefix holding nothing yet is an empty folder."""
    if not is_url(path):
        return os.listdir(path)
    fs, inner = _fs(path)
    try:
        entries = fs.ls(inner, detail=False)
    except FileNotFoundError:
        return []
    names = (posixpath.basename(entry.rstrip("/")) for entry in entries)
    return [name for name in names if name and name != posixpath.basename(inner.rstrip("/"))]


def read_bytes(path: str) -> bytes:
    """The content of the file at ``path`` (``FileNotFoundError`` when absent)."""
    if not is_url(path):
        with open(path, "rb") as f:
            return f.read()
    fs, inner = _fs(path)
    return bytes(fs.cat_file(inner))


#: What reading a damaged Parquet file raises: polars reports most as ``PolarsError`` or ``OSError``, and
#: some as a Rust panic (``PanicException``, a ``BaseException``): a reader turns them into one line.
UNREADABLE: tuple[type[BaseException], ...] = (OSError, pl.exceptions.PolarsError, pl.exceptions.PanicException)
#: What reading a damaged file's footer raises: :data:`UNREADABLE`, and ``ValueError`` when its key-value
#: metadata cannot be decoded.
UNREADABLE_FOOTER: tuple[type[BaseException], ...] = (*UNREADABLE, ValueError)


def _polars_reads(path: str) -> bool:
    return not is_url(path) or path.split("://")[0] in POLARS_URLS


def read_parquet(path: str) -> pl.DataFrame:
    """A Parquet file as a frame: polars reads local files itself, URLs come through fsspec."""
    return pl.read_parquet(read_bytes(path) if is_url(path) else path)


def parquet_schema(path: str) -> dict[str, Any]:
    """The column types of a Parquet file, from its footer."""
    if _polars_reads(path):
        return dict(pl.read_parquet_schema(path))
    return dict(pl.read_parquet_schema(io.BytesIO(read_bytes(path))))


def parquet_metadata(path: str) -> dict[str, str]:
    """The key-value metadata of a Parquet file, from its footer."""
    if _polars_reads(path):
        return pl.read_parquet_metadata(path)
    return pl.read_parquet_metadata(io.BytesIO(read_bytes(path)))


def scan_parquet(paths: Sequence[str]) -> pl.LazyFrame:
    """Parquet files as one lazy frame: scanned by polars where it can reach them (local paths,
    object stores), else read through fsspec into memory."""
    if all(_polars_reads(path) for path in paths):
        return pl.scan_parquet(list(paths))
    return pl.concat([read_parquet(path).lazy() for path in paths])


def temp_path(path: str) -> str:
    """A hidden temporary name next to ``path``, unique per writer (process id and a random token),
    so writers on several machines sharing one folder never collide."""
    head, tail = (posixpath if is_url(path) else os.path).split(path)
    return join(head, f".{tail}.{os.getpid()}-{secrets.token_hex(4)}.tmp")


def is_temp_name(name: str) -> bool:
    """Whether ``name`` is a temporary name made by :func:`temp_path`."""
    return name.startswith(".") and name.endswith(".tmp")


def write_atomic(path: str, write: Callable[[IO[bytes]], object]) -> None:
    """Call ``write`` on a temporary file next to ``path``, then rename it to ``path``.

    ``path`` is therefore either absent or complete, even after kill -9. A
    local file is flushed to disk (``fsync``) before the rename. On failure
    the temporary file is removed and the error raised.
    """
    tmp = temp_path(path)
    try:
        if is_url(path):
            fs, inner = _fs(path)
            with fs.open(_fs(tmp)[1], "wb") as f:
                write(f)
            fs.mv(_fs(tmp)[1], inner)
        else:
            with open(tmp, "wb") as f:
                write(f)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
    except BaseException:
        remove_quietly(tmp)
        raise


def write_exclusive(path: str, data: bytes) -> None:
    """Create the file ``path`` holding ``data``; ``FileExistsError`` when it exists.

    Exclusive where the filesystem can be (``O_EXCL`` locally, fsspec mode ``"xb"``
    on stores that honour it); a store without exclusive creation raises
    ``NotImplementedError`` or ``ValueError`` (fsspec's "mode not supported").
    """
    if not is_url(path):
        with open(path, "xb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        return
    fs, inner = _fs(path)
    with fs.open(inner, "xb") as f:
        f.write(data)


def free_bytes(path: str) -> int | None:
    """Free space (bytes) of the filesystem holding ``path`` or its nearest existing parent; ``None`` for URLs."""
    if is_url(path):
        return None
    folder = os.path.abspath(path)
    while not os.path.exists(folder) and os.path.dirname(folder) != folder:
        folder = os.path.dirname(folder)
    try:
        return shutil.disk_usage(folder).free
    except OSError:
        return None


def unwritable_file(path: str) -> str | None:
    """Why the local file ``path`` could not be written, or ``None``: checked before long work whose
    result goes there. The nearest existing folder on its path must be a folder this process can
    create a file in (probed with a temporary file, removed at once); nothing else is created."""
    if is_url(path):
        return None
    folder = os.path.dirname(os.path.abspath(path))
    while not os.path.lexists(folder) and os.path.dirname(folder) != folder:
        folder = os.path.dirname(folder)
    if not os.path.isdir(folder):
        return f"{folder} is not a folder"
    probe = temp_path(os.path.join(folder, "probe"))
    try:
        with open(probe, "xb"):
            pass
    except OSError as exc:
        return f"cannot create a file in {folder}: {exc.strerror or exc}"
    remove_quietly(probe)
    return None


def remove_quietly(path: str) -> None:
    """Remove the file at ``path`` if it can be; never fails."""
    try:
        if is_url(path):
            fs, inner = _fs(path)
            fs.rm_file(inner)
        else:
            os.remove(path)
    except OSError:
        pass
