"""The kit's loader, goldens, runner and expectations, on a miniature suite (its command line:
``tests/test_kit_cli.py``)."""

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
    assert not golden.same(golden.canonical({"n": False}), golden.canonical({"n": 0}))
    assert golden.same(golden.canonical(json.loads('{"n": [1.0, 0.0, -2e0]}')), {"n": [1, 0, -2]})  # as sent


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
    assert "kit@nope: not a golden" in err and "kit/link.yaml: orphaned golden" in err  # a link is no golden either
    assert "envelope/kit-echo-number.yaml: golden of a case of area 'kit' in the envelope folder" in err
    assert "kit-echo-text.yaml: orphaned" not in err and "kit-echo-number.yaml: orphaned" not in err


@pytest.mark.parametrize("word", ["off", "On", "yes", "N", "~", "1_000", "0o7", "012", "1:30", ".5", "1e3", ".inf"])
def test_golden_quotes_strings_a_yaml_1_1_reader_would_misread(word):
    line = golden.dump({"v": word}).strip()
    assert line in (f"v: '{word}'", f'v: "{word}"'), line
    assert golden.parse(golden.render("c", "o", {"v": word}))["output"]["v"] == word


def test_golden_leaves_ordinary_strings_plain():
    assert golden.dump({"v": "offline"}).strip() == "v: offline"


@pytest.mark.parametrize("text", ["a\x85b", "a\u2028b", "x\u2029", "\x85"])
def test_golden_escapes_yaml_line_breaks(text):
    assert golden.parse(golden.render("c", "o", {"s": text}))["output"]["s"] == text


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


def test_an_error_under_an_expected_failure_is_xfail_and_keeps_its_error(tmp_path):
    """A case expected to fail that errors (a crash here) is an expected failure, as PROTOCOL.md
    and docs/expectations.md say (Pi 1.6.0 throws on three such cases); its message keeps the
    error, and the run fails once the same crash comes without an entry."""
    dirs = mini_suite(tmp_path)
    exp = load_expectations(write(tmp_path / "exp.yaml", """\
        expectations:
          - {id: kit-echo-*, status: fail, reason: known}
        """))
    crashed = run_all(dirs, kf.CrashingEcho(), expectations=exp)
    assert {r.status for r in crashed.values()} == {"xfail"}
    assert "expected failure (known)" in crashed["kit-echo-text"].message
    assert "RuntimeError: boom" in crashed["kit-echo-text"].message
    assert RunSummary.of(list(crashed.values())).ok
    assert not RunSummary.of(list(run_all(dirs, kf.CrashingEcho()).values())).ok


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


def test_duplicate_expectation_ids_are_refused(tmp_path):
    from conformance.corpus.yamlio import SuiteFileError

    write(tmp_path / "exp.yaml", "expectations:\n- {id: a, status: fail, reason: r}\n- {id: a, status: skip, reason: r}\n")
    with pytest.raises(SuiteFileError, match="already listed at line 2"):
        load_expectations(tmp_path / "exp.yaml")
