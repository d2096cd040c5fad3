"""The seeded faults (``conformance/faults/seeded/``): every one must be caught by at least one case of the
suite, and the machinery that applies them must leave the reference as it was."""

from __future__ import annotations

import json
import sys
import textwrap
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import pytest

from conformance.cli import main as cli_main
from conformance.faults import runner as fm
from conformance.corpus.cases import load_suite
from tests.kit_fixtures import untraced

ALL = fm.load_faults()


@pytest.fixture(scope="module")
def suite():
    loaded = load_suite()
    return loaded.cases


def test_at_least_25_faults_spread_over_every_part():
    assert len(ALL) >= 25
    parts = Counter(f.id.split("-")[0] for f in ALL)
    assert set(parts) >= {"env", "prof", "msg", "tpl", "pkg", "mdl"}, parts
    assert {f.area for f in ALL} == {"envelope", "profiles", "pi"}


def test_every_fault_names_known_clauses():
    from conformance.corpus.catalogue import load_catalogue

    known = set(load_catalogue().clauses)
    unknown = {f.id: [c for c in f.clauses if c not in known] for f in ALL}
    assert not {k: v for k, v in unknown.items() if v}


@pytest.fixture(scope="module")
def whole_matrix(suite):
    """Every seeded fault run against every case of its operations (not only until it is caught)."""
    with untraced():  # the matrix runs the reference over and over: the scenario tests measure it
        return fm.catch_matrix(ALL, suite)


@pytest.fixture(scope="module")
def strength(suite, whole_matrix):
    """Every MUST clause classified by the seeded faults' catches."""
    from conformance.judge.coverage import fault_coverage, load_allow_list

    return fault_coverage(suite, ALL, allowed=load_allow_list(ALLOW_LIST), matrix=whole_matrix)


ALLOW_LIST = Path(__file__).parent.parent / "conformance" / "faults" / "seeded" / "unproven.txt"


def test_every_seeded_fault_is_caught_and_none_is_too_broad(strength):
    assert not strength.survivors, "seeded faults that no case catches: " + " ".join(strength.survivors)
    assert not strength.too_broad, ("seeded faults that fail every case of their operation (they prove "
                                    "nothing about their clause): " + " ".join(strength.too_broad))


def test_every_cited_must_clause_is_proven_by_a_seeded_fault(strength):
    """A clause a case cites is proven able to fail: a fault declaring it is caught by a case citing
    it. The clauses still to be proven are listed, each commented, in conformance/faults/seeded/unproven.txt."""
    assert not strength.failing, (
        "clauses cited by cases but proven by no seeded fault (add a fault in conformance/faults/seeded/, or the "
        "missing case): " + " ".join(strength.failing))
    stale = sorted(strength.allowed - set(strength.unproven))
    assert not stale, "proven or manual now, remove from conformance/faults/seeded/unproven.txt: " + " ".join(stale)


def test_the_path_lookup_the_seeded_pi_faults_use_follows_objects_and_lists():
    """``reference.pi.core.messages._lookup`` serves the seeded faults only
    (conformance/faults/seeded/pi_clauses.py), whose matrix runs untraced: the value at a path of
    keys and indexes, ``None`` off the data."""
    from reference.pi.core.messages import _lookup

    data = {"content": [{"type": "text"}, 7]}
    assert _lookup(data, ["content", 0, "type"]) == "text" and _lookup(data, []) is data
    assert _lookup(data, ["content", 2]) is None and _lookup(data, ["content", -1]) is None
    assert _lookup(data, ["content", "type"]) is None and _lookup(data, ["content", 1, "x"]) is None


def test_manual_clauses_are_rare_and_say_why():
    from conformance.corpus.catalogue import load_catalogue

    clauses = load_catalogue().clauses.values()
    manual = [c for c in clauses if c.check == "manual"]
    assert len(manual) * 10 <= len(clauses), f"{len(manual)} of {len(clauses)} clauses are manual"
    assert all(c.note and c.note.strip() for c in manual)


def test_a_manual_clause_without_a_reason_is_refused():
    from pydantic import ValidationError

    from conformance.corpus.catalogue_models import Clause

    base = {"id": "ENV-X", "level": "MUST", "statement": "s", "source": "note N1", "check": "manual"}
    with pytest.raises(ValidationError, match="note"):
        Clause.model_validate(base)
    assert Clause.model_validate({**base, "note": "masked by a normaliser"}).check == "manual"
    with pytest.raises(ValidationError):
        Clause.model_validate({**base, "check": "by-hand", "note": "r"})


def test_a_fault_changes_only_what_it_patches_and_is_undone():
    from reference.envelope import build, collation, contributions

    fault = next(f for f in ALL if f.id == "env-tiebreak-codepoint")
    original = collation.id_sort_key
    with fm.applied(fault):
        assert collation.id_sort_key is not original
        assert collation.id_sort_key("A") < collation.id_sort_key("a")  # code points: the mistake
    assert collation.id_sort_key is original
    assert collation.id_sort_key("a") < collation.id_sort_key("A")  # UCA root order again
    assert contributions.id_sort_key is original and build.developer_messages is not None


def test_a_binding_made_after_an_earlier_application_is_patched_too(monkeypatch):
    """A fault is applied at every request, and the scan for the bindings of its target is kept
    between applications (conformance/faults/patches.py, _bindings): a module imported since must still be
    patched, and so must a new name when a kept binding has changed."""
    import types

    from reference.envelope import collation

    fault = next(f for f in ALL if f.id == "env-tiebreak-codepoint")
    original = collation.id_sort_key
    with fm.applied(fault):
        pass
    late = types.ModuleType("reference.envelope._late")
    late.sort_key = original
    monkeypatch.setitem(sys.modules, late.__name__, late)
    with fm.applied(fault):
        assert late.sort_key is collation.id_sort_key is not original
    assert late.sort_key is original
    late.sort_key, late.other_name = None, original  # a kept binding no longer holds it: scanned again
    with fm.applied(fault):
        assert late.other_name is collation.id_sort_key is not original
    assert late.other_name is original


def test_a_constant_is_patched_under_its_own_name_only():
    from reference.profiles.core import inherit

    fault = next(f for f in ALL if f.id == "prof-depth-limit-9")
    with fm.applied(fault):
        assert inherit.MAX_LAYERS == 9
    assert inherit.MAX_LAYERS == 8


def test_a_function_in_a_dispatch_table_is_patched_and_restored():
    from reference.pi.core import convert

    fault = next(f for f in ALL if f.id == "msg-exclude-ignored")
    original = convert._CONVERTERS["bashExecution"]
    with fm.applied(fault):
        assert convert._CONVERTERS["bashExecution"] is not original
    assert convert._CONVERTERS["bashExecution"] is original


def test_a_missing_target_is_refused():
    fault = fm.Fault("x-missing", "envelope", "t", ("ENV-ENV-LAST",),
                     (fm.replace("reference.envelope.build:no_such_function", None),))
    with pytest.raises(fm.FaultError, match="no attribute"):
        with fm.applied(fault):
            pass
    with pytest.raises(fm.FaultError, match="module:attribute"):
        with fm.applied(fm.Fault("x-bad", "envelope", "t", (), (fm.replace("nocolon", None),))):
            pass


def test_a_fault_needs_a_patch():
    with pytest.raises(ValueError):
        fm.Fault("x", "envelope", "t", (), ())


@pytest.mark.untraced  # a fault's whole matrix again: the other matrix and command tests measure it
def test_the_matrix_reports_every_catching_case(suite):
    fault = next(f for f in ALL if f.id == "env-environment-first")
    matrix = fm.catch_matrix([fault], suite)
    result = matrix.results[0]
    assert result.caught and len(result.caught_by) > 1
    assert all(result.statuses[c] in ("failed", "errored") for c in result.caught_by)
    text = fm.format_matrix(matrix, verbose=True)
    assert "caught" in text and "1/1 seeded faults caught" in text
    assert matrix.record()["survivors"] == []


def test_a_fault_served_over_json_lines_is_caught(suite):
    fault = next(f for f in ALL if f.id == "env-tools-any")
    matrix = fm.catch_matrix([fault], suite, via="serve", first_only=True)
    assert matrix.results[0].caught_by, matrix.results[0]


SURVIVOR_MODULE = textwrap.dedent('''
    from conformance.faults.runner import Fault, wrap

    FAULTS = [Fault("env-harmless", "envelope", "A patch that changes nothing", ("ENV-ENV-LAST",),
                    (wrap("reference.envelope.build:developer_messages", lambda orig: lambda c, r: orig(c, r)),),
                    ("envelope.instructions",))]
''')


def test_the_command_fails_when_a_fault_survives(tmp_path, monkeypatch, capsys):
    (tmp_path / "harmless_faults.py").write_text(SURVIVOR_MODULE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    report = tmp_path / "matrix.json"
    code = cli_main(["faults", "--faults", "harmless_faults", "--first", "-q", "--report-json", str(report)])
    out = capsys.readouterr().out
    assert code == 1
    assert "SURVIVED  env-harmless" in out and "0/1 seeded faults caught" in out
    assert '"survivors": [\n    "env-harmless"' in report.read_text()
    sys.modules.pop("harmless_faults", None)


def test_the_command_lists_and_selects_faults(capsys):
    assert cli_main(["faults", "--list", "--area", "profiles"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert listed and all("\tprofiles\t" in line for line in listed)
    clean = not load_suite().errors  # a scenario file being edited elsewhere makes the exit code 2
    assert cli_main(["faults", "--fault", "env-tools-any", "--first", "-q"]) == (0 if clean else 2)
    assert "1/1 seeded faults caught" in capsys.readouterr().out
    assert cli_main(["faults", "--fault", "no-such-fault"]) == 2
    assert cli_main(["faults", "--faults", "no.such.module"]) == 2


def test_a_selection_that_matches_no_fault_says_where_the_faults_are_listed(capsys):
    assert cli_main(["faults", "--fault", "no-such-*", "--area", "pi"]) == 2
    assert capsys.readouterr().err == ("pi-conformance: no fault matches --fault no-such-* --area pi; "
                                       "`pi-conformance faults --list` lists the faults\n")
    assert fm.main(["serve", "no-such-fault"]) == 2
    assert "`pi-conformance faults --list` lists the faults" in capsys.readouterr().err
    # --list of a selection matching nothing printed nothing and exited 0, where run --case exits 2
    assert cli_main(["faults", "--fault", "nothing*", "--list"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("pi-conformance: no fault matches --fault nothing*;")


@pytest.mark.untraced  # every covering case through the reference again: the scenario tests measure it
def test_every_must_clause_has_a_passing_case_and_every_refusal_a_passing_refusal(suite):
    """Clause coverage by cases that pass against the reference, not merely by cases that exist."""
    from conformance.adapters.inprocess import InProcessAdapter
    from conformance.adapters.reference import ReferenceImplementation
    from conformance.corpus.catalogue import load_catalogue
    from conformance.judge.coverage import covering_cases, shows_refusal
    from conformance.judge.runner import Runner

    runners: dict[str | None, Runner] = {}
    status: dict[str, str] = {}

    def passes(case) -> bool:
        # each case judged by the first edition it holds for (PI-DECISION-EDITIONS)
        edition = case.editions[0] if case.editions else None
        if edition not in runners:
            runners[edition] = Runner(InProcessAdapter(ReferenceImplementation()), edition=edition)
            runners[edition].start()
        if case.id not in status:
            status[case.id] = runners[edition].run_case(case).status
        return status[case.id] == "passed"

    missing = []
    cat = load_catalogue()
    for cid, clause in cat.clauses.items():
        if clause.check == "manual":
            continue
        covering = covering_cases(cat, cid, suite)
        if clause.level == "MUST" and not any(passes(c) for c in covering):
            missing.append(f"{cid}: no passing case")
        if clause.refusal and covering and not any(passes(c) for c in covering if shows_refusal(c)):
            missing.append(f"{cid}: no passing refusal case")
    for runner in runners.values():
        runner.stop()
    assert not missing, "\n".join(missing)


def test_a_rewrite_changes_one_text_of_the_function_and_is_undone():
    from reference.envelope import instructions

    fault = fm.rewrites("envelope", "env", [("ENV-INSTR-CUSTOM", "reference.envelope.instructions:provider_instructions",
                                             'return system_prompt or ""', 'return "rewritten"')])[0]
    assert fault.id == "env-instr-custom" and fault.clauses == ("ENV-INSTR-CUSTOM",)
    original = instructions.provider_instructions
    with fm.applied(fault):
        assert instructions.provider_instructions("system", None, None) == "rewritten"
    assert instructions.provider_instructions is original
    assert original("system", None, None) == "system"


def test_a_rewrite_whose_text_is_not_there_once_is_refused():
    for old in ("no such text", "system_prompt"):
        fault = fm.Fault("x", "envelope", "t", ("ENV-INSTR-CUSTOM",),
                         (fm.mutate("reference.envelope.instructions:provider_instructions", old, "x"),))
        with pytest.raises(fm.FaultError, match="not once"):
            with fm.applied(fault):
                pass


def test_a_method_can_be_a_target_and_is_restored():
    from reference.envelope.service import EnvelopeService

    original = EnvelopeService.clear
    fault = fm.Fault("x", "envelope", "t", ("ENV-SVC-CLEAR",),
                     (fm.replace("reference.envelope.service:EnvelopeService.clear", lambda self, sid: False),))
    with fm.applied(fault):
        assert EnvelopeService.clear is not original
    assert EnvelopeService.clear is original


def test_a_fault_that_fails_every_case_of_its_operation_is_too_broad(suite):
    broken = fm.Fault("env-instructions-broken", "envelope", "Every provider instruction is wrong",
                      ("ENV-INSTR-CUSTOM",),
                      (fm.replace("reference.envelope.instructions:provider_instructions", lambda *a: "\u0000"),),
                      ("envelope.instructions",))
    narrow = fm.rewrites("envelope", "env", [("ENV-INSTR-CUSTOM", "reference.envelope.instructions:provider_instructions",
                                              'if custom_prompt:', 'if False:')])[0]
    matrix = fm.catch_matrix([broken, narrow], suite, first_only=True)
    wide, ok = matrix.results
    assert wide.caught and wide.too_broad and wide.proves == []
    assert wide.ops["envelope.instructions"][0] == wide.ops["envelope.instructions"][1] > 0
    assert ok.caught and not ok.too_broad and ok.proves == ["ENV-INSTR-CUSTOM"]
    assert "TOO BROAD env-instructions-broken" in fm.format_matrix(matrix)
    assert fm.fault_ops(narrow, suite) == {c.op for c in suite if "ENV-INSTR-CUSTOM" in c.clauses}


def one_rewrite(clause: str = "ENV-INSTR-CUSTOM", old: str = "if custom_prompt:", new: str = "if False:") -> str:
    """The text of a faults module with one rewrite of provider_instructions."""
    return textwrap.dedent(f'''
        from conformance.faults.runner import rewrites

        FAULTS = rewrites("envelope", "env", [
            ({clause!r}, "reference.envelope.instructions:provider_instructions", {old!r}, {new!r}),
        ])
    ''')


COVERAGE_MODULE = one_rewrite()


def test_coverage_with_faults_reports_proven_manual_and_unproven(tmp_path, monkeypatch, capsys):
    from conformance.cli import main

    (tmp_path / "one_fault.py").write_text(COVERAGE_MODULE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    code = main(["coverage", "--area", "envelope", "--faults", "one_fault", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 1  # cited clauses are left unproven, and a lone module has no allow-list
    assert report["clauses"] == len(report["unproven"]) + report["proven"] + report["manual"]
    assert report["proven"] >= 1 and "ENV-INSTR-CUSTOM" not in report["unproven"]
    assert "ENV-INSTR-DEFAULT" in report["unproven"] and "ENV-INSTR-DEFAULT" in report["failing"]
    assert report["provenBy"]["ENV-INSTR-CUSTOM"] == ["env-instr-custom"]
    # a decision clause is proven through a proven clause whose source cites it
    assert report["provenBy"]["ENV-DECISION-INSTRUCTIONS"] == ["env-instr-custom"]
    assert "ENV-DECISION-AUDIT" in report["unproven"]
    assert main(["coverage", "--area", "envelope", "--faults", "one_fault"]) == 1
    text = capsys.readouterr().out
    assert "ENV-INSTR-CUSTOM" in text and "proven" in text and "cited only" in text
    assert main(["coverage", "--faults", "no.such.module"]) == 2
    sys.modules.pop("one_fault", None)


def test_a_faults_module_that_defines_none_or_cannot_be_imported_is_a_usage_error(capsys):
    from conformance.cli import main

    assert main(["coverage", "--faults", "json", "--json"]) == 2
    assert "the faults module json defines no FAULTS" in capsys.readouterr().err
    assert main(["faults", "--faults", "no.such.faults", "--list"]) == 2
    assert "cannot import the faults module no.such.faults" in capsys.readouterr().err


@pytest.mark.parametrize("text, message", [("FAULTS = None", "FAULTS must be a list of Fault objects, not None"),
                                           ("FAULTS = [1, 2]", "FAULTS must be a list of Fault objects"),
                                           ("raise RuntimeError('boom')", "RuntimeError: boom"),
                                           ("def (", "SyntaxError")])
def test_a_broken_faults_module_is_a_usage_error_not_a_traceback(tmp_path, monkeypatch, capsys, text, message):
    from conformance.cli import main

    (tmp_path / "broken_faults_mod.py").write_text(text + "\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert main(["coverage", "--faults", "broken_faults_mod", "--json"]) == 2
    assert message in capsys.readouterr().err
    sys.modules.pop("broken_faults_mod", None)


BROKEN_ROWS_MODULE = one_rewrite(old="no such text", new="x")



def test_a_fault_whose_rewrite_does_not_apply_is_reported_as_such_not_too_broad(tmp_path, monkeypatch, capsys):
    from conformance.cli import main

    (tmp_path / "unapplied_faults.py").write_text(BROKEN_ROWS_MODULE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    report = tmp_path / "matrix.json"
    assert cli_main(["faults", "--faults", "unapplied_faults", "--first", "-q", "--report-json", str(report)]) == 2
    out = capsys.readouterr().out
    assert "CANNOT APPLY env-instr-custom: patch target" in out and "not once" in out
    assert "TOO BROAD" not in out and "SURVIVED" not in out
    record = json.loads(report.read_text())
    assert record["cannotApply"] == ["env-instr-custom"] and record["tooBroad"] == record["survivors"] == []
    assert record["results"][0]["cases"] == 0
    assert main(["coverage", "--area", "envelope", "--faults", "unapplied_faults"]) == 2
    assert "cannot apply (fix the fault): env-instr-custom: patch target" in capsys.readouterr().out
    sys.modules.pop("unapplied_faults", None)


def test_a_missing_target_is_reported_as_a_fault_that_cannot_apply(suite):
    fault = fm.Fault("x", "envelope", "t", ("ENV-INSTR-CUSTOM",),
                     (fm.replace("reference.envelope.instructions:no_such_function", None),))
    result = fm.catch_matrix([fault], suite, first_only=True).results[0]
    assert "has no attribute 'no_such_function'" in result.cannot_apply
    assert not result.caught and not result.too_broad and result.cases == 0


UNKNOWN_CLAUSE_MODULE = one_rewrite(clause="ENV-INSTR-CUSTOMM")



def test_a_fault_naming_an_unknown_clause_is_refused(tmp_path, monkeypatch, capsys):
    from conformance.cli import main

    (tmp_path / "misspelt_faults.py").write_text(UNKNOWN_CLAUSE_MODULE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    for argv in (["faults", "--faults", "misspelt_faults", "--first", "-q"],
                 ["coverage", "--area", "envelope", "--faults", "misspelt_faults"]):
        assert main(argv) == 2
        assert ("misspelt_faults: fault env-instr-customm names the unknown clause ENV-INSTR-CUSTOMM; "
                "did you mean ENV-INSTR-CUSTOM") in capsys.readouterr().err
    sys.modules.pop("misspelt_faults", None)


def test_a_faults_module_is_found_in_the_working_folder_as_a_python_adapter_is(tmp_path):
    import os
    import subprocess
    import sys

    # the installed command, as a user runs it (python -m would put the folder on sys.path itself)
    tool = str(Path(sys.executable).parent / "pi-conformance")
    (tmp_path / "my_faults.py").write_text("FAULTS = []\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    found = subprocess.run([tool, "faults", "--faults", "my_faults"], cwd=tmp_path,
                           env=env, capture_output=True, text=True, timeout=120)
    assert found.returncode == 2 and "defines no FAULTS" in found.stderr, found.stderr  # imported, then refused
    missing = subprocess.run([tool, "faults", "--faults", "no_such_faults"],
                             cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert missing.returncode == 2 and "the current folder" in missing.stderr, missing.stderr


@pytest.mark.parametrize("examples, said", [("0", "at least 1, got 0"), ("20000", "at most 10,000, got 20,000")])
def test_a_number_of_examples_out_of_bounds_is_a_usage_error_not_a_traceback(capsys, examples, said):
    assert cli_main(["faults", "--fault", "env-tools-any", "--invariants", "--examples", examples, "-q"]) == 2
    assert capsys.readouterr().err == f"pi-conformance: --examples: the number of examples must be {said}\n"


def _result(caught_by, ops, clauses=("C-1",)):
    return fm.FaultResult("f", "envelope", "t", list(clauses), caught_by=list(caught_by), ops=ops)


def test_a_narrow_faults_catch_by_a_case_citing_none_of_its_clauses_is_reported():
    cases = [SimpleNamespace(id="a", op="x", clauses=["C-1"]), SimpleNamespace(id="b", op="x", clauses=["C-2"]),
             SimpleNamespace(id="c", op="y", clauses=["C-3"])]
    narrow = {"x": [100, int(fm.NARROW * 100)], "y": [100, 1]}
    assert fm.uncited_catches([_result(["a", "b", "c"], narrow)], cases) == [("b", "f", ["C-1"]), ("c", "f", ["C-1"])]
    broad_in_x = {"x": [100, int(fm.NARROW * 100) + 1], "y": [100, 1]}  # fails too much of x to say what b exercises
    assert fm.uncited_catches([_result(["a", "b", "c"], broad_in_x)], cases) == [("c", "f", ["C-1"])]
    assert fm.uncited_catches([_result(["b"], narrow, clauses=("C-9", "C-2"))], cases) == []


def test_no_case_catches_a_narrow_fault_of_a_clause_it_does_not_cite(whole_matrix):
    """Each case cites the clauses it exercises: breaking a clause with a fault that fails few of an
    operation's cases changes the verdict only of cases that cite it."""
    assert [f"{case} cites none of {', '.join(clauses)} ({fault})" for case, fault, clauses in whole_matrix.uncited] == []
