"""What ``pi-conformance history`` over several releases costs beside the single runs it makes.

Run on demand (none of this is a timed test; the first use installs the releases from the npm
registry into the kit's cache, which is not measured)::

    .venv/bin/python benchmarks/history.py [--repeat N] [--jobs N] [--area A] [ADAPTER ...]

Default adapters: eight releases, ``pi-node@0.74.0`` to ``pi-node@1.6.0``. In ``--repeat``
rounds (default 2) of every single run then one ``history``, so that both meet the machine's load
alike, it measures the wall and processor time (with every child's) of each adapter's single
``pi-conformance run`` (a fresh process) and of one ``history`` over them all with ``--jobs``
(default: the cores this process may use), and prints the best of each: the sum of the single
runs, the history, the ratio of its wall time to the sum divided by the cores used (target: at
most 1.3) and of its processor time to the single runs' (what ``history`` adds or saves, which
the machine's load does not change). Exit code 0 when the target is met, 1 otherwise.

The machine is shared: run it quiet, and read a miss beside the load average it prints.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from conformance.adapters.connect import kit_module_command
from conformance.adapters.releases import install, parse_release
from conformance.commands.history import cores

TARGET = 1.3
RELEASES = ["pi-node@0.74.0", "pi-node@0.80.10", "pi-node@0.85.1", "pi-node@0.87.1", "pi-node@1.3.0",
            "pi-node@1.4.0", "pi-node@1.5.2", "pi-node@1.6.0"]


def _timed(command: list[str]) -> tuple[float, float]:
    """Wall and processor seconds (the command's and all its children's) of one run of ``command``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    done = subprocess.run(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        sys.exit(f"{' '.join(command)} exited {done.returncode}:\n{done.stderr[-2000:]}")
    return seconds, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


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
        singles = {a: [] for a in args.adapters}
        together = []
        history = kit_module_command("conformance.cli", "history", "--jobs", str(jobs), "--out",
                                     str(Path(scratch) / "h"), *areas,
                                     *(part for adapter in args.adapters for part in ("--adapter", adapter)))
        for _ in range(args.repeat):  # rounds of both, so that both meet the machine's load alike
            for adapter in args.adapters:
                run = kit_module_command("conformance.cli", "run", "--adapter", adapter, "-q",
                                         "--report-json", str(Path(scratch) / "single.json"), *areas)
                singles[adapter].append(_timed(run))
            together.append(_timed(history))
    for adapter, times in singles.items():
        print(f"  single run  {adapter:20} {min(w for w, _ in times):6.2f} s wall, {min(c for _, c in times):6.2f} s processor")
    total = sum(min(w for w, _ in times) for times in singles.values())
    total_cpu = sum(min(c for _, c in times) for times in singles.values())
    wall, cpu = min(w for w, _ in together), min(c for _, c in together)
    ratio = wall / (total / jobs)
    print(f"sum of {len(singles)} single runs: {total:.2f} s wall, {total_cpu:.2f} s processor; history with {jobs} "
          f"jobs: {wall:.2f} s wall, {cpu:.2f} s processor; ratio to the sum / {jobs}: {ratio:.2f} (target at most "
          f"{TARGET}); processor time against the sum: {cpu / total_cpu:.2f}; load average "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 0 if ratio <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
