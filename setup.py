"""Build hook: compile the simulation's kernels while ``pip install`` builds the package.

Everything else about the package is in pyproject.toml. The kernels are compiled by numba on this
machine, into ``skatsim/_compiled/`` of the built package (``python -m skatsim.precompile``), and
the first run links them into the user's kernel cache instead of compiling for a minute
(``skatsim._jit``). An editable install (``pip install -e``) compiles nothing: its kernels are the
ones being edited. If compiling fails here, the install still succeeds and the first run compiles.
Building again in the same folder with the code unchanged loads the kernels the last build left in
``build/`` instead of compiling them again.
"""

import os
import shutil
import subprocess
import sys

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithKernels(build_py):
    """``build_py``, then the kernels compiled into the built package."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        build_lib = os.path.abspath(self.build_lib)
        compiled = os.path.join(build_lib, "skatsim", "_compiled")
        # pip's isolated build finds its build requirements through PYTHONPATH: keep them
        path = os.pathsep.join(p for p in (build_lib, os.environ.get("PYTHONPATH")) if p)
        env = dict(os.environ, PYTHONPATH=path, NUMBA_CACHE_DIR=compiled)
        print("compiling the simulation's kernels (about a minute)", flush=True)
        done = subprocess.run(
            [sys.executable, "-m", "skatsim.precompile"], env=env, cwd=build_lib, stdout=subprocess.PIPE, text=True
        )
        if done.returncode != 0:
            shutil.rmtree(compiled, ignore_errors=True)
            print("warning: the kernels were not compiled; the first run compiles them", flush=True)
            return
        # a build folder kept from an earlier build holds that code's kernels too: only this code's are
        # shipped (the folder precompile names on its last line; nothing is removed if it names none)
        lines = done.stdout.strip().splitlines()
        this_code = os.path.basename(lines[-1]) if lines else ""
        if this_code in os.listdir(compiled):
            for other in set(os.listdir(compiled)) - {this_code}:
                shutil.rmtree(os.path.join(compiled, other), ignore_errors=True)


setup(cmdclass={"build_py": BuildWithKernels})
