"""Selecting cases before parsing never loses a case: every form of a case id the loader accepts is
found by the scan (or by a parse of the file holding it), an orphaned golden is judged only from
every file's ids, ``show`` reports a duplicate id as ``list`` and ``run`` do, and a scenario file
in a place the loader does not read is named in a warning."""

from __future__ import annotations

import pytest

from conformance.corpus.cases import SCENARIOS_DIR, load_file, load_suite, scan_ids
from conformance.corpus.idscan import parsed_ids, scanned_ids
from conformance.judge import golden
from conformance.cli import main
from tests.kit_fixtures import mini_suite, write

HEAD = "format: 1\narea: kit\ntitle: odd forms\nop: kit.echo\ncases:\n"
CASE = "title: t\n    clauses: [ENV-TEST-ECHO]\n    input: {value: 1}\n"

# Cases whose id the loader reads although no plain `id: x` line of a case's own indentation says so.
ODD_FORMS = {
    "flow": "  - {id: kit-odd, title: t, clauses: [ENV-TEST-ECHO], input: {value: 1}}\n",
    "flow-over-lines": "  - {id: kit-odd, title: t,\n     clauses: [ENV-TEST-ECHO], input: {value: 1}}\n",
    "anchor": "  - id: &a kit-odd\n    " + CASE,
    "tag": "  - id: !!str kit-odd\n    " + CASE,
    "explicit-key": "  - ? id\n    : kit-odd\n    " + CASE,
    "anchored-item": "  - &c\n    id: kit-odd\n    " + CASE,
    "deeper-key-column": "  -   id: kit-odd\n      " + CASE.replace("\n    ", "\n      "),
    "escaped-key": '  - "i\\x64": kit-odd\n    ' + CASE,
    "escaped-value": '  - id: "kit\\x2dodd"\n    ' + CASE,
    "value-on-next-line": "  - id:\n      kit-odd\n    " + CASE,
    "block-scalar": "  - id: >-\n      kit-odd\n    " + CASE,
    "flow-cases": "",
}


def _odd(name: str) -> str:
    if name == "flow-cases":
        return HEAD.replace("cases:\n", "cases: [{id: kit-odd, title: t, clauses: [ENV-TEST-ECHO], input: {value: 1}}]\n")
    return HEAD + "  - id: kit-plain\n    " + CASE + ODD_FORMS[name]


@pytest.mark.parametrize("name", sorted(ODD_FORMS))
def test_the_scan_finds_every_case_id_the_loader_reads(tmp_path, cache, name):
    dirs = mini_suite(tmp_path)
    path = write(dirs["scenarios"] / "kit" / "odd.yaml", _odd(name))
    cases, errors = load_file(path)
    assert errors == [] and "kit-odd" in [c.id for c in cases]
    assert scanned_ids(path.read_text(encoding="utf-8")) in (None, [c.id for c in cases])
    assert scan_ids(path) == [c.id for c in cases]
    assert scan_ids(path) == [c.id for c in cases], "as kept in the parse cache"


# Lines that look like a case's id but lie inside another key's value, which goes on over them.
NOT_IDS = {
    "flow": "  - input: {value: 1,\n    id: kit-odd\n      }\n    title: t\n",
    "flow-sequence": "  - input: [1,\n    id: kit-odd\n      ]\n    title: t\n",
    "quoted": '  - title: "t\n    id: kit-odd\n      t"\n',
    "single-quoted": "  - title: 't\n    id: kit-odd\n      t'\n",
}


@pytest.mark.parametrize("name", sorted(NOT_IDS))
def test_no_line_inside_another_value_is_read_as_a_case_id(name):
    text = HEAD + "  - id: kit-plain\n    " + CASE + NOT_IDS[name]
    assert parsed_ids(text) == ["kit-plain"]
    assert scanned_ids(text) in (None, ["kit-plain"])


def test_the_suites_own_files_are_scanned_without_a_parse_and_to_the_loaders_ids():
    dirs = sorted(SCENARIOS_DIR.glob("*/*.yaml"))
    assert dirs
    for path in dirs:
        text = path.read_text(encoding="utf-8")
        assert scanned_ids(text) == parsed_ids(text), path


def test_a_cached_scan_is_never_taken_for_another_text(tmp_path, cache):
    dirs = mini_suite(tmp_path)
    path = dirs["scenarios"] / "kit" / "echo.yaml"
    assert scan_ids(path) == ["kit-echo-text", "kit-echo-number", "kit-echo-refused"]
    assert list(cache.rglob("*.json"))
    write(path, path.read_text(encoding="utf-8") + "  - {id: kit-odd, title: t}\n")
    assert scan_ids(path) == ["kit-echo-text", "kit-echo-number", "kit-echo-refused", "kit-odd"]


def _selected_ids(dirs) -> set[str]:
    return set(load_suite(dirs["scenarios"], patterns=["kit-echo-text"], spec_dir=dirs["spec"]).ids)


def test_a_selection_takes_every_files_ids_from_one_entry_and_never_from_a_stale_one(tmp_path, cache, monkeypatch):
    from conformance.corpus import cases

    dirs = mini_suite(tmp_path)
    write(dirs["scenarios"] / "kit" / "more.yaml", HEAD + "  - id: kit-more\n    " + CASE)
    both = {"kit-echo-text", "kit-echo-number", "kit-echo-refused", "kit-more"}
    assert _selected_ids(dirs) == both
    scanned: list[str] = []
    real = cases.scan_ids
    monkeypatch.setattr(cases, "scan_ids", lambda path: scanned.append(path.name) or real(path))
    assert _selected_ids(dirs) == both and scanned == [], "the ids of every file come from one entry"
    # an edited file, an added one, a renamed one: each names another entry
    write(dirs["scenarios"] / "kit" / "more.yaml", HEAD + "  - id: kit-more-two\n    " + CASE)
    assert _selected_ids(dirs) == both - {"kit-more"} | {"kit-more-two"}
    write(dirs["scenarios"] / "kit" / "added.yaml", HEAD + "  - id: kit-added\n    " + CASE)
    assert _selected_ids(dirs) == both - {"kit-more"} | {"kit-more-two", "kit-added"}
    (dirs["scenarios"] / "kit" / "added.yaml").rename(dirs["scenarios"] / "kit" / "zadded.yaml")
    scanned.clear()
    assert _selected_ids(dirs) == both - {"kit-more"} | {"kit-more-two", "kit-added"}
    assert scanned == ["echo.yaml", "more.yaml", "zadded.yaml"]


def test_a_file_that_does_not_parse_has_no_known_ids(tmp_path):
    path = write(tmp_path / "kit" / "broken.yaml", HEAD + "  - {id: kit-odd\n")
    assert scan_ids(path) is None


def _cli(dirs, *args):
    return main([*args, "--scenarios-dir", str(dirs["scenarios"]), "--spec-dir", str(dirs["spec"]),
                 "--golden-dir", str(dirs["golden"])])


RUN = ("run", "-q", "--adapter", "python:tests.kit_fixtures:Echo")


def _goldens(dirs) -> None:
    for cid in ("kit-plain", "kit-odd"):
        golden.write(dirs["golden"] / "kit" / f"{cid}.yaml", cid, "kit.echo", {"value": 1})


def test_a_flow_style_case_is_selected_and_its_golden_is_not_orphaned(tmp_path, capsys):
    dirs = mini_suite(tmp_path)
    write(dirs["scenarios"] / "kit" / "odd.yaml", _odd("flow"))
    _goldens(dirs)
    assert _cli(dirs, *RUN, "--case", "kit-echo-text") == 0, capsys.readouterr().err
    assert _cli(dirs, *RUN, "--case", "kit-odd") == 0, capsys.readouterr().err
    assert "; 1 case\n" in capsys.readouterr().out  # of the kit area, which has no edition
    assert _cli(dirs, "show", "kit-odd") == 0
    assert capsys.readouterr().out.startswith("kit-odd: t\n")


def test_no_orphan_is_judged_while_a_files_ids_are_unknown(tmp_path, capsys):
    dirs = mini_suite(tmp_path)
    _goldens(dirs)
    write(dirs["scenarios"] / "kit" / "odd.yaml", _odd("flow") + "  - {id: kit-more\n")
    suite = load_suite(dirs["scenarios"], spec_dir=dirs["spec"], areas=["pi"])
    assert suite.golden_ids() is None
    capsys.readouterr()
    assert _cli(dirs, *RUN, "--case", "kit-echo-text") == 2, "a file without known ids is read"
    err = capsys.readouterr().err
    assert "odd.yaml" in err and "orphaned" not in err
    assert _cli(dirs, *RUN, "--area", "envelope") == 2  # no case of that area: a usage error, and
    err = capsys.readouterr().err
    assert "no case of --area envelope" in err and "odd.yaml" not in err, err  # odd.yaml left unread


def test_show_reports_a_duplicate_id_as_list_and_run_do(tmp_path, capsys):
    dirs = mini_suite(tmp_path)
    write(dirs["scenarios"] / "kit" / "twin.yaml", HEAD + "  - id: kit-echo-text\n    " + CASE)
    assert _cli(dirs, "list") == 2
    assert "is also used at" in capsys.readouterr().err
    assert _cli(dirs, "show", "kit-echo-text") == 2
    assert "case id 'kit-echo-text' is also used at" in capsys.readouterr().err


def test_coverage_json_without_faults_is_a_usage_error(tmp_path, capsys):
    dirs = mini_suite(tmp_path)
    assert _cli(dirs, "coverage", "--json") == 2
    captured = capsys.readouterr()
    assert "--faults" in captured.err and captured.out == ""


@pytest.mark.parametrize("where", ["kit/sub/x.yaml", "x.yaml", "kit/sub/deeper/x.yml", "envelope/kit/x.yaml"])
def test_a_scenario_file_in_a_place_not_read_is_named(tmp_path, where):
    dirs = mini_suite(tmp_path)
    write(dirs["scenarios"] / where, HEAD + "  - id: kit-lost\n    " + CASE)
    write(dirs["scenarios"] / "ids.yaml", "retired: []\n")
    suite = load_suite(dirs["scenarios"], spec_dir=dirs["spec"])
    assert [e.file.endswith(where) and "this file is not read" in e.message for e in suite.errors] == [True]


def test_op_selects_the_cases_of_the_operations_it_matches_and_no_other(capsys):
    """``--op GLOB`` (list, run, history) keeps the cases whose operation matches, with ``--case``
    and ``--area`` narrowing further; each case listed is of a matching operation, and every case of
    the suite of one is listed."""
    from conformance.cli import main
    from conformance.session import Session

    every = Session().cases()
    assert main(["list", "--op", "pi.*-args", "--op", "envelope.environment"]) == 0
    listed = [line.split("\t") for line in capsys.readouterr().out.splitlines()]
    wanted = [c.id for c in every if c.op in {"pi.parse-args", "pi.substitute-args", "envelope.environment"}]
    assert [row[0] for row in listed] == wanted and len({row[1] for row in listed}) == 3
    assert main(["list", "--op", "pi.*-args", "--case", "tpl-args-q*"]) == 0
    assert {line.split("\t")[0] for line in capsys.readouterr().out.splitlines()} == \
        {c.id for c in every if c.op == "pi.parse-args" and c.id.startswith("tpl-args-q")}
