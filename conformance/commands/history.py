"""The ``pi-conformance history`` command, and ``compare --cases``: verdicts across releases
(docs/history.md)."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from conformance.corpus.areas import AREAS
from conformance.output.console import shown, shown_lines
from conformance.output.history import build_history, markdown_table
from conformance.errors import ExitCode
from conformance.commands.options import add_edition_argument, folder_argument, pattern_argument, timeout_seconds
from conformance.session import Session

DEFAULT_OUT = "reports/history"


def cores() -> int:
    """The processor cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``history`` subcommand's options to ``parser``."""
    parser.add_argument("--adapter", action="append", metavar="ADAPTER", default=[], required=True,
                        help="an implementation to judge, oldest first (repeatable; two or more), e.g. pi-node@1.5.2")
    parser.add_argument("--area", action="append", choices=AREAS, help="only this area (repeatable)")
    parser.add_argument("--case", action="append", type=pattern_argument, metavar="PATTERN",
                        help="only cases whose id matches this glob (repeatable)")
    parser.add_argument("--op", action="append", type=pattern_argument, metavar="PATTERN",
                        help="only cases of an operation whose name matches this glob (repeatable)")
    from conformance.corpus.editions import DEFAULT

    add_edition_argument(parser, DEFAULT, DEFAULT)
    parser.add_argument("--out", type=folder_argument, default=DEFAULT_OUT, metavar="DIR",
                        help=f"write history.json and history.html into DIR (default {DEFAULT_OUT})")
    parser.add_argument("--jobs", type=int, default=None, metavar="N",
                        help="runs at once (default: the processor cores, at most one per adapter)")
    parser.add_argument("--timeout", type=timeout_seconds, default=10.0, metavar="SECONDS",
                        help="per-case timeout of each run (default 10)")
    parser.add_argument("--markdown", action="store_true", help="also print the runs' counts as a Markdown table")


@dataclass
class Run:
    """One child run: its adapter, exit code, report path and standard error; ``seconds`` it took."""

    adapter: str
    code: int
    report: Path
    stderr: str
    seconds: float


def _fail(message: str, code: ExitCode) -> ExitCode:
    print(f"pi-conformance history: {message}", file=sys.stderr)
    return code


def _prepare(adapters: list[str]) -> str | None:
    """Install each release named (``pi-node@VERSION``) in turn; what went wrong, or ``None``.
    Raises ``AdapterNameError`` for a release name with a bad version."""
    from conformance.adapters.base import AdapterStartError
    from conformance.adapters.releases import install, parse_release

    for adapter in adapters:
        release = parse_release(adapter)
        if release is None:
            continue
        try:
            install(release)
        except AdapterStartError as exc:
            return f"{adapter}: {exc}"
    return None


def run_arguments(adapter: str, session: Session, timeout: float, report: Path) -> list[str]:
    """The ``pi-conformance run`` arguments of the run against ``adapter`` writing ``report``: the
    session's edition (when it was given) and selection, ``timeout`` seconds a case."""
    argv = ["run", "--adapter", adapter, "--report-json", str(report), "-q", "--timeout", str(timeout)]
    if session.edition_given:  # as run takes its default: an edition of an area not selected is refused only when named
        argv += ["--edition", session.edition]
    for area in session.areas or ():
        argv += ["--area", area]
    for pattern in session.patterns or ():
        argv += ["--case", pattern]
    for pattern in session.ops or ():
        argv += ["--op", pattern]
    return argv


def run_one(adapter: str, session: Session, timeout: float, folder: Path, index: int) -> Run:
    """Run the suite against ``adapter`` in a child ``pi-conformance run`` writing its JSON report
    into ``folder`` (a fresh Python: where this system cannot fork, see :mod:`history_fork`)."""
    from conformance.adapters.connect import kit_module_command

    report = folder / f"{index:02d}.json"
    command = kit_module_command("conformance.cli", *run_arguments(adapter, session, timeout, report))
    started = time.monotonic()
    with subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True, errors="replace") as proc:
        _running.add(proc)
        try:
            _out, err = proc.communicate()
        finally:
            _running.discard(proc)
    return Run(adapter, proc.returncode, report, err, time.monotonic() - started)


_running: set[subprocess.Popen] = set()
"""The child runs going on now, stopped when ``history`` is interrupted."""


def run_all(adapters: list[str], session: Session, timeout: float, folder: Path, jobs: int) -> list[Run]:
    """Every adapter's run (of the session's edition and selection), at most ``jobs`` at once, in the order given: forked from this process
    where the system can (:func:`conformance.commands.history_fork.run_forked`), else each a fresh Python.
    Interrupted (Ctrl-C, a termination signal), it stops the runs going on and cancels the others
    before re-raising."""
    from conformance.commands import history_fork

    if history_fork.can_fork():
        runs = history_fork.run_forked([(a, run_arguments(a, session, timeout, folder / f"{i:02d}.json"),
                                         folder / f"{i:02d}.json") for i, a in enumerate(adapters)], jobs, folder)
        return [Run(*r) for r in runs]
    pool = ThreadPoolExecutor(max_workers=jobs)
    futures = [pool.submit(run_one, a, session, timeout, folder, i) for i, a in enumerate(adapters)]
    try:
        return [f.result() for f in futures]
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        for proc in list(_running):
            proc.terminate()  # the run stops its adapter as on SIGTERM
        raise
    finally:
        pool.shutdown(wait=True)


def _tail(text: str, lines: int = 12) -> str:
    return "\n".join(shown_lines("\n".join(text.rstrip().splitlines()[-lines:])))


def run(args: argparse.Namespace) -> ExitCode:
    """Carry out ``history --adapter A --adapter B ...``: run the suite against each adapter
    (oldest first), in parallel child runs of ``pi-conformance run`` (at most ``--jobs``, by default
    the processor cores this process may use; forked from this process where it can,
    :mod:`conformance.commands.history_fork`), each writing its JSON report; releases named
    ``pi-node@VERSION`` are installed first, one after the other, so that the runs start from the
    cache. Then write ``history.json`` (:func:`conformance.output.history.build_history`) and
    ``history.html`` into ``--out``.

    Returns 0 when the history was written (what the releases fail is its content, not an error);
    2 for usage, or a run that ended with suite errors; 3 when an adapter could not be installed or
    started."""
    from conformance.adapters.base import AdapterNameError
    from conformance.output.ownership import check_replaceable
    from conformance.output.report_paths import check_folder_writable, check_out_folder, kit_folders
    from conformance.output.reports import load_report

    adapters = args.adapter
    if len(adapters) < 2:
        return _fail("give two or more --adapter, oldest first: a history compares neighbouring runs", ExitCode.USAGE)
    repeated = sorted({a for a in adapters if adapters.count(a) > 1})
    if repeated:
        return _fail(f"--adapter {shown(repeated[0])} is given twice", ExitCode.USAGE)
    if args.jobs is not None and args.jobs < 1:
        return _fail(f"--jobs must be 1 or more, not {args.jobs}", ExitCode.USAGE)
    try:
        out = Path(os.path.abspath(check_out_folder("--out", args.out, kit_folders())))
        check_folder_writable(f"--out {args.out}", out)  # made when the history is written
        for name in ("history.json", "history.html"):
            check_replaceable("--out", out / name)
    except (ValueError, OSError) as exc:
        return _fail(str(exc), ExitCode.USAGE)
    try:
        problem = _prepare(adapters)
    except AdapterNameError as exc:
        return _fail(str(exc), ExitCode.USAGE)
    if problem:
        return _fail(f"an adapter could not be installed: {problem}", ExitCode.START)
    jobs = min(args.jobs or cores(), len(adapters))
    print(f"history: {len(adapters)} runs, {jobs} at a time; edition {args.edition}")
    with tempfile.TemporaryDirectory(prefix="pi-conformance-history-") as scratch:
        runs = run_all(adapters, Session.from_args(args), args.timeout, Path(scratch), jobs)
        for run in runs:
            if run.code not in (ExitCode.OK, ExitCode.FAILED):
                what = {ExitCode.USAGE: "ended with usage or suite errors",
                        ExitCode.START: "could not start"}.get(run.code, f"exited with code {run.code}")
                return _fail(f"the run against {shown(run.adapter)} {what}:\n{_tail(run.stderr)}",
                             ExitCode.START if run.code == ExitCode.START else ExitCode.USAGE)
        try:
            reports = [load_report(run.report) for run in runs]
            history = build_history(reports, labels=list(adapters))
        except ValueError as exc:
            return _fail(str(exc), ExitCode.USAGE)
    history["edition"] = args.edition
    history["suite"] = reports[0]["header"].get("suite")
    history["date"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    _write(out, history)
    for run, release in zip(runs, history["releases"]):
        totals: dict[str, int] = {}
        for row in release["summary"].values():
            for status, count in row.items():
                totals[status] = totals.get(status, 0) + count
        counted = ", ".join(f"{n} {s}" for s, n in totals.items() if n)
        print(f"  {shown(run.adapter):24} {shown(release['implementation']['version']):10} {counted} ({run.seconds:.1f} s)")
    for pair in history["pairs"]:
        print(f"  {shown(pair['from'])} -> {shown(pair['to'])}: {len(pair['newlyFailing'])} newly failing, "
              f"{len(pair['newlyPassing'])} newly passing, {len(pair['changed'])} changed")
    if args.markdown:
        print(markdown_table(history))
    print(f"wrote {out / 'history.json'} and {out / 'history.html'}")
    return ExitCode.OK


def _write(out: Path, history: dict) -> None:
    from conformance.output.console import json_document
    from conformance.output.files import write_text
    from conformance.output.site.history import render_history

    write_text(out / "history.json", json_document(history, indent=1) + "\n")
    write_text(out / "history.html", render_history(history))
