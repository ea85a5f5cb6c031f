"""The kernel cache is keyed by every file a kernel can depend on and found wherever the package
lives; kernels only kernels call compile no Python wrapper, and still answer a call from Python; the
package's kernels index without wraparound, and stay within their arrays."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numba
import numpy as np
import pytest

import skatsim
from skatsim._jit import KERNEL_CODE, _install_compiled, kernel_sources

PACKAGE = Path(skatsim.__file__).resolve().parent


def test_modules_left_out_of_the_cache_key_define_and_import_no_kernel() -> None:
    keyed = set(kernel_sources())
    for path in PACKAGE.rglob("*.py"):
        if path in keyed:
            continue
        assert not path.relative_to(PACKAGE).as_posix().startswith(KERNEL_CODE)
        text = path.read_text(encoding="utf-8")
        assert "_jit" not in text and "@kernel" not in text, path


def test_every_kernel_module_keys_the_cache() -> None:
    keyed = set(kernel_sources())
    for path in PACKAGE.rglob("*.py"):
        if "@kernel" in path.read_text(encoding="utf-8"):
            assert path in keyed, path
    assert PACKAGE / "bots" / "calibration.json" in keyed
    assert PACKAGE / "columns.toml" in keyed  # the row layout's column table


#: Two kernels compiled in a new process with an empty cache (a cached caller would link its callee
#: from disk and compile nothing): ``double`` is compiled for ``double_plus_one`` only, without a
#: Python wrapper, until Python calls it and its twin is compiled with one.
_TWIN_SCRIPT = """
from skatsim._jit import kernel

@kernel
def double(x: int) -> int:
    return 2 * x

@kernel
def double_plus_one(x: int) -> int:
    return double(x) + 1

assert double_plus_one(20) == 41
(callee,) = double.overloads.values()
assert callee.fndesc.llvm_cpython_wrapper_name not in callee.library.get_llvm_str()
(caller,) = double_plus_one._twin.overloads.values()
assert caller.fndesc.llvm_cpython_wrapper_name in caller.library.get_llvm_str()
assert double._twin is None
assert double(20) == 40
assert len(double._twin.overloads) == 1
print("ok")
"""


def test_a_kernel_only_kernels_call_has_no_python_wrapper_and_python_calls_reach_its_twin(tmp_path: Path) -> None:
    script = tmp_path / "twins.py"
    script.write_text(_TWIN_SCRIPT, encoding="utf-8")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


#: In a new process: a kernel loaded from the cache (or compiled), then a kernel of this script compiled
#: that calls it; prints whether the first was a cache hit, whether numba's compiler registries were loaded
#: by then, and whether the second was compiled (a new script file each time: its kernels are not cached).
_LOAD_SCRIPT = """
import sys
from skatsim._jit import kernel
from skatsim.engine.bidding import next_bid

assert next_bid(18) == 20
stats = next_bid._twin.stats
print("hit" if stats.cache_hits and not stats.cache_misses else "compiled", "numba.np.linalg" in sys.modules)

@kernel
def after_next_bid(x: int) -> int:
    return next_bid(x) + 1

assert after_next_bid(18) == 21
print("compiled" if after_next_bid._twin.stats.cache_misses else "hit")
"""


def test_a_kernel_loads_from_the_cache_without_numbas_compiler_registries(tmp_path: Path) -> None:
    """Numba sets up every typing and lowering registry before each load from its cache (about 0.13 s of a
    run's start); the package's kernels load without them (:class:`skatsim._jit.KernelCache`), and a
    kernel compiled afterwards in the same process, calling the one loaded, still compiles and runs."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    outputs = []
    for name in ("first.py", "second.py"):
        script = tmp_path / name
        script.write_text(_LOAD_SCRIPT, encoding="utf-8")
        done = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
        outputs.append(done.stdout.split())
    assert outputs == [["compiled", "True", "compiled"], ["hit", "False", "compiled"]]


#: A kernel called from Python in a new process: prints where numba found it (``hit``) or compiled it.
_CALL_SCRIPT = """
from skatsim.engine.bidding import next_bid
assert next_bid(18) == 20
stats = next_bid._twin.stats
print("hit" if stats.cache_hits and not stats.cache_misses else "compiled", stats.cache_path)
"""


def _package_copy(into: Path) -> Path:
    shutil.copytree(PACKAGE, into / "skatsim", ignore=shutil.ignore_patterns("__pycache__", "_compiled"))
    return into


def _call_kernel(root: Path, cache: Path) -> list[str]:
    env = {**os.environ, "PYTHONPATH": str(root), "NUMBA_CACHE_DIR": str(cache)}
    done = subprocess.run(
        [sys.executable, "-c", _CALL_SCRIPT], cwd=root, env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_kernels_compiled_where_the_package_was_built_load_where_it_is_installed(tmp_path: Path) -> None:
    """What ``setup.py`` does while ``pip install`` builds the package, then a first run elsewhere:
    the kernels compiled into the built package's ``_compiled`` are linked into the user's empty
    cache and loaded, not compiled, although the package now lives in another folder."""
    built = _package_copy(tmp_path / "build")
    compiled = built / "skatsim" / "_compiled"
    assert _call_kernel(built, compiled)[0] == "compiled"
    (digest,) = os.listdir(compiled)
    assert _call_kernel(built, compiled) == ["hit", str(compiled / digest / "skatsim_engine")]

    installed = tmp_path / "site-packages"
    shutil.copytree(built, installed)
    user_cache = tmp_path / "user-cache"
    assert _call_kernel(installed, user_cache) == ["hit", str(user_cache / digest / "skatsim_engine")]
    assert (user_cache / digest / ".compiled-copied").exists()


def test_compiled_kernels_are_copied_once_and_never_over_the_users_own(tmp_path: Path) -> None:
    shipped = tmp_path / "_compiled" / "digest" / "skatsim_engine"
    shipped.mkdir(parents=True)
    for name in ("f-1.py311.nbi", "f-1.py311.1.nbc", "g-2.py311.nbi", "g-2.py311.1.nbc"):
        (shipped / name).write_text(f"shipped {name}")
    cache = tmp_path / "cache" / "digest"
    (cache / "skatsim_engine").mkdir(parents=True)
    (cache / "skatsim_engine" / "g-2.py311.nbi").write_text("the user's own")

    _install_compiled(str(cache), tmp_path / "_compiled")
    copied = {p.name: p.read_text() for p in (cache / "skatsim_engine").iterdir()}
    assert copied == {
        "f-1.py311.nbi": "shipped f-1.py311.nbi",
        "f-1.py311.1.nbc": "shipped f-1.py311.1.nbc",
        "g-2.py311.nbi": "the user's own",
    }
    (cache / "skatsim_engine" / "f-1.py311.nbi").unlink()
    _install_compiled(str(cache), tmp_path / "_compiled")  # done once: numba's own cache from then on
    assert not (cache / "skatsim_engine" / "f-1.py311.nbi").exists()


def _last(a: np.ndarray) -> int:
    return a[-1]


def _last_two(a: np.ndarray) -> int:
    return a[-2:].sum()


def _as_if_in(module: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """A copy of ``fn`` that numba names as a function of ``module``."""
    copy = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__)
    copy.__module__ = module
    return copy


def test_the_packages_kernels_take_an_index_as_it_is_and_other_code_keeps_numbas_rule() -> None:
    """A signed index below zero is out of bounds in a function of this package (``_jit``'s rule; with
    numba's bounds checks on, an IndexError), while a function compiled elsewhere in the same process
    (a user's own ``@njit``) still counts it from the end, as slices do everywhere."""
    with pytest.raises(IndexError):
        numba.njit(boundscheck=True)(_as_if_in("skatsim.probe", _last))(np.arange(3))
    assert numba.njit(boundscheck=True)(_last)(np.arange(3)) == 2
    assert numba.njit(boundscheck=True)(_as_if_in("skatsim.probe", _last_two))(np.arange(4)) == 5


#: Every shipped variant simulated with numba's bounds checks on, in a new process with a cache of its
#: own (everything compiled with the checks): an index beyond an array, or below zero (which this
#: package's kernels take as it is), raises there instead of reading another array's memory.
_BOUNDS_SCRIPT = """
import sys
from pathlib import Path
from skatsim.bots import parse_bots
from skatsim.engine.rules import TABLE_PLAYERS
from skatsim.run.chunks import simulate_frame
from skatsim.variant import load_variant
for path in sorted(Path(sys.argv[1]).glob("*.yaml")):
    params = load_variant(path).variant.params()
    for bots, games in (("heuristic", 1440), ("random", 288)):
        seats = parse_bots(bots, int(params[TABLE_PLAYERS]))
        simulate_frame(5, 0, games, params, seats, path.stem, record_play=True)
print("ok")
"""


def test_every_shipped_variant_plays_within_its_arrays_bounds(tmp_path: Path) -> None:
    env = {**os.environ, "NUMBA_BOUNDSCHECK": "1", "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    variants = Path(__file__).resolve().parent.parent / "variants"
    done = subprocess.run(
        [sys.executable, "-c", _BOUNDS_SCRIPT, str(variants)], env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == "ok"
