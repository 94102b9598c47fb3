"""Keep the memory Z3 frees for the next query instead of handing it back to the OS after every query.

Z3 allocates and frees a lot per query: a fresh solver in every mode, and a whole fresh context in the prover's
``"fresh"`` and ``"python"`` modes and for every query the default ``"shared"`` mode re-asks in a context of its own.
With glibc's default settings, freeing a context can shrink the heap (`M_TRIM_THRESHOLD`, 128 KiB by default, and
adjusted at run time together with the mmap threshold), so the next context grows it again, a cycle of system calls
that made a context cost about 10 ms instead of under 1 ms once other libraries (Hugging Face `datasets`) had
shaped the heap. Measured on `lgmt build lgmt --source folio` (one process, 2026-11-21): 22.4 s with 7.5 s of system
time before, 14.9 s with 0.6 s after, at the same peak memory (219 vs 222 MB).

The tuning is process-wide, so it is applied once, lazily, by the prover's first query (`ensure_tuned`), never at import
time: a process that loads our Inspect entry point but proves nothing keeps glibc's defaults. It applies on Linux with
glibc only, and `LGMT_MALLOC_TUNING=0` turns it off. It changes where memory comes from, never what Z3 computes: the
builds stay byte-identical (the committed datasets are rebuilt and compared by the test suite).
"""

from __future__ import annotations

import ctypes
import os
import sys

M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
TRIM_THRESHOLD_BYTES = 256 * 1024 * 1024
"""Free memory at the top of the heap kept for reuse before glibc returns it."""
MMAP_THRESHOLD_BYTES = 32 * 1024 * 1024
"""Allocations below this come from the heap (fixed, so glibc does not move it at run time)."""


def tune_malloc_for_z3() -> bool:
    """Raise glibc's trim and mmap thresholds; return whether they were set.

    Nothing is done (False) off Linux, without glibc's `mallopt`, or with `LGMT_MALLOC_TUNING=0`.
    """
    if sys.platform != "linux" or os.environ.get("LGMT_MALLOC_TUNING", "1") == "0":
        return False
    try:
        mallopt = ctypes.CDLL("libc.so.6").mallopt
    except (OSError, AttributeError):  # musl or another libc: nothing to tune
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    trimmed = bool(mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD_BYTES))  # mallopt returns 1 on success
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES)) and trimmed


_applied: bool | None = None
"""None until the first `ensure_tuned()`; then whether the tuning took effect."""


def ensure_tuned() -> bool:
    """Apply `tune_malloc_for_z3` once per process (on the first prover query); return whether it took effect."""
    global _applied
    if _applied is None:
        _applied = tune_malloc_for_z3()
    return _applied


def tuned() -> bool | None:
    """Whether the tuning has run in this process (None: not yet; the prover has not been queried)."""
    return _applied
