"""The build backend: setuptools', plus what compiling the kernels while building needs.

Building a wheel (``pip install .``) compiles the simulation's kernels (``setup.py``), which needs
numba and what the kernels import: those of the project's own dependencies are added to the wheel
build's requirements, read from pyproject.toml so that their versions are written in one place. An
editable install (``pip install -e .``) compiles nothing ahead, so it gets setuptools' requirements
only, as does an sdist.
"""

import re
import tomllib
from typing import Any

from setuptools import build_meta
from setuptools.build_meta import *  # noqa: F403 (every hook setuptools defines, the one below overridden)

#: The distributions ``python -m skatsim.precompile`` imports.
KERNEL_BUILD_NEEDS = {"numpy", "numba", "pydantic", "pyyaml"}


def kernel_build_requirements() -> list[str]:
    """The project's dependencies (as pyproject.toml pins them) that compiling the kernels imports."""
    with open("pyproject.toml", "rb") as f:  # a build hook runs in the project's root
        dependencies = tomllib.load(f)["project"]["dependencies"]
    return [d for d in dependencies if re.split(r"[<>=!~;\[ ]", d, maxsplit=1)[0].lower() in KERNEL_BUILD_NEEDS]


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    """setuptools' requirements for a wheel, and the kernels' (see above)."""
    return [*build_meta.get_requires_for_build_wheel(config_settings), *kernel_build_requirements()]
