"""The layers stay layers: data flows one way, the kernels need no polars, bots sit behind one seam."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import skatsim

PACKAGE = Path(skatsim.__file__).resolve().parent
MODULES = sorted(PACKAGE.rglob("*.py"))


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """Modules of skatsim that ``path`` imports, at load time or inside a function (not for typing only)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            continue
        for sub in ast.walk(node):
            if isinstance(sub, ast.ImportFrom):
                base = package.split(".")
                if sub.level:
                    base = base[: len(base) - sub.level + 1]
                    target = ".".join(base + ([sub.module] if sub.module else []))
                else:
                    target = sub.module or ""
                if target.startswith("skatsim"):
                    found.add(target)
                    found.update(f"{target}.{alias.name}" for alias in sub.names)
            elif isinstance(sub, ast.Import):
                found.update(alias.name for alias in sub.names if alias.name.startswith("skatsim"))
    return found


def test_no_import_cycle() -> None:
    known = {_module_name(p) for p in MODULES}
    graph = {_module_name(p): {m for m in _imports(p) if m in known} for p in MODULES}
    state: dict[str, int] = {}

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for target in graph[module]:
            if target == module or (module.startswith(target + ".") and target in graph):
                continue  # a package's own __init__, imported by its modules
            assert state.get(target) != 1, "import cycle: " + " -> ".join([*path, module, target])
            if target not in state:
                visit(target, [*path, module])
        state[module] = 2

    for module in graph:
        if module not in state:
            visit(module, [])


def test_the_kernels_import_without_polars_or_pydantic() -> None:
    code = (
        "import sys, skatsim.engine.block, skatsim.bots.seam, skatsim.schema; "
        "print(sorted(m for m in ('polars', 'pydantic', 'matplotlib') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_no_module_outside_bots_names_a_bot_kind() -> None:
    """Only bots/ knows the kinds: the engine asks players through bots/seam.py."""
    kinds = re.compile(r"\b(RANDOM|HEURISTIC|RECORDED)\b|kinds\[[^]]*\]\s*==")
    for path in MODULES:
        if path.relative_to(PACKAGE).parts[0] == "bots":
            continue
        assert not kinds.search(path.read_text(encoding="utf-8")), path


def test_the_engine_reaches_no_layer_above_it() -> None:
    """Data flows one way: the engine's kernels import nothing of runs, records, analysis or variants."""
    above = ("skatsim.run", "skatsim.records", "skatsim.analysis", "skatsim.variant", "skatsim.frames", "skatsim.cli")
    for path in (PACKAGE / "engine").rglob("*.py"):
        for target in _imports(path):
            assert not target.startswith(above), (path, target)
