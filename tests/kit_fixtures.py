"""Helpers for the kit's own tests: a miniature suite (catalogue, scenarios, goldens) in a
temporary directory, using the kit's own ``kit.echo`` operation, and stand-in implementations."""

from __future__ import annotations

import contextlib
import functools
import os
import textwrap
from collections.abc import Iterator
from pathlib import Path

from conformance.adapters.base import Implementation, ImplementationError, Skipped, Unsupported
from conformance.adapters.environment import MEASUREMENT_VARIABLES, AdapterEnvironment

UNMEASURED = AdapterEnvironment({name: "" for name in MEASUREMENT_VARIABLES})
"""The environment of a stand-in adapter of ``tests/standins/`` that speaks the protocol by hand
(through ``_proto``): any adapter's, with the kit's coverage measurement of its child processes
left off (an empty value starts none). Such a stand-in runs none of the kit's code, so there is
nothing to measure in it, and starting coverage in each of its processes cost more than the
stand-in itself. A stand-in that runs the kit's code (``prints_stdout.py``) keeps the measurement."""

def lend_parse_cache(cache: Path) -> Path:
    """Make ``cache`` a parse cache folder (for ``$PI_CONFORMANCE_CACHE``) whose parsed documents
    are this session's own: its ``yaml`` linked to :func:`conformance.corpus.yamlcache.cache_dir`, unless
    the session has the cache off (``cache`` is then left as it is). For a child process that
    would otherwise check every scenario file afresh, which costs a second and more and is not
    what its test is about (the cache is keyed by content, so nothing stale can be found).
    Returns ``cache``."""
    from conformance.corpus import yamlcache

    parsed = yamlcache.cache_dir()
    if parsed is not None:
        parsed.mkdir(parents=True, exist_ok=True)
        cache.mkdir(parents=True)
        (cache / "yaml").symlink_to(parsed, target_is_directory=True)
    return cache


def cache_document(entry: Path):
    """The document a parse-cache entry file holds (the JSON after its header line)."""
    import json

    return json.loads(entry.read_bytes().partition(b"\n")[2])


@functools.lru_cache(maxsize=1)
def import_every_module() -> None:
    """Import every module of the kit and the reference, once in a process."""
    import importlib
    import pkgutil

    import conformance
    import reference

    for package in (conformance, reference):
        for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            if not info.name.endswith("__main__"):
                importlib.import_module(info.name)


@contextlib.contextmanager
def untraced() -> Iterator[None]:
    """Under ``coverage run``, code coverage's tracer paused for the block and the child processes
    it starts unmeasured (:data:`MEASUREMENT_VARIABLES` left out of the environment); nothing
    otherwise. For tests that run again code the other tests measure (the ``untraced`` mark of
    ``tests/conftest.py``, the catch matrix of ``tests/test_faults.py``): the figures stay the
    same (``benchmarks/coverage_figures.py --compare``), and the tracer made them two to three
    times slower."""
    try:
        import coverage
    except ImportError:  # pragma: no cover - coverage is a test extra
        coverage = None
    cov = coverage.Coverage.current() if coverage is not None else None
    if cov is None:
        yield
        return
    # A module's body runs once, at its first import: imported first under the pause (a module
    # imported lazily, such as models_schema), its lines would never be measured in this process,
    # depending on which tests ran here before.
    import_every_module()
    saved = {name: os.environ.pop(name) for name in MEASUREMENT_VARIABLES if name in os.environ}
    cov.stop()
    try:
        yield
    finally:
        cov.start()
        os.environ.update(saved)


SPEC = """\
area: envelope
clauses:
  - id: ENV-TEST-ECHO
    level: MUST
    statement: Echo returns its value.
    source: test
  - id: ENV-TEST-REFUSE
    level: MUST
    statement: A value 'refuse' is refused.
    source: test
    refusal: true
  - id: ENV-TEST-OPTIONAL
    level: MAY
    statement: Nothing covers this.
    source: test
"""

SCENARIO = """\
format: 1
area: kit
title: Echo
op: kit.echo
cases:
  - id: kit-echo-text
    title: a multi-line string comes back
    clauses: [ENV-TEST-ECHO]
    input: {value: "one\\ntwo\\n"}
  - id: kit-echo-number
    title: a number comes back
    clauses: [ENV-TEST-ECHO]
    input: {value: 1.0}
  - id: kit-echo-refused
    title: refuse is refused
    clauses: [ENV-TEST-REFUSE]
    input: {value: refuse}
    error: {code: value-refused}
"""


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def mini_suite(root: Path, *, goldens: bool = True) -> dict[str, Path]:
    """Write a miniature suite under ``root``; returns its directories."""
    spec = root / "spec"
    scenarios = root / "scenarios"
    gold = root / "golden"
    write(spec / "test.yaml", SPEC)
    write(scenarios / "kit" / "echo.yaml", SCENARIO)
    gold.mkdir(parents=True, exist_ok=True)
    if goldens:
        from conformance.judge import golden

        golden.write(gold / "kit" / "kit-echo-text.yaml", "kit-echo-text", "kit.echo", {"value": "one\ntwo\n"})
        golden.write(gold / "kit" / "kit-echo-number.yaml", "kit-echo-number", "kit.echo", {"value": 1})
    return {"spec": spec, "scenarios": scenarios, "golden": gold}


class Instructions(Implementation):
    """Answers every ``envelope.instructions`` request with the provider instructions ``text``,
    whatever its input: subclasses set ``name`` and ``text`` (a wrong or hostile answer)."""

    name = "instructions"
    version = "1"
    text = ""

    def operations(self) -> list[str]:
        return ["envelope.instructions"]

    def run(self, op: str, input: dict, root: str | None) -> dict:
        return {"providerInstructions": self.text}


class Echo(Implementation):
    """A correct implementation of kit.echo (refusing the value 'refuse')."""

    name = "echo"
    version = "1"

    def operations(self) -> list[str]:
        return ["kit.echo"]

    def run(self, op: str, input: dict, root: str | None) -> dict:
        if input.get("value") == "refuse":
            raise ImplementationError("value-refused", "refused")
        return {"value": input.get("value")}


class WrongEcho(Echo):
    """Answers every echo with the wrong value."""

    def run(self, op: str, input: dict, root: str | None) -> dict:
        return {"value": "wrong"}


class CrashingEcho(Echo):
    def run(self, op: str, input: dict, root: str | None) -> dict:
        raise RuntimeError("boom")


class NoOps(Echo):
    def operations(self) -> list[str]:
        return []


class RaisesUnsupported(Echo):
    def run(self, op: str, input: dict, root: str | None) -> dict:
        raise Unsupported("no echo here")


class SkipsAll(Echo):
    def run(self, op: str, input: dict, root: str | None) -> dict:
        raise Skipped("not today")


class BadOutput(Echo):
    def run(self, op: str, input: dict, root: str | None) -> dict:
        return {"value": 1, "extra": True}


class CannotStart(Echo):
    def operations(self) -> list[str]:
        raise RuntimeError("no")


class Interrupted(Echo):
    """A user presses Ctrl-C during the second case: the process gets a SIGINT. (A
    ``KeyboardInterrupt`` the implementation raised itself would be its errored answer.)"""

    calls = 0

    def run(self, op: str, input: dict, root: str | None) -> dict:
        import os
        import signal
        import time

        type(self).calls += 1
        if type(self).calls == 2:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)
        return super().run(op, input, root)


class Shouty(Echo):
    """Refuses with a message full of terminal colour codes, and lists a misspelt operation."""

    name = "shouty\x1b[1m"

    def operations(self) -> list[str]:
        return ["kit.echo", "kit.ecko"]

    def run(self, op: str, input: dict, root: str | None) -> dict:
        raise ImplementationError("coloured", "\x1b[31mred\x1b[0m \x00")


class ExitsOnSecondCall(Echo):
    """Calls ``sys.exit(0)`` on its second request, as a careless implementation might."""

    calls = 0

    def run(self, op: str, input: dict, root: str | None) -> dict:
        type(self).calls += 1
        if type(self).calls == 2:
            import sys

            sys.exit(0)
        return super().run(op, input, root)


class RefusesSilently(Echo):
    """Refuses every echo with a code and an empty message."""

    def run(self, op: str, input: dict, root: str | None) -> dict:
        raise ImplementationError("quietly-refused", "")


def deep_chain(folder: Path, depth: int) -> None:
    """``folder/d/d/...`` ``depth`` levels deep, made by folder descriptors (no path that long
    could be named), a file at each level, the middle read-only and the deepest unreadable."""
    folder.mkdir(parents=True)
    fd = os.open(folder, os.O_RDONLY)
    for i in range(depth):
        os.mkdir("d", dir_fd=fd)
        os.close(os.open("f", os.O_WRONLY | os.O_CREAT, 0o600, dir_fd=fd))
        child = os.open("d", os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = child
        if i == depth // 2:
            os.fchmod(fd, 0o500)
    os.fchmod(fd, 0o000)
    os.close(fd)


def resummed(report: dict) -> dict:
    """``report`` with its summary counted again from its cases (after a test edited a case's
    status), as ``run`` counts it: a report whose summary disagrees is refused."""
    from conformance.judge.runner import STATUSES

    summary: dict[str, dict[str, int]] = {}
    for rec in report["cases"]:
        summary.setdefault(rec["area"], {s: 0 for s in STATUSES})[rec["status"]] += 1
    report["summary"] = summary
    return report
