"""Run every benchmark (`benchmarks/bench_*.py`, default arguments), each in its own process: `make bench`.

Each script writes its results (JSON and Markdown, with the machine facts and the command) into
`benchmarks/results/`. A script that fails (for example the Z3-vs-E benchmark without the `eprover` binary) is
reported and the others still run; the exit status is non-zero if any failed. Its own process per script keeps one
benchmark's imports, caches and worker pools out of the next one's timings.

Run from the repository root:

    python benchmarks/run_all.py [--only lgmt qmfol]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", default=None, help="Only scripts whose name contains one of these.")
    args = parser.parse_args()
    scripts = sorted(HERE.glob("bench_*.py"))
    if args.only:
        scripts = [s for s in scripts if any(word in s.stem for word in args.only)]
    failed: list[str] = []
    for script in scripts:
        print(f"\n=== {script.name}", flush=True)
        start = time.perf_counter()
        code = subprocess.call([sys.executable, str(script)], cwd=HERE.parent)
        print(f"=== {script.name}: exit {code} after {time.perf_counter() - start:.0f} s", flush=True)
        if code:
            failed.append(script.name)
    if failed:
        sys.exit(f"failed: {', '.join(failed)}")


if __name__ == "__main__":
    main()
