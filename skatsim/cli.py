"""The ``skatsim`` command line: parses arguments and calls library functions.

Every expected failure (bad input, bad files) is a :class:`SkatsimError` or a
usage error and ends as one line on stderr with exit code 2, never a traceback.
"""

from __future__ import annotations

import functools
import gc
import os
import shlex
import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn, TypeVar, cast

import click

from . import __version__
from .bots import DEFAULT_BOTS
from .counts import COUNT, Count, plural
from .errors import SkatsimError, first_line

if TYPE_CHECKING:
    import numpy as np

    from .records.record import GameRecord, GameResult
    from .run.runner import RunStopped
    from .whatif.rollouts import Start

#: ``--force`` of the commands that write runs: start even when the disk looks too small.
FORCE_HELP = "Start even when the estimated output does not fit in the free disk space."

F = TypeVar("F", bound=Callable[..., object])

#: Options several commands share word for word.
SEED_OPTION = click.option(
    "--seed", default=1, show_default=True, type=click.IntRange(0, 2**64 - 1), help="Random seed."
)


class _OpenHandChoice(click.Choice):
    """``--open-hand``'s optional word. The option takes the next word when one follows, so written before
    the command's file (``--open-hand variants/official.yaml``) it takes the file: refused with where to
    write it instead."""

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> object:
        if isinstance(value, str) and value not in self.choices and (Path(value).suffix or Path(value).exists()):
            params = ctx.command.params if ctx else []
            files = [p.human_readable_name for p in params if isinstance(p, click.Argument)]
            where = f"after {files[0]}" if files else "last"
            self.fail(f"{value!r} is not points or won: write --open-hand {where} or as --open-hand points", param, ctx)
        return super().convert(value, param, ctx)


OPEN_HAND_OPTION = click.option(
    "--open-hand",
    type=_OpenHandChoice(["points", "won"]),  # skatsim.run.manifest.OPEN_HAND_MODES (not imported to start quicker)
    is_flag=False,
    flag_value="points",
    metavar="[points|won]",
    help="Also solve each declared game open-handed after the discard (every seat sees every card and plays "
    "perfectly). --open-hand (points): columns open_hand_points and open_hand_won, about 170 games a second "
    "per job; --open-hand won: open_hand_won alone (the points null), one search a game, about 900 games a "
    "second per job (docs/solver.md). Write it after the command's file, or as --open-hand points.",
)
JOBS_OPTION = click.option(
    "--jobs",
    metavar="J",
    type=click.IntRange(min=1),
    help="Chunks of games run at a time: up to 4 in threads of this process, the rest in worker processes "
    "(--backend dask: a local cluster of J workers); default: the number of CPUs.",
)
BOTS_OPTION = click.option(
    "--bots",
    default=DEFAULT_BOTS,
    show_default=True,
    help="One bot name for every player, or one per player: three as FH,MH,RH of the first deal (four at a "
    "four-player table, the fourth dealing it).",
)


@dataclass(frozen=True)
class RunFlags:
    """What the options of :func:`_run_options` ask of a run: no progress bar (``quiet``), where chunks
    run (``backend``, ``scheduler``), and whether to start without room on disk (``force``)."""

    quiet: bool
    backend: str
    scheduler: str | None
    force: bool

    @property
    def backend_options(self) -> dict[str, object] | None:
        """The runner's ``backend_options``: the scheduler for ``dask``."""
        return {"scheduler": self.scheduler} if self.backend == "dask" else None


def _run_options(
    scheduler_help: str, quiet_help: str = "No progress bar.", backend_help: str = "As for simulate."
) -> Callable[[F], F]:
    """The options every command running games shares: --quiet, --backend, --scheduler, --force (in
    that order in --help), handed to the command as one checked :class:`RunFlags` argument ``run``
    (--scheduler needs --backend dask)."""
    options = [
        click.option("--quiet", is_flag=True, help=quiet_help),
        click.option(
            "--backend",
            type=click.Choice(["local", "dask"]),
            default="local",
            show_default=True,
            help=backend_help,
        ),
        click.option("--scheduler", metavar="ADDRESS", help=scheduler_help),
        click.option("--force", is_flag=True, help=FORCE_HELP),
    ]

    def apply(command: F) -> F:
        @functools.wraps(command)
        def with_flags(
            *args: object, quiet: bool, backend: str, scheduler: str | None, force: bool, **kwargs: object
        ) -> object:
            if scheduler is not None and backend != "dask":
                raise click.UsageError("--scheduler needs --backend dask")
            return command(*args, run=RunFlags(quiet, backend, scheduler, force), **kwargs)

        wrapped = with_flags
        for option in reversed(options):
            wrapped = option(wrapped)
        return cast(F, wrapped)

    return apply


def _job_folder_options(option: str, dest: str, folder_help: str, job: str, chunk_help: str) -> Callable[[F], F]:
    """The options of a job that runs in a folder kept for --resume, or in a temporary one (compare,
    duel; :class:`skatsim.run.runner.JobFolder`): the folder ``option`` (into ``dest``), --resume,
    --chunk-size (in that order in --help)."""
    options = [
        click.option(option, dest, type=click.Path(file_okay=False), help=folder_help),
        click.option("--resume", is_flag=True, help=f"Complete the interrupted {job} in {option} (same settings)."),
        click.option("--chunk-size", type=Count(min=1), help=chunk_help),
    ]

    def apply(command: F) -> F:
        for opt in reversed(options):
            command = opt(command)
        return command

    return apply


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="skatsim")
def app() -> None:
    """Simulate Skat under configurable house rules and analyse the games."""


@app.command("import-iss")
@click.argument("file", type=click.Path(path_type=Path, dir_okay=False))
@click.option(
    "--out", "out_dir", required=True, type=click.Path(path_type=Path, file_okay=False), help="Folder of the import."
)
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    help="Jobs parsing and replaying: up to 4 in threads of this process, the rest in worker processes; "
    "default: the number of CPUs.",
)
@click.option("--resume", is_flag=True, help="Complete the stopped import in --out (same file, same settings).")
@click.option(
    "--chunk-size",
    type=Count(min=1),
    help="Lines per Parquet file (default 10,000, with --open-hand 1,000, with --open-hand won 5,000; never "
    "changes rows).",
)
@click.option("--strict", is_flag=True, help="Stop at the first line that cannot be imported (exit 2); write nothing.")
@click.option("--force", is_flag=True, help="Replace an import already in --out.")
@OPEN_HAND_OPTION
@click.option("--quiet", is_flag=True, help="No progress bar.")
def import_iss_command(
    file: Path,
    out_dir: Path,
    jobs: int | None,
    resume: bool,
    chunk_size: int | None,
    strict: bool,
    force: bool,
    open_hand: str | None,
    quiet: bool,
) -> None:
    """Import ISS game records (one per line; plain, .bz2, .gz or .xz) into Parquet chunk files in --out.

    Every game is replayed by the rule engine beside the server's own result. Lines that cannot be
    imported are skipped and counted by reason; the first few of each reason are reported on
    stderr as FILE:LINE: message (all counts: --out/import.json). The summary goes to stdout. A
    stopped import (Ctrl-C, a full disk) keeps its chunks and is completed with --resume.
    """
    from .records.importer import import_iss

    with _resumable():
        summary = import_iss(
            file,
            out_dir,
            strict=strict,
            force=force,
            resume=resume,
            jobs=jobs or os.cpu_count() or 1,
            chunk_lines=chunk_size,
            progress=not quiet,
            open_hand=open_hand or "",
        )
    for number, reason in summary.skipped:
        click.echo(f"{file}:{number}: {reason}", err=True)
    for reason, more in summary.unlisted():
        click.echo(f"{file}: {plural(more, 'more line')} skipped: {reason}", err=True)
    click.echo(summary.line())
    if summary.source_error:
        raise SkatsimError(f"{summary.source_error}; the lines before it are imported")


@app.command("export-iss")
@click.argument("run_dir", metavar="RUN_DIR", type=click.Path(file_okay=False))
@click.option("--out", "out_file", required=True, type=click.Path(), help="FILE.sgf, or .sgf.bz2/.gz/.xz.")
@click.option("--force", is_flag=True, help="Replace an existing file.")
def export_iss_command(run_dir: str, out_file: str, force: bool) -> None:
    """Write the games of RUN_DIR (simulated with --record-play) as ISS game records, one per line.

    Deals the ISS format cannot express (Ramsch, Kontra/Re, Bock, the reversed game, a Grand hand
    instead of a Ramsch) are skipped and counted. R[] holds each game's result under the official
    rules; for a run under other rules the summary says so. Compressed by the file name's suffix.
    """
    from .records.export import export_iss
    from .run.runner import working

    with working("exporting"):
        summary = export_iss(run_dir, out_file, force=force)
    click.echo(summary.line())
    if summary.note:
        click.echo(f"note: {summary.note}")


@app.command("replay")
@click.argument("table", required=False, metavar="[RUN_DIR | IMPORT_DIR | TABLE]", type=click.Path(path_type=Path))
@click.option("--game", "game", type=click.IntRange(min=0), help="Game number (game_id) of the run, from 0.")
@click.option("--row", type=click.IntRange(min=0), help="Row of an import or of TABLE (a Parquet file), from 0.")
@click.option("--iss", "iss_file", type=click.Path(path_type=Path, dir_okay=False), help="An ISS game-record file.")
@click.option("--line", type=click.IntRange(min=1), help="Line of the ISS file, from 1.")
@click.option("--id", "game_id", type=click.IntRange(min=0), help="Game ID (ID[]) in the ISS file.")
def replay_command(
    table: Path | None,
    game: int | None,
    row: int | None,
    iss_file: Path | None,
    line: int | None,
    game_id: int | None,
) -> None:
    """Show one game trick by trick: RUN_DIR --game N (a run simulated with --record-play), an ISS
    import's folder or a Parquet TABLE --row N (a chunk file of a run or an import), or --iss FILE
    (plain or compressed) with --line N or --id ID.
    """
    from .records.gameview import render_game
    from .run.runner import working

    with working("replaying"):
        record, recorded, title, params = _replay_source(table, game, row, iss_file, line, game_id)
        replayed = _replayed(record, params)
    click.echo(render_game(record, replayed, title=title, recorded=recorded))


def _replay_source(
    table: Path | None, game: int | None, row: int | None, iss_file: Path | None, line: int | None, game_id: int | None
) -> tuple[GameRecord, dict[str, object] | None, str, np.ndarray | None]:
    """The record to show, the server's result if any, a title and the run's rules, from the replay options.

    Every combination is checked before anything is read: one line naming what is missing or extra.
    """
    from .records.importer import IMPORT_MANIFEST, find_iss_line, import_row, read_row

    if (table is None) == (iss_file is None):
        raise click.UsageError("give a run folder with --game N, a Parquet TABLE with --row N, or --iss FILE")
    if table is not None:
        if line is not None or game_id is not None:
            raise click.UsageError("--line and --id go with --iss FILE, not with a run folder or table")
        if (game is None) == (row is None):
            raise click.UsageError("a run folder needs --game N; a Parquet TABLE needs --row N (or --game N)")
        if table.is_dir() and (table / IMPORT_MANIFEST).exists():
            if row is None:
                raise click.UsageError(f"{table} is an ISS import: name the game with --row N, not --game")
            chunk, row = import_row(str(table), row)
            path, params = Path(chunk), None
        elif table.is_dir():
            if row is not None:
                raise click.UsageError(f"{table} is a run folder: name the game with --game N, not --row")
            path, row = _run_chunk(table, game)  # type: ignore[arg-type]
            params = _run_params(table)
        elif table.exists():
            path, params = table, _run_params(table.parent)
            if game is not None:
                row = _row_of_game(table, game)
        else:
            raise SkatsimError(f"{table}: no such run folder or file")
        record, values = read_row(path, row)  # type: ignore[arg-type]
        recorded = values if "iss_result" in values else None
        where = f"{table} game {game}" if game is not None else f"{table} row {row}"
        return record, recorded, where + _iss_title(values), params
    if game is not None or row is not None:
        raise click.UsageError("--game and --row go with a run folder or table, not with --iss")
    if (line is None) == (game_id is None):
        raise click.UsageError("--iss FILE needs exactly one of --line N or --id ID")
    number, found = find_iss_line(iss_file, line=line, game_id=game_id)  # type: ignore[arg-type]
    return found.record, found.result, f"{iss_file} line {number}" + _iss_title(found.result), None


def _run_chunk(folder: Path, game: int, other: str = "; for a Parquet file give the file") -> tuple[Path, int]:
    """The chunk file of a run holding game ``game``, and the game's row in it, from the run's manifest;
    ``other`` ends the refusal of a folder without a run (what else the command takes)."""
    from .run.manifest import read_manifest

    manifest = read_manifest(str(folder))
    if manifest is None:
        raise SkatsimError(f"{folder}: not a run folder (no manifest.json){other}")
    if not manifest.record_play:
        raise SkatsimError(
            f"{folder}: the run stored no game records; simulate it again with --record-play to replay games"
        )
    if game >= manifest.games:
        raise SkatsimError(f"{folder}: --game {game} out of range (the run has games 0 to {manifest.games - 1})")
    from .run.manifest import DoneChunks

    i = game // manifest.chunk_size
    first, _ = manifest.chunk(i)
    name = manifest.chunk_file(i)
    if i not in DoneChunks(manifest.chunks_done):
        raise SkatsimError(f"{folder}: game {game} is in {name}, not yet simulated (complete the run)")
    return folder / name, game - first


def _row_of_game(table: Path, game: int) -> int:
    """The row of a Parquet table whose ``game_id`` is ``game``."""
    import polars as pl

    from .run import storage

    try:
        ids = pl.scan_parquet(table).select("game_id").collect()["game_id"]
    except storage.UNREADABLE as exc:
        raise SkatsimError(f"cannot read {table} as Parquet: {first_line(exc)}") from None
    rows = (ids == game).arg_true() if game < 2**63 else ids.clear()  # a game_id is an Int64: none is larger
    if rows.is_empty():
        span = f"games {ids.min()!s} to {ids.max()!s}" if ids.len() else "no games"
        raise SkatsimError(f"{table}: no game {game} in this table (it holds {span})")
    return int(rows[0])


def _iss_title(values: dict[str, object]) -> str:
    if values.get("iss_id") is None:
        return ""
    return f": ISS game {values['iss_id']}, {values.get('iss_date')}, players {values.get('iss_players')}"


def _run_params(folder: Path) -> np.ndarray | None:
    """The compiled variant of the simulation run in ``folder`` (its ``manifest.json``), so
    house-rule games replay under their rules; None when the folder holds no run."""
    import numpy as np

    from .run.manifest import read_manifest

    try:
        manifest = read_manifest(str(folder))
    except SkatsimError:
        return None
    if manifest is None or manifest.params is None:
        return None
    return np.array(manifest.params, dtype=np.int64)


def _replayed(record: GameRecord, params: np.ndarray | None = None) -> GameResult:
    """Replay a record under ``params`` (the official rules by default); a rejected step is a one-line error."""
    from .records.record import ReplayError, replay

    try:
        return replay(record, params)
    except ReplayError as exc:
        raise SkatsimError(f"cannot replay this game: {exc}") from None


def _one_polars_thread() -> None:
    """Size polars' thread pool at one thread for a one-job run, if polars is not imported yet.

    A one-job run plays the next chunk on one thread while a second encodes the last one
    (:func:`skatsim.run.chunks.run_in_turn`). Polars encodes on its own pool, a thread per core:
    on two cores one of them shares the kernel's core and slows it. One encoding thread keeps the
    writing to the other core: 10,000,000 games on one job 16.22 -> 15.52 s (medians of six
    alternated pairs on the project's 2-core machine), a million unchanged (docs/speed.md). Two jobs
    lose by it (their writes wait for each other) and so would an analysis in the same process: only
    here. The pool is sized at import; the variable is not left for processes started later.
    """
    if "polars" in sys.modules or "POLARS_MAX_THREADS" in os.environ:
        return
    os.environ["POLARS_MAX_THREADS"] = "1"
    try:
        import polars  # noqa: F401
    finally:
        del os.environ["POLARS_MAX_THREADS"]


@app.command("simulate")
@click.argument("variant", type=click.Path(dir_okay=False))
@click.option("--games", required=True, type=COUNT, help="Number of games (deals): 1000000, 1_000_000, 1e6 or 1M.")
@SEED_OPTION
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False), help="Output folder (new or empty).")
@JOBS_OPTION
@BOTS_OPTION
@click.option("--resume", is_flag=True, help="Complete the interrupted run in --out (same settings).")
@click.option("--record-play", is_flag=True, help="Also store every game's actions (a 'record' column, for replay).")
@OPEN_HAND_OPTION
@click.option(
    "--chunk-size",
    type=Count(min=1),
    help="Games per Parquet file (never changes the rows); rounded up to whole lists when the variant plays lists. "
    "Default: about 16 chunks of 10,000 to 250,000 games; 100 with a pimc seat, 1,000 with --open-hand, 5,000 "
    "with --open-hand won (a few seconds' work a chunk).",
)
@_run_options(
    "Dask scheduler for --backend dask (tcp://HOST:8786); default: a local cluster of --jobs workers.",
    quiet_help="No progress bar (the summary line is still printed).",
    backend_help="Where chunks run: this machine (threads, and worker processes beyond 4 jobs), or a Dask "
    "cluster (pip install 'skatsim[dask]').",
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
    open_hand: str | None,
    chunk_size: int | None,
    run: RunFlags,
) -> None:
    """Simulate games under the house rules of VARIANT (a YAML file) into Parquet files in --out.

    Rows depend only on the variant, bots, seed and game number: never on
    --jobs, --chunk-size or --backend. A run stopped by Ctrl-C, a full disk or
    kill -9 keeps every chunk written and is completed with --resume.
    --out may be an fsspec URL (s3://bucket/run) with the dask extra.
    """

    jobs = jobs or os.cpu_count() or 1
    if jobs == 1 and run.backend == "local":
        _one_polars_thread()
    from .run.runner import run_simulation

    with _resumable():
        result = run_simulation(
            variant,
            games,
            seed,
            out_dir,
            jobs=jobs,
            bots=bots,
            resume=resume,
            record_play=record_play,
            chunk_size=chunk_size,
            backend=run.backend,
            progress=not run.quiet,
            backend_options=run.backend_options,
            force=run.force,
            open_hand=open_hand or "",
        )
    click.echo(result.summary())


@contextmanager
def _resumable() -> Iterator[None]:
    """Turn runs stopped midway (Ctrl-C, a full disk) into one line: why, what is kept, the exact command
    that continues them; exit code 130 after Ctrl-C, 2 after an error."""
    from .run.runner import RunStopped, command_ctrl_c

    with command_ctrl_c():  # a second Ctrl-C while the stopped run unwinds still stops at once
        try:
            yield
        except RunStopped as stopped:
            _report_stopped(stopped)


def _report_stopped(stopped: RunStopped) -> NoReturn:
    if stopped.interrupted:  # the runs are closed and the process ends now: a further Ctrl-C changes nothing
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    prefix = "skatsim: " if stopped.interrupted else "skatsim: error: "
    click.echo(f"{prefix}{stopped.progress()}; to continue: {_resume_command(stopped.extra_args)}", err=True)
    raise click.exceptions.Exit(130 if stopped.interrupted else 2)


def _resume_command(extra: tuple[str, ...]) -> str:
    """The command as the user typed it, with ``extra`` options and ``--resume`` added where missing."""
    argv = (click.get_current_context().find_root().obj or {}).get("argv")
    if argv is None:
        return f"the same command with {' '.join([*extra, '--resume'])}"
    args = list(argv)
    if extra and extra[0] not in args:
        args += extra
    if "--resume" not in args:
        args.append("--resume")
    return shlex.join(["skatsim", *args])


@app.command("sweep")
@click.argument("variants", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option(
    "--bots",
    "bot_settings",
    multiple=True,
    default=(DEFAULT_BOTS,),
    show_default=True,
    help="A bot setting (one name, or one per player: FH,MH,RH, four at a four-player table); repeat the "
    "option for several.",
)
@click.option("--games", required=True, type=COUNT, help="Games (deals) per run: 1000000, 1e6 or 1M.")
@click.option(
    "--seed", default=1, show_default=True, type=click.IntRange(0, 2**64 - 1), help="Random seed of every run."
)
@click.option("--out", "out_root", required=True, type=click.Path(file_okay=False), help="Folder of the run folders.")
@JOBS_OPTION
@click.option("--resume", is_flag=True, help="Complete an interrupted sweep (same settings).")
@_run_options("As for simulate: the Dask scheduler for --backend dask.")
def sweep_command(
    variants: tuple[str, ...],
    bot_settings: tuple[str, ...],
    games: int,
    seed: int,
    out_root: str,
    jobs: int | None,
    resume: bool,
    run: RunFlags,
) -> None:
    """Simulate every VARIANT with every --bots setting as one job: one run folder per pair in --out.

    All runs use the same seed, so game k is the same deal in every run (paired comparisons).
    See docs/distributed.md.
    """

    from .run.sweep import run_sweep

    with _resumable():
        results = run_sweep(
            list(variants),
            list(bot_settings),
            games,
            seed,
            out_root,
            backend=run.backend,
            scheduler=run.scheduler,
            jobs=jobs or os.cpu_count() or 1,
            resume=resume,
            progress=not run.quiet,
            force=run.force,
        )
    for name, result in results.items():
        click.echo(f"{name}: {plural(result.games, 'game')}")


@app.command("validate")
@click.argument("files", nargs=-1, required=True, type=click.Path())  # str: Path("") would be "."
def validate_command(files: tuple[str, ...]) -> None:
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
@click.option("--games", required=True, type=COUNT, help="Number of deals, each played under both: 1e6 or 1M.")
@SEED_OPTION
@JOBS_OPTION
@BOTS_OPTION
@click.option("--level", default=0.95, show_default=True, type=float, help="Confidence level of the intervals.")
@click.option(
    "--bootstrap", "n_boot", default=1000, show_default=True, type=COUNT, help="Bootstrap resamples (10 to 100,000)."
)
@click.option("--out", "out_file", type=click.Path(dir_okay=False), help="Also write FILE.json or FILE.md.")
@_job_folder_options(
    "--runs",
    "runs_dir",
    "Keep the two runs in this folder (for report and --resume); default: a temporary folder, removed.",
    "comparison",
    "Games per Parquet file of the runs (never changes results).",
)
@_run_options("As for simulate (needs --runs reachable from every worker).")
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
    runs_dir: str | None,
    resume: bool,
    chunk_size: int | None,
    run: RunFlags,
) -> None:
    """Play the same deals with the same bots under VARIANT_A and VARIANT_B and report B - A with intervals.

    Deals and bot choices depend only on the seed and the game number, so each
    deal is played under both rule sets (common random numbers); the table says
    how much narrower this makes the intervals than two independent runs. The
    two runs are ordinary runs (--runs DIR keeps them: DIR/a-NAME, DIR/b-NAME).
    """

    from .analysis.compare import compare_variants
    from .analysis.compare_output import format_text, write_comparison
    from .run.storage import unwritable_file

    if out_file is not None and (Path(out_file).suffix not in (".json", ".md") or Path(out_file).is_dir()):
        raise SkatsimError(f"--out {out_file}: the file name must end in .json or .md")
    if out_file is not None and (why := unwritable_file(out_file)):
        raise SkatsimError(f"--out {out_file}: cannot write there ({why})")
    with _resumable():
        result = compare_variants(
            variant_a,
            variant_b,
            games,
            seed,
            bots,
            jobs or os.cpu_count() or 1,
            level,
            n_boot,
            chunk_size=chunk_size,
            progress=not run.quiet,
            runs_dir=runs_dir,
            resume=resume,
            backend=run.backend,
            backend_options=run.backend_options,
            force=run.force,
        )
    click.echo(format_text(result), nl=False)
    if out_file:
        write_comparison(result, out_file)


@app.command("duel")
@click.argument("bot_a")
@click.argument("bot_b")
@click.option("--games", required=True, type=COUNT, help="Deals, each played in the six seatings (6x as many games).")
@click.option("--variant", type=click.Path(dir_okay=False), help="Variant file; default: the official rules.")
@SEED_OPTION
@JOBS_OPTION
@_job_folder_options(
    "--out",
    "out_dir",
    "Keep the duel's chunk files in this folder (for --resume); default: a temporary folder, removed.",
    "duel",
    "Deals per Parquet file (never changes the result).",
)
@click.option("--level", default=0.95, show_default=True, type=float, help="Confidence level of the interval.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
@_run_options("As for simulate (needs --out reachable from every worker).")
def duel_command(
    bot_a: str,
    bot_b: str,
    games: int,
    variant: str | None,
    seed: int,
    jobs: int | None,
    out_dir: str | None,
    resume: bool,
    chunk_size: int | None,
    level: float,
    as_json: bool,
    run: RunFlags,
) -> None:
    """Duplicate match of two bot settings BOT_A and BOT_B (as in --bots: heuristic:loss_aversion=2).

    Every deal is played in the six seatings that mix them (ABB BAB BBA BAA ABA AAB), so the
    luck of the cards cancels. Reports each bot's Seeger-Fabian points per game it sat in
    (three-player list points: +50 and the value per won game, -50 and twice the value per
    lost one, +40 per lost game it defended) and the variant's own score, A - B with its
    interval, and the deals a one-point interval needs. See docs/duel.md.
    """
    from .analysis.duel import format_json, format_text, run_duel

    with _resumable():
        result = run_duel(
            bot_a,
            bot_b,
            games,
            variant,
            seed,
            jobs or os.cpu_count() or 1,
            out_dir,
            resume,
            chunk_size,
            level,
            progress=not run.quiet,
            backend=run.backend,
            backend_options=run.backend_options,
            force=run.force,
        )
    click.echo(format_json(result) if as_json else format_text(result), nl=False)


@app.command("report")
@click.argument("runs", nargs=-1, required=True, type=click.Path())
@click.option("--out", "out_file", required=True, type=click.Path(), help="The report, NAME.html.")
@click.option(
    "--level", default=0.95, show_default=True, type=float, help="Confidence level of the intervals, a fraction."
)
@click.option(
    "--bootstrap",
    "n_boot",
    default=1000,
    show_default=True,
    type=Count(min=None),  # the range is check_options', in one line with the example
    help="Bootstrap resamples (10 to 100,000).",
)
@click.option(
    "--baseline", metavar="RUN", help="The run every other is compared with (its name or path); default: the first."
)
def report_command(runs: tuple[str, ...], out_file: str, level: float, n_boot: int, baseline: str | None) -> None:
    """Write a self-contained HTML report (and NAME.md with NAME_files/) of run folders, a sweep's folder
    or ISS imports.

    The report opens with the answers: headline rates, and each run's differences from the baseline
    whose interval excludes zero (deal by deal when they share seed, bots and number of games).
    """
    from .analysis.report import check_options, write_report

    check_options(level, n_boot, out_file)
    click.echo(write_report(list(runs), out_file, level, n_boot, baseline, progress=True).summary())


def _variant_params(path: str | None) -> tuple[np.ndarray, str]:
    """The compiled rules and name of ``--variant FILE`` (the official rules without one)."""
    from .variant import load_variant, official_params

    if path is None:
        return official_params(), "official"
    variant = load_variant(path).variant
    return variant.params(), variant.name


_SEAT_NAMES = ("FH", "MH", "RH")


class _UpperChoice(click.Choice):
    """A choice taken in any case and shown (help, default, errors) as written everywhere: FH|MH|RH."""

    def normalize_choice(self, choice: object, ctx: click.Context | None) -> str:
        """The choice or the value given, in capitals."""
        return super().normalize_choice(choice, ctx).upper()


@app.command("hand")
@click.argument("cards", nargs=-1, required=True)
@click.option(
    "--seat",
    type=_UpperChoice(_SEAT_NAMES),
    default="FH",
    show_default=True,
    help="The seat holding the hand: forehand, middlehand or rearhand.",
)
@click.option("--skat", help="The two skat cards, if known (e.g. 'HK D8'); otherwise they are dealt at random.")
@click.option("--variant", type=click.Path(dir_okay=False), help="The rules, a YAML file; default: the official rules.")
@click.option("--bots", default=DEFAULT_BOTS, show_default=True, help="One bot for all seats, or three as FH,MH,RH.")
@click.option(
    "--samples",
    default=10_000,
    show_default=True,
    type=Count(min=2),
    help="Deals rolled out per declaration (the same deals for every one).",
)
@SEED_OPTION
@click.option(
    "--game",
    "games",
    multiple=True,
    help="Only this game (clubs, spades, hearts, diamonds, grand, null, reversed); repeat for several.",
)
@click.option(
    "--bid", type=click.IntRange(min=18), help="Play every declaration at this final bid (default: its own bid value)."
)
@click.option("--jobs", type=click.IntRange(min=1), help="Threads; default: the number of CPUs.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON object instead of the table.")
def hand_command(
    cards: tuple[str, ...],
    seat: str,
    skat: str | None,
    variant: str | None,
    bots: str,
    samples: int,
    seed: int,
    games: tuple[str, ...],
    bid: int | None,
    jobs: int | None,
    as_json: bool,
) -> None:
    """What is this hand worth? Every game the seat could declare with CARDS (ten cards, ISS notation
    'CJ SJ CA CT C9 HA HT SK S8 D7' or with suit symbols '♣J ♠J ♣A ...'), rolled out by the bots.

    For each declaration (suits, Grand, Null, the reversed game where allowed; with the skat,
    hand, Schneider or Schwarz announced, ouvert): its bid value, the mean game value, the win,
    Schneider and Schwarz probabilities, the declarer's card points and the expected score under
    the variant, each with a 95% interval; passing; and what the bots would bid and declare.
    See docs/whatif.md.
    """
    from .bots import parse_bots
    from .engine import bidding
    from .run.runner import working
    from .whatif.hand import evaluate_hand, game_codes, parse_hand_cards

    hand = parse_hand_cards(" ".join(cards))
    skat_cards = parse_hand_cards(skat, "--skat") if skat is not None else []
    if len(hand) != 10:
        raise SkatsimError(f"hand: expected 10 cards, got {len(hand)}")
    if skat is not None and not skat_cards:  # given but empty (--skat "$UNSET"): not the same as no --skat
        raise SkatsimError("--skat: expected 2 cards, got 0 (leave the option out to deal the skat at random)")
    parse_bots(bots)
    if bid is not None and not (bid <= bidding.MAX_BID and bidding.is_bid_value(bid)):  # a kernel takes int64 only
        raise click.BadParameter(f"{bid} is not a bid value (18, 20, 22, 23, 24, 27, ... 264)", param_hint="--bid")
    params, name = _variant_params(variant)
    codes = game_codes(games, params) if games else None
    with working("rolling out the declarations"):
        result = evaluate_hand(
            hand, _SEAT_NAMES.index(seat.upper()), skat_cards, params, bots, samples, seed, codes, bid, name, jobs
        )
    click.echo(result.to_json() if as_json else result.text(), nl=as_json)


@app.command("whatif")
@click.argument("run_dir", required=False, metavar="[RUN_DIR]", type=click.Path(path_type=Path, file_okay=False))
@click.option("--game", "game", type=click.IntRange(min=0), help="Game number (game_id) of the run RUN_DIR.")
@click.option("--iss", "iss_file", type=click.Path(path_type=Path, dir_okay=False), help="An ISS game-record file.")
@click.option("--line", type=click.IntRange(min=1), help="Line of the ISS file, from 1.")
@click.option("--id", "game_id", type=click.IntRange(min=0), help="Game ID (ID[]) in the ISS file.")
@click.option(
    "--declare",
    "declare",
    required=True,
    help="The game to declare instead: clubs, spades, hearts, diamonds, grand, null, reversed.",
)
@click.option("--hand", "hand_game", is_flag=True, help="Play it hand (without picking up the skat).")
@click.option("--schneider", is_flag=True, help="Announce Schneider (a hand game).")
@click.option("--schwarz", is_flag=True, help="Announce Schwarz (a hand game).")
@click.option("--ouvert", is_flag=True, help="Play it ouvert (suit and Grand: hand, Schneider and Schwarz announced).")
@click.option(
    "--worlds",
    type=click.Choice(["fixed", "uniform", "consistent"]),
    default="fixed",
    show_default=True,
    help="The real cards, or deals the declarer could not tell apart (uniform; consistent: also with "
    "the bids as recorded).",
)
@click.option("--samples", type=COUNT, help="Rollouts (default: 1 with the real cards, else 1000).")
@SEED_OPTION
@click.option(
    "--variant", type=click.Path(dir_okay=False), help="The rules (default: the run's, or the official ones)."
)
@click.option("--bots", default=DEFAULT_BOTS, show_default=True, help="One bot for all seats, or three as FH,MH,RH.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON object instead of the table.")
def whatif_command(
    run_dir: Path | None,
    game: int | None,
    iss_file: Path | None,
    line: int | None,
    game_id: int | None,
    declare: str,
    hand_game: bool,
    schneider: bool,
    schwarz: bool,
    ouvert: bool,
    worlds: str,
    samples: int | None,
    seed: int,
    variant: str | None,
    bots: str,
    as_json: bool,
) -> None:
    """Could another declaration have won? Keep a real game's auction, declare --declare G instead and let
    the bots play it out (with the skat: the bot discards for it), beside the declaration as recorded.

    The game is --iss FILE with --line N or --id ID, or RUN_DIR --game N (a simulated run's game,
    played again from its seed). See docs/whatif.md.
    """
    from .bots import parse_bots
    from .engine.gametypes import GAME_TYPE_LABELS
    from .engine.scoring import HAND, OUVERT, SCHNEIDER_ANNOUNCED, SCHWARZ_ANNOUNCED
    from .run.runner import working
    from .whatif.could import another_declaration
    from .whatif.hand import game_codes

    if (run_dir is None) == (iss_file is None):
        raise click.UsageError("give --iss FILE with --line N or --id ID, or a run folder with --game N")
    if iss_file is not None and ((line is None) == (game_id is None) or game is not None):
        raise click.UsageError("--iss FILE needs exactly one of --line N or --id ID (and no --game)")
    if run_dir is not None and (game is None or line is not None or game_id is not None):
        raise click.UsageError("a run folder needs --game N (and no --line or --id)")
    parse_bots(bots)
    if variant is not None:
        params, _ = _variant_params(variant)
    elif run_dir is not None:
        import numpy as np

        from .run.manifest import read_manifest

        if not run_dir.exists():
            raise SkatsimError(f"{run_dir}: no such run folder")
        manifest = read_manifest(str(run_dir))  # a damaged manifest.json is its own error, named
        if manifest is None or manifest.params is None:
            raise SkatsimError(f"{run_dir}: not a run folder (no manifest.json)")
        params = np.array(manifest.params, dtype=np.int64)
    else:
        params, _ = _variant_params(None)
    code = game_codes([declare], params, "--declare")[0]
    flags = (HAND if hand_game else 0) | (SCHNEIDER_ANNOUNCED if schneider else 0)
    flags |= (SCHWARZ_ANNOUNCED if schwarz else 0) | (OUVERT if ouvert else 0)
    if flags & (SCHNEIDER_ANNOUNCED | SCHWARZ_ANNOUNCED) and not flags & HAND:
        raise click.UsageError("--schneider and --schwarz are announced in hand games only: add --hand")
    if flags & (SCHNEIDER_ANNOUNCED | SCHWARZ_ANNOUNCED) and GAME_TYPE_LABELS[code] == "null":
        raise click.UsageError("Null has no Schneider or Schwarz to announce")
    if flags & OUVERT and GAME_TYPE_LABELS[code] != "null":
        flags |= HAND
    with working("rolling out"):
        start = _whatif_start(run_dir, game, iss_file, line, game_id, params)
        result = another_declaration(start, code, flags, params, bots, worlds, samples, seed)  # type: ignore[arg-type]
    click.echo(result.to_json() if as_json else result.text(), nl=as_json)


def _whatif_start(
    run_dir: Path | None,
    game: int | None,
    iss_file: Path | None,
    line: int | None,
    game_id: int | None,
    params: np.ndarray,
) -> Start:
    """The real game ``whatif`` starts from: line ``line`` (or ``game_id``) of an ISS file, or game
    ``game`` of a run folder (its deal, the auction and discards as the run's bots played them)."""
    if iss_file is not None:
        from .whatif import from_iss

        return from_iss(iss_file, line=line, game_id=game_id)
    from .run.manifest import read_manifest
    from .whatif import from_run

    manifest = read_manifest(str(run_dir))
    assert manifest is not None and game is not None
    if game >= manifest.games:
        raise SkatsimError(f"{run_dir}: --game {game} out of range (the run has games 0 to {manifest.games - 1})")
    start = from_run(manifest.seed, game, params, ",".join(manifest.bots))
    return type(start)(start.hands, start.skat, start.record, label=f"{run_dir} game {game}")


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
@click.argument("source", metavar="FILE|RUN_DIR", type=click.Path(path_type=Path))
@click.option("--line", type=click.IntRange(min=1), help="Line of the ISS file, from 1.")
@click.option(
    "--game",
    type=click.IntRange(min=0),
    help="Game of a run folder simulated with --record-play (its game index, from 0).",
)
@click.option(
    "--after", default=0, show_default=True, type=click.IntRange(min=0), help="Cards played before the position."
)
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
def solve_command(source: Path, line: int | None, game: int | None, after: int, as_json: bool) -> None:
    """Solve a game open-handed: its position after --after cards, every seat playing perfectly
    with all hands known (declarer points, won, Schneider, Schwarz, the best cards to play). The game
    is line --line of an ISS file or game --game of a run folder simulated with --record-play (replayed
    under the run's rules)."""
    import json

    from .records.importer import find_iss_line, read_row
    from .run.runner import working
    from .solve import solve_record

    if source.is_dir():
        from .records.importer import IMPORT_MANIFEST

        if (source / IMPORT_MANIFEST).exists():
            raise SkatsimError(
                f"{source} is an ISS import: solve its games from the ISS file it was imported from, FILE --line N"
            )
        if game is None or line is not None:
            raise click.UsageError(f"{source} is a run folder: name the game with --game N (not --line)")
        path, row = _run_chunk(source, game, "; solve takes a run folder or an ISS file")
        record, _ = read_row(path, row)
        with working("solving"), _naming(f"{source} game {game}"):
            solution = solve_record(record, after, params=_run_params(source))
        title = f"{source} game {game}"
    else:
        if line is None or game is not None:
            raise click.UsageError("an ISS file needs --line N (--game N goes with a run folder)")
        with working("solving"):
            number, found = find_iss_line(source, line=line)
            with _naming(f"{source} line {number}"):
                solution = solve_record(found.record, after)
        title = f"{source} line {number}" + _iss_title(found.result)
    if as_json:
        click.echo(json.dumps(solution.to_json_dict()))
        return
    click.echo(title)
    for text in solution.lines():
        click.echo(text)


@contextmanager
def _naming(where: str) -> Iterator[None]:
    """Errors about one game (no card play to solve, --after beyond its cards) name the game first:
    ``FILE line N: ...`` or ``RUN_DIR game N: ...``, where the problem is."""
    try:
        yield
    except SkatsimError as exc:
        raise SkatsimError(f"{where}: {exc}") from None


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script; returns the exit code."""
    argv = sys.argv[1:] if argv is None else list(argv)
    try:  # the arguments go to the commands too, which print them back as the command that resumes a run
        code = app.main(args=argv, prog_name="skatsim", standalone_mode=False, obj={"argv": argv})
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except click.UsageError as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":  # ``skatsim`` alone (click >= 8.2): the help, not an error
            print(exc.format_message(), file=sys.stderr)
            return 2
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
        for line in str(exc).splitlines() or [""]:  # several problems (a variant file's): one line each
            print(f"skatsim: error: {line}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("skatsim: interrupted", file=sys.stderr)
        return 130
    return code if isinstance(code, int) else 0


#: Allocations between two collections of the young objects in the console script (:func:`console`).
YOUNG_OBJECTS = 500_000


def console() -> None:
    """The ``skatsim`` console script and ``python -m skatsim``: :func:`main`, then the process ends.

    The collector looks at the young objects after every ``YOUNG_OBJECTS`` allocations instead of
    Python's 700: a command's imports (numba, polars, the kernels) and loading the compiled kernels
    make about 230,000 objects that live as long as the process. Each collection scans what the last
    left young, so with Python's 700 they took about 30 ms of a short command's 0.6 s (``simulate
    --games 1000``, eight alternated pairs); with 50,000, 30 ms of the 0.5 s before a run's first
    games; with this many, none before the command's own work. Cyclic garbage waits as long: at most a
    few tens of MB. Before the process ends the objects are frozen (``gc.freeze``): the interpreter's
    teardown then skips them, 0.3 s of every command otherwise. (Only here: a caller of :func:`main`
    goes on.)
    """
    gc.set_threshold(YOUNG_OBJECTS, *gc.get_threshold()[1:])
    code = main()
    gc.freeze()
    sys.exit(code)


if __name__ == "__main__":
    console()
