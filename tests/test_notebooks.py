"""The notebooks in notebooks/ run from top to bottom, without a warning, and are committed with their outputs.

Committed notebooks carry the outputs of their default parameters, so they
read on GitHub (``scripts/execute_notebooks.py`` makes them). CI runs each
one again with nbclient in a ``python3`` kernel of the environment running
the tests (ipykernel's own kernel spec), its parameter cell replaced by a
small simulation into a temporary folder, and fails on an error or on any
output to stderr (a warning, a progress bar).
"""

from __future__ import annotations

from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
NAMES = ("bid_values.ipynb", "house_rules.ipynb")
#: Deals per simulated run in CI: enough for every table and figure to have rows.
CI_GAMES = 3000
#: Variants simulated by house_rules.ipynb in CI (every kind of house-rule column, lists and no lists).
CI_VARIANTS = ["official", "kontra_re", "ramsch", "bock", "tournament"]


def _parameters(nb):  # type: ignore[no-untyped-def]
    cells = [c for c in nb.cells if "parameters" in c.get("metadata", {}).get("tags", [])]
    assert len(cells) == 1, "one parameter cell, tagged 'parameters'"
    return cells[0]


def _outputs(nb):  # type: ignore[no-untyped-def]
    return [out for cell in nb.cells if cell.cell_type == "code" for out in cell.outputs]


def _problems(nb) -> list[str]:  # type: ignore[no-untyped-def]
    """Errors and stderr output (warnings) of the executed notebook's cells."""
    found = []
    for index, cell in enumerate(nb.cells):
        for out in cell.get("outputs", []):
            if out.output_type == "error":
                found.append(f"cell {index}: {out.ename}: {out.evalue}")
            elif out.output_type == "stream" and out.name == "stderr":
                found.append(f"cell {index} wrote to stderr: {out.text[:300]}")
    return found


@pytest.mark.parametrize("name", NAMES)
def test_committed_notebook_has_its_outputs(name: str) -> None:
    """Every code cell ran (in order) with the default parameters; figures are there; no error, no warning,
    and no temporary folder in the outputs."""
    import nbformat

    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    code = [cell for cell in nb.cells if cell.cell_type == "code"]
    assert [cell.execution_count for cell in code] == list(range(1, len(code) + 1))
    assert _problems(nb) == []
    outputs = _outputs(nb)
    assert sum("image/png" in out.get("data", {}) for out in outputs) >= 3
    text = str(outputs)
    assert "/tmp" not in text and "skatsim-notebook-" not in text
    params = _parameters(nb).source
    assert "WORK = None" in params and "GAMES = 20_000" in params
    assert all("tempfile" not in cell.source for cell in code)


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # jupyter_core's platformdirs notice, not ours
@pytest.mark.parametrize("name", NAMES)
def test_notebook_executes_without_a_warning(name: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import nbformat
    from nbclient import NotebookClient

    monkeypatch.setenv("JUPYTER_PLATFORM_DIRS", "1")
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    cell = _parameters(nb)
    cell.source += f"\nGAMES = {CI_GAMES}\nWORK = {str(tmp_path / 'runs')!r}\n"
    if name == "house_rules.ipynb":
        cell.source += f"VARIANTS = {CI_VARIANTS!r}\n"
    client = NotebookClient(nb, kernel_name="python3", timeout=300, resources={"metadata": {"path": str(NOTEBOOKS)}})
    client.execute()  # raises CellExecutionError, naming the cell, if any cell fails
    assert _problems(nb) == []
    assert sum("image/png" in out.get("data", {}) for out in _outputs(nb)) >= 3
    assert sorted(p.name for p in (tmp_path / "runs").iterdir())  # the runs went where WORK said
