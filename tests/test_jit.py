"""The kernel cache is keyed by every file a kernel can depend on; kernels only kernels call compile
no Python wrapper, and still answer a call from Python."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import skatsim
from skatsim._jit import KERNEL_CODE, kernel_sources

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
