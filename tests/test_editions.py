"""Editions of the specification (PI-DECISION-EDITIONS): clauses and cases hold for editions,
goldens per edition, the edition reaches the adapter, and reports name it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance.corpus import editions
from conformance.judge import golden
from conformance.adapters.base import Implementation
from conformance.adapters.inprocess import InProcessAdapter
from conformance.adapters.protocol import run_request
from conformance.adapters.reference import ReferenceImplementation
from conformance.adapters.server import _Server as Server
from conformance.corpus.cases import load_file, load_suite, select
from conformance.corpus.catalogue import load_catalogue
from conformance.cli import main
from conformance.judge.runner import Runner
from tests.kit_fixtures import write


@pytest.fixture(scope="module")
def suite():
    return load_suite()


def test_the_editions_and_their_defaults():
    assert editions.names() == ["envelope", "profiles", "pi-0.99.4", "pi-1.6.0"]
    assert editions.DEFAULT == "pi-0.99.4" == editions.default_of("pi")
    assert editions.judged("pi-1.6.0", "pi") == "pi-1.6.0"
    assert editions.judged("pi-1.6.0", "envelope") == "envelope"
    assert editions.judged(None, "kit") is None
    with pytest.raises(ValueError, match="unknown edition 'pi-2'.*pi-1.6.0"):
        editions.get("pi-2")


def test_clauses_hold_for_their_editions():
    cat = load_catalogue()
    assert not cat.errors
    assert cat.clauses["PI-REPLAY-REPLACE"].editions == ["pi-0.99.4"]
    assert cat.clauses["PI-160-MSG-THINKING-LEVEL"].editions == ["pi-1.6.0"]
    assert cat.clauses["PI-MSG-SYSTEM"].editions is None


def test_a_clause_naming_another_areas_edition_is_an_error(tmp_path):
    write(tmp_path / "x.yaml", """\
        area: envelope
        clauses:
          - {id: ENV-X, level: MUST, statement: s, source: t, editions: [pi-1.6.0]}
        """)
    cat = load_catalogue(tmp_path)
    assert "ENV-X" not in cat.clauses
    assert any("pi-1.6.0 is not an edition of area 'envelope'" in str(e) and "editions" in str(e)
               for e in cat.errors)


def test_a_case_holds_for_the_editions_its_clauses_share(suite):
    by_id = suite.by_id()
    assert by_id["msg-replay-replace-baseline"].editions == ("pi-0.99.4",)
    assert by_id["msg160-assistant-thinking-levels"].editions == ("pi-1.6.0",)
    assert by_id["msg-system-wrong-types"].editions == ("pi-0.99.4", "pi-1.6.0")
    assert by_id["kit-echo-text"].editions is None if "kit-echo-text" in by_id else True


def test_select_by_edition(suite):
    default = {c.id for c in select(suite.cases)}
    newer = {c.id for c in select(suite.cases, edition="pi-1.6.0")}
    assert "msg-replay-replace-baseline" in default - newer
    assert "msg160-replay-replace-ignored" in newer - default
    assert "msg-system-wrong-types" in default & newer
    # the other areas keep their one edition whichever Pi edition is judged
    envelope = {c.id for c in suite.cases if c.area == "envelope"}
    assert envelope <= default and envelope <= newer


CASES = """\
format: 1
area: pi
title: t
op: pi.validate-message
cases:
  - {id: a-case, title: t, clauses: [PI-OLD, PI-NEW], input: {message: {}}}
  - {id: b-case, title: t, clauses: [PI-OLD], editions: [pi-1.6.0], input: {message: {}}}
  - {id: c-case, title: t, clauses: [PI-ANY], editions: [pi-1.6.0], input: {message: {}}}
"""


def test_a_case_whose_clauses_share_no_edition_or_declaring_another_is_an_error(tmp_path):
    path = write(tmp_path / "pi" / "x.yaml", CASES)
    cases, errors = load_file(path, clause_editions={"PI-OLD": ["pi-0.99.4"], "PI-NEW": ["pi-1.6.0"],
                                                     "PI-ANY": None})
    assert [c.id for c in cases] == ["c-case"] and cases[0].editions == ("pi-1.6.0",)
    text = "\n".join(map(str, errors))
    assert "cases[0].clauses: its clauses hold in no common edition" in text
    assert "cases[1].editions[0]: 'pi-1.6.0' is not an edition its clauses hold for (pi-0.99.4)" in text


def test_an_editions_own_golden_wins_and_the_areas_golden_is_the_fallback(tmp_path):
    main_path = golden.golden_path(tmp_path, "pi", "x-case", "pi-1.6.0")
    assert main_path == tmp_path / "pi" / "x-case.yaml"
    own = tmp_path / "pi@pi-1.6.0" / "x-case.yaml"
    golden.write(own, "x-case", "pi.validate-message", {})
    assert golden.golden_path(tmp_path, "pi", "x-case", "pi-1.6.0") == own
    assert golden.golden_path(tmp_path, "pi", "x-case", "pi-0.99.4") == main_path
    assert golden.golden_path(tmp_path, "pi", "x-case") == main_path


class Recorder(Implementation):
    """Answers kit.echo and records the edition it was told."""

    name = "recorder"

    def __init__(self) -> None:
        self.seen: list[str | None] = []

    def operations(self) -> list[str]:
        return ["pi.validate-message"]

    def run(self, op, input, root):
        self.seen.append(self.edition)
        return {"valid": True, "role": "system", "known": True, "problems": []}


def test_the_runner_tells_the_adapter_the_edition_of_each_case(suite):
    case = suite.by_id()["msg-system-valid-min"]
    for edition, told in ((None, "pi-0.99.4"), ("pi-1.6.0", "pi-1.6.0")):
        impl = Recorder()
        runner = Runner(InProcessAdapter(impl), edition=edition)
        runner.start()
        assert runner.run_case(case).status == "passed"
        assert impl.seen == [told]


def test_the_edition_golden_decides_the_verdict(suite):
    """msg-system-wrong-types differs by edition: replace is typed in pi-0.99.4 only."""
    case = suite.by_id()["msg-system-wrong-types"]
    impl = ReferenceImplementation()
    # The reference judged by the other edition's rules fails each edition's golden.
    impl_wrong = type("Stuck", (ReferenceImplementation,), {
        "run": lambda self, op, input, root: (setattr(self, "edition", "pi-0.99.4"),
                                              ReferenceImplementation.run(self, op, input, root))[1]})()
    for edition in ("pi-0.99.4", "pi-1.6.0"):
        runner = Runner(InProcessAdapter(impl), edition=edition)
        runner.start()
        assert runner.run_case(case).status == "passed"
    runner = Runner(InProcessAdapter(impl_wrong), edition="pi-1.6.0")
    runner.start()
    result = runner.run_case(case)
    assert result.status == "failed" and "$.replace" in result.diff


def test_the_protocol_carries_the_edition():
    assert run_request(1, "kit.echo", {}, None)["type"] == "run"
    assert "edition" not in run_request(1, "kit.echo", {}, None)
    assert run_request(1, "kit.echo", {}, None, "pi-1.6.0")["edition"] == "pi-1.6.0"
    server = Server(ReferenceImplementation())
    server.handle({"type": "start", "protocol": 1})
    bad = server.handle({"type": "run", "seq": 1, "op": "kit.echo", "input": {"value": 1}, "root": None,
                         "edition": 3})
    assert bad["type"] == "protocol-error" and "edition" in bad["message"]


def test_cli_editions_list_and_bad_name(capsys):
    assert main(["editions"]) == 0
    out = capsys.readouterr().out
    assert "pi-1.6.0\tpi\t-\tPi 1.6.0 docs/message-types.md" in out
    assert "pi-0.99.4\tpi\tdefault" in out
    with pytest.raises(SystemExit) as exc:
        main(["list", "--edition", "pi-9"])
    assert exc.value.code == 2
    assert "unknown edition 'pi-9'" in capsys.readouterr().err


def test_cli_list_show_and_coverage_by_edition(capsys):
    assert main(["list", "--area", "pi", "--case", "msg160-*"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "(add --edition pi-1.6.0)" in captured.err
    assert main(["list", "--area", "pi", "--case", "msg160-*", "--edition", "pi-1.6.0"]) == 0
    assert "msg160-replay-replace-ignored" in capsys.readouterr().out
    assert main(["show", "msg-system-wrong-types", "--edition", "pi-1.6.0"]) == 0
    out = capsys.readouterr().out
    assert "editions: pi-0.99.4, pi-1.6.0" in out and "pi@pi-1.6.0/msg-system-wrong-types.yaml" in out
    assert "$.replace" not in out
    assert main(["coverage", "--area", "pi", "--edition", "pi-1.6.0"]) == 0
    out = capsys.readouterr().out
    assert "PI-160-MSG-NESTED-CALLS" in out and "PI-REPLAY-REPLACE" not in out


def test_run_reports_name_the_edition(tmp_path, capsys):
    report = tmp_path / "r.json"
    md = tmp_path / "r.md"
    assert main(["run", "--area", "pi", "--case", "msg160-*", "--edition", "pi-1.6.0", "-q",
                 "--report-json", str(report), "--report-md", str(md)]) == 0
    out = capsys.readouterr().out
    assert "; 8 cases; edition pi-1.6.0\n" in out and "\nedition pi-1.6.0\n" in out
    data = json.loads(report.read_text())
    assert data["header"]["edition"] == "pi-1.6.0" and data["summary"]["pi"]["passed"] == 8
    assert data["header"]["format"] == 2 and data["header"]["editions"] == {"pi": "pi-1.6.0"}
    assert "edition pi-1.6.0" in md.read_text()
    assert main(["compare", str(report)]) == 0
    assert "reference 0.1.0 (r.json, edition pi-1.6.0)" in capsys.readouterr().out


def test_update_goldens_writes_an_editions_own_golden_only_where_the_answer_differs(tmp_path, capsys):
    gold = tmp_path / "golden"
    source = Path(golden.GOLDEN_DIR)
    for name in ("msg-system-wrong-types", "msg-system-valid-min"):
        golden.write(gold / "pi" / f"{name}.yaml", name, "pi.validate-message",
                     golden.read(source / "pi" / f"{name}.yaml")["output"])
    assert main(["run", "--area", "pi", "--case", "msg-system-wrong-types", "--case", "msg-system-valid-min",
                 "--edition", "pi-1.6.0", "--update-goldens", "-q", "--golden-dir", str(gold)]) in (0, 2)
    written = sorted(p.relative_to(gold).as_posix() for p in gold.rglob("*.yaml"))
    assert written == ["pi/msg-system-valid-min.yaml", "pi/msg-system-wrong-types.yaml",
                       "pi@pi-1.6.0/msg-system-wrong-types.yaml"]


def test_an_expectation_scoped_to_editions_applies_only_to_them(tmp_path):
    from conformance.judge.expectations import load_expectations
    from conformance.corpus.yamlio import SuiteFileError

    path = write(tmp_path / "e.yaml", """\
        expectations:
          - {id: "a-*", status: fail, reason: old pages, editions: [pi-0.99.4]}
          - {id: "a-*", status: skip, reason: new pages, editions: [pi-1.6.0]}
        """)
    loaded = load_expectations(path)
    assert loaded.match("a-case", "pi-0.99.4").reason == "old pages"
    assert loaded.match("a-case", "pi-1.6.0").reason == "new pages"
    assert loaded.match("a-case", "envelope") is None
    assert not loaded.stale({"a-case"})
    write(tmp_path / "bad.yaml", """\
        expectations:
          - {id: "a-*", status: fail, reason: r, editions: [pi-2]}
        """)
    with pytest.raises(SuiteFileError, match="unknown edition 'pi-2'"):
        load_expectations(tmp_path / "bad.yaml")


def test_an_edition_listed_twice_in_one_expectation_is_refused_at_its_place(tmp_path):
    from conformance.judge.expectations import load_expectations
    from conformance.corpus.yamlio import SuiteFileError

    path = write(tmp_path / "e.yaml", """\
        expectations:
          - id: "a-*"
            status: fail
            reason: r
            editions: [pi-1.6.0, pi-0.99.4, pi-1.6.0]
        """)
    with pytest.raises(SuiteFileError) as caught:
        load_expectations(path)
    assert str(caught.value) == (f"{path}:5:37: expectations[0].editions[2]: 'pi-1.6.0' is listed twice "
                                 "(first at editions[0])")


def test_two_entries_differing_only_in_the_order_of_their_editions_are_one_entry(tmp_path):
    from conformance.judge.expectations import load_expectations
    from conformance.corpus.yamlio import SuiteFileError

    path = write(tmp_path / "e.yaml", """\
        expectations:
          - {id: "a-*", status: fail, reason: r, editions: [pi-0.99.4, pi-1.6.0]}
          - {id: "a-*", status: skip, reason: r, editions: [pi-1.6.0, pi-0.99.4]}
        """)
    with pytest.raises(SuiteFileError, match=r"e.yaml:3:\d+: expectations\[1\].id: 'a-\*' is already listed at line 2"):
        load_expectations(path)


def test_a_run_is_labelled_with_the_edition_of_each_area_it_ran(tmp_path, capsys):
    # The envelope area alone was labelled pi-0.99.4 (header, table, reports, HTML title), and
    # --edition envelope over two areas labelled the whole run, pi cases too, "edition envelope".
    paths = {flag: tmp_path / f"e.{ext}" for flag, ext in (("--report-json", "json"), ("--report-md", "md"),
                                                            ("--report-html", "html"))}
    assert main(["run", "--area", "envelope", "--case", "env-build-*", "-q",
                 *(str(x) for flag, path in paths.items() for x in (flag, path))]) == 0
    out = capsys.readouterr().out
    assert "cases; edition envelope\n" in out and "\nedition envelope\n" in out and "pi-0.99.4" not in out
    data = json.loads(paths["--report-json"].read_text())
    assert data["header"]["editions"] == {"envelope": "envelope"}
    assert "edition envelope, protocol" in paths["--report-md"].read_text()
    assert "<title>Conformance report: reference 0.1.0 (edition envelope)</title>" in paths["--report-html"].read_text()
    both = tmp_path / "both.json"
    assert main(["run", "--edition", "envelope", "--case", "env-build-*", "--case", "tpl-args-*", "-q",
                 "--report-json", str(both)]) == 0
    out = capsys.readouterr().out
    assert "cases; editions envelope, pi-0.99.4\n" in out and "\neditions envelope, pi-0.99.4\n" in out
    head = json.loads(both.read_text())["header"]
    assert head["edition"] == "envelope" and head["editions"] == {"envelope": "envelope", "pi": "pi-0.99.4"}
    assert main(["compare", str(paths["--report-json"]), str(both)]) == 0
    assert "(both.json, editions envelope, pi-0.99.4)" in capsys.readouterr().out


def test_a_report_without_editions_is_read_by_its_edition_and_areas():
    from conformance.output.reports import report_editions

    assert report_editions({"edition": "pi-1.6.0", "areas": ["envelope", "pi", "kit"]}) == \
        {"envelope": "envelope", "pi": "pi-1.6.0"}
    assert report_editions({"areas": ["profiles"]}) == {"profiles": "profiles"}
    assert report_editions({"edition": "envelope", "areas": ["pi"], "editions": {"pi": "pi-0.99.4"}}) == \
        {"pi": "pi-0.99.4"}
