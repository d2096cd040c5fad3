"""``history``'s runs forked from the command's own process, which has imported what a run needs
once, instead of each run starting a Python and importing the kit again (``benchmarks/history.py``
measures the processor time saved)."""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path
from conformance.errors import ExitCode

# What a run imports, imported here once before the first fork.
WARM = ("conformance.cli", "conformance.judge.runner", "conformance.output.reports", "conformance.corpus.cases", "conformance.judge.golden",
        "conformance.judge.expectations", "conformance.judge.normalise", "conformance.corpus.trees", "conformance.adapters.client",
        "conformance.adapters.reference", "conformance.operations.index", "conformance.corpus.scenario_checks")


def can_fork() -> bool:
    """Whether runs are forked from this process: only where ``os.fork`` is safe, on POSIX systems
    other than macOS (whose system libraries do not survive a fork), and never from a process
    running other threads, whose locks a child could inherit held (a test runner's workers);
    elsewhere each run is a fresh Python."""
    import threading

    return hasattr(os, "fork") and sys.platform != "darwin" and threading.active_count() == 1


def _warm() -> None:
    import importlib

    for module in WARM:
        importlib.import_module(module)


def _child(argv: list[str], stderr: Path) -> None:
    """In the forked child: carry out ``pi-conformance run argv`` and exit with its code. Never
    returns."""
    code = ExitCode.CRASHED
    try:
        import atexit

        atexit._clear()  # the parent's exit handlers are the parent's to run
        null = os.open(os.devnull, os.O_RDWR)
        err = os.open(stderr, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        for fd, target in ((0, null), (1, null), (2, err)):
            os.dup2(target, fd)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        from conformance.cli import main

        code = main(argv)
        atexit._run_exitfuncs()
    except BaseException:  # noqa: BLE001 (the child must exit, whatever happened)
        import traceback

        traceback.print_exc()
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


def _ended(running: dict[int, tuple[int, float]]) -> list[tuple[int, int]]:
    """``(pid, wait status)`` of each child in ``running`` that has ended, reaped."""
    ended = []
    for pid in running:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            ended.append((pid, status))
    return ended


def run_forked(runs: list[tuple[str, list[str], Path]], jobs: int, folder: Path) -> list[tuple]:
    """Carry out ``runs`` (``(adapter, run arguments, report path)``, in order), at most ``jobs``
    at once, each in a child forked for it alone (never a pool reused across runs, so nothing of
    one run reaches the next): its standard input and output are ``/dev/null``, its standard error
    a file, and it carries out ``pi-conformance run`` (:func:`conformance.cli.main`) and exits with
    its code. Returns ``(adapter, exit code, report, stderr text,
    seconds)`` per run, in order. Interrupted, it sends the children going on ``SIGTERM`` (each
    stops its adapter), waits for them and re-raises."""
    _warm()
    sys.stdout.flush()
    sys.stderr.flush()
    pending = list(enumerate(runs))
    running: dict[int, tuple[int, float]] = {}
    results: dict[int, tuple] = {}
    try:
        while pending or running:
            while pending and len(running) < jobs:
                index, (adapter, argv, report) = pending.pop(0)
                stderr = folder / f"{index:02d}.stderr"
                pid = os.fork()
                if pid == 0:
                    _child(argv, stderr)
                running[pid] = (index, time.monotonic())
            ended = _ended(running)
            if not ended:
                time.sleep(0.02)  # only this command's children are waited for, never another's
            for pid, status in ended:
                index, started = running.pop(pid)
                adapter, _argv, report = runs[index]
                text = (folder / f"{index:02d}.stderr").read_text(encoding="utf-8", errors="replace")
                results[index] = (adapter, os.waitstatus_to_exitcode(status), report, text, time.monotonic() - started)
    except BaseException:
        for pid in running:
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        for pid in running:
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass
        raise
    return [results[i] for i in range(len(runs))]
