"""The pytest plugin: parametrisation by case id, selection, syrupy goldens, expectations."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance import golden
from tests.kit_fixtures import mini_suite, write

pytest_plugins = ["pytester"]


REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def suite_dir(pytester, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    mini_suite(pytester.path / "mini")
    pytester.makepyfile(test_conf="from conformance.suite import test_case\n")
    return pytester.path / "mini"


def run(pytester, suite_dir, *args):
    return pytester.runpytest_subprocess("--conformance-dirs", str(suite_dir), "-p", "no:cacheprovider", *args)


def test_one_test_per_case_with_case_ids(pytester, suite_dir):
    result = run(pytester, suite_dir, "--adapter", "python:tests.kit_fixtures:Echo", "-v")
    result.assert_outcomes(passed=3)
    result.stdout.fnmatch_lines(["*test_case?kit-echo-text? PASSED*", "*test_case?kit-echo-refused? PASSED*"])


def test_k_selects_cases_and_reports_no_unused_goldens(pytester, suite_dir):
    result = run(pytester, suite_dir, "--adapter", "python:tests.kit_fixtures:Echo", "-k", "number",
)
    result.assert_outcomes(passed=1, deselected=2)
    assert "snapshot unused" not in result.stdout.str() and "snapshots unused" not in result.stdout.str()


def test_wrong_answer_fails_with_a_diff(pytester, suite_dir):
    result = run(pytester, suite_dir, "--adapter", "python:tests.kit_fixtures:WrongEcho",
)
    result.assert_outcomes(failed=3)
    result.stdout.fnmatch_lines(["*answer differs from the golden*", "*+value: wrong*"])


def test_expectations_give_xfail(pytester, suite_dir):
    write(pytester.path / "exp.yaml", "- {id: 'kit-*', status: fail, reason: known wrong}\n")
    result = run(pytester, suite_dir, "--adapter", "python:tests.kit_fixtures:WrongEcho", "--expectations",
                 str(pytester.path / "exp.yaml"))
    result.assert_outcomes(xfailed=3)


def test_snapshot_update_refused_for_other_adapters(pytester, suite_dir):
    result = run(pytester, suite_dir, "--adapter", "python:tests.kit_fixtures:Echo", "--snapshot-update")
    assert result.ret == 4  # pytest's usage error
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


def test_bad_file_is_its_own_failing_test(pytester, suite_dir):
    write(suite_dir / "scenarios" / "kit" / "bad.yaml", "format: 1\narea: kit\ntitle: t\ncases: 3\n")
    result = run(pytester, suite_dir, "--adapter", "python:tests.kit_fixtures:Echo",
)
    result.assert_outcomes(passed=3, failed=1)
    result.stdout.fnmatch_lines(["*bad.yaml*cases*"])


def test_adapter_that_cannot_start_exits_3(pytester, suite_dir):
    result = run(pytester, suite_dir, "--adapter", "python:tests.kit_fixtures:CannotStart",
)
    assert result.ret == 3


def test_marker_selection_cannot_hide_a_broken_file(pytester, suite_dir):
    write(suite_dir / "scenarios" / "pi" / "bad.yaml", "format: 1\narea: pi\ntitle: t\ncases: 3\n")
    result = run(pytester, suite_dir, "--adapter", "python:tests.kit_fixtures:Echo", "-m", "pi")
    result.assert_outcomes(failed=1, deselected=3)


def test_orphaned_golden_fails_under_pytest(pytester, suite_dir):
    golden.write(suite_dir / "golden" / "kit" / "kit-gone.yaml", "kit-gone", "kit.echo", {"value": 1})
    result = run(pytester, suite_dir, "--adapter", "python:tests.kit_fixtures:Echo")
    result.assert_outcomes(passed=3, failed=1)
    result.stdout.fnmatch_lines(["*kit-gone.yaml: orphaned golden*"])


def test_unknown_area_is_a_usage_error(pytester, suite_dir):
    result = run(pytester, suite_dir, "--area", "bogus")
    assert result.ret == 4
