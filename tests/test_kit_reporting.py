"""Reports that say what matters: reasons of cases not run, required operations, hidden
expectation entries, a console table that fits 80 columns, clause statements beside failures."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from tests.kit_fixtures import mini_suite, write
from tests.test_kit_plugin import run as run_pytest, suite_dir  # noqa: F401 (fixture)
from tests.test_kit_runner import cli

pytest_plugins = ["pytester"]

NO_OPS = "python:tests.kit_fixtures:NoOps"


def test_reasons_of_unsupported_and_skipped_cases_reach_console_and_reports(tmp_path, capsys):
    dirs = mini_suite(tmp_path)
    exp = write(tmp_path / "exp.yaml", "expectations:\n- {id: kit-echo-text, status: skip, reason: flaky clock}\n"
                                       "- {id: 'kit-echo-*', status: unsupported, reason: no echo yet}\n")
    out = tmp_path / "out"
    assert cli(dirs, "run", "-q", "--adapter", NO_OPS, "--expectations", str(exp), "--report-json",
               str(out / "r.json"), "--junit", str(out / "r.xml"), "--report-md", str(out / "r.md")) == 0
    console = capsys.readouterr().out
    assert "skipped (1): expectations: flaky clock" in console
    assert "unsupported (2): expected unsupported (no echo yet)" in console
    records = {c["id"]: c for c in json.loads((out / "r.json").read_text())["cases"]}
    assert "no echo yet" in records["kit-echo-number"]["message"]
    assert "flaky clock" in records["kit-echo-text"]["message"]
    for report in ("r.xml", "r.md"):
        text = (out / report).read_text()
        assert "no echo yet" in text and "flaky clock" in text, report


def test_fail_on_unsupported_fails_a_declined_operation_unless_expected(tmp_path):
    dirs = mini_suite(tmp_path)
    assert cli(dirs, "run", "-q", "--adapter", NO_OPS) == 0
    assert cli(dirs, "run", "-q", "--adapter", NO_OPS, "--fail-on-unsupported") == 1
    assert cli(dirs, "run", "-q", "--adapter", NO_OPS, "--require-op", "kit.*") == 1
    exp = write(tmp_path / "exp.yaml", "expectations:\n- {id: 'kit-*', status: unsupported, reason: declared}\n")
    assert cli(dirs, "run", "-q", "--adapter", NO_OPS, "--expectations", str(exp)) == 0
    # declared unsupported is no failure, but a run that judged no case proves nothing
    assert cli(dirs, "run", "-q", "--adapter", NO_OPS, "--fail-on-unsupported", "--expectations", str(exp)) == 1
    assert cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:Echo", "--fail-on-unsupported") == 0


SKIPS_ALL = shlex.join([sys.executable, str(Path(__file__).parent / "standins" / "skips_all.py")])


@pytest.mark.parametrize("adapter", [SKIPS_ALL, "python:tests.kit_fixtures:SkipsAll", NO_OPS])
@pytest.mark.parametrize("options", [["--fail-on-unsupported"], ["--require-op", "kit.*"],
                                     ["--require-op", "envelope.*"], ["--fail-on-unsupported", "--require-op", "kit.*"]])
def test_a_run_that_judged_no_case_is_not_green_when_proof_is_asked(tmp_path, capsys, adapter, options):
    dirs = mini_suite(tmp_path)
    assert cli(dirs, "run", "-q", "--adapter", adapter) == 0  # a plain run: a warning only
    assert "no selected case was judged" in capsys.readouterr().err
    assert cli(dirs, "run", "-q", "--adapter", adapter, *options) == 1
    assert "no selected case was judged" in capsys.readouterr().err


def test_a_required_operation_whose_cases_were_all_skipped_fails_the_run(tmp_path, capsys):
    dirs = mini_suite(tmp_path)
    exp = write(tmp_path / "exp.yaml", "expectations:\n- {id: 'kit-*', status: skip, reason: later}\n")
    assert cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:Echo", "--require-op", "kit.echo",
               "--expectations", str(exp)) == 1
    assert "kit.echo is required (--require-op) but none of its 3 selected case(s) was judged" in capsys.readouterr().err


def test_fail_on_unsupported_under_pytest(pytester, suite_dir):  # noqa: F811
    run_pytest(pytester, suite_dir, "--adapter", NO_OPS).assert_outcomes(skipped=3)
    result = run_pytest(pytester, suite_dir, "--adapter", NO_OPS, "--fail-on-unsupported")
    result.assert_outcomes(failed=3)
    result.stdout.fnmatch_lines(["*is required (--fail-on-unsupported)*"])


def test_a_stale_expectation_is_reported_at_its_own_id(tmp_path, capsys):
    dirs = mini_suite(tmp_path)
    exp = write(tmp_path / "exp.yaml", "expectations:\n- {id: 'kit-echo-*', status: fail, reason: all wrong}\n"
                                       "- {id: kit-echo-text, status: skip, reason: never applies}\n"
                                       "- status: fail\n  reason: gone\n  id: kit-gone-*\n"
                                       "- {reason: r, status: skip, id: kit-old}\n")
    assert cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:WrongEcho", "--expectations", str(exp)) == 2
    err = capsys.readouterr().err
    assert f"{exp}:3:4: expectations[1].id: 'kit-echo-text' never applies" in err and "'kit-echo-*'" in err
    assert f"{exp}:6:3: expectations[2].id: 'kit-gone-*' matches no case" in err
    assert f"{exp}:7:29: expectations[3].id: 'kit-old' matches no case" in err


def test_the_console_table_fits_80_columns(tmp_path, capsys):
    dirs = mini_suite(tmp_path)
    cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:WrongEcho")
    out = capsys.readouterr().out
    table = out[out.index("\narea ") + 1:].splitlines()
    assert table and max(len(line) for line in table) <= 80


def test_a_failing_case_prints_the_statements_of_its_clauses(tmp_path, capsys):
    dirs = mini_suite(tmp_path)
    cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:WrongEcho", "--case", "kit-echo-text")
    assert "ENV-TEST-ECHO (MUST): " in capsys.readouterr().out


def test_a_required_operation_that_matches_nothing_is_a_usage_error(tmp_path, capsys):
    dirs = mini_suite(tmp_path)
    assert cli(dirs, "run", "-q", "--adapter", NO_OPS, "--require-op", "kit.ecko") == 2
    assert "--require-op 'kit.ecko' matches no operation" in capsys.readouterr().err


def test_report_paths_are_probed_before_the_run(tmp_path, capsys):
    dirs = mini_suite(tmp_path)
    ok = tmp_path / "ok.xml"
    assert cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:Echo", "--report-json",
               "/proc/pi-conformance-nope.json", "--junit", str(ok)) == 2
    assert "cannot write there" in capsys.readouterr().err and not ok.exists()
    assert cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:Echo", "--report-json", "") == 2
    assert "--report-json: give a file name" in capsys.readouterr().err


def test_a_case_in_a_file_that_does_not_load_is_not_called_missing(tmp_path, capsys):
    dirs = mini_suite(tmp_path)
    scenario = dirs["scenarios"] / "kit" / "echo.yaml"
    scenario.write_text(scenario.read_text().replace("input: {value: 1.0}", "input: {value: 1.0, colour: red}"))
    assert cli(dirs, "show", "kit-echo-number") == 2
    err = capsys.readouterr().err
    assert "colour" in err and "did not load (its file's errors are above)" in err and "no case" not in err
    assert cli(dirs, "run", "-q", "--case", "kit-echo-num*") == 2
    err = capsys.readouterr().err
    assert "did not load (their file's errors are above)" in err and "no case matches" not in err


def test_junit_and_markdown_say_which_rule_a_failure_breaks(tmp_path):
    dirs = mini_suite(tmp_path)
    out = tmp_path / "out"
    cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:WrongEcho", "--junit", str(out / "r.xml"),
        "--report-md", str(out / "r.md"), "--report-json", str(out / "r.json"))
    junit = (out / "r.xml").read_text()
    assert "ENV-TEST-ECHO (MUST): Echo returns its value." in junit and 'classname="kit.echo"' in junit
    assert "a multi-line string comes back" in junit  # the case's title
    assert "- ENV-TEST-ECHO (MUST): Echo returns its value." in (out / "r.md").read_text()
    assert json.loads((out / "r.json").read_text())["clauses"]["ENV-TEST-ECHO"]["level"] == "MUST"


@pytest.mark.parametrize("argv, message", [
    (["run", "--case", "mdl160-sampling-page-example-off"],
     "do not hold in edition pi-0.99.4; they hold in pi-1.6.0 (add --edition pi-1.6.0)"),
    (["list", "--case", "mdl160-*"], "they hold in pi-1.6.0 (add --edition pi-1.6.0)"),
    (["run", "--edition", "pi-1.6.0", "--case", "msg-replay-replace-*"], "they hold in pi-0.99.4"),
    (["run", "--case", "env-payload-no-adapter", "--area", "pi"], "are not of --area pi"),
    (["list", "--case", "zzz*"], "no case matches zzz*"),
    # the Pi cases are judged by pi-0.99.4 under --edition envelope: that is the edition named
    (["run", "--area", "envelope", "--area", "pi", "--edition", "envelope", "--case", "msg160-*"],
     "do not hold in edition pi-0.99.4; they hold in pi-1.6.0"),
    # a pattern that matches nothing names no edition, least of all one of an area not selected
    (["run", "--area", "envelope", "--case", "nope"], "pi-conformance: no case matches nope\n"),
    # --op: a misspelt name gets the close ones; a name of another area says so; with --case, the
    # cases' own operations
    (["list", "--op", "envelope.enviroment"], "no case is of an operation matching envelope.enviroment "
                                               "(did you mean envelope.environment?)"),
    (["run", "--op", "pi.*-args", "--area", "envelope"], "are of area pi, not of --area envelope"),
    (["list", "--case", "env-env-example", "--op", "pi.parse-args"],
     "the cases matching env-env-example are of envelope.environment"),
    (["run", "--op", "pi.validate-message", "--case", "msg160-*"], "they hold in pi-1.6.0"),
])
def test_a_selection_of_no_case_says_why(argv, message, capsys):
    from conformance.cli import main

    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "does not load" not in err


def test_the_html_report_of_a_suite_given_shows_its_cases_and_clauses(tmp_path):
    """``run --report-html`` under ``--scenarios-dir``/``--spec-dir`` builds the page from that
    suite and catalogue (it showed the kit's own: no input, "not in this checkout's catalogue")."""
    import html

    dirs = mini_suite(tmp_path)
    page = tmp_path / "r.html"
    assert cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:WrongEcho", "--report-html", str(page)) == 1
    text = html.unescape(page.read_text(encoding="utf-8"))
    assert "not in this checkout's catalogue" not in text
    assert "value: |\n  one\n  two" in text or "one\\ntwo" in text, text[:3000]


@pytest.mark.parametrize("fmt, page", [("md", "envelope.md"), ("html", "index.html")])
def test_docs_of_a_catalogue_given_shows_its_clauses(tmp_path, fmt, page, capsys):
    """``docs`` under ``--spec-dir`` renders that catalogue, in either form (the Markdown form
    rendered the kit's own)."""
    import html

    dirs = mini_suite(tmp_path)
    assert cli(dirs, "docs", "--format", fmt, "--out", str(tmp_path / "site")) in (0, 2), capsys.readouterr().err
    text = "".join(html.unescape(p.read_text(encoding="utf-8")) for p in (tmp_path / "site").rglob(f"*.{fmt}"))
    assert "Echo returns its value." in text
    assert "ENV-INSTR-CUSTOM" not in text  # a clause of the kit's own catalogue
