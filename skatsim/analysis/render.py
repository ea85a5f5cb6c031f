"""Report documents and their two renderings: one self-contained HTML file, and Markdown with PNG files.

A report is a title and a list of :class:`Section`; a section holds blocks:
:class:`Text`, :class:`Figure` (PNG bytes), :class:`Table` (formatted cells)
and :class:`Code` (verbatim text such as a variant file). The HTML embeds
figures as base64 ``data:`` URIs and carries its own CSS: it needs no network
and no JavaScript. The Markdown references the same figures as PNG files in
a folder beside it.
"""

from __future__ import annotations

import base64
import html
import math
import os
import re
import urllib.parse
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from ..errors import SkatsimError


@dataclass(frozen=True)
class Text:
    """A paragraph of plain text; `backticks` mark code (a command, a column), as in Markdown."""

    text: str


@dataclass(frozen=True)
class Figure:
    """A PNG image with its caption."""

    png: bytes
    caption: str


@dataclass(frozen=True)
class Table:
    """A table of already formatted cells with its caption."""

    header: list[str]
    rows: list[list[str]]
    caption: str = ""


@dataclass(frozen=True)
class Code:
    """Verbatim text (a variant file) with a caption."""

    text: str
    caption: str = ""


Block = Text | Figure | Table | Code


@dataclass
class Section:
    """A titled part of the report."""

    title: str
    blocks: list[Block] = field(default_factory=list)


@dataclass
class Report:
    """A whole report: title, a line saying what made it, and its sections."""

    title: str
    subtitle: str
    sections: list[Section]


# --------------------------------------------------------------------------- tables


def _pct(x: object) -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * float(x):.2f}%"  # type: ignore[arg-type]


def _dec(x: object, digits: int = 3) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    return f"{float(x):,.{digits}f}"  # type: ignore[arg-type]


def _plain(x: object) -> str:
    if x is None:
        return "-"
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, int):
        return f"{x:,}" if abs(x) >= 10_000 else str(x)
    if isinstance(x, float):
        return _dec(x)
    return str(x)


def table(frame: pl.DataFrame, caption: str = "", level: float = 0.95, drop: tuple[str, ...] = ()) -> Table:
    """Format an analysis table: rates as percentages, ``lo``/``hi`` merged into one interval column.

    Knows the conventions of :mod:`skatsim.analysis.tables`: a ``rate`` or
    ``mean`` column is followed by its interval; ``count`` and ``n`` get
    thousands separators.
    """
    names = [c for c in frame.columns if c not in ("lo", "hi", *drop)]
    interval = f"{100 * level:g}% interval"
    header: list[str] = []
    for name in names:
        header.append(name)
        if name in ("rate", "mean") and "lo" in frame.columns:
            header.append(interval)
    rows = []
    for r in frame.iter_rows(named=True):
        cells = []
        for name in names:
            value = r[name]
            if name == "rate":
                cells += [_pct(value), f"[{_pct(r.get('lo'))}, {_pct(r.get('hi'))}]"] if "lo" in r else [_pct(value)]
            elif name == "mean":
                cells += [_dec(value), f"[{_dec(r.get('lo'))}, {_dec(r.get('hi'))}]"] if "lo" in r else [_dec(value)]
            elif name in ("count", "n"):
                cells.append(f"{int(value):,}" if value is not None else "-")
            else:
                cells.append(_plain(value))
        rows.append(cells)
    return Table(header, rows, caption)


def wide_table(
    frame: pl.DataFrame, index: str, columns: Sequence[str], caption: str = "", value: str = "rate"
) -> Table:
    """A compact pivot: one row per ``index`` value, one column per combination of ``columns``.

    Each cell is ``value [lo, hi]`` (percentages for rates), so intervals stay
    in the table while it stays short.
    """
    fmt = _pct if value == "rate" else _dec
    keys = frame.select(columns).unique(maintain_order=True).rows()
    header = [index, *[" ".join(str(k) for k in key) for key in keys]]
    cells: dict[object, dict[tuple[object, ...], str]] = {}
    for r in frame.iter_rows(named=True):
        text = f"{fmt(r[value])} [{fmt(r['lo'])}, {fmt(r['hi'])}]"
        cells.setdefault(r[index], {})[tuple(r[c] for c in columns)] = text
    rows = [[_plain(i), *[by_key.get(key, "-") for key in keys]] for i, by_key in cells.items()]
    return Table(header, rows, caption)


# --------------------------------------------------------------------------- HTML

_CSS = """
body { font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; max-width: 1100px; margin: 2em auto;
       padding: 0 1em; color: #222; line-height: 1.45; }
h1 { font-size: 1.7em; margin-bottom: 0.2em; }
h2 { border-bottom: 1px solid #ccc; padding-bottom: 0.2em; margin-top: 2em; }
.subtitle { color: #555; margin-top: 0; }
figure { margin: 1.2em 0; } figure img { max-width: 100%; display: block; }
figcaption, caption { color: #555; font-size: 0.9em; text-align: left; padding: 0.3em 0; }
table { border-collapse: collapse; margin: 1em 0; font-size: 0.86em; }
th, td { border: 1px solid #ddd; padding: 0.25em 0.6em; text-align: right; white-space: nowrap; }
th { background: #f3f3f3; } td:first-child, th:first-child, td.t, th.t { text-align: left; }
tr:nth-child(even) td { background: #fafafa; }
pre { background: #f6f6f6; border: 1px solid #ddd; padding: 0.8em; overflow-x: auto; font-size: 0.85em; }
nav ol { columns: 2; }
.wide { overflow-x: auto; width: max-content; max-width: min(calc(100vw - 3em), calc((100vw + 1100px) / 2 - 2em)); }
"""


def _anchor(title: str) -> str:
    return "".join(ch if ch.isalnum() else "-" for ch in title.lower()).strip("-")


def _numeric(text: str) -> bool:
    """Whether a cell holds a number (or an interval, or a placeholder): right-aligned."""
    return text.lstrip("[+-")[:1].isdigit() or text in ("-", "exact")


def _html_cell(text: str) -> str:
    """A table cell: numbers (and intervals) right-aligned, words left-aligned."""
    return f"<td>{html.escape(text)}</td>" if _numeric(text) else f'<td class="t">{html.escape(text)}</td>'


def _html_head(name: str, column: list[str]) -> str:
    """A header cell aligned like its column: left over words, right over numbers."""
    words = any(not _numeric(cell) for cell in column)
    return f'<th class="t">{html.escape(name)}</th>' if words else f"<th>{html.escape(name)}</th>"


#: A code span of a :class:`Text` (`like this`), set as code in HTML.
_CODE_SPAN = re.compile(r"`([^`]+)`")


def _html_block(block: Block) -> str:
    if isinstance(block, Text):
        text = _CODE_SPAN.sub(r"<code>\1</code>", html.escape(block.text))
        return f"<p>{text}</p>"
    if isinstance(block, Figure):
        data = base64.b64encode(block.png).decode("ascii")
        alt = html.escape(block.caption, quote=True)
        return f'<figure><img src="data:image/png;base64,{data}" alt="{alt}"><figcaption>{alt}</figcaption></figure>'
    if isinstance(block, Code):
        caption = f"<figcaption>{html.escape(block.caption)}</figcaption>" if block.caption else ""
        return f"<figure>{caption}<pre>{html.escape(block.text)}</pre></figure>"
    columns = [[row[i] for row in block.rows if i < len(row)] for i in range(len(block.header))]
    head = "".join(_html_head(h, column) for h, column in zip(block.header, columns, strict=True))
    body = "".join("<tr>" + "".join(_html_cell(c) for c in row) + "</tr>" for row in block.rows)
    caption = f"<caption>{html.escape(block.caption)}</caption>" if block.caption else ""
    table = f"<table>{caption}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    # a table wider than the text takes the window's width to its right; wider still, it scrolls, the page does not
    return f'<div class="wide">{table}</div>'


def render_html(report: Report) -> str:
    """The report as one HTML document with embedded figures and CSS, no scripts, no external links."""
    toc = "".join(f'<li><a href="#{_anchor(s.title)}">{html.escape(s.title)}</a></li>' for s in report.sections)
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(report.title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{html.escape(report.title)}</h1><p class='subtitle'>{html.escape(report.subtitle)}</p>",
        f"<nav><ol>{toc}</ol></nav>",
    ]
    for section in report.sections:
        parts.append(f'<h2 id="{_anchor(section.title)}">{html.escape(section.title)}</h2>')
        parts.extend(_html_block(block) for block in section.blocks)
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


# --------------------------------------------------------------------------- Markdown


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_markdown(report: Report, figure_dir: str, figure_prefix: str) -> tuple[str, list[tuple[str, bytes]]]:
    """The report as Markdown, and the figure files ``(relative path, PNG bytes)`` it references.

    ``figure_dir`` is the folder name (relative to the Markdown file) the
    figures go in; ``figure_prefix`` starts every figure's file name.
    """
    lines = [f"# {report.title}", "", report.subtitle, ""]
    files: list[tuple[str, bytes]] = []
    for section in report.sections:
        lines += [f"## {section.title}", ""]
        for block in section.blocks:
            if isinstance(block, Text):
                lines += [block.text, ""]
            elif isinstance(block, Figure):
                name = f"{figure_dir}/{figure_prefix}-{len(files) + 1:02d}.png"
                files.append((name, block.png))
                link = urllib.parse.quote(name)  # a folder name with spaces (or other such characters) still links
                lines += [f"![{_md_cell(block.caption)}]({link})", "", f"*{block.caption}*", ""]
            elif isinstance(block, Code):
                lines += ([block.caption, ""] if block.caption else []) + [
                    "```yaml",
                    block.text.rstrip("\n"),
                    "```",
                    "",
                ]
            else:
                if block.caption:
                    lines += [f"*{block.caption}*", ""]
                lines.append("| " + " | ".join(_md_cell(h) for h in block.header) + " |")
                lines.append("|" + "|".join(" --- " for _ in block.header) + "|")
                lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in block.rows]
                lines.append("")
    return "\n".join(lines), files


def write_report_files(report: Report, html_path: str | os.PathLike[str]) -> tuple[Path, Path]:
    """Write ``NAME.html``, ``NAME.md`` and the folder ``NAME_files/`` of PNGs; returns the two documents' paths."""
    target = Path(html_path)
    if target.suffix.lower() not in (".html", ".htm"):
        raise SkatsimError(f"--out {target}: the report file name must end in .html (e.g. reports/official.html)")
    md_path = target.with_suffix(".md")
    figure_dir = f"{target.stem}_files"
    markdown, figures = render_markdown(report, figure_dir, "figure")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(render_html(report), encoding="utf-8")
        folder = target.parent / figure_dir
        folder.mkdir(exist_ok=True)
        for old in folder.glob("figure-*.png"):
            old.unlink()
        for name, data in figures:
            (target.parent / name).write_bytes(data)
        md_path.write_text(markdown, encoding="utf-8")
    except OSError as exc:
        raise SkatsimError(f"--out {target}: cannot write the report ({exc.strerror or exc})") from None
    return target, md_path
