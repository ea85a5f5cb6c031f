"""Run the notebooks in notebooks/ from top to bottom and save them with their outputs.

Usage (from the repository root, with ``pip install -e '.[notebooks]'``)::

    python scripts/execute_notebooks.py                  # every notebook
    python scripts/execute_notebooks.py bid_values.ipynb

The notebooks are committed with their outputs so that they read on GitHub;
run this after changing a notebook or the analysis it shows. They use their
parameter cell as written (a small simulated run, kept in the git-ignored
``runs/notebooks/`` and reused), in a ``python3`` kernel of this environment.
A cell that fails, or writes anything on stderr (a warning), stops the run
and nothing is saved.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import nbformat
from nbclient import NotebookClient

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def execute(path: Path) -> None:
    """Execute ``path`` in place; refuse to save a notebook with an error or stderr output."""
    nb = nbformat.read(str(path), as_version=4)
    NotebookClient(nb, kernel_name="python3", timeout=1200, resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
    for index, cell in enumerate(nb.cells):
        for out in cell.get("outputs", []):
            if out.output_type == "error" or (out.output_type == "stream" and out.name == "stderr"):
                raise SystemExit(f"{path.name}: cell {index} wrote to stderr or failed: {out.get('text', out)!r}")
    nbformat.write(nb, path)
    print(f"{path.name}: executed and saved")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="notebooks in notebooks/ (default: every one)")
    names = parser.parse_args(argv).names
    paths = [NOTEBOOKS / name for name in names] if names else sorted(NOTEBOOKS.glob("*.ipynb"))
    missing = [path.name for path in paths if not path.is_file()]
    if missing:
        parser.error(f"no such notebook in {NOTEBOOKS}: {', '.join(missing)}")
    for path in paths:
        execute(path)


if __name__ == "__main__":
    main()
