"""The kernel cache is keyed by every file a kernel can depend on."""

from __future__ import annotations

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
