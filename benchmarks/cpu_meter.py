"""CPU seconds of this process and of its worker processes over a block, for benchmarks on a shared machine.

On a loaded machine wall time measures the neighbours as much as the code. The CPU seconds each process spent do
not: a build whose workers together spend no more CPU than the serial build, split evenly, would run `num_proc`
times faster on idle cores. `CpuMeter` records this process's CPU time and polls its descendants (the pool's
workers, children of the fork server) every `interval` seconds; the last poll before a worker exits bounds what is
missed by one interval of that worker's time.
"""

from __future__ import annotations

import threading
import time
from types import TracebackType
from typing import Any

import psutil  # a dependency of inspect_ai


class CpuMeter:
    """`with CpuMeter() as m: ...` then `m.result()`: parent CPU, per-worker CPU, total and critical path."""

    def __init__(self, interval: float = 0.1) -> None:
        self.interval = interval
        self._me = psutil.Process()
        self._start: dict[int, float] = {}
        self._last: dict[int, float] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._poll_forever, daemon=True)
        self._parent = 0.0

    def _poll(self) -> None:
        for child in self._me.children(recursive=True):
            try:
                t = child.cpu_times()
            except psutil.Error:
                continue
            self._last[child.pid] = t.user + t.system

    def _poll_forever(self) -> None:
        while not self._stop.wait(self.interval):
            self._poll()

    def __enter__(self) -> CpuMeter:
        self._poll()
        self._start = dict(self._last)
        self._parent = time.process_time()
        self._thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self._parent = time.process_time() - self._parent
        self._stop.set()
        self._thread.join()
        self._poll()

    def result(self) -> dict[str, Any]:
        """`parent_cpu_s`, `workers_cpu_s` (busiest first, idle processes left out), `total_cpu_s` and
        `critical_path_cpu_s` (parent + busiest worker: about the wall time on idle cores)."""
        used = [v - self._start.get(pid, 0.0) for pid, v in self._last.items()]
        workers = sorted((round(u, 2) for u in used if u > 0.05), reverse=True)
        return {
            "parent_cpu_s": round(self._parent, 2),
            "workers_cpu_s": workers,
            "total_cpu_s": round(self._parent + sum(workers), 2),
            "critical_path_cpu_s": round(self._parent + (workers[0] if workers else 0.0), 2),
        }
