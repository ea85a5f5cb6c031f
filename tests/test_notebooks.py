"""The notebooks in notebooks/ run from top to bottom on a small simulation, so they cannot rot.

Each notebook is executed with nbclient in a ``python3`` kernel of the
environment running the tests (ipykernel's own kernel spec; jupyter_client
starts it with this interpreter), with ``SKATSIM_NOTEBOOK_GAMES`` set small
so both together take well under a minute once the kernels are compiled.
Committed notebooks carry no outputs.
"""

from __future__ import annotations

from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
NAMES = ("bid_values.ipynb", "house_rules.ipynb")
#: Deals per simulated run in CI: enough for every table and figure to have rows.
CI_GAMES = "3000"


@pytest.mark.parametrize("name", NAMES)
def test_committed_notebook_has_no_outputs(name: str) -> None:
    import nbformat

    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    code = [cell for cell in nb.cells if cell.cell_type == "code"]
    assert code
    assert all(not cell.outputs and cell.execution_count is None for cell in code)


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # jupyter_core's platformdirs notice, not ours
@pytest.mark.parametrize("name", NAMES)
def test_notebook_executes(name: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import nbformat
    from nbclient import NotebookClient

    monkeypatch.setenv("SKATSIM_NOTEBOOK_GAMES", CI_GAMES)
    monkeypatch.setenv("JUPYTER_PLATFORM_DIRS", "1")
    monkeypatch.setenv("TMPDIR", str(tmp_path))  # the notebooks' runs go to a temporary folder
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    client = NotebookClient(nb, kernel_name="python3", timeout=240, resources={"metadata": {"path": str(NOTEBOOKS)}})
    client.execute()  # raises CellExecutionError, naming the cell, if any cell fails
    outputs = [out for cell in nb.cells if cell.cell_type == "code" for out in cell.outputs]
    assert not [out for out in outputs if out.output_type == "error"]
    assert any("image/png" in out.get("data", {}) for out in outputs)
