"""The pytest plugin (the ``pytest11`` entry point ``pi_conformance``): parametrises
:func:`conformance.suite.test_case` over every case, compares goldens through syrupy, and exits as
``pi-conformance run`` does where pytest allows (docs/running.md, "Under pytest")."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import pytest

from conformance.judge import diffs, golden
from conformance.commands.options import path_argument, required_operations, timeout_seconds
from conformance.output.console import shown_lines
from conformance.errors import ExitCode, UsageError

_STATE: dict[str, Any] = {}


def pytest_addoption(parser: pytest.Parser) -> None:
    """The kit's options, as ``pi-conformance run`` takes them (``--case-timeout`` is ``run``'s
    ``--timeout``, and bounds an implementation in process too)."""
    group = parser.getgroup("pi-conformance", "conformance suite")
    group.addoption("--adapter", default=None, metavar="ADAPTER",
                    help="implementation under test: reference (default), serve-reference, pi-node, "
                         "python:MODULE:CLASS, or a command speaking the JSON-lines protocol")
    group.addoption("--adapter-env", action="append", default=None, metavar="KEY=VALUE",
                    help="add a variable to the out-of-process adapter's environment (repeatable)")
    group.addoption("--expectations", default=None, metavar="FILE", help="expectations file of the implementation")
    group.addoption("--area", action="append", default=None, metavar="AREA", help="only this area (repeatable)")
    # Checked in pytest_configure, so that a bad value gets the kit's exit code and message.
    group.addoption("--case-timeout", default="10", metavar="SECONDS", help="per-case timeout")
    group.addoption("--fail-on-unsupported", action="store_true",
                    help="an unsupported answer fails its case, unless the expectations say unsupported")
    group.addoption("--require-op", action="append", metavar="GLOB",
                    help="as --fail-on-unsupported, for the operations matching GLOB only (repeatable)")
    group.addoption("--edition", default=None, metavar="NAME",
                    help="the edition judged (see `pi-conformance editions`; default pi-0.99.4)")
    group.addoption("--allow-commands", action="store_true",
                    help="let the cases of a scenario folder other than the kit's own run their !command values")
    group.addoption("--conformance-dirs", default=None, help=argparse.SUPPRESS)


def _session(config: pytest.Config):
    """This pytest session's :class:`~conformance.session.Session` (made once): ``--conformance-dirs
    ROOT`` points at a folder with ``scenarios/``, ``spec/`` and ``golden/`` (used by the kit's own
    tests); ``--area``, ``--edition`` and ``--adapter-env`` as given."""
    if "session" not in _STATE:
        from conformance.session import Session

        root = config.getoption("--conformance-dirs", default=None)
        edition = config.getoption("--edition", default=None)
        folders = ({"scenarios_dir": Path(root) / "scenarios", "spec_dir": Path(root) / "spec",
                    "golden_dir": Path(root) / "golden"} if root else {})
        _STATE["session"] = Session(edition=edition, edition_given=edition is not None,
                                    areas=config.getoption("--area", default=None) or None,
                                    adapter_env=config.getoption("--adapter-env", default=None), **folders)
    return _STATE["session"]


def pytest_configure(config: pytest.Config) -> None:
    from conformance.corpus.areas import AREAS, SCENARIO_AREAS

    for area in SCENARIO_AREAS:
        config.addinivalue_line("markers", f"{area}: conformance cases of the {area} area")
    areas = config.getoption("--area", default=None) or []
    bad = [a for a in areas if a not in AREAS]
    if bad:
        _usage_error(f"--area {bad[0]}: the areas are {', '.join(AREAS[:-1])} and {AREAS[-1]}")
    edition = config.getoption("--edition", default=None)
    if edition is not None:
        from conformance.corpus.editions import get

        try:
            get(edition)
        except ValueError as exc:
            _usage_error(f"--edition: {exc}")
        try:
            _session(config).check_edition_areas()
        except UsageError as exc:
            _usage_error(str(exc))
    try:
        config.option.case_timeout = timeout_seconds(str(config.getoption("--case-timeout", default="10")))
    except argparse.ArgumentTypeError as exc:
        _usage_error(f"--case-timeout: {exc}")
    expectations = config.getoption("--expectations", default=None)
    if expectations is not None:
        try:
            path_argument(expectations)
        except argparse.ArgumentTypeError as exc:
            _usage_error(f"--expectations: {exc}")
    adapter = config.getoption("--adapter", default=None)
    if getattr(config.option, "update_snapshots", False) and adapter not in (None, "", "reference"):
        _usage_error("--snapshot-update writes goldens and is only allowed with the bundled reference "
                     f"(got --adapter {adapter})")


def _usage_error(message: str) -> None:
    """End the session on a mistake in one of the kit's own options with ``pi-conformance run``'s
    exit code 2 and its message (pytest's own usage errors keep pytest's code 4)."""
    pytest.exit(f"pi-conformance: {message}", returncode=ExitCode.USAGE)


def _suite(config: pytest.Config):
    # as under `run --area`: the files of the other areas are not read, so one that does not
    # load is not this session's error (their ids are still scanned for the suite-wide checks)
    session = _session(config)
    if "cases" not in _STATE:
        _STATE["cases"] = session.cases()
    return session.suite(), _STATE["cases"]


class SuiteFileProblem:
    """A parameter standing for a bad suite file, so that it fails as its own test."""

    def __init__(self, file: str, messages: list[str]) -> None:
        self.file = file
        self.messages = messages


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "conformance_case" not in metafunc.fixturenames:
        return
    from conformance.corpus.areas import AREAS

    suite, cases = _suite(metafunc.config)
    params = [pytest.param(c, id=c.id, marks=[getattr(pytest.mark, c.area)]) for c in cases]
    by_file: dict[str, list[str]] = {}
    for e in suite.errors:
        by_file.setdefault(e.file, []).append(str(e))
    for f, messages in by_file.items():
        # A bad file fails under its area's marker too, so `-m AREA` cannot hide it.
        area = Path(f).parent.name
        marks = [getattr(pytest.mark, area)] if area in AREAS else []
        params.append(pytest.param(SuiteFileProblem(f, messages), id=f"suite-file:{f}", marks=marks))
    strays = _session(metafunc.config).stray_goldens()
    if strays:  # reported whatever the selection, as under `run`
        areas = sorted({Path(e.file).parent.name.split("@")[0] for e in strays})
        params.append(pytest.param(SuiteFileProblem("golden", [str(e) for e in strays]),
                                   id="suite-file:stray-goldens",
                                   marks=[getattr(pytest.mark, a) for a in areas if a in AREAS]))
    metafunc.parametrize("conformance_case", params)


@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list):
    """Keep every ``suite-file:`` test that ``-k`` deselected: a file that does not load holds
    cases no keyword can name, so a selection never hides it (the session then exits 2, as ``run``
    does). ``-m`` still deselects the file of an area it leaves out, as ``--area`` does."""
    problems = [item for item in items if "[suite-file:" in item.nodeid]
    collected = len(items)
    result = yield
    if len(items) < collected:  # selected by -k or -m
        _check_edition_fits(config, items)
    kept = set(map(id, items))
    back = [item for item in problems if id(item) not in kept and _marks_selected(item, config)]
    if back:
        items.extend(back)
        reporter = config.pluginmanager.get_plugin("terminalreporter")
        deselected = getattr(reporter, "stats", {}).get("deselected")
        if deselected:
            deselected[:] = [item for item in deselected if all(item is not b for b in back)]
    return result


def _check_edition_fits(config: pytest.Config, items: list) -> None:
    """End the session (exit 2) when ``--edition`` names an edition of an area none of the
    cases left by ``-k`` or ``-m`` is of, as ``run --case`` does (they select after the options
    were checked; :func:`conformance.corpus.editions.check_cases`). With ``--area``, the areas decided
    at configuration."""
    session = _session(config)
    edition = session.edition
    if edition is None:
        return
    cases = [item.callspec.params["conformance_case"] for item in items
             if "conformance_case" in getattr(getattr(item, "callspec", None), "params", {})]
    cases = [case for case in cases if not isinstance(case, SuiteFileProblem)]
    try:
        session.check_edition_fits(cases)
    except UsageError as exc:
        _usage_error(str(exc))
    keyword = config.option.keyword
    if not cases and keyword:
        # as `run --case` says why nothing was selected: the cases -k names hold in another edition
        from _pytest.mark.expression import Expression

        from conformance.corpus.editions import held_elsewhere

        names = Expression.compile(keyword)
        matching = [case for case in session.suite().cases if names.evaluate(
            lambda sub, /, _name=f"test_case[{case.id}]".lower(), **_: sub.lower() in _name)]
        elsewhere = held_elsewhere(f"-k {keyword}", matching, edition)
        if elsewhere:
            _usage_error(elsewhere)


def _marks_selected(item, config: pytest.Config) -> bool:
    """Whether ``item`` satisfies the ``-m`` expression (``True`` without one)."""
    expression = config.option.markexpr
    if not expression:
        return True
    from _pytest.mark import MarkMatcher  # pytest's own matcher, so -m means here what it means there
    from _pytest.mark.expression import Expression

    return Expression.compile(expression).evaluate(MarkMatcher.from_markers(item.iter_markers()))


@pytest.fixture(scope="session")
def conformance_runner(request: pytest.FixtureRequest):
    """The started :class:`~conformance.judge.runner.Runner` for this session (one adapter process).
    Ends the session with exit 2 for a bad or stale expectations file or a bad option value, and 3
    when the adapter cannot start, as ``pi-conformance run`` does."""
    from conformance.adapters.base import AdapterStartError
    from conformance.judge.expectations import StaleExpectations
    from conformance.corpus.yamlio import SuiteFileError

    config = request.config
    session = _session(config)
    gold = session.golden_dir
    if not gold.is_dir():
        pytest.exit(f"no goldens at {gold}: install the kit from its wheel or sdist, "
                    "or from a source checkout with `pip install -e .` (see README.md)", returncode=ExitCode.USAGE)
    if getattr(config.option, "update_snapshots", False):
        from conformance.output.report_paths import check_update_folders

        try:
            check_update_folders(gold, session.scenarios_dir)
        except ValueError as exc:
            _usage_error(str(exc))
    try:
        expectations = session.expectations(config.getoption("--expectations"))
    except StaleExpectations as exc:
        pytest.exit(f"stale expectations:\n{exc}", returncode=ExitCode.USAGE)
    except SuiteFileError as exc:
        pytest.exit(f"bad expectations file:\n{exc}", returncode=ExitCode.USAGE)
    from conformance.operations import names as operation_names

    try:
        runner = session.runner(session.adapter(config.getoption("--adapter")), timeout=config.getoption("--case-timeout"),
                                expectations=expectations,
                                required=required_operations(config.getoption("--fail-on-unsupported"),
                                                             config.getoption("--require-op"), operation_names()),
                                allow_commands=config.getoption("--allow-commands"))
        runner.start()
    except AdapterStartError as exc:
        pytest.exit(f"the adapter could not start: {exc}", returncode=ExitCode.START)
    except (UsageError, ValueError) as exc:  # a bad --adapter (AdapterNameError), --adapter-env or --require-op
        pytest.exit(str(exc), returncode=ExitCode.USAGE)
    yield runner
    runner.stop()
    if runner.stop_error:
        pytest.fail(f"{SUITE_ERROR}: {runner.stop_error}", pytrace=False)


SUITE_ERROR = "pi-conformance suite error"
"""How the plugin's session-level errors begin (what :func:`pytest_runtest_logreport` counts)."""


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Count suite errors: a failing ``suite-file:`` test, or the session's adapter that did not
    stop cleanly (an error at the teardown of the last test). Runs on the xdist controller too."""
    if not report.failed:
        return
    text = str(report.longrepr or "")
    if "[suite-file:" in report.nodeid or SUITE_ERROR in text:
        _STATE.setdefault("suite_errors", []).append(report.nodeid if SUITE_ERROR not in text else
                                                     text[text.index(SUITE_ERROR):].splitlines()[0])


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """A session with suite errors exits 2, as ``pi-conformance run`` does (instead of pytest's 1)."""
    if _STATE.get("suite_errors") and exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED):
        session.exitstatus = 2


def pytest_terminal_summary(terminalreporter) -> None:
    """List the session's suite errors at the end, saying why the exit code is 2."""
    errors = _STATE.get("suite_errors")
    if errors:
        terminalreporter.section("pi-conformance suite errors (exit code 2)")
        for line in errors:
            terminalreporter.line(line)


def golden_extension(case, path: Path, gives=None):
    """A syrupy extension class bound to one case: it reads and writes its golden at ``path``
    (``golden/<area>/<id>.yaml``, or the edition's own golden: ``golden.golden_path``) and compares
    on normalised data rather than text, the facets not in ``gives`` left out (``None``: every
    facet compared)."""
    from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

    class GoldenExtension(SingleFileSnapshotExtension):
        file_extension = "yaml"
        _write_mode = WriteMode.TEXT

        @classmethod
        def dirname(cls, *, test_location) -> str:
            return str(path.parent)

        @classmethod
        def discovery_dirname(cls, *, test_location) -> str:
            return cls.dirname(test_location=test_location)

        @classmethod
        def get_snapshot_name(cls, *, test_location, index=0) -> str:
            return case.id

        def discover_snapshots(self, *, test_location):
            # Only this case's golden belongs to this test: orphans are the kit's own check
            # (judged against the whole suite), so a selection never raises false alarms.
            from syrupy.data import SnapshotCollections

            collections = SnapshotCollections()
            location = self.get_location(test_location=test_location)
            if Path(location).exists():
                collections.add(self.read_snapshot_collection(snapshot_location=location))
            return collections

        def serialize(self, data, **kwargs) -> str:
            return golden.render(case.id, case.op, data)

        def matches(self, *, serialized_data, snapshot_data) -> bool:
            try:
                stored = golden.parse(snapshot_data)
                current = golden.parse(serialized_data)
            except ValueError:
                return False
            if golden.header_mismatch(stored, case.id, case.op):
                return False
            return golden.same(golden.comparable(stored["output"], case.normalise, case, gives),
                               golden.comparable(current["output"], case.normalise, case, gives))

    return GoldenExtension


def check_case(case, runner, snapshot) -> None:
    """The body of the parametrised test: run ``case`` through ``runner`` and judge it."""
    from conformance.judge.runner import Verdict

    if isinstance(case, SuiteFileProblem):
        pytest.fail("\n".join(case.messages), pytrace=False)
    pre = runner.precheck(case)
    if pre is not None:
        pytest.skip(pre.message)
    answer, roots, duration = runner.execute(case)
    verdict = runner.judge(case, answer, roots, compare_golden=False)
    if verdict.status == "result":
        path = golden.golden_path(runner.golden_dir, case.area, case.id, runner.edition_of(case))
        updating = bool(snapshot.session.update_snapshots)
        if not path.exists() and not updating:
            _suite_error(f"no golden at {path}{golden.misnamed_beside(path)}: write it with "
                         f"`pytest --snapshot-update -k {case.id}` "
                         "(reference only), then read it against the spec")
        ext = golden_extension(case, path, runner.compared_facets(case))
        try:
            assert snapshot(extension_class=ext) == verdict.output
            verdict = Verdict("passed", output=verdict.output)
        except AssertionError:
            verdict = _mismatch(case, path, verdict.output, runner.compared_facets(case))
    result = runner.settle(runner.result(case, verdict, answer, duration), case)
    status = result.status
    if status == "passed":
        return
    if status in ("unsupported", "skipped"):
        pytest.skip(f"{status}: {result.message}")
    if status == "xfail":
        pytest.xfail(result.message)
    detail = result.message + (f"\n{result.diff}" if result.diff else "") + \
        ("\nadapter stderr (tail):\n" + "\n".join(shown_lines(result.stderr)) if result.stderr else "")
    pytest.fail(f"{status}: {detail}", pytrace=False)


def _suite_error(message: str) -> None:
    """Fail the case as a suite error (a golden the suite should hold and does not): counted by
    :func:`pytest_runtest_logreport`, so the session exits 2 as ``run`` does, whatever the
    expectations say of the case."""
    pytest.fail(f"{SUITE_ERROR}: {message}", pytrace=False)


def _mismatch(case, path: Path, output, gives=None):
    """The failed verdict of a golden mismatch, with the same diff the CLI shows."""
    from conformance.judge.runner import Verdict

    try:
        stored = golden.read_case(path, case.id, case.op)
    except ValueError as exc:
        _suite_error(golden.located(path, exc))
    if stored is None:
        _suite_error(f"no golden at {path}{golden.misnamed_beside(path)}")
    expected = golden.comparable(stored["output"], case.normalise, case, gives)
    actual = golden.comparable(output, case.normalise, case, gives)
    return Verdict("failed", "answer differs from the golden",
                   diff=diffs.shown(golden.diff(expected, actual), case.id))
