"""The pytest plugin: parametrisation by case id, selection, syrupy goldens, expectations."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.judge import golden
from tests.kit_fixtures import mini_suite, write

pytest_plugins = ["pytester"]


REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def suite_dir(kit_imported, pytester, monkeypatch):  # kit_imported: see tests/conftest.py
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    mini_suite(pytester.path / "mini")
    pytester.makepyfile(test_conf="from conformance.suite import test_case\n")
    return pytester.path / "mini"


# Plugins the mini suite never uses, left out of each pytest run here.
UNUSED_PLUGINS = ("-p", "no:hypothesispytest", "-p", "no:xdist", "-p", "no:xdist.looponfail")


def run(pytester, suite_dir, *args):
    """Run pytest over the mini suite in this process (pytester's ``inline_run``: a session and
    configuration of its own, the plugin loaded from its entry point as in any run), with the
    plugin's module-level session state fresh for the run and given back after it, as a process
    of its own would have it. What these tests judge -- collection, outcomes, output and the
    session's exit code -- does not need a process; starting one per test (with coverage in it,
    under the project's test command) cost most of this module's time."""
    from conformance import plugin

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(plugin, "_STATE", {})
        return pytester.runpytest_inprocess("--conformance-dirs", str(suite_dir), "-p", "no:cacheprovider",
                                            *UNUSED_PLUGINS, *args)


def run_refused(capsys, suite_dir, *args) -> pytest.RunResult:
    """As :func:`run`, for a run the plugin ends in ``pytest_configure`` (a bad option of the kit):
    through ``pytest.main`` itself, since pytester's ``inline_run`` cannot report a session that
    ends with exit code 2 before its own recorder is configured. Nothing is collected or imported
    before that point."""
    from conformance import plugin

    capsys.readouterr()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(plugin, "_STATE", {})
        code = pytest.main(["--conformance-dirs", str(suite_dir), "-p", "no:cacheprovider", *UNUSED_PLUGINS, *args])
    out, err = capsys.readouterr()
    return pytest.RunResult(code, out.splitlines(), err.splitlines(), 0.0)


def test_one_test_per_case_with_case_ids(pytester, suite_dir):
    result = run(pytester, suite_dir, "--adapter", "python:tests.kit_fixtures:Echo", "-v")
    result.assert_outcomes(passed=3)
    result.stdout.fnmatch_lines(["*test_case?kit-echo-text? PASSED*", "*test_case?kit-echo-refused? PASSED*"])


def test_k_selects_cases_and_reports_no_unused_goldens(pytester, suite_dir):
    result = run(pytester, suite_dir, "--adapter", "python:tests.kit_fixtures:Echo", "-k", "number",
)
    result.assert_outcomes(passed=1, deselected=2)
    assert "snapshot unused" not in result.stdout.str() and "snapshots unused" not in result.stdout.str()


def test_wrong_answer_fails_with_a_diff_and_exits_1(pytester, suite_dir):
    result = run(pytester, suite_dir, "--adapter", "python:tests.kit_fixtures:WrongEcho",
)
    result.assert_outcomes(failed=3)
    result.stdout.fnmatch_lines(["*answer differs from the golden*", "*+value: wrong*"])
    assert result.ret == 1  # failing cases alone: no suite error


def test_expectations_give_xfail(pytester, suite_dir):
    write(pytester.path / "exp.yaml", "expectations:\n- {id: 'kit-*', status: fail, reason: known wrong}\n")
    result = run(pytester, suite_dir, "--adapter", "python:tests.kit_fixtures:WrongEcho", "--expectations",
                 str(pytester.path / "exp.yaml"))
    result.assert_outcomes(xfailed=3)


def test_snapshot_update_refused_for_other_adapters(capsys, suite_dir):
    result = run_refused(capsys, suite_dir, "--adapter", "python:tests.kit_fixtures:Echo", "--snapshot-update")
    assert result.ret == 2  # as under `run`, before any case runs
    result.stderr.fnmatch_lines(["*only allowed with the bundled reference*"])


def test_snapshot_update_writes_goldens_with_the_reference(pytester, suite_dir):
    for p in (suite_dir / "golden" / "kit").glob("*.yaml"):
        p.unlink()
    result = run(pytester, suite_dir, "--snapshot-update", "-k", "text or number")
    result.assert_outcomes(passed=2, deselected=1)
    assert golden.read(suite_dir / "golden" / "kit" / "kit-echo-number.yaml")["output"] == {"value": 1}


def test_missing_golden_fails_with_a_hint(pytester, suite_dir):
    (suite_dir / "golden" / "kit" / "kit-echo-text.yaml").unlink()
    result = run(pytester, suite_dir, "-k", "text")
    result.assert_outcomes(failed=1, deselected=2)
    result.stdout.fnmatch_lines(["*no golden at*--snapshot-update*"])
    assert result.ret == 2  # a suite error, as under `run`
    result.stdout.fnmatch_lines(["*pi-conformance suite errors (exit code 2)*", "*no golden at*"])


def test_missing_golden_is_a_suite_error_even_for_a_case_expected_to_fail(pytester, suite_dir):
    (suite_dir / "golden" / "kit" / "kit-echo-text.yaml").unlink()
    write(pytester.path / "exp.yaml", "expectations:\n- {id: 'kit-echo-text', status: fail, reason: known wrong}\n")
    result = run(pytester, suite_dir, "-k", "text", "--expectations", str(pytester.path / "exp.yaml"))
    assert result.ret == 2


def test_adapter_that_cannot_start_exits_3(pytester, suite_dir):
    result = run(pytester, suite_dir, "--adapter", "python:tests.kit_fixtures:CannotStart",
)
    assert result.ret == 3


def test_adapter_env_for_an_adapter_inside_the_kit_exits_2(pytester, suite_dir):
    result = run(pytester, suite_dir, "--adapter", "python:tests.kit_fixtures:Echo", "--adapter-env", "A=1")
    assert result.ret == 2
    result.stdout.fnmatch_lines(["*--adapter-env is for an adapter the kit starts as a process*"])


def test_marker_selection_cannot_hide_a_broken_file(pytester, suite_dir):
    write(suite_dir / "scenarios" / "pi" / "bad.yaml", "format: 1\narea: pi\ntitle: t\ncases: 3\n")
    result = run(pytester, suite_dir, "--adapter", "python:tests.kit_fixtures:Echo", "-m", "pi")
    result.assert_outcomes(failed=1, deselected=3)


def test_orphaned_golden_fails_under_pytest_and_exits_2(pytester, suite_dir):
    golden.write(suite_dir / "golden" / "kit" / "kit-gone.yaml", "kit-gone", "kit.echo", {"value": 1})
    result = run(pytester, suite_dir, "--adapter", "python:tests.kit_fixtures:Echo")
    result.assert_outcomes(passed=3, failed=1)
    result.stdout.fnmatch_lines(["*kit-gone.yaml: orphaned golden*"])
    assert result.ret == 2


def test_a_yml_golden_fails_under_pytest_as_under_the_cli(pytester, suite_dir):
    gold = suite_dir / "golden" / "kit"
    (gold / "kit-echo-text.yaml").rename(gold / "kit-echo-text.yml")
    result = run(pytester, suite_dir, "--adapter", "python:tests.kit_fixtures:Echo", "-k", "text")
    result.assert_outcomes(failed=2, deselected=2)  # the case, and the misnamed golden kept by -k
    result.stdout.fnmatch_lines(["*no golden at *kit-echo-text.yaml (*kit-echo-text.yml is there, but goldens end "
                                 "in .yaml)*", "*kit-echo-text.yml: goldens end in .yaml*not read: rename it "
                                 "kit-echo-text.yaml*"])
    assert result.ret == 2


def test_a_bad_file_is_its_own_failing_test_and_exits_2_as_under_the_cli(pytester, suite_dir):
    write(suite_dir / "scenarios" / "kit" / "bad.yaml", "format: 1\narea: kit\ntitle: t\ncases: 3\n")
    result = run(pytester, suite_dir, "--adapter", "python:tests.kit_fixtures:Echo")
    result.assert_outcomes(passed=3, failed=1)
    result.stdout.fnmatch_lines(["*bad.yaml*cases*"])
    assert result.ret == 2
    result.stdout.fnmatch_lines(["*pi-conformance suite errors (exit code 2)*", "*suite-file:*bad.yaml*"])


@pytest.mark.parametrize("how, shown", [("--garbage", "Goodbye from a chatty adapter!"),
                                        ("--exit 5", "exited with code 5")])
def test_an_adapter_that_does_not_stop_cleanly_is_an_error_at_session_end(pytester, suite_dir, how, shown):
    import shlex
    import sys

    command = shlex.join([sys.executable, str(REPO / "tests" / "standins" / "bad_stop.py"), *how.split()])
    result = run(pytester, suite_dir, "--adapter", command)
    assert result.parseoutcomes().get("errors") == 1  # the stand-in does not refuse: one case fails
    assert result.ret == 2
    result.stdout.fnmatch_lines(["*pi-conformance suite errors (exit code 2)*",
                                 f"*the adapter * did not stop cleanly:*{shown}*"])


def test_k_cannot_deselect_a_broken_file(pytester, suite_dir):
    write(suite_dir / "scenarios" / "kit" / "bad.yaml", "format: 1\narea: kit\ntitle: t\ncases: 3\n")
    result = run(pytester, suite_dir, "--adapter", "python:tests.kit_fixtures:Echo", "-k", "number")
    result.assert_outcomes(passed=1, failed=1, deselected=2)
    assert result.ret == 2


def test_k_matching_nothing_still_reports_a_broken_file(pytester, suite_dir):
    write(suite_dir / "scenarios" / "kit" / "bad.yaml", "format: 1\narea: kit\ntitle: t\ncases: 3\n")
    result = run(pytester, suite_dir, "--adapter", "python:tests.kit_fixtures:Echo", "-k", "no-such-case")
    assert result.ret == 2


@pytest.mark.parametrize("option, value, shown", [("--area", "bogus", "*--area bogus: the areas are*"),
                                                  ("--edition", "pi-9", "*--edition*unknown edition 'pi-9'*")])
def test_a_bad_area_or_edition_exits_2_with_the_kits_message(capsys, suite_dir, option, value, shown):
    result = run_refused(capsys, suite_dir, option, value)
    assert result.ret == 2
    result.stderr.fnmatch_lines([shown])


@pytest.mark.parametrize("keyword, what", [("text", "case kit-echo-text is"), ("not text", "the selected cases are")])
def test_an_edition_of_an_area_no_selected_case_is_of_exits_2(pytester, suite_dir, keyword, what):
    result = run(pytester, suite_dir, "--adapter", "python:tests.kit_fixtures:Echo", "--edition", "profiles",
                 "-k", keyword)
    assert result.ret == 2
    result.stdout.fnmatch_lines([f"*--edition profiles is an edition of the profiles area; {what} of the kit area*"])


def test_k_naming_only_cases_of_another_edition_says_which_edition_they_hold_in(pytester, kit_imported):
    # it ran nothing and exited 5 without a word, where `run --case` names the edition to give
    from conformance import plugin

    pytester.makepyfile(test_conf="from conformance.suite import test_case\n")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(plugin, "_STATE", {})
        result = pytester.runpytest_inprocess("-p", "no:cacheprovider", *UNUSED_PLUGINS, "--area", "pi",
                                              "--edition", "pi-1.6.0", "-k", "msg-replay-replace-baseline")
    assert result.ret == 2
    result.stdout.fnmatch_lines(["*-k msg-replay-replace-baseline: the matching case(s) do not hold in edition "
                                 "pi-1.6.0; they hold in pi-0.99.4 (add --edition pi-0.99.4)*"])


def test_an_edition_without_a_selection_is_not_checked_against_the_cases(pytester, suite_dir):
    result = run(pytester, suite_dir, "--adapter", "python:tests.kit_fixtures:Echo", "--edition", "profiles")
    assert result.ret == 0  # a whole run: each area under its own edition, as `run` does


def test_area_reads_no_file_of_another_area_as_run_does(pytester, suite_dir):
    write(suite_dir / "scenarios" / "pi" / "bad.yaml", "format: 1\narea: pi\ntitle: t\ncases: 3\n")
    result = run(pytester, suite_dir, "--adapter", "python:tests.kit_fixtures:Echo", "--area", "envelope")
    result.assert_outcomes(skipped=1)  # no envelope case (an empty parameter set), and nothing broken read
    assert result.ret == 0 and "suite-file" not in result.stdout.str()
    assert run(pytester, suite_dir, "--adapter", "python:tests.kit_fixtures:Echo").ret == 2  # read without --area


def test_m_still_leaves_out_a_broken_file_of_an_area_it_does_not_select(pytester, suite_dir):
    write(suite_dir / "scenarios" / "pi" / "bad.yaml", "format: 1\narea: pi\ntitle: t\ncases: 3\n")
    result = run(pytester, suite_dir, "--adapter", "python:tests.kit_fixtures:Echo", "-m", "envelope", "-k", "number")
    result.assert_outcomes(deselected=4)  # as --area envelope reads no file of the pi area


@pytest.mark.parametrize("text, said", [
    ("expectations:\n- {id: 'kit-*', status: maybe, reason: r}\n", "bad expectations file:"),
    ("expectations:\n- {id: 'kit-gone', status: fail, reason: r}\n", "stale expectations:"),
    ("expectations:\n- {id: 'kit-echo-text', status: fail, reason: known wrong}\n", None),
])
def test_the_plugin_reads_expectations_through_the_session_as_run_does(pytester, suite_dir, monkeypatch, text, said):
    """One loader for both front ends (:meth:`conformance.session.Session.expectations`), the
    plugin's two messages kept."""
    from conformance.session import Session

    asked = []
    through = Session.expectations
    monkeypatch.setattr(Session, "expectations", lambda self, path: asked.append(path) or through(self, path))
    write(pytester.path / "exp.yaml", text)
    result = run(pytester, suite_dir, "--adapter", "python:tests.kit_fixtures:WrongEcho",
                 "--expectations", str(pytester.path / "exp.yaml"))
    assert asked == [str(pytester.path / "exp.yaml")]
    if said is None:
        assert result.ret == 1  # two cases fail; the expected one is xfail
    else:
        assert result.ret == 2 and said in result.stdout.str() + "\n".join(result.errlines)
