"""The one place that owns numba settings and bit intrinsics.

Every compiled kernel in skatsim is decorated with :data:`kernel`, so caching,
fastmath, error-model and array-index choices are made once. ``popcount`` and ``lowest_bit``
map straight to LLVM's ``ctpop`` and ``cttz`` so card-mask arithmetic costs one
instruction each.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import os
import shutil
import types as types_module
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

import numba
from llvmlite import ir
from numba import types
from numba.core import caching
from numba.core.registry import CPUDispatcher
from numba.core.runtime import rtsys
from numba.extending import intrinsic
from numba.np import arrayobj

_PACKAGE = Path(__file__).resolve().parent

#: The code the compiled kernels are made of, and the tables they read as constants: the engine,
#: the bots, the row layout's column table (``schema.py`` reading ``columns.toml``), the compiled ISS
#: parser and record writer, the what-if rollout loops and this module. Everything else (runs, the
#: rest of records, analysis, the command line) is plain Python that no kernel imports, so editing it
#: never recompiles the kernels.
KERNEL_CODE = (
    "_jit.py",
    "engine/",
    "bots/",
    "schema.py",
    "columns.toml",
    "records/issparse.py",
    "records/recordjson.py",
    "whatif/kernels.py",
)


def kernel_sources() -> list[Path]:
    """The files whose content the compiled kernels depend on."""
    files = sorted([*_PACKAGE.rglob("*.py"), *_PACKAGE.rglob("*.json"), *_PACKAGE.rglob("*.toml")])
    return [p for p in files if p.relative_to(_PACKAGE).as_posix().startswith(KERNEL_CODE)]


def _source_digest() -> str:
    """Hash of the kernel code and the data tables it reads: kernels inline each other (and
    constant tables) across files, and numba only checks a function's own file, so the
    cache is keyed by all of them."""
    digest = hashlib.sha256()
    for path in kernel_sources():
        digest.update(path.relative_to(_PACKAGE).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def cache_base() -> str:
    """Where this environment keeps compiled kernels, one folder per code digest below it:
    ``NUMBA_CACHE_DIR``, else ``$XDG_CACHE_HOME/skatsim`` (``~/.cache/skatsim``)."""
    return os.environ.get("NUMBA_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "skatsim"
    )


def _cache_dir() -> str:
    return os.path.join(cache_base(), _source_digest())


def _install_compiled(cache_dir: str, compiled: Path = _PACKAGE / "_compiled") -> None:
    """Link (or copy) the kernels compiled when the package was built (``setup.py``) into ``cache_dir``, once.

    They are found under ``_compiled/<digest>`` in the package, for this very code. A kernel the
    cache already holds is kept; each file is linked (or copied) under a temporary name and
    renamed, its index last, so a process reading the cache meanwhile sees a kernel whole or not
    at all. Numba replaces a cache file rather than writing into it, so a linked file is never
    changed in the package. Kernels compiled for another machine or numba version are copied but
    never loaded (numba keys each by both), and if anything fails numba compiles what is missing,
    as it would without the copy.
    """
    shipped = compiled / os.path.basename(cache_dir)
    marker = os.path.join(cache_dir, ".compiled-copied")
    if not shipped.is_dir() or shipped.resolve() == Path(cache_dir).resolve() or os.path.exists(marker):
        return
    try:
        for index in sorted(shipped.rglob("*.nbi")):
            target = Path(cache_dir) / index.relative_to(shipped)
            if target.exists():
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            for source in [*index.parent.glob(f"{index.stem}.*.nbc"), index]:
                temporary = target.parent / f".{source.name}.{os.getpid()}"
                try:
                    os.link(source, temporary)  # no second copy where both are on one disk
                except OSError:
                    shutil.copyfile(source, temporary)
                os.replace(temporary, target.parent / source.name)
        Path(marker).touch()
    except OSError:
        pass


numba.config.CACHE_DIR = _cache_dir()
_install_compiled(numba.config.CACHE_DIR)


class PackageCacheLocator(caching.UserProvidedCacheLocator):
    """Where numba caches a kernel of this package: under the module's path *inside* the package.

    Numba's own locator names a kernel's cache folder after the absolute path of its source file, so
    the same code installed in another place (a wheel built in one folder, installed in another)
    would never find it. Here the folder is the module's package path (``skatsim/engine``); the
    cache is still keyed by the code's content (the digest in ``CACHE_DIR``, numba's hash of the
    source file and of the function's bytecode) and by the machine it was compiled for.
    """

    #: The cache folders already made and found writable in this process: numba checks each kernel's
    #: folder by writing a temporary file into it, 348 times at import for a dozen folders.
    _ensured: set[str] = set()

    @classmethod
    def get_suitable_cache_subpath(cls, py_file: str) -> str:
        """The module's folder relative to the package's parent, e.g. ``skatsim_engine``."""
        folder = _resolved(py_file).parent.relative_to(_PACKAGE.parent)
        return "_".join(folder.parts)

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> Any:
        """This locator for a function of this package (else None: numba's locators take it)."""
        if not _resolved(py_file).is_relative_to(_PACKAGE):
            return None
        return super().from_function(py_func, py_file)

    def ensure_cache_path(self) -> None:
        """Numba's check of the cache folder, once per folder and process."""
        path = self.get_cache_path()
        if path not in self._ensured:
            super().ensure_cache_path()
            self._ensured.add(path)


@functools.cache
def _resolved(py_file: str) -> Path:
    """A module's source file as an absolute path, resolved once per file (every kernel of a module asks)."""
    return Path(py_file).resolve()


# numba's list of locators (``CacheImpl`` since numba 0.61, ``_CacheImpl`` before)
(getattr(caching, "CacheImpl", None) or caching._CacheImpl)._locator_classes.insert(0, PackageCacheLocator)

_OPTIONS = {"nopython": True, "nogil": True, "error_model": "numpy", "no_cfunc_wrapper": True}

#: Numba's target options of every compiled kernel. Each kernel's compiled code is cached on
#: disk between runs (``enable_caching``); ``nogil`` lets threads share a process; the numpy error
#: model avoids a Python-style zero-division check in the hot loops (none of
#: our kernels divides by a value that can be zero). No kernel is passed to another as a
#: first-class function, so none needs numba's C-callable wrapper: not compiling it saves 6%
#: of a first run's compiling (``no_cfunc_wrapper``); the Python wrapper is compiled only for the
#: kernels Python calls (:class:`Kernel`). Kernels never allocate:
#: they read and write arrays their caller owns, so they are compiled without
#: numba's reference-counting runtime (``_nrt=False``), which would otherwise
#: wrap every array passed between kernels in incref/decref calls (measured: a
#: third of the simulator's time). A kernel that tries to allocate fails to
#: compile with "NRT required but not enabled".
_F = TypeVar("_F", bound=Callable[..., Any])


#: How numba's names of this package's compiled functions begin: ``skatsim.bots.heuristic.ceiling`` is
#: ``_ZN7skatsim4bots9heuristic7ceiling...`` (Itanium-style mangling of the module path and name).
OWN_FUNCTIONS = f"_ZN{len(_PACKAGE.name)}{_PACKAGE.name}"


def _without_wraparound(wrapping: Callable[..., Any]) -> Callable[..., Any]:
    """Numba's ``fix_integer_index`` (``wrapping``), except that in this package's kernels a signed
    array index is taken as it is.

    Numba reads ``a[i]`` with a signed ``i`` as Python does: ``i < 0`` counts from the end, so every
    lookup compares and selects before it loads, and numba has no switch for it (numba issue 3205).
    Our kernels index with cards, seats, slots and game types, never below zero, and their lookups
    depend on one another (a led card's group, then that group's mask): without those instructions
    the simulation's kernel runs about 4% faster, the solver about 12%, every result the same
    (docs/speed.md). So here, as under Cython's ``wraparound=False``, an index below zero is out of
    bounds, in the functions of this package only: one compiled elsewhere in the same process (a
    user's own ``@njit``) keeps numba's rule, and slices keep it everywhere. ``tests/test_jit.py``
    holds both, and plays every shipped variant with numba's bounds checks on, where such an index
    raises."""

    def fix_integer_index(context, builder, idxty, idx, size):  # type: ignore[no-untyped-def]
        if idxty.signed and builder.function.name.startswith(OWN_FUNCTIONS):
            return context.cast(builder, idx, idxty, types.intp)
        return wrapping(context, builder, idxty, idx, size)

    return fix_integer_index


# Only where numba's function has the signature this wraps (it has had it for years; numba 0.68 here):
# with another, every kernel keeps numba's rule, slower but never wrong (and the rule's test fails).
if list(inspect.signature(arrayobj.fix_integer_index).parameters) == ["context", "builder", "idxty", "idx", "size"]:
    arrayobj.fix_integer_index = _without_wraparound(arrayobj.fix_integer_index)


class KernelCache(caching.FunctionCache):
    """Numba's on-disk cache of one kernel, loading without refreshing numba's contexts first.

    Numba refreshes its target context before every load from the cache; the first refresh of a process
    imports numba's implementations and installs every typing and lowering registry, which only
    compiling uses, and the compiler refreshes the contexts itself before it compiles. Compiled code
    loaded from the cache needs only numba's runtime (its allocator, for the kernels that allocate) set
    up. Loading the simulation's kernels took 0.26-0.34 s with the refresh, 0.11-0.14 s without (stop 45).
    """

    def load_overload(self, sig: Any, target_context: Any) -> Any:
        """The cached compiled kernel for ``sig``, or None when the cache has none (numba then compiles)."""
        rtsys.initialize(target_context)
        with self._guard_against_spurious_io_errors():
            return self._load_overload(sig, target_context)


#: Whether numba's cache has the two methods :class:`KernelCache` calls (numba 0.68 here; for years): with
#: another numba, its own cache, whose loads refresh the contexts first (slower to start, never wrong).
_QUICK_LOAD = all(hasattr(caching.Cache, name) for name in ("_load_overload", "_guard_against_spurious_io_errors"))


class TypeDispatcher(CPUDispatcher):
    """A dispatcher that compiles one specialisation per argument *types*, never per constant value.

    Called from another kernel with a constant argument (an error code, ``True``, a game type),
    numba's own dispatcher compiles a copy of the callee for that literal value: 160 of the 400
    specialisations a first run compiled were such copies. Here the call is typed with the
    constants widened to their types (``types.unliteral``), so each kernel is compiled once per
    signature; LLVM still folds the constants where it inlines the call. Its cache is a
    :class:`KernelCache`.
    """

    def enable_caching(self) -> None:
        """Cache the compiled code on disk (:class:`KernelCache` where numba's cache has what it uses)."""
        self._cache = (KernelCache if _QUICK_LOAD else caching.FunctionCache)(self.py_func)

    def get_call_template(self, args: Any, kws: Any) -> Any:
        """The call template for ``args`` and ``kws`` with every literal type widened."""
        plain = tuple(types.unliteral(a) for a in args)
        return super().get_call_template(plain, {k: types.unliteral(v) for k, v in kws.items()})


class Kernel(TypeDispatcher):
    """A kernel compiled for other kernels only: without numba's Python wrapper.

    Most kernels are only ever called by other kernels, which link the callee's code into their own;
    its Python wrapper (argument unboxing, and machine code emitted for the callee's module alone)
    is then compiled for nothing. Compiled without it (``no_cpython_wrapper``), a kernel cannot be
    called from Python: numba would jump to a wrapper that does not exist. So a call from Python goes
    to a twin compiled from the same function with the wrapper, made and compiled at its first
    Python call (cached on disk under its own name): the kernels Python calls (a block of games, the
    what-if loops, the tests' single kernels) are compiled with a wrapper, the rest without.
    """

    _twin: TypeDispatcher | None = None

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        twin = self._twin
        if twin is None:
            twin = self._twin = _twin_of(self)
        return twin(*args, **kwargs)


def _twin_of(dispatcher: Kernel) -> TypeDispatcher:
    """The twin of ``dispatcher`` with numba's Python wrapper, under its own cache name."""
    fn = dispatcher.py_func
    copy = types_module.FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__)
    copy.__qualname__ = f"{fn.__qualname__}.python"
    copy.__module__ = fn.__module__
    copy.__doc__ = fn.__doc__
    options = {**dispatcher.targetoptions, "no_cpython_wrapper": False}
    twin = TypeDispatcher(py_func=copy, locals={}, targetoptions=options)
    twin.enable_caching()
    return twin


def _compile(fn: _F, nrt: bool, inline: str = "never") -> _F:
    options = {**_OPTIONS, "_nrt": nrt, "no_cpython_wrapper": True, "inline": inline}
    dispatcher = Kernel(py_func=fn, locals={}, targetoptions=options)
    dispatcher.enable_caching()
    return cast(_F, dispatcher)


def kernel(fn: _F) -> _F:
    """Compile ``fn`` as an allocation-free kernel (see above); to a type checker it stays ``fn``."""
    return _compile(fn, nrt=False)


def inlined_kernel(fn: _F) -> _F:
    """Compile ``fn`` as a kernel that numba inlines into every kernel calling it, before LLVM sees the
    code. For a small helper that returns a tuple, called from a hot loop: LLVM keeps such a call as a
    call (the tuple passed back through memory). Measured on ``expected._outcome``, shared by two
    loops: as a plain kernel the official rules' kernel ran 4% slower than with its code written out
    in the one loop before; inlined, as fast. Stop 44 compiled five hot functions into their one caller
    each this way, 8% off the kernel (the bot seam's ``bid`` and ``card``, ``choose_card``,
    ``expected_at``, ``suit_logits``). Not a default: inlining the card play's functions into
    ``choose_card`` gained nothing, and one more of them in ``card`` made LLVM keep smaller helpers
    as calls (docs/speed.md)."""
    return _compile(fn, nrt=False, inline="always")


#: For the few kernels that create arrays (a block's workspace, a deal's scratch deck).
def allocating_kernel(fn: _F) -> _F:
    """Compile ``fn`` as a kernel that may allocate arrays (with numba's reference counting)."""
    return _compile(fn, nrt=True)


def _as_int64(builder, value):  # type: ignore[no-untyped-def]
    """Widen or narrow an LLVM integer to i64, so bit counts and indices are plain ``int64``
    (numba would unify an unsigned result with signed ints to float64)."""
    i64 = ir.IntType(64)
    if value.type.width < 64:
        return builder.zext(value, i64)
    if value.type.width > 64:
        return builder.trunc(value, i64)
    return value


def _bit_intrinsic(name: str, doc: str, emit: Callable[[Any, Any], Any]) -> Any:
    """An intrinsic ``name(x)`` of one integer, as ``int64``: ``emit(builder, x)`` builds the LLVM
    value (one instruction, or two), widened or narrowed by :func:`_as_int64`; not an integer: no match."""

    def typer(typingctx, x):  # type: ignore[no-untyped-def]
        if not isinstance(x, types.Integer):
            return None

        def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
            return _as_int64(builder, emit(builder, args[0]))

        return types.int64(x), codegen

    typer.__name__ = typer.__qualname__ = name
    typer.__doc__ = doc
    return intrinsic(typer)


#: The ``is_zero_poison`` flag of ``cttz``/``ctlz``: off, so a zero counts the bit width.
_ZERO_DEFINED = ir.Constant(ir.IntType(1), 0)


def _highest(builder, val):  # type: ignore[no-untyped-def]
    return builder.sub(ir.Constant(val.type, val.type.width - 1), builder.ctlz(val, _ZERO_DEFINED))


popcount = _bit_intrinsic(
    "popcount", "Number of set bits of an integer (LLVM ``ctpop``), as int64.", lambda b, v: b.ctpop(v)
)
lowest_bit = _bit_intrinsic(
    "lowest_bit",
    "Index of the lowest set bit (LLVM ``cttz``) as int64; the bit width for zero.",
    lambda b, v: b.cttz(v, _ZERO_DEFINED),
)
highest_bit = _bit_intrinsic(
    "highest_bit", "Index of the highest set bit of a nonzero integer (width - 1 - ``ctlz``).", _highest
)


@intrinsic
def prefetch_row(typingctx, arr, row):  # type: ignore[no-untyped-def]
    """Ask the CPU to bring row ``row`` of the C-contiguous 2-D array ``arr`` (element ``row`` of a 1-D
    one) into its caches (LLVM ``prefetch``, a hint: no effect on any value, no fault on any address)."""
    if not (isinstance(arr, types.Array) and arr.ndim in (1, 2) and isinstance(row, types.Integer)):
        return None

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        ary = context.make_array(signature.args[0])(context, builder, args[0])
        stride = builder.extract_value(ary.strides, 0)
        r = _as_int64(builder, args[1])
        base = builder.ptrtoint(ary.data, ir.IntType(64))
        addr = builder.add(base, builder.mul(r, stride))
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        fn = builder.module.declare_intrinsic("llvm.prefetch", fnty=fnty)
        # read (0), keep in every cache level (3), data (1)
        builder.call(fn, [builder.inttoptr(addr, i8p), ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return types.none(arr, row), codegen
