"""The environment the kit starts an adapter in (PROTOCOL.md, "The adapter's environment"), and the
locale check that shows an order depending on the machine's locale (note N3)."""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import sys
from pathlib import Path

import pytest

from conformance.adapters.client import JsonLinesAdapter
from conformance.adapters.environment import (
    LOCALE,
    MEASUREMENT_VARIABLES,
    PASSED_VARIABLES,
    TIME_ZONE,
    AdapterEnvironment,
    parse_assignments,
)
from conformance.cli import main
from conformance.judge.locales import DEFAULT_LOCALES, LocaleChange, collation_cases, first_difference, parse_locales
from tests.kit_fixtures import UNMEASURED

STANDINS = Path(__file__).parent / "standins"
SHOWS = [sys.executable, str(STANDINS / "shows_environment.py")]
SERVER = [sys.executable, "-m", "conformance.adapters.server"]
LOCALE_SORT = STANDINS / "locale_sort.mjs"
needs_node = pytest.mark.skipif(shutil.which("node") is None and not os.environ.get("CI"),
                                reason="node is not installed (under CI the test runs and fails instead)")


def environment_of(adapter: JsonLinesAdapter) -> dict:
    answer = adapter.run("kit.echo", {"value": "env"}, root=None, timeout=10)
    assert answer.kind == "result", answer
    return answer.output["value"]


def test_the_adapter_gets_only_the_documented_variables(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-from-the-machine")
    monkeypatch.setenv("LANG", "da_DK.UTF-8")
    monkeypatch.setenv("LC_ALL", "tr_TR.UTF-8")
    monkeypatch.setenv("TZ", "Europe/Lisbon")
    monkeypatch.setenv("HOME", "/home/the-tester")
    with JsonLinesAdapter(SHOWS, environment=AdapterEnvironment({"MY_FLAG": "1", "TZ": "Asia/Tokyo"})) as adapter:
        env = environment_of(adapter)
    scratch = Path(env["HOME"]).parent
    assert env["LANG"] == env["LC_ALL"] == LOCALE == "C.UTF-8"
    assert env["TZ"] == "Asia/Tokyo"  # --adapter-env comes last and wins
    assert env["MY_FLAG"] == "1"
    assert "OPENAI_API_KEY" not in env
    assert env["HOME"] == env["USERPROFILE"] == str(scratch / "home")
    assert env["TMPDIR"] == env["TEMP"] == env["TMP"] == str(scratch / "tmp")
    allowed = set(PASSED_VARIABLES + MEASUREMENT_VARIABLES) | {"LANG", "LC_ALL", "TZ", "HOME", "USERPROFILE",
                                                               "TMPDIR", "TEMP", "TMP", "MY_FLAG"}
    # Python itself may add LC_CTYPE when it coerces the C locale; nothing of the tester's passes.
    assert set(env) - allowed <= {"LC_CTYPE"}, set(env) - allowed
    assert not scratch.exists(), "the scratch folder outlives the adapter"


def test_the_default_time_zone_and_a_fresh_home(monkeypatch):
    monkeypatch.setenv("TZ", "Europe/Lisbon")
    with JsonLinesAdapter(SHOWS) as adapter:
        env = environment_of(adapter)
        assert env["TZ"] == TIME_ZONE == "UTC"
        assert Path(env["HOME"]).is_dir() and not any(Path(env["HOME"]).iterdir())


def test_a_restart_leaves_no_scratch_folder_behind():
    adapter = JsonLinesAdapter(SHOWS, environment=UNMEASURED)  # the stand-in runs none of the kit's code
    try:
        first = Path(environment_of(adapter)["HOME"]).parent
        assert adapter.run("kit.echo", {"value": "crash"}, root=None, timeout=10).kind == "errored"
        assert not first.exists()
        second = Path(environment_of(adapter)["HOME"]).parent
        assert adapter.restarts == 1 and second != first and second.exists()
    finally:
        adapter.stop()
    assert not second.exists()


def test_adapter_env_assignments():
    assert parse_assignments(["A=1", "B=x=y", "A=2", "EMPTY="]) == {"A": "2", "B": "x=y", "EMPTY": ""}
    for bad in ["NOVALUE", "=1"]:
        with pytest.raises(ValueError, match="KEY=VALUE"):
            parse_assignments([bad])


def test_a_bad_adapter_env_is_a_usage_error(capsys):
    assert main(["smoke", "--adapter", "serve-reference", "--adapter-env", "NOVALUE"]) == 2
    assert "--adapter-env 'NOVALUE': expected KEY=VALUE" in capsys.readouterr().err


def test_locale_lists():
    assert parse_locales("da_DK.UTF-8, POSIX") == ("da_DK.UTF-8", "POSIX")
    with pytest.raises(ValueError):
        parse_locales("da_DK.UTF-8,,POSIX")
    assert parse_locales("C.UTF-8,de_CH.ISO-8859-1,sr_RS@latin") == ("C.UTF-8", "de_CH.ISO-8859-1", "sr_RS@latin")
    assert parse_locales("de_DE.utf8@euro,de_DE@euro") == ("de_DE.utf8@euro", "de_DE@euro")
    for unknown in ("xx_YY", "da_DK.UTF-8,xx_YY", "UTF-8", ".UTF-8", "de_DE.FOO", "de_DE@bogus", "de_DE.", "de_DE@"):
        with pytest.raises(ValueError, match="is not a locale name"):
            parse_locales(unknown)
    assert {"da_DK.UTF-8", "tr_TR.UTF-8", "POSIX"} <= set(DEFAULT_LOCALES)


def test_the_collation_cases_come_from_the_catalogue():
    from conformance.corpus.cases import SCENARIOS_DIR, load_suite

    cases = collation_cases(load_suite(SCENARIOS_DIR).cases)
    ids = {c.id for c in cases}
    assert {"env-order-tiebreak-example", "env-order-tiebreak-ext-ids"} <= ids
    assert {"msg-problems-sorted", "tpl-load-order-by-name", "prof-picker-providers-lower-case-mapping"} <= ids
    assert all(any(cl in ("ENV-DECISION-CONTRIBUTIONS", "ENV-ORDER-TIEBREAK", "ENV-ORDER-CODEPOINT", "PI-MSG-PROBLEMS",
                          "PI-MODELS-AVAILABILITY", "PI-MODELS-SCHEMA-EVERY-FIELD", "PI-PKG-HOST-DEPS", "PI-TPL-ORDER", "PROF-PICKER-PROVIDERS",
                          "PROF-PICKER-MODELS") for cl in c.clauses) for c in cases)


def test_a_change_names_the_locale_and_the_first_difference():
    change = LocaleChange("c", "da_DK.UTF-8", ("result", {"messages": [{"id": "a"}, {"id": "A"}]}),
                          ("result", {"messages": [{"id": "A"}, {"id": "a"}]}))
    assert change.message.endswith('under da_DK.UTF-8, output.messages[0].id is "A" where under C.UTF-8 it is "a"')
    assert first_difference(("error", "x"), ("result", {}))[0] == ""
    assert first_difference(("result", {"l": [1]}), ("result", {"l": [1, 2]}))[0] == "output.l (length)"


@contextlib.contextmanager
def other_locales_unmeasured():
    """The adapters a locale check starts under the locales it checks, with the kit's coverage
    measurement of their processes left off (:data:`tests.kit_fixtures.UNMEASURED`); the adapter
    it starts in the kit's own locale, and every other, stays measured.

    Under every locale the served reference runs the same code for the same cases as in the kit's
    own (N3: nothing of it depends on the locale), and starting coverage in each process cost more
    than the process itself (``benchmarks/coverage_figures.py --compare`` shows nothing lost).
    """
    with_locale = AdapterEnvironment.with_locale

    def unmeasured(self: AdapterEnvironment, locale: str) -> AdapterEnvironment:
        changed = with_locale(self, locale)
        return AdapterEnvironment({**changed.extra, **UNMEASURED.extra}, changed.locale)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(AdapterEnvironment, "with_locale", unmeasured)
        yield


@pytest.fixture(scope="module")
def reference_smoke() -> tuple[int, str, str]:
    """``smoke --adapter serve-reference`` with the default locales, run once for the tests that
    read it (it starts the served reference under each locale): exit code, standard output and
    standard error."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), other_locales_unmeasured():
        code = main(["smoke", "--adapter", "serve-reference"])
    return code, out.getvalue(), err.getvalue()


def test_the_reference_answers_the_same_under_every_locale(reference_smoke):
    code, out, _ = reference_smoke
    assert code == 0, out
    assert "ok   locales" in out and "da_DK.UTF-8, tr_TR.UTF-8, POSIX" in out, out


@needs_node
def test_smoke_catches_an_order_that_follows_the_locale(capsys):
    command = f"node {LOCALE_SORT} {sys.executable} -m conformance.adapters.server"
    # Under Danish alone: that smoke checks the default locales, Danish among them, unasked is
    # test_the_reference_answers_the_same_under_every_locale's and test_locale_lists' to show.
    with other_locales_unmeasured():
        assert main(["smoke", "--adapter", command, "--locales", "da_DK.UTF-8"]) == 1
    out = capsys.readouterr().out
    assert "FAIL locales" in out
    assert "env-order-tiebreak-example: the answer changes with the machine's locale (ENV-DECISION-CONTRIBUTIONS): under da_DK.UTF-8" in out
    # Without the check (as before it existed) the same adapter passes smoke.
    assert main(["smoke", "--adapter", command, "--locales", "none"]) == 0


@needs_node
def test_run_locales_fails_the_cases_whose_answer_changes(tmp_path, capsys):
    command = f"node {LOCALE_SORT} {sys.executable} -m conformance.adapters.server"
    report = tmp_path / "r.json"
    args = ["run", "-q", "--case", "env-order-*", "--adapter", command, "--report-json", str(report)]
    assert main(args) == 0  # in the kit's own locale it agrees with the reference
    with other_locales_unmeasured():
        assert main([*args, "--locales", "da_DK.UTF-8"]) == 1
    import json

    failed = {c["id"]: c["message"] for c in json.loads(report.read_text())["cases"] if c["status"] == "failed"}
    assert set(failed) == {"env-order-tiebreak-example", "env-order-tiebreak-ext-ids"}
    assert all("under da_DK.UTF-8" in m for m in failed.values())
    capsys.readouterr()


def test_a_locale_check_over_declined_cases_says_it_compared_nothing(capsys):
    # well_behaved.py provides kit.echo and test operations only: every collation case is declined.
    # It runs none of the kit's code: its processes are left unmeasured (tests.kit_fixtures.UNMEASURED).
    command = f"{sys.executable} {STANDINS / 'well_behaved.py'}"
    main(["smoke", "--adapter", command, *(f"--adapter-env={name}=" for name in MEASUREMENT_VARIABLES)])
    out = capsys.readouterr().out
    assert "nothing compared: the adapter declines all" in out, out
    assert "answer the same" not in out


def _dead_pid() -> int:
    import subprocess

    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_start_removes_the_scratch_folders_of_kits_killed_outright(tmp_path, monkeypatch):
    import os
    import tempfile

    from conformance.adapters.environment import SCRATCH_PREFIX, AdapterEnvironment

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    dead = tmp_path / f"{SCRATCH_PREFIX}{_dead_pid()}-abc"
    (dead / "home").mkdir(parents=True)
    living = tmp_path / f"{SCRATCH_PREFIX}{os.getppid()}-def"  # a kit that still runs
    other = tmp_path / "pi-conformance-something-else-1-x"
    for folder in (living, other):
        folder.mkdir()
    scratch = AdapterEnvironment().open()
    try:
        assert not dead.exists()
        assert living.exists() and other.exists()
        assert scratch.path.name.startswith(f"{SCRATCH_PREFIX}{os.getpid()}-")
    finally:
        scratch.remove()


def test_locales_this_machine_lacks_are_named():
    from conformance.judge.locales import not_installed

    assert not_installed(["C", "POSIX", "C.UTF-8"]) == []
    assert not_installed(["xx_YY.UTF-8", "C"]) == ["xx_YY.UTF-8"]


def test_smoke_warns_when_the_locales_are_not_installed(reference_smoke):
    from conformance.judge.locales import DEFAULT_LOCALES, not_installed

    _, _, err = reference_smoke
    missing = not_installed(DEFAULT_LOCALES)
    assert ("not installed on this machine" in err) == bool(missing)
    assert all(name in err for name in missing)


def test_a_run_removes_the_case_trees_of_kits_killed_outright_and_only_those(tmp_path, monkeypatch):
    # A case's tree under /dev/shm outlived a kit killed during the case, for days: trees are now
    # named with the kit's process id, and a run removes those of kits no longer running.
    import os

    from conformance.judge import runner as runner_module
    from conformance.adapters import environment
    from conformance.adapters.base import Answer, Hello
    from conformance.corpus.cases import load_suite, select

    monkeypatch.setattr(runner_module, "tree_parent", lambda: str(tmp_path))
    monkeypatch.setattr(environment, "_swept", set())
    prefix = runner_module.TREE_PREFIX
    dead = tmp_path / f"{prefix}{_dead_pid()}-abc"
    (dead / "sub").mkdir(parents=True)
    living = tmp_path / f"{prefix}{os.getppid()}-def"  # a kit that still runs
    unnamed = tmp_path / "pi-conformance-q1w2e3"  # an older kit's, whose process cannot be told
    for folder in (living, unnamed):
        folder.mkdir()
    case = next(c for c in select(load_suite().cases, areas=["profiles"]) if c.tree is not None)
    seen = []

    class Recording:
        """Notes the root of each request's tree."""

        def start(self):
            return Hello("recording", "1", "python", [case.op])

        def run(self, op, input, *, root, timeout, edition=None):
            seen.append(root)
            return Answer("unsupported")

        def stop(self):
            pass

    runner = runner_module.Runner(Recording())
    runner.start()
    runner.run_case(case)
    assert not dead.exists() and living.exists() and unnamed.exists()
    assert seen and os.path.basename(seen[0]).startswith(f"{prefix}{os.getpid()}-")
    assert not os.path.exists(seen[0])  # removed after the case, as before


def test_another_users_leftover_is_left_alone(tmp_path, monkeypatch):
    import os

    from conformance.adapters import environment

    dead = tmp_path / f"{environment.SCRATCH_PREFIX}{_dead_pid()}-abc"
    dead.mkdir()
    assert environment.leftover_scratch(tmp_path) == [dead]
    monkeypatch.setattr(os, "getuid", lambda: os.stat(tmp_path).st_uid + 1)
    assert environment.leftover_scratch(tmp_path) == []


def test_a_locale_check_runs_under_its_locales_whatever_adapter_env_says(tmp_path, monkeypatch):
    # --adapter-env LC_ALL=C.UTF-8 made every locale of the check run under C.UTF-8, and the
    # check reported that the answers were the same under da_DK.UTF-8, tr_TR.UTF-8 and POSIX
    from types import SimpleNamespace

    from conformance.judge import locales

    mine = AdapterEnvironment({"LC_ALL": "C.UTF-8", "LANG": "C.UTF-8", "X": "1"})
    assert mine.variables(tmp_path)["LC_ALL"] == "C.UTF-8"  # outside a check the user's value stands
    seen = []

    def connect(environment):
        variables = environment.variables(tmp_path)
        seen.append((variables["LANG"], variables["LC_ALL"], variables["X"]))
        return environment

    monkeypatch.setattr(locales, "_answers", lambda adapter, cases, timeout: {c.id: ("result", 1) for c in cases})
    user = AdapterEnvironment({"LC_ALL": "da_DK.UTF-8", "LANG": "da_DK.UTF-8", "X": "1"})
    check = locales.LocaleCheck(connect, user, cases=[SimpleNamespace(id="c1")], locales=["da_DK.UTF-8", "POSIX"])
    assert check.run() == []
    assert seen == [(LOCALE, LOCALE, "1"), ("da_DK.UTF-8", "da_DK.UTF-8", "1"), ("POSIX", "POSIX", "1")]


def test_locales_over_cases_that_order_nothing_repeat_none_and_say_so(capsys):
    # a case that orders no text: nothing is repeated, the missing-locale warning does not apply
    assert main(["run", "--adapter", "serve-reference", "--locales", "sv_FI.UTF-8", "--case", "env-env-example"]) == 0
    err = capsys.readouterr().err
    assert "none of the selected cases orders text" in err and "not installed" not in err
    assert main(["run", "--adapter", "serve-reference", "--locales", "sv_FI.UTF-8",
                 "--case", "env-order-tiebreak-example"]) == 0
    err = capsys.readouterr().err
    from conformance.judge.locales import not_installed

    assert "none of the selected cases" not in err
    assert ("sv_FI.UTF-8 not installed" in err) == bool(not_installed(["sv_FI.UTF-8"]))
