r"""Where the kernel's time goes, by compiled function and by machine instruction, with ``perf``.

    perf record -F 999 -e cpu-clock -o /tmp/k.data \
        python benchmarks/profile_kernel.py run variants/official.yaml 3e6 --dump choose_card
    perf report -i /tmp/k.data --sort sym --stdio
    python benchmarks/profile_kernel.py annotate /tmp/k.data /tmp/kernel-code/<function>-<address>.bin

``run`` plays the games with the default bots, then names numba's compiled functions for ``perf``
(``/tmp/perf-PID.map``: every function the block kernel's compiled library defines, a function's
share including what LLVM inlined into it) and writes the machine code of the functions whose
symbol contains a ``--dump`` name to ``/tmp/kernel-code``. ``annotate`` disassembles one such dump
(``objdump``) with the samples ``perf`` took at each instruction: in compiled code that ``perf``
cannot read itself, that shows which loads, branches and calls a function's time sits at.
"""

from __future__ import annotations

import argparse
import collections
import ctypes
import gc
import os
import re
import subprocess
import time
from pathlib import Path

DUMPS = Path("/tmp/kernel-code")
BLOCK = 65520
#: Where the timed games start (rounded up to whole lists for a list variant, whose blocks must start at a
#: list's first deal).
START = 10**7


def _play(variant: str, games: int) -> None:
    """Play ``games`` games of ``variant`` with the default bots (after compiling or loading the kernel)."""
    import numpy as np

    from skatsim.bots import bot_arrays, parse_bots
    from skatsim.engine.block import simulate_block
    from skatsim.engine.layout import LOG_WIDTH, N_COLUMNS
    from skatsim.engine.rules import LIST_LENGTH
    from skatsim.run.chunks import whole_lists
    from skatsim.variant import load_variant

    params = load_variant(variant).variant.params()
    start_at, block = whole_lists(START, params[LIST_LENGTH]), whole_lists(BLOCK, params[LIST_LENGTH])
    kinds, bot_params = bot_arrays(parse_bots("heuristic"), params)
    rows = np.zeros((block, N_COLUMNS), dtype=np.int64)
    no_log = np.zeros((0, LOG_WIDTH), np.int16)
    simulate_block(np.uint64(1), 0, kinds, bot_params, params, rows[:3600], no_log)
    start = time.perf_counter()
    for first in range(0, games, block):
        n = min(block, games - first)
        simulate_block(np.uint64(1), start_at + first, kinds, bot_params, params, rows[:n], no_log)
    print(f"{variant}: {games / (time.perf_counter() - start):,.0f} games/s")


def _compiled_functions() -> dict[int, str]:
    """Address -> symbol of every function numba's compiled libraries in this process define."""
    from numba.core.registry import CPUDispatcher

    found: dict[int, str] = {}
    for obj in gc.get_objects():
        if not isinstance(obj, CPUDispatcher):
            continue
        for cres in obj.overloads.values():
            library = cres.library  # type: ignore[attr-defined]
            for module in (getattr(library, "_final_module", None), getattr(library, "_shared_module", None)):
                for fn in module.functions if module is not None else ():
                    if fn.is_declaration:
                        continue
                    address = library.get_pointer_to_function(fn.name)
                    if address:
                        found[address] = fn.name
    return found


def _write_map(functions: dict[int, str], dump: list[str]) -> None:
    """``/tmp/perf-PID.map`` for ``functions``, each reaching to the next (at most 64 KiB), and the code
    of those whose symbol contains a name of ``dump`` in :data:`DUMPS`."""
    starts = sorted(functions)
    DUMPS.mkdir(exist_ok=True)
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as out:
        for start, end in zip(starts, [*starts[1:], starts[-1] + 4096], strict=True):
            size = min(end - start, 1 << 16)
            name = functions[start]
            out.write(f"{start:x} {size:x} {name}\n")
            short = next((d for d in dump if d in name), None)
            if short:
                (DUMPS / f"{short}-{start:x}.bin").write_bytes(ctypes.string_at(start, size))


def annotate(data: str, dump: str) -> None:
    """Print the disassembly of ``dump`` (a file of :func:`_write_map`) with ``perf``'s samples per instruction."""
    base = int(Path(dump).stem.rsplit("-", 1)[1], 16)
    size = Path(dump).stat().st_size
    ips = subprocess.run(["perf", "script", "-i", data, "-F", "ip"], capture_output=True, text=True, check=True)
    counts = collections.Counter(a for a in (int(x, 16) for x in ips.stdout.split()) if base <= a < base + size)
    print(f"{sum(counts.values())} samples")
    listing = subprocess.run(
        ["objdump", "-D", "-b", "binary", "-m", "i386:x86-64", f"--adjust-vma={base:#x}", dump],
        capture_output=True,
        text=True,
        check=True,
    )
    for line in listing.stdout.splitlines():
        match = re.match(r"\s*([0-9a-f]+):", line)
        n = counts.get(int(match.group(1), 16), 0) if match else 0
        print(f"{n or '':>5} {line}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="play games, then write the perf map (and code dumps)")
    run.add_argument("variant")
    run.add_argument("games", type=float)
    run.add_argument("--dump", default="", help="comma-separated parts of function names to dump")
    ann = commands.add_parser("annotate", help="samples per instruction of one dumped function")
    ann.add_argument("data", help="perf.data of a run")
    ann.add_argument("dump", help="a file of /tmp/kernel-code")
    args = parser.parse_args()
    if args.command == "run":
        _play(args.variant, int(args.games))
        _write_map(_compiled_functions(), [d for d in args.dump.split(",") if d])
    else:
        annotate(args.data, args.dump)


if __name__ == "__main__":
    main()
