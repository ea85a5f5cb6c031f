"""Reading an ISS file as it comes: plain or compressed, cut into chunks of whole lines.

:class:`Source` opens ``.sgf``, ``.sgf.bz2``, ``.sgf.gz`` and ``.sgf.xz`` alike: the format is
told by the file's first bytes, not its name, and the stream decompresses as it is read (one
reader, one pass, memory independent of the file's size); damaged or cut-off compressed data
ends the stream after the last bytes that could be read. :class:`LineChunker` cuts the
decompressed bytes into chunks of ``chunk_lines`` lines (fewer when ``chunk_bytes`` is reached
first) without looking at each line in Python: it counts newlines per block and finds a chunk's
end only where one falls. A line longer than :data:`MAX_LINE` (no ISS record comes near) is
dropped while it streams and reported by its number, so a file without newlines cannot fill the
memory. The cuts depend on the bytes alone, so a resumed import cuts the same chunks.
"""

from __future__ import annotations

import bz2
import gzip
import hashlib
import lzma
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import numpy as np

from ..errors import SkatsimError

#: Bytes read (and decompressed) at a time.
BLOCK = 1 << 22
#: The longest line kept; a longer one is skipped as too long (ISS records are under 2 kB).
MAX_LINE = 1 << 16
#: Compressed formats by the bytes their files start with.
FORMATS = {
    b"BZh": "bz2",
    b"\x1f\x8b": "gz",
    b"\xfd7zXZ\x00": "xz",
}


def source_format(path: Path) -> str:
    """``bz2``, ``gz``, ``xz`` or ``plain``, from the file's first bytes; an unreadable file is a one-line error."""
    try:
        with path.open("rb") as f:
            head = f.read(6)
    except OSError as exc:
        raise SkatsimError(f"cannot read {path}: {exc.strerror or exc}") from None
    return next((name for magic, name in FORMATS.items() if head.startswith(magic)), "plain")


class Source:
    """An ISS file opened for reading: ``stream`` gives its decompressed bytes, :meth:`position`
    how far into the file as stored it has read. A context manager that closes both."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.format = source_format(path)
        try:
            self.raw: IO[bytes] = path.open("rb")
        except OSError as exc:
            raise SkatsimError(f"cannot read {path}: {exc.strerror or exc}") from None
        self.stream: IO[bytes] = self.raw
        if self.format == "bz2":
            self.stream = bz2.BZ2File(self.raw)
        elif self.format == "gz":
            self.stream = gzip.GzipFile(fileobj=self.raw)  # type: ignore[assignment]
        elif self.format == "xz":
            self.stream = lzma.LZMAFile(self.raw)

    def position(self) -> int:
        """Bytes of the stored file read so far."""
        return self.raw.tell()

    def read_block(self) -> tuple[bytes, BaseException | None]:
        """About :data:`BLOCK` more bytes of the decompressed stream (empty at its end), and the error
        that stopped the reading, if the compressed data is damaged or cut off: the bytes before
        the damage come first, so every line before it is read."""
        parts: list[bytes] = []
        size = 0
        try:
            while size < BLOCK:
                piece = self.stream.read1(BLOCK - size)  # type: ignore[attr-defined]
                if not piece:
                    break
                parts.append(piece)
                size += len(piece)
        except (OSError, EOFError, ValueError, lzma.LZMAError, zlib.error) as exc:
            return b"".join(parts), exc
        return b"".join(parts), None

    def __enter__(self) -> Source:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stream.close()
        self.raw.close()


def read_error(path: Path, exc: BaseException, line: int) -> SkatsimError:
    """A read or decompression failure after ``line`` complete lines, as one line."""
    reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
    if isinstance(exc, EOFError | lzma.LZMAError | gzip.BadGzipFile | zlib.error) or "invalid" in reason.lower():
        reason = f"the compressed data is damaged or cut off ({reason})"
    where = f"cannot read past line {line:,}" if line else "cannot read even its first line"
    return SkatsimError(f"{path}: {where}: {reason}")


def file_digest(path: Path) -> tuple[int, str]:
    """Size and SHA-256 (hex) of the file as stored (compressed)."""
    digest = hashlib.sha256()
    size = 0
    try:
        with path.open("rb") as f:
            while block := f.read(BLOCK):
                digest.update(block)
                size += len(block)
    except OSError as exc:
        raise SkatsimError(f"cannot read {path}: {exc.strerror or exc}") from None
    return size, digest.hexdigest()


@dataclass(frozen=True)
class Chunk:
    """Lines ``first + 1`` .. ``first + count`` of a file: their bytes (each line ended by a newline,
    the file's last line perhaps not), and the lines dropped as too long (indices into the chunk,
    empty in ``data``)."""

    index: int
    first: int
    count: int
    data: bytes
    too_long: tuple[int, ...] = ()


@dataclass
class LineChunker:
    """Cuts a stream of bytes, fed block by block, into :class:`Chunk` of whole lines.

    A chunk ends after ``chunk_lines`` lines, or at the first line end past ``chunk_bytes``
    bytes, whichever comes first. ``max_line`` bounds a kept line (longer ones are dropped).
    """

    chunk_lines: int
    chunk_bytes: int = 1 << 26
    max_line: int = MAX_LINE
    _parts: list[bytes] = field(default_factory=list)
    _size: int = 0  # bytes in _parts
    _lines: int = 0  # complete lines in _parts
    _line_size: int = 0  # bytes of the line being read (complete lines excluded)
    _dropping: bool = False  # the line being read is too long: its bytes are dropped
    _too_long: list[int] = field(default_factory=list)
    _first: int = 0
    _index: int = 0

    def feed(self, block: bytes) -> Iterator[Chunk]:
        """The chunks completed by ``block``."""
        while block:
            if self._dropping or self._long_line_in(block):
                block = self._feed_line(block)
                yield from self._full()
                continue
            breaks = block.count(b"\n")
            room = self.chunk_lines - self._lines
            cap = self.chunk_bytes - self._size
            if breaks < room and len(block) < cap:
                self._take(block, breaks)
                return
            end = self._cut(block, room, cap)
            if end > len(block):  # past the byte cap, but the line goes on into the next block
                self._take(block, breaks)
                return
            self._take(block[:end], block.count(b"\n", 0, end))
            block = block[end:]
            yield self._chunk()

    def finish(self) -> Iterator[Chunk]:
        """The last chunk, once the stream has ended (a last line without a newline counts)."""
        if self._line_size or self._dropping:
            if self._dropping:
                self._too_long.append(self._lines)
                self._dropping = False
            self._lines += 1
            self._line_size = 0
        if self._lines:
            yield self._chunk()

    @property
    def lines_done(self) -> int:
        """Lines in the chunks made so far."""
        return self._first

    @property
    def lines_pending(self) -> int:
        """Complete lines read into the chunk being made."""
        return self._lines

    def _long_line_in(self, block: bytes) -> bool:
        """Whether ``block`` may hold (part of) a line longer than ``max_line``: the line carried over
        from earlier blocks, or a stretch of ``max_line // 2`` bytes without a newline (any longer line holds one)."""
        first = block.find(b"\n")
        if self._line_size + (len(block) if first < 0 else first) > self.max_line:
            return True
        step = self.max_line // 2
        return any(block.find(b"\n", at, at + step) < 0 for at in range(max(first, 0), len(block) - step + 1, step))

    def _feed_line(self, block: bytes) -> bytes:
        """Read one line's bytes (the rest of the line being read) from ``block``, dropping it when
        too long; returns what is left of ``block``."""
        end = block.find(b"\n")
        piece = block if end < 0 else block[: end + 1]
        if not self._dropping and self._line_size + len(piece) - (end >= 0) > self.max_line:
            self._dropping = True
            self._drop_partial()
        if self._dropping:
            if end >= 0:
                self._parts.append(b"\n")
                self._size += 1
                self._too_long.append(self._lines)
                self._lines += 1
                self._line_size = 0
                self._dropping = False
        elif end >= 0:
            self._take(piece, 1)
        else:
            self._take(piece, 0)
        return b"" if end < 0 else block[end + 1 :]

    def _drop_partial(self) -> None:
        """Remove the bytes of the line being read from ``_parts`` (it turned out too long)."""
        drop = self._line_size
        while drop:
            last = self._parts.pop()
            if len(last) > drop:
                self._parts.append(last[: len(last) - drop])
                self._size -= drop
                drop = 0
            else:
                drop -= len(last)
                self._size -= len(last)
        self._line_size = 0

    def _take(self, piece: bytes, breaks: int) -> None:
        """Append ``piece``, holding ``breaks`` line ends, to the chunk being made."""
        if not piece:
            return
        self._parts.append(piece)
        self._size += len(piece)
        self._lines += breaks
        self._line_size = len(piece) - piece.rfind(b"\n") - 1 if breaks else self._line_size + len(piece)

    def _cut(self, block: bytes, room: int, cap: int) -> int:
        """Where in ``block`` the chunk being made ends: after its ``room``-th line end, or after the
        first line end at or past ``cap`` bytes, whichever comes first."""
        ends = np.flatnonzero(np.frombuffer(block, dtype=np.uint8) == 10)
        by_lines = int(ends[room - 1]) + 1 if room <= ends.size else len(block) + 1
        past = ends[ends >= cap - 1]
        by_bytes = int(past[0]) + 1 if past.size else len(block) + 1
        return min(by_lines, by_bytes)

    def _full(self) -> Iterator[Chunk]:
        if self._lines >= self.chunk_lines or (self._size >= self.chunk_bytes and self._line_size == 0):
            yield self._chunk()

    def _chunk(self) -> Chunk:
        chunk = Chunk(self._index, self._first, self._lines, b"".join(self._parts), tuple(self._too_long))
        self._index += 1
        self._first += self._lines
        self._parts, self._size, self._lines, self._line_size, self._too_long = [], 0, 0, 0, []
        return chunk
