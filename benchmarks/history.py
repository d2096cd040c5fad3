"""What ``pi-conformance history`` over several releases costs beside the single runs it makes.

Run on demand (none of this is a timed test; the first use installs the releases from the npm
registry into the kit's cache, which is not measured)::

    .venv/bin/python benchmarks/history.py [--repeat N] [--jobs N] [--area A] [ADAPTER ...]

Default adapters: eight releases, ``pi-node@0.74.0`` to ``pi-node@1.6.0``. Prints, best of
``--repeat`` (default 2), the wall time of each adapter's single ``pi-conformance run`` (a fresh
process, as ``history`` starts them), their sum, the wall time of one ``history`` over them all
with ``--jobs`` (default: the cores this process may use), and the ratio of the last to the sum
divided by the cores used. Target: at most 1.3. Exit code 0 when it is met, 1 otherwise.

The machine is shared: run it quiet, and read a miss beside the load average it prints.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from conformance.adapters.connect import kit_module_command
from conformance.adapters.releases import install, parse_release
from conformance.history_command import cores

TARGET = 1.3
RELEASES = ["pi-node@0.74.0", "pi-node@0.80.10", "pi-node@0.85.1", "pi-node@0.87.1", "pi-node@1.3.0",
            "pi-node@1.4.0", "pi-node@1.5.2", "pi-node@1.6.0"]


def _timed(command: list[str]) -> float:
    began = time.perf_counter()
    done = subprocess.run(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - began
    if done.returncode not in (0, 1):
        sys.exit(f"{' '.join(command)} exited {done.returncode}:\n{done.stderr[-2000:]}")
    return seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("adapters", nargs="*", default=RELEASES)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--area", action="append", default=[])
    args = parser.parse_args()
    for adapter in args.adapters:  # installs are cached, and not what is measured
        release = parse_release(adapter)
        if release is not None:
            install(release)
    jobs = min(args.jobs or cores(), len(args.adapters))
    areas = [part for area in args.area for part in ("--area", area)]
    with tempfile.TemporaryDirectory() as scratch:
        singles = []
        for adapter in args.adapters:
            run = kit_module_command("conformance.cli", "run", "--adapter", adapter, "-q",
                                     "--report-json", str(Path(scratch) / "single.json"), *areas)
            singles.append(min(_timed(run) for _ in range(args.repeat)))
            print(f"  single run  {adapter:20} {singles[-1]:6.2f} s")
        history = kit_module_command("conformance.cli", "history", "--jobs", str(jobs), "--out",
                                     str(Path(scratch) / "h"), *areas,
                                     *(part for adapter in args.adapters for part in ("--adapter", adapter)))
        together = min(_timed(history) for _ in range(args.repeat))
    total = sum(singles)
    ratio = together / (total / jobs)
    print(f"sum of {len(singles)} single runs: {total:.2f} s; history with {jobs} jobs: {together:.2f} s; "
          f"ratio to the sum / {jobs}: {ratio:.2f} (target at most {TARGET}); load average "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 0 if ratio <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
