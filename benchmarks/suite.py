"""Wall time of the whole suite against the reference, in process and through serve-reference.

Run on demand: ``.venv/bin/python benchmarks/suite.py [--repeat N]``. Prints both wall times
(best of N) and their ratio; the target is serve-reference within 1.5x of in process.
"""

from __future__ import annotations

import argparse
import sys
import time

from conformance.adapters.inprocess import InProcessAdapter
from conformance.adapters.client import JsonLinesAdapter
from conformance.adapters.reference import ReferenceImplementation
from conformance.cases import load_suite
from conformance.runner import Runner


def wall(adapter, cases) -> float:
    runner = Runner(adapter)
    started = time.perf_counter()
    runner.start()
    try:
        for case in cases:
            runner.run_case(case)
    finally:
        runner.stop()
    return time.perf_counter() - started


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args()
    cases = load_suite().cases
    inproc = min(wall(InProcessAdapter(ReferenceImplementation()), cases) for _ in range(args.repeat))
    served = min(wall(JsonLinesAdapter([sys.executable, "-m", "conformance.adapters.server"]), cases)
                 for _ in range(args.repeat))
    print(f"{len(cases)} cases; in process {inproc:.3f} s; serve-reference {served:.3f} s; "
          f"ratio {served / inproc:.2f} (target <= 1.5)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
