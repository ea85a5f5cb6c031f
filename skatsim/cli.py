"""The ``skatsim`` command line: parses arguments and calls library functions.

Every expected failure (bad input, bad files) is a :class:`SkatsimError` or a
usage error and ends as one line on stderr with exit code 2, never a traceback.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from .bots import DEFAULT_BOTS
from .errors import SkatsimError

if TYPE_CHECKING:
    import numpy as np

    from .records.record import Evaluation, GameRecord


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(package_name="skatsim")
def app() -> None:
    """Simulate Skat under configurable house rules and analyse the games."""


@app.command("import-iss")
@click.argument("file", type=click.Path(path_type=Path, dir_okay=False))
@click.option(
    "--out", "out_dir", required=True, type=click.Path(path_type=Path), help="Directory for iss_games.parquet."
)
@click.option("--strict", is_flag=True, help="Stop at the first line that cannot be imported (exit 2).")
@click.option("--force", is_flag=True, help="Replace an existing iss_games.parquet.")
def import_iss_command(file: Path, out_dir: Path, strict: bool, force: bool) -> None:
    """Import ISS game records (one per line) into DIR/iss_games.parquet.

    Lines that cannot be imported are reported on stderr as FILE:LINE: reason
    and skipped; the summary goes to stdout.
    """
    from .records.importer import import_iss

    summary = import_iss(file, out_dir, strict=strict, force=force)
    for number, reason in summary.skipped:
        click.echo(f"{file}:{number}: {reason}", err=True)
    click.echo(summary.line())


@app.command("replay")
@click.argument("table", required=False, type=click.Path(path_type=Path, dir_okay=False))
@click.option("--row", type=click.IntRange(min=0), help="Row of TABLE (a Parquet file with a 'record' column), from 0.")
@click.option("--iss", "iss_file", type=click.Path(path_type=Path, dir_okay=False), help="An ISS game-record file.")
@click.option("--line", type=click.IntRange(min=1), help="Line of the ISS file, from 1.")
@click.option("--id", "game_id", type=int, help="Game ID (ID[]) in the ISS file.")
def replay_command(
    table: Path | None, row: int | None, iss_file: Path | None, line: int | None, game_id: int | None
) -> None:
    """Show one game trick by trick: TABLE --row N, or --iss FILE with --line N or --id ID."""
    from .records.gameview import render_game

    record, recorded, title = _replay_source(table, row, iss_file, line, game_id)
    params = _run_params(table) if table is not None else None
    click.echo(render_game(record, _replayed(record, params), title=title, recorded=recorded))


def _replay_source(
    table: Path | None, row: int | None, iss_file: Path | None, line: int | None, game_id: int | None
) -> tuple[GameRecord, dict[str, object] | None, str]:
    """The record to show, the server's result if any, and a title, from the replay options."""
    from .records.importer import find_iss_line, read_row

    if (table is None) == (iss_file is None):
        raise click.UsageError("give either a Parquet TABLE with --row, or --iss FILE")
    if table is not None:
        if row is None or line is not None or game_id is not None:
            raise click.UsageError("a Parquet TABLE needs --row N (and no --line/--id)")
        record, values = read_row(table, row)
        recorded = values if "iss_result" in values else None
        return record, recorded, f"{table} row {row}" + _iss_title(values)
    if (line is None) == (game_id is None) or row is not None:
        raise click.UsageError("--iss FILE needs exactly one of --line N or --id ID")
    number, game = find_iss_line(iss_file, line=line, game_id=game_id)  # type: ignore[arg-type]
    return game.record, game.result, f"{iss_file} line {number}" + _iss_title(game.result)


def _iss_title(values: dict[str, object]) -> str:
    if values.get("iss_id") is None:
        return ""
    return f": ISS game {values['iss_id']}, {values.get('iss_date')}, players {values.get('iss_players')}"


def _run_params(table: Path) -> np.ndarray | None:
    """The compiled variant of the simulation run a chunk file belongs to (its ``manifest.json``
    beside it), so house-rule games replay under their rules; None for other tables."""
    import numpy as np

    from .run.manifest import read_manifest

    try:
        manifest = read_manifest(str(table.parent))
    except SkatsimError:
        return None
    if manifest is None or manifest.params is None:
        return None
    return np.array(manifest.params, dtype=np.int64)


def _replayed(record: GameRecord, params: np.ndarray | None = None) -> Evaluation:
    """Replay a record under ``params`` (the official rules by default); a rejected step is a one-line error."""
    from .records.record import ReplayError, replay

    try:
        return replay(record, params)
    except ReplayError as exc:
        raise SkatsimError(f"cannot replay this game: {exc}") from None


@app.command("simulate")
@click.argument("variant", type=click.Path(dir_okay=False))
@click.option("--games", required=True, type=click.IntRange(min=1), help="Number of games (deals) to simulate.")
@click.option("--seed", default=1, show_default=True, type=click.IntRange(0, 2**64 - 1), help="Random seed.")
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False), help="Output folder (new or empty).")
@click.option("--jobs", type=click.IntRange(min=1), help="Worker processes; default: the number of CPUs.")
@click.option(
    "--bots", default=DEFAULT_BOTS, show_default=True, help="One bot name for all seats, or three as FH,MH,RH."
)
@click.option("--resume", is_flag=True, help="Complete the interrupted run in --out (same settings).")
@click.option("--record-play", is_flag=True, help="Also store every game's actions (a 'record' column, for replay).")
@click.option(
    "--chunk-size",
    type=click.IntRange(min=1),
    help="Games per Parquet file (never changes the rows); rounded up to whole lists when the variant plays lists.",
)
@click.option("--quiet", is_flag=True, help="No progress bar (the summary line is still printed).")
@click.option(
    "--backend",
    type=click.Choice(["local", "dask"]),
    default="local",
    show_default=True,
    help="Where chunks run: worker processes here, or a Dask cluster (pip install 'skatsim[dask]').",
)
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    help="Dask scheduler for --backend dask (tcp://HOST:8786); default: a local cluster of --jobs workers.",
)
def simulate_command(
    variant: str,
    games: int,
    seed: int,
    out_dir: str,
    jobs: int | None,
    bots: str,
    resume: bool,
    record_play: bool,
    chunk_size: int | None,
    quiet: bool,
    backend: str,
    scheduler: str | None,
) -> None:
    """Simulate games under the house rules of VARIANT (a YAML file) into Parquet files in --out.

    Rows depend only on the variant, bots, seed and game number: never on
    --jobs, --chunk-size or --backend. A killed run is completed with --resume.
    --out may be an fsspec URL (s3://bucket/run) with the dask extra.
    """
    import os

    from .run.runner import run_simulation

    if scheduler is not None and backend != "dask":
        raise click.UsageError("--scheduler needs --backend dask")

    result = run_simulation(
        variant,
        games,
        seed,
        out_dir,
        jobs=jobs or os.cpu_count() or 1,
        bots=bots,
        resume=resume,
        record_play=record_play,
        chunk_size=chunk_size,
        backend=backend,
        progress=not quiet,
        backend_options={"scheduler": scheduler} if backend == "dask" else None,
    )
    click.echo(result.summary())


@app.command("sweep")
@click.argument("variants", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option(
    "--bots",
    "bot_settings",
    multiple=True,
    default=(DEFAULT_BOTS,),
    show_default=True,
    help="A bot setting (one name, or FH,MH,RH); repeat the option for several.",
)
@click.option("--games", required=True, type=click.IntRange(min=1), help="Games (deals) per run.")
@click.option(
    "--seed", default=1, show_default=True, type=click.IntRange(0, 2**64 - 1), help="Random seed of every run."
)
@click.option("--out", "out_root", required=True, type=click.Path(file_okay=False), help="Folder of the run folders.")
@click.option("--jobs", type=click.IntRange(min=1), help="Worker processes; default: the number of CPUs.")
@click.option("--resume", is_flag=True, help="Complete an interrupted sweep (same settings).")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option(
    "--backend", type=click.Choice(["local", "dask"]), default="local", show_default=True, help="As for simulate."
)
@click.option("--scheduler", metavar="ADDRESS", help="As for simulate: the Dask scheduler for --backend dask.")
def sweep_command(
    variants: tuple[str, ...],
    bot_settings: tuple[str, ...],
    games: int,
    seed: int,
    out_root: str,
    jobs: int | None,
    resume: bool,
    quiet: bool,
    backend: str,
    scheduler: str | None,
) -> None:
    """Simulate every VARIANT with every --bots setting as one job: one run folder per pair in --out.

    All runs use the same seed, so game k is the same deal in every run (paired comparisons).
    See docs/distributed.md.
    """
    import os

    from .run.sweep import run_sweep

    if scheduler is not None and backend != "dask":
        raise click.UsageError("--scheduler needs --backend dask")
    results = run_sweep(
        list(variants),
        list(bot_settings),
        games,
        seed,
        out_root,
        backend=backend,
        scheduler=scheduler,
        jobs=jobs or os.cpu_count() or 1,
        resume=resume,
        progress=not quiet,
    )
    for name, result in results.items():
        click.echo(f"{name}: {result.games:,} games")


@app.command("validate")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
def validate_command(files: tuple[Path, ...]) -> None:
    """Check variant files: 'FILE: ok (name: ...)' per valid file on stdout, one error line per invalid
    file on stderr (FILE:LINE: key.path: problem (allowed: ...)); exit code 2 if any is invalid.
    """
    from .variant import load_variant

    failed = False
    for file in files:
        try:
            loaded = load_variant(file)
        except SkatsimError as exc:
            click.echo(str(exc), err=True)
            failed = True
            continue
        click.echo(f"{file}: ok (name: {loaded.variant.name})")
    if failed:
        raise click.exceptions.Exit(2)


@app.command("compare")
@click.argument("variant_a", type=click.Path(dir_okay=False))
@click.argument("variant_b", type=click.Path(dir_okay=False))
@click.option("--games", required=True, type=click.IntRange(min=1), help="Number of deals, each played under both.")
@click.option("--seed", default=1, show_default=True, type=click.IntRange(0, 2**64 - 1), help="Random seed.")
@click.option("--jobs", type=click.IntRange(min=1), help="Worker processes; default: the number of CPUs.")
@click.option(
    "--bots", default=DEFAULT_BOTS, show_default=True, help="One bot name for all seats, or three as FH,MH,RH."
)
@click.option("--level", default=0.95, show_default=True, type=float, help="Confidence level of the intervals.")
@click.option("--bootstrap", "n_boot", default=1000, show_default=True, type=int, help="Bootstrap resamples.")
@click.option("--out", "out_file", type=click.Path(dir_okay=False), help="Also write FILE.json or FILE.md.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def compare_command(
    variant_a: str,
    variant_b: str,
    games: int,
    seed: int,
    jobs: int | None,
    bots: str,
    level: float,
    n_boot: int,
    out_file: str | None,
    quiet: bool,
) -> None:
    """Play the same deals with the same bots under VARIANT_A and VARIANT_B and report B - A with intervals.

    Deals and bot choices depend only on the seed and the game number, so each
    deal is played under both rule sets (common random numbers); the table says
    how much narrower this makes the intervals than two independent runs.
    """
    import os

    from .analysis.compare import compare_variants
    from .analysis.compare_output import format_text, write_comparison

    result = compare_variants(
        variant_a, variant_b, games, seed, bots, jobs or os.cpu_count() or 1, level, n_boot, progress=not quiet
    )
    click.echo(format_text(result), nl=False)
    if out_file:
        write_comparison(result, out_file)


@app.command("report")
@click.argument("runs", nargs=-1, required=True, type=click.Path())
@click.option("--out", "out_file", required=True, type=click.Path(dir_okay=False), help="The report, NAME.html.")
@click.option("--level", default=0.95, show_default=True, type=float, help="Confidence level of the intervals.")
@click.option("--bootstrap", "n_boot", default=1000, show_default=True, type=int, help="Bootstrap resamples.")
def report_command(runs: tuple[str, ...], out_file: str, level: float, n_boot: int) -> None:
    """Write a self-contained HTML report (and NAME.md with NAME_files/) of run folders or ISS imports.

    With several runs, each is compared with the first: deal by deal when
    they share seed, bots and number of games.
    """
    from .analysis.report import write_report

    click.echo(write_report(list(runs), out_file, level, n_boot).summary())


@app.command("bots")
def bots_command() -> None:
    """List the bots and every parameter with its default and meaning."""
    from .bots import BOTS, DEFAULT_BOTS

    for spec in BOTS.values():
        default = " (default)" if spec.name == DEFAULT_BOTS else ""
        click.echo(f"{spec.name}{default}: {spec.doc}")
        for param in spec.params:
            click.echo(f"  {param.name} = {param.default:g}: {param.doc}")


@app.command("solve")
@click.argument("file", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--line", required=True, type=click.IntRange(min=1), help="Line of the ISS file, from 1.")
@click.option(
    "--after", default=0, show_default=True, type=click.IntRange(min=0), help="Cards played before the position."
)
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
def solve_command(file: Path, line: int, after: int, as_json: bool) -> None:
    """Solve an ISS game open-handed: its position after --after cards, every seat playing perfectly
    with all hands known (declarer points, won, Schneider, Schwarz, the best cards to play)."""
    import json

    from .records.importer import find_iss_line
    from .solve import solve_record

    number, game = find_iss_line(file, line=line)
    solution = solve_record(game.record, after)
    if as_json:
        click.echo(json.dumps(solution.to_json_dict()))
        return
    click.echo(f"{file} line {number}" + _iss_title(game.result))
    for text in solution.lines():
        click.echo(text)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script; returns the exit code."""
    try:
        code = app.main(args=argv, prog_name="skatsim", standalone_mode=False)
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except click.UsageError as exc:
        where = exc.ctx.command_path if exc.ctx else "skatsim"
        print(f"skatsim: error: {exc.format_message()} (see '{where} --help')", file=sys.stderr)
        return 2
    except click.ClickException as exc:
        print(f"skatsim: error: {exc.format_message()}", file=sys.stderr)
        return 2
    except click.Abort:
        print("skatsim: aborted", file=sys.stderr)
        return 130
    except SkatsimError as exc:
        print(f"skatsim: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("skatsim: interrupted", file=sys.stderr)
        return 130
    return code if isinstance(code, int) else 0


if __name__ == "__main__":
    sys.exit(main())
