"""The kit's loader, goldens, runner, expectations and CLI, on a miniature suite."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance.judge import golden
from conformance.adapters.inprocess import InProcessAdapter
from conformance.corpus.cases import load_suite
from conformance.cli import main
from conformance.judge.expectations import load_expectations
from conformance.judge.runner import Runner, RunSummary
from tests import kit_fixtures as kf
from tests.kit_fixtures import mini_suite, write


def run_all(dirs, impl, **kw):
    suite = load_suite(dirs["scenarios"], spec_dir=dirs["spec"])
    assert suite.errors == []
    runner = Runner(InProcessAdapter(impl), golden_dir=dirs["golden"], **kw)
    runner.start()
    try:
        return {c.id: runner.run_case(c) for c in suite.cases}
    finally:
        runner.stop()


def cli(dirs, *args):
    return main([*args, "--scenarios-dir", str(dirs["scenarios"]), "--spec-dir", str(dirs["spec"]),
                 "--golden-dir", str(dirs["golden"])])


# --- loader -------------------------------------------------------------------------------------

def test_loader_reads_cases_with_defaults(tmp_path):
    dirs = mini_suite(tmp_path)
    suite = load_suite(dirs["scenarios"], spec_dir=dirs["spec"])
    assert [c.id for c in suite.cases] == ["kit-echo-text", "kit-echo-number", "kit-echo-refused"]
    assert suite.cases[0].op == "kit.echo" and suite.cases[2].error_code == "value-refused"
    assert suite.cases[1].line == 10  # the "- id:" line of the second case


def test_yaml_syntax_error_names_file_line_and_column(tmp_path):
    dirs = mini_suite(tmp_path)
    write(dirs["scenarios"] / "kit" / "bad.yaml", "format: 1\narea: kit\ntitle: x\ncases:\n  - id: [unclosed\n")
    suite = load_suite(dirs["scenarios"], spec_dir=dirs["spec"])
    assert len(suite.cases) == 3, "one bad file must not hide the others"
    (err,) = suite.errors
    assert err.file.endswith("bad.yaml") and err.line >= 5 and err.column > 0
    assert "YAML error" in err.message


def test_unknown_field_and_bad_input_are_positioned(tmp_path):
    dirs = mini_suite(tmp_path)
    write(dirs["scenarios"] / "kit" / "bad.yaml", """\
        format: 1
        area: kit
        title: bad
        op: kit.echo
        cases:
          - id: kit-bad-one
            title: unknown case field
            clauses: [ENV-TEST-ECHO]
            inptu: {}
          - id: kit-bad-two
            title: bad input field
            clauses: [ENV-TEST-ECHO]
            input: {value: 1, nope: 2}
          - id: kit-good
            title: fine
            clauses: [ENV-TEST-ECHO]
            input: {value: 1}
        """)
    suite = load_suite(dirs["scenarios"], spec_dir=dirs["spec"])
    errors = {e.field: e for e in suite.errors}
    assert errors["cases[0].inptu"].line == 9 and errors["cases[0].inptu"].message == "unknown field"
    assert errors["cases[1].input.nope"].line == 13
    assert "kit-good" in suite.by_id(), "a bad case must not hide the good ones of its file"


@pytest.mark.parametrize("case_yaml, field, words", [
    ("op: kit.nope", "cases[0].op", "unknown operation"),
    ("clauses: [ENV-NOPE]", "cases[0].clauses[0]", "unknown clause"),
    ("normalise: [nope.nope]", "cases[0].normalise[0]", "unknown normaliser"),
    ("tree: {a.md: x}", "cases[0].tree", "does not take a file tree"),
    ("id: Bad_Id", "cases[0].id", "pattern"),
])
def test_case_level_problems(tmp_path, case_yaml, field, words):
    dirs = mini_suite(tmp_path)
    fields = {"id": "kit-x", "title": "t", "clauses": "[ENV-TEST-ECHO]", "input": "{value: 1}"}
    key = case_yaml.split(":")[0]
    body = "".join(f"    {k}: {v}\n" for k, v in fields.items() if k != key)
    write(dirs["scenarios"] / "kit" / "bad.yaml",
          f"format: 1\narea: kit\ntitle: t\nop: kit.echo\ncases:\n  - {case_yaml}\n{body}")
    suite = load_suite(dirs["scenarios"], spec_dir=dirs["spec"])
    assert any(e.field == field and words in e.message for e in suite.errors), suite.errors


def test_duplicate_and_retired_ids(tmp_path):
    dirs = mini_suite(tmp_path)
    write(dirs["scenarios"] / "kit" / "dup.yaml", """\
        format: 1
        area: kit
        title: dup
        op: kit.echo
        cases:
          - {id: kit-echo-text, title: again, clauses: [ENV-TEST-ECHO]}
          - {id: kit-old, title: reused, clauses: [ENV-TEST-ECHO]}
        """)
    write(dirs["scenarios"] / "ids.yaml", "retired:\n  - {id: kit-old, reason: split in two}\n")
    suite = load_suite(dirs["scenarios"], spec_dir=dirs["spec"])
    messages = " ".join(e.message for e in suite.errors)
    assert "also used at" in messages and "retired" in messages
    assert [c.id for c in suite.cases].count("kit-echo-text") == 1


def test_area_must_match_folder(tmp_path):
    dirs = mini_suite(tmp_path)
    write(dirs["scenarios"] / "pi" / "x.yaml", "format: 1\narea: kit\ntitle: t\ncases: [{id: a, title: t, clauses: [X]}]\n")
    suite = load_suite(dirs["scenarios"], spec_dir=dirs["spec"])
    assert any(e.field == "area" and "folder" in e.message for e in suite.errors)


# --- goldens ------------------------------------------------------------------------------------

def test_golden_form_is_language_neutral():
    text = golden.render("c", "o", {"b": "x\ny\n", "a": 2.0, "c": [True, None]})
    assert text.splitlines()[2:] == ["case: c", "op: o", "output:", "  a: 2", "  b: |", "    x", "    y",
                                     "  c:", "    - true", "    - null"]
    assert golden.parse(text)["output"] == {"a": 2, "b": "x\ny\n", "c": [True, None]}


@pytest.mark.parametrize("text", ["a\r\nb", "tab\there\n", "  lead\nx", "trail  \nx", "x\n\n\n", "\x07\n"])
def test_golden_strings_round_trip_exactly(text):
    assert golden.parse(golden.render("c", "o", {"s": text}))["output"]["s"] == text


def test_comparison_is_type_exact_but_number_form_neutral():
    assert golden.same(golden.canonical({"n": 1.0}), golden.canonical({"n": 1}))
    assert not golden.same(golden.canonical({"n": True}), golden.canonical({"n": 1}))
    assert not golden.same(golden.canonical({"n": 1.5}), golden.canonical({"n": 1}))


def test_orphans_are_judged_against_the_whole_suite(tmp_path):
    dirs = mini_suite(tmp_path)
    golden.write(dirs["golden"] / "kit" / "kit-gone.yaml", "kit-gone", "kit.echo", {"value": 1})
    assert [p.stem for p in golden.orphans(dirs["golden"], {"kit-echo-text", "kit-echo-number"})] == ["kit-gone"]


def test_every_file_under_the_golden_folder_belongs_to_a_case_or_is_reported(tmp_path, capsys):
    dirs = mini_suite(tmp_path)
    gold = dirs["golden"]
    stray = {"top.yaml": "x", "notes/a.yaml": "x", "kit/sub/kit-echo-text.yaml": "x", "kit/README.txt": "x",
             "kit@nope/kit-echo-text.yaml": "x", "envelope/kit-echo-number.yaml": "x"}
    for rel, text in stray.items():
        write(gold / rel, text)
    (gold / "kit" / "link.yaml").symlink_to(gold / "kit" / "kit-echo-text.yaml")
    assert cli(dirs, "run", "-q") == 2
    err = capsys.readouterr().err
    assert "top.yaml: not a golden" in err and "notes: not a golden" in err
    assert "kit/sub: not a golden" in err and "kit/README.txt: not a golden" in err
    assert "kit@nope: not a golden" in err and "kit/link.yaml: not a golden" in err
    assert "envelope/kit-echo-number.yaml: golden of a case of area 'kit' in the envelope folder" in err
    assert "kit-echo-text.yaml: orphaned" not in err and "kit-echo-number.yaml: orphaned" not in err


# --- runner -------------------------------------------------------------------------------------

def test_correct_implementation_passes(tmp_path):
    results = run_all(mini_suite(tmp_path), kf.Echo())
    assert {k: r.status for k, r in results.items()} == dict.fromkeys(results, "passed")


def test_wrong_answers_fail_with_a_diff(tmp_path):
    results = run_all(mini_suite(tmp_path), kf.WrongEcho())
    text = results["kit-echo-text"]
    assert text.status == "failed" and "-value: |" in text.diff and "+value: wrong" in text.diff
    assert results["kit-echo-refused"].status == "failed"
    assert "expected error value-refused" in results["kit-echo-refused"].message


@pytest.mark.parametrize("impl, status", [
    (kf.CrashingEcho(), "errored"), (kf.NoOps(), "unsupported"), (kf.RaisesUnsupported(), "unsupported"),
    (kf.SkipsAll(), "skipped"), (kf.BadOutput(), "failed"),
])
def test_answer_kinds(tmp_path, impl, status):
    results = run_all(mini_suite(tmp_path), impl)
    assert results["kit-echo-number"].status == status


def test_crash_carries_the_traceback_tail(tmp_path):
    r = run_all(mini_suite(tmp_path), kf.CrashingEcho())["kit-echo-number"]
    assert "RuntimeError: boom" in r.message and "Traceback" in r.stderr


def test_output_schema_is_checked(tmp_path):
    r = run_all(mini_suite(tmp_path), kf.BadOutput())["kit-echo-number"]
    assert "output schema" in r.message and "extra" in r.message


def test_missing_golden_errors_with_a_hint(tmp_path):
    r = run_all(mini_suite(tmp_path, goldens=False), kf.Echo())["kit-echo-text"]
    assert r.status == "errored" and "--update-goldens" in r.message


def test_only_the_bundled_reference_may_write_goldens(tmp_path):
    with pytest.raises(ValueError, match="bundled reference"):
        Runner(InProcessAdapter(kf.Echo()), golden_dir=tmp_path, update=True)


def test_update_writes_missing_goldens_from_the_reference(tmp_path):
    dirs = mini_suite(tmp_path, goldens=False)
    assert cli(dirs, "run", "--update-goldens", "-q", "--case", "kit-echo-t*", "--case", "kit-echo-n*") == 0
    assert golden.read(dirs["golden"] / "kit" / "kit-echo-number.yaml")["output"] == {"value": 1}
    assert not (dirs["golden"] / "kit" / "kit-echo-refused.yaml").exists()


# --- expectations -------------------------------------------------------------------------------

def test_expected_failures_and_unexpected_passes(tmp_path):
    dirs = mini_suite(tmp_path)
    exp = load_expectations(write(tmp_path / "exp.yaml", """\
        expectations:
          - {id: kit-echo-t*, status: fail, reason: known}
          - {id: kit-echo-number, status: skip, reason: slow}
        """))
    wrong = run_all(dirs, kf.WrongEcho(), expectations=exp)
    assert wrong["kit-echo-text"].status == "xfail" and wrong["kit-echo-number"].status == "skipped"
    right = run_all(dirs, kf.Echo(), expectations=exp)
    assert right["kit-echo-text"].status == "xpass"
    assert not RunSummary.of(list(right.values())).ok


def test_stale_expectation_ids_are_errors(tmp_path):
    dirs = mini_suite(tmp_path)
    write(tmp_path / "exp.yaml", "expectations:\n- {id: kit-none-*, status: fail, reason: r}\n")
    assert load_expectations(tmp_path / "exp.yaml").stale({"kit-echo-text"})[0].line == 2
    assert cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:Echo", "--expectations",
               str(tmp_path / "exp.yaml")) == 2


@pytest.mark.parametrize("entry, stale", [
    ("{id: env-instr-nothing, status: fail, reason: r, editions: [pi-1.6.0]}", True),  # an envelope case
    ("{id: msg-replay-replace-baseline, status: fail, reason: r, editions: [pi-1.6.0]}", True),  # 0.99.4 only
    ("{id: msg-replay-replace-baseline, status: fail, reason: r, editions: [pi-0.99.4]}", False),
    ("{id: 'env-*', status: fail, reason: r, editions: [envelope]}", False),
    ("{id: 'msg-*', status: fail, reason: r, editions: [pi-1.6.0]}", False),  # some msg cases hold there
])
def test_an_expectation_whose_editions_judge_none_of_its_cases_is_stale(tmp_path, entry, stale):
    # accepted silently before: the entry could never apply, so the file no longer said what is true
    write(tmp_path / "exp.yaml", f"expectations:\n- {entry}\n")
    suite = load_suite()
    found = load_expectations(tmp_path / "exp.yaml").stale(suite.ids, suite.by_id())
    assert [e.field for e in found] == (["expectations[0].editions"] if stale else [])


def test_run_refuses_an_expectation_its_editions_never_apply_to(tmp_path, capsys):
    write(tmp_path / "exp.yaml", "expectations:\n- {id: env-instr-nothing, status: fail, reason: r, editions: [pi-1.6.0]}\n")
    assert main(["run", "-q", "--case", "env-instr-nothing", "--expectations", str(tmp_path / "exp.yaml")]) == 2
    assert "'env-instr-nothing' never applies: the cases it matches are judged in envelope, not in pi-1.6.0" \
        in capsys.readouterr().err


def test_bad_expectations_file_names_the_field(tmp_path):
    from conformance.corpus.yamlio import SuiteFileError

    write(tmp_path / "exp.yaml", "expectations:\n  - {id: x, status: maybe, reason: r}\n")
    with pytest.raises(SuiteFileError) as info:
        load_expectations(tmp_path / "exp.yaml")
    assert info.value.errors[0].field == "expectations[0].status" and info.value.errors[0].line == 2


# --- CLI ----------------------------------------------------------------------------------------

def test_exit_codes(tmp_path, capsys):
    dirs = mini_suite(tmp_path)
    assert cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:Echo") == 0
    assert cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:WrongEcho") == 1
    assert cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:CannotStart") == 3
    assert cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:Nope") == 3
    assert cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:Echo", "--case", "zzz*") == 2
    write(dirs["scenarios"] / "kit" / "bad.yaml", "format: 2\n")
    assert cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:Echo") == 2
    err = capsys.readouterr().err
    assert "bad.yaml:1:1: format:" in err


def test_orphaned_golden_is_a_suite_error(tmp_path, capsys):
    dirs = mini_suite(tmp_path)
    golden.write(dirs["golden"] / "kit" / "kit-gone.yaml", "kit-gone", "kit.echo", {"value": 1})
    assert cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:Echo", "--case", "kit-echo-text") == 2
    assert "orphaned golden" in capsys.readouterr().err


def test_reports_are_written(tmp_path):
    dirs = mini_suite(tmp_path)
    out = tmp_path / "out"
    assert cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:WrongEcho", "--report-json",
               str(out / "r.json"), "--junit", str(out / "r.xml"), "--report-md", str(out / "r.md")) == 1
    report = json.loads((out / "r.json").read_text())
    assert report["header"]["implementation"] == {"name": "echo", "version": "1", "language": "python"}
    assert {"suite", "spec", "protocol", "date"} <= set(report["header"])
    assert report["summary"]["kit"]["failed"] == 3
    assert {c["status"] for c in report["cases"]} == {"failed"} and report["cases"][0]["diff"]
    assert "<failure" in (out / "r.xml").read_text()
    assert "| kit | 0 | 3 |" in (out / "r.md").read_text()


def test_compare_puts_reports_side_by_side(tmp_path, capsys):
    dirs = mini_suite(tmp_path)
    cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:Echo", "--report-json", str(tmp_path / "a.json"))
    cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:WrongEcho", "--report-json", str(tmp_path / "b.json"))
    capsys.readouterr()
    assert main(["compare", str(tmp_path / "a.json"), str(tmp_path / "b.json"), "--markdown"]) == 0
    out = capsys.readouterr().out
    assert "| kit | 3/3 passed | 0/3 passed (3 failed) |" in out
    assert main(["compare", str(tmp_path / "nope.json")]) == 2


def test_coverage_fails_on_uncovered_must(tmp_path, capsys):
    dirs = mini_suite(tmp_path)
    assert cli(dirs, "coverage") == 0
    write(dirs["spec"] / "more.yaml", "area: pi\nclauses:\n  - {id: PI-TEST-LONELY, level: MUST, statement: s, source: t}\n")
    assert cli(dirs, "coverage") == 1
    assert "PI-TEST-LONELY" in capsys.readouterr().err


def test_coverage_needs_a_refusal_case_for_refusal_clauses(tmp_path, capsys):
    dirs = mini_suite(tmp_path)
    scen = dirs["scenarios"] / "kit" / "echo.yaml"
    scen.write_text(scen.read_text().replace("    error: {code: value-refused}\n", ""))
    assert cli(dirs, "coverage") == 1
    assert "ENV-TEST-REFUSE" in capsys.readouterr().err


def test_show_prints_input_and_golden(tmp_path, capsys):
    dirs = mini_suite(tmp_path)
    assert cli(dirs, "show", "kit-echo-text") == 0
    out = capsys.readouterr().out
    assert "ENV-TEST-ECHO (MUST): Echo returns its value." in out and "value: |" in out
    assert cli(dirs, "show", "nope") == 2


def test_update_rewrites_a_golden_whose_change_a_normaliser_hides(tmp_path, monkeypatch):
    from conformance.judge import normalise

    monkeypatch.setitem(normalise._NORMALISERS, "kit.hide-value", lambda out: {**out, "value": "hidden"})
    dirs = mini_suite(tmp_path)
    scen = dirs["scenarios"] / "kit" / "echo.yaml"
    scen.write_text(scen.read_text().replace("    input: {value: 1.0}\n", "    input: {value: 2}\n    normalise: [kit.hide-value]\n"))
    assert run_all(dirs, kf.Echo())["kit-echo-number"].status == "passed"
    assert cli(dirs, "run", "-q", "--update-goldens", "--case", "kit-echo-number") == 0
    assert golden.read(dirs["golden"] / "kit" / "kit-echo-number.yaml")["output"] == {"value": 2}


@pytest.mark.parametrize("word", ["off", "On", "yes", "N", "~", "1_000", "0o7", "012", "1:30", ".5", "1e3", ".inf"])
def test_golden_quotes_strings_a_yaml_1_1_reader_would_misread(word):
    line = golden.dump({"v": word}).strip()
    assert line in (f"v: '{word}'", f'v: "{word}"'), line
    assert golden.parse(golden.render("c", "o", {"v": word}))["output"]["v"] == word


def test_golden_leaves_ordinary_strings_plain():
    assert golden.dump({"v": "offline"}).strip() == "v: offline"


def test_empty_adapter_is_a_usage_error(tmp_path, capsys):
    assert cli(mini_suite(tmp_path), "run", "-q", "--adapter", "") == 2
    assert main(["smoke", "--adapter", " "]) == 2
    err = capsys.readouterr().err
    # advice every command can follow (smoke has no default adapter to fall back on)
    assert err.count("--adapter is empty: name an adapter (`reference` for the bundled one)") == 2
    assert main(["smoke", "--adapter", "reference"]) == 0


def test_bad_expectations_stop_before_the_run(tmp_path, capsys):
    dirs = mini_suite(tmp_path)
    write(tmp_path / "exp.yaml", "expectations:\n- {id: x, status: maybe, reason: r}\n")
    report = tmp_path / "r.json"
    assert cli(dirs, "run", "--adapter", "python:tests.kit_fixtures:Echo", "--expectations",
               str(tmp_path / "exp.yaml"), "--report-json", str(report)) == 2
    out = capsys.readouterr()
    assert "implementation:" not in out.out and "exp.yaml:2:" in out.err and not report.exists()


@pytest.mark.parametrize("text", ["expectations: []\n", "implementation: x 1.0\nexpectations: []\n"])
def test_an_expectations_file_without_entries_is_named_on_stderr(tmp_path, capsys, text):
    dirs = mini_suite(tmp_path)
    write(tmp_path / "exp.yaml", text)
    cli(dirs, "run", "-q", "--expectations", str(tmp_path / "exp.yaml"))
    assert "exp.yaml lists no expectations: every case is expected to pass" in capsys.readouterr().err
    write(tmp_path / "exp.yaml", "expectations:\n- {id: kit-echo-refused, status: fail, reason: r}\n")
    cli(dirs, "run", "-q", "--expectations", str(tmp_path / "exp.yaml"))
    assert "lists no expectations" not in capsys.readouterr().err


@pytest.mark.parametrize("named, warned", [("echo 1", False), ("echo 2", True), ("pi 1.6.0", True), (None, False)])
def test_an_expectations_file_written_for_another_implementation_is_named(tmp_path, capsys, named, warned):
    dirs = mini_suite(tmp_path)
    write(tmp_path / "exp.yaml", (f"implementation: {named}\n" if named else "") + "expectations: []\n")
    assert cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:Echo", "--expectations",
               str(tmp_path / "exp.yaml")) == 0
    err = capsys.readouterr().err
    assert (f"exp.yaml is written for {named}; the adapter is echo 1 (its entries apply all the same)" in err) == warned
    assert ("is written for" in err) == warned


@pytest.mark.parametrize("text", ["", "\n\n", "# nothing yet\n", "---\n"])
def test_an_empty_expectations_file_is_refused_before_the_run(tmp_path, capsys, text):
    # An empty file is more likely a file not yet written (or truncated) than a claim that every
    # case passes, which `expectations: []` states.
    dirs = mini_suite(tmp_path)
    write(tmp_path / "exp.yaml", text)
    assert cli(dirs, "run", "-q", "--expectations", str(tmp_path / "exp.yaml")) == 2
    out = capsys.readouterr()
    assert "implementation:" not in out.out
    assert f"{tmp_path / 'exp.yaml'}:1:1: the file is empty" in out.err and "expectations: []" in out.err


@pytest.mark.parametrize("flag", ["--report-json", "--junit", "--report-md", "--report-html"])
def test_a_report_to_standard_output_is_refused_and_no_file_called_dash_is_written(tmp_path, capsys, monkeypatch,
                                                                                    flag):
    dirs = mini_suite(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:Echo", flag, "-") == 2
    assert "reports are written to files" in capsys.readouterr().err
    assert not (tmp_path / "-").exists()


@pytest.mark.parametrize("flag", ["--report-json", "--junit", "--report-md"])
def test_unwritable_report_paths_are_refused_before_the_run(tmp_path, capsys, flag):
    dirs = mini_suite(tmp_path)
    assert cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:Echo", flag, str(tmp_path)) == 2
    assert "is a directory" in capsys.readouterr().err
    assert cli(dirs, "run", "-q", "--report-json", str(tmp_path / "a"), "--junit", str(tmp_path / "a")) == 2


@pytest.mark.parametrize("flag", ["--report-json", "--junit", "--report-md", "--report-html"])
def test_a_report_path_ending_in_a_slash_is_refused_and_nothing_is_written(tmp_path, capsys, flag):
    dirs = mini_suite(tmp_path)
    assert cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:Echo", flag, str(tmp_path / "out") + "/") == 2
    assert "ends in a slash, which names a folder" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_interrupted_run_exits_130_and_writes_no_report(tmp_path, capsys):
    dirs = mini_suite(tmp_path)
    report = tmp_path / "r.json"
    previous = '{"header": {"format": 2}, "previous": true}\n'  # an earlier report of the kit's
    report.write_text(previous)
    assert cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:Interrupted", "--report-json", str(report)) == 130
    assert report.read_text() == previous
    assert "interrupted after 1 of 3 cases" in capsys.readouterr().err


def test_junit_stays_well_formed_with_control_characters(tmp_path, capsys):
    import xml.dom.minidom

    dirs = mini_suite(tmp_path)
    assert cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:Shouty", "--junit", str(tmp_path / "r.xml")) == 1
    doc = xml.dom.minidom.parse(str(tmp_path / "r.xml"))
    assert "\\x1b[31mred" in doc.getElementsByTagName("failure")[0].getAttribute("message")
    assert "kit.ecko" in capsys.readouterr().err


def test_catalogue_errors_are_suite_errors(tmp_path):
    dirs = mini_suite(tmp_path)
    write(dirs["spec"] / "bad.yaml", "area: pi\nclauses:\n  - {id: PI-X, level: MUSTT, statement: s, source: t}\n")
    suite = load_suite(dirs["scenarios"], spec_dir=dirs["spec"])
    assert any(e.file.endswith("bad.yaml") and e.field == "clauses[0].level" and e.line == 3 for e in suite.errors)


def test_misnamed_and_misplaced_scenario_files_are_reported(tmp_path):
    dirs = mini_suite(tmp_path)
    write(dirs["scenarios"] / "kit" / "x.yml", "format: 1\n")
    write(dirs["scenarios"] / "bogus" / "x.yaml", "format: 1\n")
    messages = [e.message for e in load_suite(dirs["scenarios"], spec_dir=dirs["spec"]).errors]
    assert any("end in .yaml" in m for m in messages) and any("scenario folders are" in m for m in messages)


def test_non_utf8_scenario_gives_line_and_column(tmp_path):
    dirs = mini_suite(tmp_path)
    (dirs["scenarios"] / "kit" / "latin.yaml").write_bytes(b"format: 1\ntitle: caf\xe9\n")
    (err,) = load_suite(dirs["scenarios"], spec_dir=dirs["spec"]).errors
    assert (err.line, err.column) == (2, 11) and "not UTF-8" in err.message


def test_tree_errors_name_the_entry():
    from conformance.corpus.trees import parse_tree

    with pytest.raises(ValueError, match="'a/b.md'.*size"):
        parse_tree({"a/b.md": {"fill": "x", "size": -1}})


def test_golden_for_another_case_errors(tmp_path):
    dirs = mini_suite(tmp_path)
    golden.write(dirs["golden"] / "kit" / "kit-echo-number.yaml", "kit-echo-text", "kit.echo", {"value": 1})
    r = run_all(dirs, kf.Echo())["kit-echo-number"]
    assert r.status == "errored" and "is for case 'kit-echo-text'" in r.message


def test_written_files_are_readable_by_others(tmp_path):
    import os
    import stat

    old = os.umask(0o022)
    try:
        golden.write(tmp_path / "g.yaml", "c", "o", {})
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "g.yaml").stat().st_mode) == 0o644


def test_compare_refuses_a_malformed_report_naming_it(tmp_path, capsys):
    bad = write(tmp_path / "bad.json", '{"header": {}, "summary": {}, "cases": []}')
    assert main(["compare", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "bad.json" in err and "header.implementation" in err


@pytest.mark.parametrize("text", ["a\x85b", "a\u2028b", "x\u2029", "\x85"])
def test_golden_escapes_yaml_line_breaks(text):
    assert golden.parse(golden.render("c", "o", {"s": text}))["output"]["s"] == text


def test_duplicate_expectation_ids_are_refused(tmp_path):
    from conformance.corpus.yamlio import SuiteFileError

    write(tmp_path / "exp.yaml", "expectations:\n- {id: a, status: fail, reason: r}\n- {id: a, status: skip, reason: r}\n")
    with pytest.raises(SuiteFileError, match="already listed at line 2"):
        load_expectations(tmp_path / "exp.yaml")


def test_report_folder_that_cannot_be_made_is_refused_before_the_run(tmp_path, capsys):
    dirs = mini_suite(tmp_path)
    (tmp_path / "afile").write_text("x")
    assert cli(dirs, "run", "-q", "--report-json", str(tmp_path / "new" / "r.json"),
               "--report-md", str(tmp_path / "afile" / "sub" / "r.md")) == 2
    assert "implementation:" not in capsys.readouterr().out
    assert not (tmp_path / "new" / "r.json").exists()


def test_compare_names_a_missing_report(tmp_path, capsys):
    assert main(["compare", str(tmp_path / "nope.json")]) == 2
    assert "nope.json: cannot read" in capsys.readouterr().err


def test_case_trees_are_made_in_memory_unless_tmpdir_chooses(tmp_path, monkeypatch):
    import os
    import tempfile

    from conformance.adapters.base import Answer
    from conformance.corpus.cases import Case
    from conformance.corpus.trees import parse_tree

    roots = []

    class Recorder:
        def run(self, op, input, *, root, timeout, edition=None):
            roots.append(root)
            assert (Path(root) / "a.txt").read_text() == "x"
            return Answer("result", output={})

    case = Case(id="t", title="t", clauses=["X"], tags=[], op="kit.echo", input={}, tree=parse_tree({"a.txt": "x"}),
                error_code=None, normalise=[], requires=[], area="kit", file="f", line=1)
    runner = Runner(Recorder())
    monkeypatch.setattr(tempfile, "tempdir", None)
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    runner._ask(case)
    assert Path(roots[-1]).parent == tmp_path.resolve()
    monkeypatch.setattr(tempfile, "tempdir", None)
    monkeypatch.delenv("TMPDIR")
    runner._ask(case)
    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK | os.X_OK):
        assert Path(roots[-1]).parent == shm.resolve()
    assert not any(Path(r).exists() for r in roots), "every tree is removed after its case"


@pytest.mark.parametrize("extra", ["", "new.txt", "d/e/new/deep.txt", "readonly"])
def test_a_case_tree_is_removed_with_whatever_the_implementation_left(tmp_path, extra):
    import os

    from conformance.output.removal import remove_tree
    from conformance.corpus.trees import materialise, parse_tree

    tree = parse_tree({"a.txt": "x", "d/e/f.md": "y", "d/g": {"dir": True}, "link": {"symlink": "d"},
                       "h/i/j": {"base64": "eA=="}})
    root = tmp_path / "root"
    root.mkdir()
    materialise(tree, root)
    assert (root / "d/e/f.md").read_text() == "y" and (root / "link/e/f.md").read_text() == "y"
    assert (root / "d/g").is_dir() and (root / "h/i/j").read_bytes() == b"x"
    if extra == "readonly":
        (root / "d/e").chmod(0o500)
    elif extra:
        (root / extra).parent.mkdir(parents=True, exist_ok=True)
        (root / extra).write_text("left behind")
    assert remove_tree(root)
    assert not os.path.lexists(root) and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("how, shown", [("--garbage", "Goodbye from a chatty adapter!"),
                                        ("--exit 5", "exited with code 5")])
def test_an_adapter_that_does_not_stop_cleanly_is_a_suite_error(tmp_path, capsys, how, shown):
    import shlex
    import sys

    dirs = mini_suite(tmp_path)
    command = shlex.join([sys.executable, str(Path(__file__).parent / "standins" / "bad_stop.py"), *how.split()])
    report = tmp_path / "r.json"
    assert cli(dirs, "run", "-q", "--adapter", command, "--report-json", str(report)) == 2
    err = capsys.readouterr().err
    assert "did not stop cleanly" in err and shown in err
    assert any(shown in e for e in json.loads(report.read_text())["header"]["suiteErrors"])


def _kit_running(tmp_path, record, standin: list, *options: str):
    """``pi-conformance run`` of the mini suite as a process of its own, against the stand-in
    ``standin`` (its script and arguments) started through records_pid.py, which writes the
    adapter's process id and home to ``record``."""
    import shlex
    import subprocess
    import sys

    dirs = mini_suite(tmp_path)
    command = shlex.join([sys.executable, str(Path(__file__).parent / "standins" / "records_pid.py"),
                          str(record), *standin])
    return subprocess.Popen(
        [sys.executable, "-m", "conformance.cli", "run", "--adapter", command, *options,
         "--scenarios-dir", str(dirs["scenarios"]), "--spec-dir", str(dirs["spec"]),
         "--golden-dir", str(dirs["golden"])],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=Path(__file__).parent.parent)


@pytest.mark.parametrize("signame, code", [("SIGTERM", 143), ("SIGHUP", 129)])
def test_a_termination_signal_stops_a_hanging_adapter_and_writes_no_report(tmp_path, signame, code):
    import os
    import signal
    import time

    record = tmp_path / "adapter.pid"
    report = tmp_path / "r.json"
    kit = _kit_running(tmp_path, record, ["hangs.py", "--always"], "--report-json", str(report))
    try:
        assert kit.stdout.readline().startswith("implementation:")
        pid, home = record.read_text().split()
        time.sleep(0.3)  # the first request is sent and hangs
        began = time.monotonic()
        kit.send_signal(getattr(signal, signame))
        assert kit.wait(10) == code
        # killed at once, not asked to stop (which costs the adapter's 2 s to answer stop)
        assert time.monotonic() - began < 1.8
    finally:
        kit.kill()
    assert "interrupted after 0 of 3 cases; no report written" in kit.stderr.read()
    assert not report.exists()
    with pytest.raises(ProcessLookupError):
        os.kill(int(pid), 0)
    assert not Path(home).parent.exists()  # the adapter's scratch folder is gone too


@pytest.mark.parametrize("signame, code", [("SIGTERM", 143), ("SIGINT", 130)])
def test_a_signal_while_the_adapter_starts_kills_it_and_removes_its_folder(tmp_path, signame, code):
    import os
    import signal
    import time

    record = tmp_path / "adapter.pid"
    kit = _kit_running(tmp_path, record, ["fails_to_start.py", "silent"])
    try:
        deadline = time.monotonic() + 10
        while not (record.exists() and record.read_text().endswith("\n")) and time.monotonic() < deadline:
            time.sleep(0.02)
        pid, home = record.read_text().split()
        time.sleep(0.2)  # the start is sent; the adapter never answers it
        kit.send_signal(getattr(signal, signame))
        assert kit.wait(10) == code
    finally:
        kit.kill()
    assert "interrupted" in kit.stderr.read()
    time.sleep(0.1)
    with pytest.raises(ProcessLookupError):  # it was left running, its parent gone
        os.kill(int(pid), 0)
    assert not Path(home).parent.exists()  # and its scratch folder left behind


def test_a_python_module_that_cannot_be_found_gets_a_hint_on_where_it_was_looked_for(tmp_path, monkeypatch):
    from conformance.adapters.base import AdapterStartError
    from conformance.adapters.inprocess import load_implementation

    monkeypatch.chdir(tmp_path)
    with pytest.raises(AdapterStartError) as missing:
        load_implementation("my_impl_nowhere:Impl")
    message = str(missing.value)
    assert "No module named 'my_impl_nowhere'" in message
    assert f"the current folder ({tmp_path})" in message and "PYTHONPATH" in message
    assert "my_impl_nowhere.py" in message
    # A module that is found but fails on an import of its own gets no hint about sys.path.
    (tmp_path / "my_impl_broken.py").write_text("import no_such_dependency_anywhere\n")
    with pytest.raises(AdapterStartError) as broken:
        load_implementation("my_impl_broken:Impl")
    assert "no_such_dependency_anywhere" in str(broken.value) and "PYTHONPATH" not in str(broken.value)


def test_compare_names_each_column_by_its_report_and_can_show_a_row_per_operation(tmp_path, capsys):
    dirs = mini_suite(tmp_path)
    for name, impl in (("echo.json", "Echo"), ("wrong.json", "WrongEcho"), ("again.json", "Echo")):
        cli(dirs, "run", "-q", "--adapter", f"python:tests.kit_fixtures:{impl}", "--report-json", str(tmp_path / name))
    reports = [str(tmp_path / n) for n in ("echo.json", "wrong.json", "again.json")]
    capsys.readouterr()
    assert main(["compare", *reports]) == 0
    head = capsys.readouterr().out.splitlines()[0]
    # the kit's own area has no edition: no Pi edition is named for it
    assert "echo 1 (echo.json)" in head and "echo 1 (wrong.json)" in head and "echo 1 (again.json)" in head
    assert "pi-0.99.4" not in head
    assert main(["compare", "--by-op", "--markdown", *reports]) == 0
    out = capsys.readouterr().out
    assert out.startswith("| area | operation | echo 1 (echo.json) | echo 1 (wrong.json) | "
                          "echo 1 (again.json) |\n"
                          "| --- | --- | ---: | ---: | ---: |"), out
    assert "| kit | kit.echo | 3/3 passed | 0/3 passed (3 failed) | 3/3 passed |" in out
    assert main(["compare", "--by-op", *reports]) == 0
    text = capsys.readouterr().out.splitlines()
    assert text[0].split()[:2] == ["area", "operation"]
    assert text[1].split()[:5] == ["kit", "kit.echo", "3/3", "passed", "0/3"]
    assert main(["compare", "--html", *reports]) == 0
    assert "echo 1 (echo.json)" in capsys.readouterr().out
    # The same report twice: its columns are told apart.
    assert main(["compare", reports[0], reports[0]]) == 0
    assert "(echo.json) [1]" in capsys.readouterr().out


def test_the_reference_handles_exactly_the_catalogue_each_operation_in_a_module_of_its_area():
    import sys

    from conformance.adapters.reference import handlers
    from conformance.operations import catalogue

    assert set(handlers()) == set(catalogue()), "the reference announces the catalogue as its operations"
    for op, fn in handlers().items():
        module = sys.modules[fn.__module__].__name__.rsplit(".", 1)[1]
        area = op.partition(".")[0]
        assert module == area or module.startswith(area + "_"), (op, module)


def test_a_run_without_details_judges_the_same_and_leaves_out_the_answer_and_its_diff(tmp_path):
    dirs = mini_suite(tmp_path)
    full, bare = run_all(dirs, kf.WrongEcho()), run_all(dirs, kf.WrongEcho(), details=False)
    assert {k: r.status for k, r in bare.items()} == {k: r.status for k, r in full.items()}
    assert full["kit-echo-number"].status == "failed" and "+value: wrong" in full["kit-echo-number"].diff
    assert all(r.diff == "" for r in bare.values())
    assert "value: wrong" in full["kit-echo-refused"].message and "value:" not in bare["kit-echo-refused"].message


def test_compare_refuses_two_forms_at_once(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["compare", str(tmp_path / "a.json"), "--markdown", "--html"])
    assert exit_.value.code == 2
    assert "--html: not allowed with argument --markdown" in capsys.readouterr().err
