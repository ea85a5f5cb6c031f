"""A :class:`~skatsim.analysis.compare.Comparison` as plain text (stdout), Markdown or JSON.

The text and Markdown forms say the same things, the answers first: the
differences whose interval excludes zero, then every paired difference by
group (each group says its unit: points per deal, % of deals, % of declared
games...), the spread statistics, the outcome changes, and how much the
pairing narrowed the intervals compared with two independent runs. Text
lines stay within :data:`WIDTH` columns, so a terminal never wraps them.
"""

from __future__ import annotations

import json
import math
import os
import textwrap
from pathlib import Path
from typing import Any

import polars as pl

from ..counts import plural
from ..errors import SkatsimError
from .compare import Comparison

#: Longest line of the text form.
WIDTH = 100


def fmt_num(x: float | None, digits: int = 3, sign: bool = False) -> str:
    """A number, ``-`` when unknown; ``+0`` rounding residue never shows as ``-0``."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    return f"{x + 0.0:+.{digits}f}" if sign else f"{x + 0.0:.{digits}f}"


def _ci(lo: float | None, hi: float | None, digits: int = 3, sign: bool = False) -> str:
    return f"[{fmt_num(lo, digits, sign)}, {fmt_num(hi, digits, sign)}]"


def fmt_share(x: float | None, digits: int = 3, sign: bool = False) -> str:
    """A share as a percentage (``pp``, percentage points, for a signed difference)."""
    if x is None or math.isnan(x):
        return "-"
    return fmt_num(100 * x, digits, sign) + ("pp" if sign else "%")


def _narrowing(x: float | None) -> str:
    return "exact" if x is None else f"{x:.1f}x"


def _wrap(text: str, indent: str = "") -> list[str]:
    """A paragraph as lines of at most :data:`WIDTH` columns."""
    return textwrap.wrap(text, WIDTH, initial_indent=indent, subsequent_indent=indent, break_on_hyphens=False)


def headline(c: Comparison) -> list[str]:
    """Title lines: what was compared, on what, how long it took."""
    took = f"; {c.seconds:.1f} s on {plural(c.jobs, 'job')}" if c.seconds else ""
    return [
        f"Paired comparison B - A: A = {c.a.name} ({c.a.path}), B = {c.b.name} ({c.b.path})",
        f"{plural(c.games, 'deal')} (games 0..{c.games - 1:,}) played under both, seed {c.seed}, "
        f"bots {','.join(c.bots)}; "
        f"{100 * c.level:g}% intervals; skatsim {c.version}{took}",
    ]


def pairing_statement(c: Comparison) -> str:
    """One sentence on how much pairing narrowed the score-per-seat intervals."""
    span = c.narrowing("score per seat")
    if span is None:
        return "Pairing: every score-per-seat difference is the same in every deal: it carries no sampling noise."
    lo, hi = span
    width = f"{lo:.1f}x" if round(lo, 1) == round(hi, 1) else f"{lo:.1f}x to {hi:.1f}x"
    need = f"{lo * lo:,.0f}x" if round(lo * lo) == round(hi * hi) else f"{lo * lo:,.0f}x to {hi * hi:,.0f}x"
    return (
        f"Pairing: the score-per-seat intervals are {width} narrower than two independent runs of "
        f"{c.games:,} deals each would give (half-width z*sqrt((var A + var B)/n) vs z*sqrt(var(B - A)/n)); "
        f"independent runs would need about {need} as many deals for the same precision."
    )


def value_format(r: dict[str, Any]) -> tuple[int, float]:
    """Digits and scale of a row's values: rates in percent with 2 decimals, bids 2, points 3."""
    if r["share"]:
        return 2, 100.0
    return (2, 1.0) if r["group"] == "bidding" else (3, 1.0)


def row_cells(r: dict[str, Any]) -> list[str]:
    """A, B (each ± its half-width), ``B - A [interval]`` and the narrowing of one row of a means table,
    in the row's unit (percent and percentage points for rates: the unit is said by the group)."""
    digits, scale = value_format(r)

    def num(x: float | None, sign: bool = False) -> str:
        return fmt_num(None if x is None else scale * x, digits, sign)

    def side(mean: float, lo: float, hi: float) -> str:
        """``mean ± half`` for a symmetric interval, ``mean [lo, hi]`` for another (a Wilson interval)."""
        if abs((hi - mean) - (mean - lo)) <= 1e-9 * max(1.0, abs(mean)) or math.isnan(hi - lo):
            return f"{num(mean)} ± {num(hi - mean)}"
        return f"{num(mean)} [{num(lo)}, {num(hi)}]"

    return [
        side(r["mean_a"], r["lo_a"], r["hi_a"]),
        side(r["mean_b"], r["lo_b"], r["hi_b"]),
        f"{num(r['diff'], True)} [{num(r['lo'], True)}, {num(r['hi'], True)}]",
        "-" if "narrowing" not in r else _narrowing(r["narrowing"]),
    ]


def group_heading(group: str, unit: str) -> str:
    """A group's name with its unit; rate differences are in percentage points."""
    if unit.startswith("%"):
        return f"{group} ({unit}; B - A in percentage points)"
    return f"{group} ({unit})" if unit else group


def significant(means: pl.DataFrame) -> pl.DataFrame:
    """The rows of a means table whose interval of ``B - A`` excludes zero."""
    return means.filter(pl.col("significant"))


def _spread_cells(r: dict[str, Any]) -> list[str]:
    """A, B (with intervals), difference and its interval of one row of ``Comparison.spread``."""
    return [
        f"{fmt_num(r['a'], 2)} {_ci(r['lo_a'], r['hi_a'], 2)}",
        f"{fmt_num(r['b'], 2)} {_ci(r['lo_b'], r['hi_b'], 2)}",
        fmt_num(r["diff"], 2, True),
        _ci(r["lo"], r["hi"], 2, True),
    ]


def _change_cells(r: dict[str, Any]) -> list[str]:
    return [f"{r['count']:,}", fmt_share(r["rate"]), f"[{fmt_share(r['lo'])}, {fmt_share(r['hi'])}]"]


def _means_lines(means: pl.DataFrame, paired: bool = True) -> list[str]:
    """The means table as text: a heading per group (with its unit), one aligned row per metric."""
    label_width = max([30, *(len(r) + 4 for r in means["label"].to_list())])
    narrow = "narrower" if paired else ""
    out = [f"{'':<{label_width}}{'A':>16}{'B':>16}  {'B - A [interval]':<26}{narrow:>8}"]
    group = None
    for r in means.iter_rows(named=True):
        if r["group"] != group:
            group = r["group"]
            out.append(group_heading(group, r["unit"]))
        a, b, diff, narrowing = row_cells(r)
        out.append(f"    {r['label']:<{label_width - 4}}{a:>16}{b:>16}  {diff:<26}{narrowing if paired else '':>8}")
    return out


def format_text(c: Comparison) -> str:
    """The comparison as aligned plain text for a terminal: the answers first, lines of at most 100 columns."""
    out = [line for text in headline(c) for line in _wrap(text)]
    found = significant(c.means)
    out += ["", f"Differences whose {100 * c.level:g}% interval excludes zero ({found.height} of {c.means.height}):"]
    if found.is_empty():
        out.append("    none: every difference is zero or within the noise of these deals")
    for r in found.iter_rows(named=True):
        _, _, diff, _ = row_cells(r)
        unit = " pp" if r["share"] else (" points" if r["unit"].startswith("points") else "")
        out.append(f"    {r['group'] + ': ' + r['label']:<52}{diff}{unit}")
    out += ["", *_means_lines(c.means)]
    out += ["", f"spread (percentile bootstrap, {c.n_boot} resamples of deals)"]
    out.append(f"{'':<10}{'A [interval]':>28}{'B [interval]':>28}  B - A [interval]")
    label = None
    for r in c.spread.iter_rows(named=True):
        if r["label"] != label:
            label = r["label"]
            meta = c.means.filter(pl.col("label") == label)
            out.append(label + (f" ({meta['unit'][0]})" if meta.height else ""))
        a, b, d, ci = _spread_cells(r)
        out.append(f"    {r['stat']:<6}{a:>28}{b:>28}  {d} {ci}")
    out += ["", f"{'deals whose outcome changed':<40}{'deals':>12}   share [interval]"]
    for r in c.changes.iter_rows(named=True):
        count, share, ci = _change_cells(r)
        out.append(f"    {r['label']:<36}{count:>12}   {share} {ci}")
    out += [""]
    for text in [pairing_statement(c), *c.notes]:
        out += _wrap(text)
    return "\n".join(out) + "\n"


def _md_table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    return lines + ["| " + " | ".join(row) + " |" for row in rows]


def format_markdown(c: Comparison) -> str:
    """The comparison as Markdown: headline, the significant differences, three tables, the pairing
    statement, the variant texts."""
    title, detail = headline(c)
    out = [f"# {title}", "", detail, "", "## Differences whose interval excludes zero", ""]
    found = significant(c.means)
    header = ["group (unit)", "metric", "A", "B", "B - A [interval]", "narrower than unpaired"]

    def rows(frame: pl.DataFrame) -> list[list[str]]:
        return [[group_heading(r["group"], r["unit"]), r["label"], *row_cells(r)] for r in frame.iter_rows(named=True)]

    out += _md_table(header, rows(found)) if found.height else ["None: every difference is within the noise."]
    out += ["", "## Means per deal", ""]
    out += _md_table(header, rows(c.means))
    out += ["", f"## Spread (percentile bootstrap, {c.n_boot} resamples)", ""]
    header = ["metric", "statistic", "A", "B", "B - A", "interval"]
    out += _md_table(header, [[r["label"], r["stat"], *_spread_cells(r)] for r in c.spread.iter_rows(named=True)])
    out += ["", "## Deals whose outcome changed", ""]
    changes = [[r["label"], *_change_cells(r)] for r in c.changes.iter_rows(named=True)]
    out += _md_table(["outcome", "deals", "share", "interval"], changes)
    out += ["", pairing_statement(c), *c.notes, "", "## Variants", ""]
    for side, v in (("A", c.a), ("B", c.b)):
        out += [f"{side}: `{v.path}` (`{v.name}`)", "", "```yaml", v.text.rstrip("\n"), "```", ""]
    return "\n".join(out)


def to_dict(c: Comparison) -> dict[str, Any]:
    """The comparison as JSON-ready data (NaN and infinite values become null)."""

    def clean(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in r.items()} for r in rows]

    return {
        "a": vars(c.a),
        "b": vars(c.b),
        "games": c.games,
        "seed": c.seed,
        "bots": list(c.bots),
        "level": c.level,
        "bootstrap_resamples": c.n_boot,
        "seconds": round(c.seconds, 3),
        "jobs": c.jobs,
        "skatsim_version": c.version,
        "pairing": pairing_statement(c),
        "means": clean(c.means.to_dicts()),
        "spread": clean(c.spread.to_dicts()),
        "changes": clean(c.changes.to_dicts()),
    }


def write_comparison(c: Comparison, path: str | os.PathLike[str]) -> None:
    """Write the comparison to ``path``: JSON for ``.json``, Markdown for ``.md``."""
    target = Path(path)
    if target.suffix == ".json":
        text = json.dumps(to_dict(c), indent=2) + "\n"
    elif target.suffix == ".md":
        text = format_markdown(c)
    else:
        raise SkatsimError(f"--out {target}: the file name must end in .json or .md")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise SkatsimError(f"--out {target}: cannot write ({exc.strerror or exc})") from None
