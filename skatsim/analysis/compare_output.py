"""A :class:`~skatsim.analysis.compare.Comparison` as plain text (stdout), Markdown or JSON.

The text and Markdown forms say the same things: the means and their paired
differences, the spread statistics, the outcome changes, and how much the
pairing narrowed the intervals compared with two independent runs.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

from ..errors import SkatsimError
from .compare import Comparison


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


def headline(c: Comparison) -> list[str]:
    """Title lines: what was compared, on what, how long it took."""
    return [
        f"Paired comparison B - A: A = {c.a.name} ({c.a.path}), B = {c.b.name} ({c.b.path})",
        f"{c.games:,} deals (games 0..{c.games - 1:,}) played under both, seed {c.seed}, bots {','.join(c.bots)}; "
        f"{100 * c.level:g}% intervals; skatsim {c.version}"
        + (f"; {c.seconds:.1f} s on {c.jobs} job{'s' if c.jobs > 1 else ''}" if c.seconds else ""),
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


def _mean_cells(r: dict[str, Any]) -> list[str]:
    """A, B, difference, interval, narrowing of one row of ``Comparison.means`` (shares in percent)."""
    fmt = fmt_share if r["share"] else fmt_num
    return [
        f"{fmt(r['mean_a'])} ± {fmt(r['hi_a'] - r['mean_a'])}",
        f"{fmt(r['mean_b'])} ± {fmt(r['hi_b'] - r['mean_b'])}",
        fmt(r["diff"], 3, True),
        f"[{fmt(r['lo'], 3, True)}, {fmt(r['hi'], 3, True)}]",
        _narrowing(r["narrowing"]),
    ]


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


def format_text(c: Comparison) -> str:
    """The comparison as an aligned plain-text table for a terminal."""
    out = [*headline(c), ""]
    out.append(f"{'mean per deal':<40}{'A':>22}{'B':>22}   {'B - A  [interval]':<40}{'vs unpaired':>12}")
    group = None
    for r in c.means.iter_rows(named=True):
        if r["group"] != group:
            group = r["group"]
            out.append(f"  {group}")
        a, b, d, ci, narrow = _mean_cells(r)
        out.append(f"    {r['label']:<36}{a:>22}{b:>22}   {d + ' ' + ci:<40}{narrow:>12}")
    out += ["", f"spread (percentile bootstrap, {c.n_boot} resamples of deals)"]
    for r in c.spread.iter_rows(named=True):
        a, b, d, ci = _spread_cells(r)
        out.append(f"    {r['label'] + ' ' + r['stat']:<36}{a:>30}{b:>30}   {d} {ci}")
    out += ["", f"{'deals whose outcome changed':<40}{'deals':>12}   share [interval]"]
    for r in c.changes.iter_rows(named=True):
        count, share, ci = _change_cells(r)
        out.append(f"    {r['label']:<36}{count:>12}   {share} {ci}")
    out += ["", pairing_statement(c), *c.notes]
    return "\n".join(out) + "\n"


def _md_table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    return lines + ["| " + " | ".join(row) + " |" for row in rows]


def format_markdown(c: Comparison) -> str:
    """The comparison as Markdown: headline, three tables, the pairing statement, the variant texts."""
    title, detail = headline(c)
    out = [f"# {title}", "", detail, "", "## Means per deal", ""]
    header = ["group", "metric", "A", "B", "B - A", "interval", "narrower than unpaired"]
    out += _md_table(header, [[r["group"], r["label"], *_mean_cells(r)] for r in c.means.iter_rows(named=True)])
    out += ["", f"## Spread (percentile bootstrap, {c.n_boot} resamples)", ""]
    header = ["metric", "statistic", "A", "B", "B - A", "interval"]
    out += _md_table(header, [[r["label"], r["stat"], *_spread_cells(r)] for r in c.spread.iter_rows(named=True)])
    out += ["", "## Deals whose outcome changed", ""]
    rows = [[r["label"], *_change_cells(r)] for r in c.changes.iter_rows(named=True)]
    out += _md_table(["outcome", "deals", "share", "interval"], rows)
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
