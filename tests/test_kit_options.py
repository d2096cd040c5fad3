"""Options that must be refused with a usage error, and commands that must say what they did."""

from __future__ import annotations

import pytest

from conformance.cli import main
from conformance.commands.schema import SCHEMA_DIR
from tests.test_kit_plugin import run as run_pytest, run_refused, suite_dir  # noqa: F401 (fixture)

pytest_plugins = ["pytester"]


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf", "soon", "3601"])
def test_run_smoke_and_invariants_refuse_a_timeout_that_is_not_a_duration(value, capsys):
    for argv in (["run", "--timeout", value], ["smoke", "--adapter", "reference", "--timeout", value],
                 ["invariants", "--timeout", value]):
        with pytest.raises(SystemExit) as exit_:
            main(argv)
        assert exit_.value.code == 2
        assert "--timeout" in capsys.readouterr().err


@pytest.mark.parametrize("value", ["0", "nan", "inf"])
def test_pytest_refuses_a_case_timeout_that_is_not_a_duration(value, capsys, suite_dir):  # noqa: F811
    result = run_refused(capsys, suite_dir, "--case-timeout", value)
    assert result.ret == 2  # as under `run`, before any case runs
    result.stderr.fnmatch_lines(["*--case-timeout*"])


def test_schema_without_out_writes_nothing_and_says_where_to_write(capsys):
    before = {p: p.stat().st_mtime_ns for p in SCHEMA_DIR.rglob("*.json")}
    assert main(["schema"]) == 2
    assert "--out DIR" in capsys.readouterr().err
    assert {p: p.stat().st_mtime_ns for p in SCHEMA_DIR.rglob("*.json")} == before


def test_schema_check_says_so_when_the_schemas_are_current(capsys):
    assert main(["schema", "--check"]) == 0
    assert "are current" in capsys.readouterr().out


def test_schema_out_writes_a_copy(tmp_path, capsys):
    assert main(["schema", "--out", str(tmp_path)]) == 0
    assert (tmp_path / "scenario.schema.json").is_file()
    assert main(["schema", "--check", "--out", str(tmp_path)]) == 0


def test_schema_to_a_path_that_cannot_be_a_folder_is_a_usage_error(tmp_path, capsys):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    # (--out naming the file itself is refused with the arguments: see the folder option test)
    for argv in (["schema", "--out", str(blocker / "sub")], ["schema", "--check", "--out", str(tmp_path / "missing")]):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err and "--out" in err


@pytest.mark.parametrize("argv", [["run", "--edition", "envelope", "--area", "pi"],
                                  ["list", "--edition", "pi-1.6.0", "--area", "envelope", "--area", "profiles"],
                                  ["coverage", "--edition", "profiles", "--area", "pi"],
                                  ["diff", "--adapter", "reference", "--adapter", "reference",
                                   "--edition", "pi-1.6.0", "--area", "envelope"]])
def test_an_edition_of_another_area_than_the_selected_ones_is_refused(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    edition, area = argv[argv.index("--edition") + 1], argv[argv.index("--area") + 1]
    assert f"--edition {edition} is an edition of the" in err and f"--area {area}" in err


def test_show_refuses_an_edition_of_another_area_than_the_cases(capsys):
    # run and list refuse it; show printed the pi golden under --edition envelope.
    assert main(["show", "tpl-expand-no-placeholders", "--edition", "envelope"]) == 2
    assert ("--edition envelope is an edition of the envelope area; case tpl-expand-no-placeholders is of "
            "the pi area") in capsys.readouterr().err
    assert main(["show", "tpl-expand-no-placeholders", "--edition", "pi-1.6.0"]) == 0


def test_an_edition_of_a_selected_area_and_the_default_edition_are_accepted(capsys):
    assert main(["list", "--edition", "pi-1.6.0", "--area", "pi", "--area", "envelope", "--case", "env-*"]) == 0
    assert main(["list", "--area", "envelope", "--case", "env-*"]) == 0


def test_pytest_refuses_an_edition_of_another_area(capsys, suite_dir):  # noqa: F811
    result = run_refused(capsys, suite_dir, "--edition", "envelope", "--area", "pi")
    assert result.ret == 2
    result.stderr.fnmatch_lines(["*--edition envelope is an edition of the envelope area, not of --area pi*"])


@pytest.mark.parametrize("name", ["python:conformance", "python:conformance:", "python::Impl",
                                  "python:my impl:Impl", "python:tests.kit_fixtures:Echo:extra"])
def test_a_python_adapter_name_not_of_the_form_module_class_is_a_usage_error(name, capsys):
    for argv in (["run", "--adapter", name, "--case", "env-*"], ["smoke", "--adapter", name]):
        assert main(argv) == 2
        assert "give python:MODULE:CLASS" in capsys.readouterr().err


def test_pytest_gives_a_bad_python_adapter_name_the_usage_exit_code(pytester, suite_dir):  # noqa: F811
    result = run_pytest(pytester, suite_dir, "--adapter", "python:conformance")
    assert result.ret == 2
    result.stdout.fnmatch_lines(["*give python:MODULE:CLASS*"])


@pytest.mark.parametrize("value", ["", " "])
@pytest.mark.parametrize("argv, option", [
    (["docs", "--out", "{}"], "--out"),
    (["docs", "--out", "site", "--results", "{}"], "--results"),
    (["compare", "{}"], "REPORT"),
    (["run", "--case", "env-payload-replace-both", "--expectations", "{}"], "--expectations"),
    (["schema", "--out", "{}"], "--out"),
    (["diff", "--adapter", "reference", "--adapter", "reference", "--op", "pi.parse-args", "--out", "{}"], "--out"),
    (["diff", "--adapter", "reference", "--adapter", "reference", "--op", "pi.parse-args", "--expectations", "{}"],
     "--expectations"),
    (["invariants", "--report-json", "{}"], "--report-json"),
    (["invariants", "--scenario-dir", "{}"], "--scenario-dir"),
    (["faults", "--report-json", "{}"], "--report-json"),
])
def test_an_empty_or_blank_path_is_a_usage_error_and_writes_nothing(argv, option, value, tmp_path, monkeypatch,
                                                                     capsys):
    # `docs --out ''` wrote its pages into the working folder; `--expectations ''` judged without
    # the file; `compare ''` read the working folder as a report.
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit_:
        main([value if a == "{}" else a for a in argv])
    assert exit_.value.code == 2
    assert f"argument {option}: give a path" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("argv", [
    ["docs", "--out"],
    ["schema", "--out"],
    ["diff", "--adapter", "reference", "--adapter", "reference", "--op", "pi.parse-args", "--out"],
    ["invariants", "--scenario-dir"],
])
def test_a_folder_option_naming_a_file_is_a_usage_error_and_leaves_the_file(argv, tmp_path, capsys):
    # `docs --out FILE` failed with the system's bare "File exists"
    file = tmp_path / "a-file"
    file.write_text("kept")
    with pytest.raises(SystemExit) as exit_:
        main([*argv, str(file)])
    assert exit_.value.code == 2
    assert f"argument {argv[-1]}: {file} is a file, not a folder" in capsys.readouterr().err
    assert file.read_text() == "kept" and list(tmp_path.iterdir()) == [file]


@pytest.mark.parametrize("argv", [["run", "--bogus"], ["diff", "--bogus"], ["invariants", "extra"], ["list", "x", "y"]])
def test_an_unknown_argument_is_reported_with_its_commands_usage(argv, capsys):
    # argparse left them to the top parser, whose usage line names no option of the command
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"usage: pi-conformance {argv[0]} ")
    assert f"pi-conformance {argv[0]}: error: unrecognized arguments: {' '.join(argv[1:])}" in err


@pytest.mark.parametrize("value", ["", " "])
@pytest.mark.parametrize("command", ["coverage", "faults"])
def test_an_empty_or_blank_faults_module_is_a_usage_error(command, value, capsys):
    # `coverage --faults ''` was taken for `--faults` without a module: the default package
    with pytest.raises(SystemExit) as exit_:
        main([command, "--faults", value])
    assert exit_.value.code == 2
    assert "argument --faults: give a module name" in capsys.readouterr().err


def test_coverage_faults_refuses_an_edition_it_would_not_use(capsys):
    # --edition was silently ignored: the fault check judges every edition's cases at once
    assert main(["coverage", "--faults", "--edition", "pi-1.6.0"]) == 2
    assert "--edition is not an option of coverage --faults" in capsys.readouterr().err


@pytest.mark.parametrize("value", ["", " "])
@pytest.mark.parametrize("argv, option", [
    (["run", "--case"], "--case"), (["list", "--case"], "--case"), (["run", "--require-op"], "--require-op"),
    (["faults", "--fault"], "--fault"), (["invariants", "--invariant"], "--invariant"),
    (["diff", "--adapter", "reference", "--adapter", "reference", "--op"], "--op"),
])
def test_an_empty_or_blank_selection_is_a_usage_error_saying_so(argv, option, value, capsys):
    # `run --case ''` said "no case matches ", as if a real pattern had matched nothing
    with pytest.raises(SystemExit) as exit_:
        main([*argv, value])
    assert exit_.value.code == 2
    assert f"argument {option}: give a name or glob (an empty one selects nothing)" in capsys.readouterr().err


def test_pytest_refuses_an_empty_expectations_path(capsys, suite_dir):  # noqa: F811
    result = run_refused(capsys, suite_dir, "--expectations", "")
    assert result.ret == 2  # as under `run`, before any case runs
    result.stderr.fnmatch_lines(["*--expectations: give a path*"])


@pytest.mark.parametrize("argv", [["run", "--edition", "profiles", "--case", "msg-*"],
                                  ["list", "--edition", "envelope", "--case", "msg-*"]])
def test_an_edition_of_another_area_than_the_selected_cases_is_refused(argv, capsys):
    # --case picked pi cases and the run was labelled with the profiles edition, judging none by it.
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"--edition {argv[2]} is an edition of the {argv[2]} area; the selected cases are of the pi area" in err
    assert main([argv[0], "--edition", "pi-1.6.0", "--case", "msg-system*"]) in (0, 1)


def test_a_report_may_not_overwrite_the_expectations_file(tmp_path, capsys):
    expectations = tmp_path / "expectations.yaml"
    expectations.write_text("format: 1\n", encoding="utf-8")
    argv = ["run", "--case", "msg-*", "--expectations", str(expectations), "--report-md", str(expectations)]
    assert main(argv) == 2
    assert "--report-md and --expectations name the same file" in capsys.readouterr().err
    assert expectations.read_text(encoding="utf-8") == "format: 1\n"


@pytest.mark.parametrize("argv", [
    ["run", "--report-md", "a.md", "--report-md", "b.md"],
    ["run", "--report-json", "a.json", "--report-json", "b.json"],
    ["run", "--expectations", "a.yaml", "--expectations", "b.yaml"],
    ["invariants", "--report-json", "a.json", "--report-json", "b.json"],
    ["faults", "--report-json", "a.json", "--report-json", "b.json"],
])
def test_a_report_or_expectations_option_given_twice_is_a_usage_error(argv, capsys, tmp_path, monkeypatch):
    """It kept the last value without a word: the report asked for first was never written."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as refused:
        main(argv)
    assert refused.value.code == 2
    first, second = argv[2], argv[4]
    assert f"argument {argv[1]}: given twice ({first}, then {second}); give it once" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("given, meant", [
    ("refrence", "reference"), ("pi-nod", "pi-node"), ("serve-refrence", "serve-reference"),
    ("pyhton:my_impl:MyImpl", "python:my_impl:MyImpl"), ("pi-ndoe@1.5.2", "pi-node@1.5.2"),
])
def test_a_misspelt_adapter_name_gets_the_closest_names(given, meant, capsys):
    from conformance.cli import main

    assert main(["run", "-q", "--adapter", given]) == 2
    err = capsys.readouterr().err
    assert f"did you mean {meant}?" in err, err


def test_a_command_that_is_no_adapter_name_and_not_found_gets_no_guess(capsys):
    from conformance.cli import main

    assert main(["run", "-q", "--adapter", "zzqx-adapter"]) == 3
    assert "did you mean" not in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["--bogus"], ["--bogus", "run"], ["-x", "list"]])
def test_an_option_before_the_command_is_named(argv, capsys):
    """argparse said only that COMMAND was missing; the option the user gave is named instead."""
    with pytest.raises(SystemExit) as exc:
        main(argv)
    err = capsys.readouterr().err
    assert exc.value.code == 2 and f"unrecognized option {argv[0]}: options follow the command" in err, err


@pytest.mark.parametrize("field, value", [("name", None), ("version", ""), ("language", 3)])
def test_an_in_process_implementation_s_identity_is_checked_as_the_handshake_s(field, value, capsys):
    """``name = None`` was shown as ``implementation: None``; a served adapter's ``started`` is
    refused for the same (protocol.py), and so now is an in-process one, before any case."""
    from conformance.adapters.base import AdapterStartError
    from conformance.adapters.inprocess import InProcessAdapter
    from conformance.adapters.reference import ReferenceImplementation

    class Odd(ReferenceImplementation):
        pass

    setattr(Odd, field, value)
    with pytest.raises(AdapterStartError, match=f"Odd.{field} must be a non-empty string"):
        InProcessAdapter(Odd()).start()
