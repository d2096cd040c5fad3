"""What the kit costs beside the implementation it tests, and what a selection costs beside a full run.

Run on demand (none of this is a timed test)::

    .venv/bin/python benchmarks/suite.py [--repeat N] [--no-pi-node] [--cold]

Prints, all measured in this one run (best of ``--repeat``, default 3):

- for the whole suite through each adapter (the bundled reference in process, ``serve-reference``,
  ``pi-node`` with its expectations file): the wall time of loading the suite and running every
  case in one process, the implementation's own share (its start, every answer as the kit waits
  for it, its stop), and their ratio. Target in process: at most 2.
- the whole suite through ``serve-reference`` against in process (target: within 1.5x);
- the wall time of ``pi-conformance run --case ID``, ``show ID`` and ``list --area A``, each as a
  share of a full ``pi-conformance run``, all as fresh processes; and what each costs beyond the
  start-up every command pays (``--help``: starting Python and importing the kit) as a share of
  what a full run costs beyond it. Target: at most 20%, beyond the start-up.

The parse cache (see ``conformance/corpus/yamlcache.py``) is warmed first, as it is after any first run;
``--cold`` also gives the in-process figure with an empty cache. Child processes get Python's
usual bytecode cache even where ``PYTHONDONTWRITEBYTECODE`` is set, as a user's shell has it.
Exit code 0 when both targets are met, 1 otherwise.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from conformance.adapters.base import Adapter
from conformance.corpus.cases import load_suite
from conformance.adapters.connect import make_adapter
from conformance.judge.expectations import load_expectations
from conformance.judge.runner import Runner

IN_PROCESS_TARGET = 2.0
SELECTION_TARGET = 0.20
PI_NODE_EXPECTATIONS = Path(__file__).resolve().parent.parent / "conformance/adapters/pi-node/expectations.yaml"
CASE = "env-payload-replace-both"  # an envelope case: the reference loads its collation table first
OTHER_CASE = "mdl-cred-none"
AREA = "profiles"


class Timed:
    """An adapter that adds up the wall time spent inside the one it wraps (seconds)."""

    def __init__(self, inner: Adapter) -> None:
        self.inner = inner
        self.seconds = 0.0

    def _timed(self, fn, *args, **kwargs):
        began = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            self.seconds += time.perf_counter() - began

    def start(self):
        return self._timed(self.inner.start)

    def run(self, op, input, **kwargs):
        return self._timed(self.inner.run, op, input, **kwargs)

    def stop(self):
        return self._timed(self.inner.stop)


def whole_suite(adapter_name: str, expectations: Path | None = None) -> tuple[float, float, int, float]:
    """(wall seconds, implementation seconds, cases, loading seconds) of loading the suite and
    running every case."""
    adapter = Timed(make_adapter(adapter_name))
    began = time.perf_counter()
    cases = load_suite().cases
    loaded = time.perf_counter() - began
    runner = Runner(adapter, expectations=load_expectations(expectations) if expectations else None)
    runner.start()
    try:
        for case in cases:
            runner.run_case(case)
    finally:
        runner.stop()
    return time.perf_counter() - began, adapter.seconds, len(cases), loaded


def best(repeat: int, fn, *args):
    return min((fn(*args) for _ in range(repeat)), key=lambda r: r[0])


def command_wall(args: list[str], env: dict[str, str]) -> float:
    """Wall seconds of ``pi-conformance ARGS`` as a fresh process (it must exit 0)."""
    began = time.perf_counter()
    subprocess.run([sys.executable, "-m", "conformance.cli", *args], check=True, env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - began


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--no-pi-node", action="store_true", help="leave out the pi-node adapter")
    p.add_argument("--cold", action="store_true", help="also run in process with an empty parse cache")
    args = p.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    good = True
    load_suite()  # warm the parse cache
    if args.cold:
        with tempfile.TemporaryDirectory() as empty:
            os.environ["PI_CONFORMANCE_CACHE"] = empty
            wall, impl, n, load = whole_suite("reference")
            os.environ.pop("PI_CONFORMANCE_CACHE")
            if "PI_CONFORMANCE_CACHE" in env:
                os.environ["PI_CONFORMANCE_CACHE"] = env["PI_CONFORMANCE_CACHE"]
        print(f"whole suite, in process, empty parse cache: {n} cases, {wall:.2f} s wall (loading {load:.2f} s), "
              f"{impl:.2f} s implementation: ratio {wall / impl:.2f}")
    adapters = [("reference", None), ("serve-reference", None)] + ([] if args.no_pi_node else
                                                                    [("pi-node", PI_NODE_EXPECTATIONS)])
    walls = {}
    for name, expectations in adapters:
        wall, impl, n, load = best(args.repeat, whole_suite, name, expectations)
        walls[name] = wall
        target = f" (target <= {IN_PROCESS_TARGET:g})" if name == "reference" else ""
        print(f"whole suite, {name}: {n} cases, {wall:.2f} s wall (loading {load:.2f} s), {impl:.2f} s "
              f"implementation: ratio {wall / impl:.2f}{target}")
        good &= name != "reference" or wall / impl <= IN_PROCESS_TARGET
    print(f"serve-reference against in process: {walls['serve-reference'] / walls['reference']:.2f}x "
          "(target within 1.5x)")
    command_wall(["list"], env)  # bytecode and parse cache in place for the children
    full = min(command_wall(["run", "-q"], env) for _ in range(args.repeat))
    print(f"pi-conformance run (full): {full:.2f} s wall")
    floor = min(command_wall(["--help"], env) for _ in range(args.repeat))
    print(f"pi-conformance --help (starting Python and importing the kit): {floor:.2f} s wall, "
          f"{floor / full:.0%} of a full run")
    for label, cmd in ((f"run --case {CASE}", ["run", "-q", "--case", CASE]),
                       (f"run --case {OTHER_CASE}", ["run", "-q", "--case", OTHER_CASE]),
                       (f"show {CASE}", ["show", CASE]), (f"list --area {AREA}", ["list", "--area", AREA])):
        wall = min(command_wall(cmd, env) for _ in range(args.repeat))
        beyond = (wall - floor) / (full - floor)
        print(f"pi-conformance {label}: {wall:.2f} s wall, {wall / full:.0%} of a full run; beyond the start-up "
              f"every command pays (--help), {beyond:.0%} of a full run's (target <= {SELECTION_TARGET:.0%})")
        good &= beyond <= SELECTION_TARGET
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
