"""``skatsim`` and ``python -m skatsim``: the command line (:func:`skatsim.cli.console`) in a process whose
numpy starts one BLAS thread."""

import os


def console() -> None:
    """Run the command line. Set before anything imports numpy: its OpenBLAS otherwise starts a thread per
    core that spins for about a tenth of a CPU-second once loaded, beside the command, and no command
    multiplies matrices large enough to want a second thread (``skatsim bots`` 0.12 -> 0.08 s, a run of
    1,000 games on two jobs 0.60-0.64 -> 0.55-0.60 s). A value the user set is kept."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    from .cli import console as run

    run()


if __name__ == "__main__":
    console()
