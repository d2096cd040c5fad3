"""The HTML pages: the specification by example as a static site, and the report page of one or
more runs. Links are checked with the standard library's HTML parser; the pages are opened in a
real browser by ``tests/test_site_browser.py``."""

from __future__ import annotations

import copy
import json
import re
import shutil
from pathlib import Path
from collections import Counter
from html.parser import HTMLParser

import pytest

from conformance.adapters.inprocess import InProcessAdapter
from conformance.adapters.reference import ReferenceImplementation
from conformance.corpus.cases import SCENARIOS_DIR, load_suite
from conformance.corpus.catalogue import load_catalogue
from conformance.cli import main
from conformance.output.reports import build, header
from conformance.judge.runner import Runner
from conformance.output.site import cap, diff_lines, visible
from conformance.output.site.pages import render_site
from conformance.output.site.report import matrix, render_report
from conformance.session import Session
from tests.kit_fixtures import resummed

SUITE = load_suite()
# A few cases of every area, among them cases that cite clauses of two groups and a tree case.
SAMPLE = [c for c in SUITE.cases if c.id.startswith(("env-build-", "prof-resolve-", "prof-load-", "tpl-load-", "msg-replay-"))]
REPORTED = SAMPLE[:5] + [next(c for c in SAMPLE if c.area == "pi")]
"""Six real cases of two areas, envelope and pi, whatever the number of env-build- cases."""


class Anchors(HTMLParser):
    """Every ``id`` and every ``href`` of a page, plus the tags that would need a server or a script."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: Counter[str] = Counter()
        self.hrefs: list[str] = []
        self.scripts = 0
        self.external = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids[attrs["id"]] += 1
        if tag == "a" and "href" in attrs:
            self.hrefs.append(attrs["href"])
        if tag == "script":
            self.scripts += 1
        if tag in ("link", "img", "iframe") or (tag == "script" and "src" in attrs):
            self.external.append(tag)


def parse(html: str) -> Anchors:
    parser = Anchors()
    parser.feed(html)
    parser.close()
    return parser


def broken_links(pages: dict[str, str]) -> list[str]:
    """Internal links (``#x`` and ``page.html#x``) whose target page or anchor does not exist."""
    parsed = {name: parse(html) for name, html in pages.items()}
    broken = []
    for name, p in parsed.items():
        for href in p.hrefs:
            if href.startswith(("http://", "https://")):
                continue
            page, _, anchor = href.partition("#")
            target = parsed.get(page or name)
            if target is None or (anchor and anchor not in target.ids):
                broken.append(f"{name}: {href}")
    return broken


@pytest.fixture(scope="module")
def sample_site() -> dict[str, str]:
    return render_site(SAMPLE)


def test_every_case_is_written_once_with_its_anchor_and_linked_from_its_other_clauses(sample_site):
    ids = Counter()
    for html in sample_site.values():
        page_ids = parse(html).ids
        assert [i for i, n in page_ids.items() if n > 1] == []
        ids.update(i for i in page_ids if i.startswith("case-"))
    assert sorted(ids) == sorted(f"case-{c.id}" for c in SAMPLE)
    assert [i for i, n in ids.items() if n > 1] == []
    multi = next(c for c in SAMPLE if len(c.clauses) > 1)
    page = sample_site[f"{multi.area}.html"]
    # one full copy of the input block, and a link to it under every other clause it cites
    assert page.count(f'id="case-{multi.id}"') == 1
    for cid in multi.clauses[1:]:
        clause_page = sample_site[f"{load_catalogue().clauses[cid].area}.html"]
        section = clause_page.split(f'id="clause-{cid}"', 1)[1].split("</section>", 1)[0]
        assert f'#case-{multi.id}"' in section


def test_clause_shows_statement_level_source_and_decision_note(sample_site):
    cat = load_catalogue()
    decision = next(c for c in cat.clauses.values() if c.decision and c.note and c.area == "pi")
    html = sample_site["pi.html"]
    section = html.split(f'id="clause-{decision.id}"', 1)[1].split("</section>", 1)[0]
    from markupsafe import escape

    for text in (decision.statement, decision.source, decision.note, decision.level, "project decision"):
        assert str(escape(text)) in section


def test_each_catalogue_file_is_a_part_of_its_area_headed_by_the_files_title(sample_site):
    from markupsafe import escape
    from ruamel.yaml import YAML

    files = {c.file: c.area for c in load_catalogue().clauses.values()}
    assert len(set(files.values())) == 3
    for file, area in files.items():
        title = YAML(typ="safe").load(Path(file).read_text(encoding="utf-8"))["title"]
        assert f'<h2 id="part-{Path(file).stem}">{escape(title)}</h2>' in sample_site[f"{area}.html"], file


def test_index_lists_areas_editions_and_operations(sample_site):
    index = sample_site["index.html"]
    # the editions by the names `pi-conformance editions` prints
    for area, edition in (("envelope", "envelope"), ("profiles", "profiles"), ("pi", "pi-0.99.4")):
        assert f'href="{area}.html"' in index and f"<td>{edition}" in index
    for op in {c.op for c in SAMPLE}:
        assert f'#op-{op}"' in index


@pytest.mark.untraced  # the module's own link checker over the rendered pages: no kit code runs
def test_internal_links_resolve_and_pages_need_no_script(sample_site):
    assert broken_links(sample_site) == []
    for html in sample_site.values():
        parsed = parse(html)
        assert parsed.scripts == 0 and parsed.external == []


def test_the_link_checker_catches_a_broken_anchor(sample_site):
    pages = dict(sample_site)
    pages["index.html"] = pages["index.html"].replace('href="pi.html#op-', 'href="pi.html#no-op-', 1)
    pages["pi.html"] = pages["pi.html"].replace('href="#case-', 'href="#nocase-', 1)
    assert len(broken_links(pages)) == 2


def test_invisible_white_space_is_shown():
    html = str(visible("a\tb \r\nc\u00a0d\u200be\ufeff  \nplain <x>"))
    assert html.count('class="ws"') == 7
    for name in ("tab", "carriage return", "no-break space", "zero-width space", "byte order mark",
                 "2 trailing spaces", "1 trailing space"):
        assert f'title="{name}' in html or name in html
    assert "&lt;x&gt;" in html and "\t" not in html and "\u200b" not in html


def test_diff_lines_are_classed():
    html = str(diff_lines("--- golden\n+++ answer\n@@ -1 +1 @@\n-a\t\n+a\n ctx\n \n  \n"))
    assert html.count('class="del"') == 1 and html.count('class="add"') == 1
    assert html.count('class="hunk"') == 1 and html.count('class="ctx"') == 5 and 'title="tab"' in html
    # an empty context line is the diff's mark, not a trailing space; a space after it is one
    assert html.count("trailing space") == 1


def test_large_blocks_are_cut_and_say_so():
    text = "".join(f"line {i}\n" for i in range(1000))
    block = cap(text, max_lines=10)
    assert block.text.count("\n") == 10 and block.cut == "990 more lines (8,820 characters) not shown."
    assert cap("short\n").cut == ""
    wide = cap("x" * 50 + "\n" + "y" * 50 + "\n", max_chars=60)
    assert wide.text == "x" * 50 + "\n" and wide.cut.startswith("1 more line ")


def _reference_report(cases) -> dict:
    runner = Runner(InProcessAdapter(ReferenceImplementation()))
    hello = runner.start()
    results = [runner.run_case(c) for c in cases]
    return build(header(hello, "reference", sorted({c.area for c in cases})), results)


@pytest.fixture(scope="module")
def pi_types_suite(tmp_path_factory) -> Path:
    """A scenarios folder (for ``--scenarios-dir``) of one file, Pi's message types, among them
    msg-system-wrong-types: ``docs`` over it takes the steps it takes over the whole suite, for
    52 cases instead of all of them."""
    folder = tmp_path_factory.mktemp("scenarios")
    (folder / "pi").mkdir()
    shutil.copy(SCENARIOS_DIR / "pi" / "messages-types.yaml", folder / "pi")
    return folder


@pytest.fixture(scope="module")
def failing_report() -> dict:
    """A report of real cases, two of them turned into failures with hidden white space."""
    report = _reference_report(REPORTED)
    bad = report["cases"][0]
    bad.update(status="failed", message="answer differs from the golden",
               diff="--- golden\n+++ answer\n@@ -1 +1 @@\n-text: a b\n+text: a\tb \r\n" + "+x\n" * 2000,
               actual={"text": "a\u00a0b\u200b"})
    report["cases"][1].update(status="xfail", message="expected failure (not yet); answer differs")
    report["cases"][3].update(status="unsupported", message="adapter does not list the operation")
    return resummed(report)


def test_report_page_shows_matrix_failures_and_cut_diff(failing_report):
    html = render_report([failing_report], cases=SUITE.cases)
    bad = failing_report["cases"][0]
    case = next(c for c in SUITE.cases if c.id == bad["id"])
    section = html.split(f'id="r0-case-{bad["id"]}"', 1)[1].split('<div class="case"', 1)[0]
    statement = load_catalogue().clauses[case.clauses[0]].statement
    from markupsafe import escape

    assert str(escape(statement)) in section
    assert "Input:" in section and "Expected (the golden):" in section and "Actual answer:" in section
    assert 'title="tab"' in section and 'title="carriage return"' in section
    assert 'title="no-break space"' in section and 'title="zero-width space"' in section
    assert "Diff cut:" in section and "more lines" in section
    assert f'id="r0-case-{failing_report["cases"][1]["id"]}"' in html
    assert f'id="r0-case-{failing_report["cases"][2]["id"]}"' not in html  # passed: not listed
    unsupported = html.split(f'<tr id="r0-case-{failing_report["cases"][3]["id"]}"', 1)[1].split("</tr>", 1)[0]
    assert "adapter does not list the operation" in unsupported and 'class="unsupported"' in unsupported
    assert broken_links({"report.html": html}) == []


def test_matrix_counts_by_area_and_operation(failing_report):
    rows = {(area, op): cells for area, op, cells in matrix([failing_report, failing_report])}
    bad = failing_report["cases"][0]
    cell = rows[(bad["area"], bad["op"])][1]
    assert cell.counts["failed"] == 1 and cell.worst == "failed"
    area_total = rows[(bad["area"], "")][0]
    assert area_total.total == sum(1 for r in failing_report["cases"] if r["area"] == bad["area"])


def test_the_json_report_keeps_the_actual_answer_of_a_case_that_did_not_pass(tmp_path):
    case = next(c for c in SUITE.cases if c.error_code is None and c.tree is None)
    golden_dir = tmp_path / "golden"
    (golden_dir / case.area).mkdir(parents=True)
    runner = Runner(InProcessAdapter(ReferenceImplementation()), golden_dir=golden_dir)
    hello = runner.start()
    result = runner.run_case(case)  # no golden here: errored (a suite error), with the answer kept
    report = build(header(hello, "reference", [case.area]), [result])
    assert report["cases"][0]["status"] == "errored" and report["cases"][0]["actual"] == result.output
    json.dumps(report)
    passed = build(header(hello, "reference", [case.area]), [Runner(InProcessAdapter(ReferenceImplementation())).run_case(case)])
    assert "actual" not in passed["cases"][0]


def test_expectations_and_their_reasons_are_listed(tmp_path, failing_report):
    exp = tmp_path / "expectations.yaml"
    case_id = failing_report["cases"][1]["id"]
    exp.write_text(f"expectations:\n  - id: {case_id}\n    status: fail\n    reason: the answer keeps a tab\n")
    report = copy.deepcopy(failing_report)
    report["header"]["expectations"] = str(exp)
    html = render_report([report], cases=SUITE.cases)
    table = html.split('id="expectations-0"', 1)[1]
    assert "the answer keeps a tab" in table and f"<code>{case_id}</code>" in table
    report["header"]["expectations"] = str(tmp_path / "gone.yaml")
    assert "cannot be read here" in render_report([report], cases=SUITE.cases)


def test_cli_compare_html_and_run_report_html(tmp_path, capsys, failing_report):
    (tmp_path / "a.json").write_text(json.dumps(failing_report))
    assert main(["compare", "--html", str(tmp_path / "a.json"), str(tmp_path / "a.json")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("<!DOCTYPE html>") and out.count('class="case"') == 4
    page = tmp_path / "out" / "report.html"
    assert main(["run", "-q", "--case", SAMPLE[0].id, "--report-html", str(page)]) == 0
    html = page.read_text()
    assert "No case failed, errored or passed unexpectedly." in html and SAMPLE[0].op in html


def test_cli_docs_html_md_and_results(tmp_path, capsys, failing_report):
    report = tmp_path / "a.json"
    report.write_text(json.dumps(failing_report))
    args = ["docs", "--out", str(tmp_path / "site")]
    assert main([*args, "--format", "md", "--results", str(report)]) == 2
    assert "needs the HTML form" in capsys.readouterr().err
    assert main([*args, "--results", str(tmp_path / "nope.json")]) == 2
    assert "nope.json" in capsys.readouterr().err and not (tmp_path / "site").exists()


def test_docs_warns_of_results_of_another_edition(tmp_path, capsys, failing_report, pi_types_suite):
    # a report of format 1 (no editions) that ran the pi area: its edition judged the pi cases
    report = tmp_path / "a.json"
    assert failing_report["header"]["areas"] == ["envelope", "pi"]
    old = {k: v for k, v in failing_report["header"].items() if k not in ("format", "editions")}
    report.write_text(json.dumps({**failing_report, "header": old}))
    assert failing_report["header"]["edition"] == "pi-0.99.4"
    args = ["docs", "--out", str(tmp_path / "site"), "--results", str(report), "--scenarios-dir", str(pi_types_suite)]
    assert main([*args, "--edition", "pi-1.6.0"]) == 0
    assert (f"warning: {report} judged edition pi-0.99.4, not pi-1.6.0: its results are shown beside the "
            "goldens of pi-1.6.0") in capsys.readouterr().err
    assert main(args) == 0
    assert "warning" not in capsys.readouterr().err
    # a report of the envelope area alone judged no Pi case: it suits the goldens of either edition
    only = {**failing_report["header"], "areas": ["envelope"], "editions": {"envelope": "envelope"}}
    envelope = [c for c in failing_report["cases"] if c["area"] == "envelope"]
    report.write_text(json.dumps(resummed({**failing_report, "header": only, "cases": envelope})))
    assert main([*args, "--edition", "pi-1.6.0"]) == 0
    assert "warning" not in capsys.readouterr().err


def test_results_are_shown_under_each_case(failing_report):
    # The report's cases and a few it did not run: the results a page shows are the cases' own.
    cases = REPORTED + [c for c in SAMPLE if c not in REPORTED][:4]
    pages = render_site(cases, reports=[failing_report, failing_report])
    bad = failing_report["cases"][0]
    html = pages[f"{bad['area']}.html"]
    body = html.split(f'id="case-{bad["id"]}"', 1)[1].split('<div class="case"', 1)[0]
    assert body.count('<td class="failed">failed</td>') == 2 and "reference 0.1.0 (editions envelope, pi-0.99.4) [2]" in body
    assert 'title="tab"' in body and "more lines" in body
    unrun = next(c for c in cases if c.id not in {r["id"] for r in failing_report["cases"]})
    html = pages[f"{unrun.area}.html"]
    assert "not run" in html.split(f'id="case-{unrun.id}"', 1)[1].split('<div class="case"', 1)[0]


def test_docs_write_chooses_the_form(tmp_path):
    from conformance.output.docs import write

    md = write(tmp_path / "md", SAMPLE[:3], fmt="md")
    html = write(tmp_path / "html", SAMPLE[:3])
    assert sorted(p.name for p in md) == ["envelope.md", "index.md", "pi.md", "profiles.md"]
    assert sorted(p.name for p in html) == ["envelope.html", "index.html", "pi.html", "profiles.html"]


def test_pages_name_scenario_files_by_the_kits_own_path_not_the_machines():
    # As from an installed kit run elsewhere: the cases' files are absolute paths of this machine.
    cases = [copy.copy(c) for c in SAMPLE[:5]]
    for c in cases:
        c.file = str(Path(c.file).resolve())
    pages = render_site(cases)
    shown = {m for html in pages.values() for m in re.findall(r"Scenario file <code>([^<]*)</code>", html)}
    assert shown and all(p.startswith("conformance/scenarios/") for p in shown)
    assert not any(str(Path(cases[0].file).parent) in html for html in pages.values())


def _case_section(page: str, case_id: str, marker: str) -> str:
    return page.split(f'{marker}{case_id}', 1)[1].split(marker, 1)[0]


def test_docs_of_an_edition_show_that_editions_golden(tmp_path, pi_types_suite):
    # msg-system-wrong-types holds in both editions; its pi-1.6.0 golden lacks the $.replace
    # problem (PI-160-MSG-SYSTEM-NO-REPLACE), its default golden reports it.
    from conformance.output.docs import write

    case = next(c for c in SUITE.cases if c.id == "msg-system-wrong-types")
    for fmt, page, marker in (("html", "pi.html", 'id="case-'), ("md", "pi.md", "### `")):
        shown = {}
        for edition in ("pi-0.99.4", "pi-1.6.0"):
            out = tmp_path / f"{fmt}-{edition}"
            write(out, [case], Session(edition=edition), fmt=fmt)
            shown[edition] = _case_section((out / page).read_text(), case.id, marker)
        assert "$.replace" in shown["pi-0.99.4"], fmt
        assert "$.replace" not in shown["pi-1.6.0"] and "$.content" in shown["pi-1.6.0"], fmt
    # The command passes its --edition on.
    assert main(["docs", "--out", str(tmp_path / "cli"), "--format", "md", "--edition", "pi-1.6.0",
                 "--scenarios-dir", str(pi_types_suite)]) == 0
    assert "$.replace" not in _case_section((tmp_path / "cli" / "pi.md").read_text(), case.id, "### `")


def test_report_page_shows_the_golden_of_the_reports_edition():
    case = next(c for c in SUITE.cases if c.id == "msg-system-wrong-types")
    report = _reference_report([case])
    report["cases"][0].update(status="failed", message="answer differs from the golden")
    shown = {}
    for edition in ("pi-0.99.4", "pi-1.6.0"):
        report["header"]["edition"] = edition
        html = render_report([report], cases=SUITE.cases)
        shown[edition] = html.split(f'id="r0-case-{case.id}"', 1)[1].split('<div class="case"', 1)[0]
    assert "$.replace" in shown["pi-0.99.4"] and "$.replace" not in shown["pi-1.6.0"]


@pytest.mark.parametrize("fmt, page, marker", [("html", "envelope.html", 'id="case-'), ("md", "envelope.md", "### `")])
def test_docs_name_a_golden_of_another_case_or_a_broken_one_instead_of_showing_it(tmp_path, fmt, page, marker):
    # Both forms showed another case's golden as the case's expected output, and the Markdown
    # form called a broken golden missing.
    from conformance.judge import golden
    from conformance.output.docs import write

    text, other = (next(c for c in SUITE.cases if c.id == i) for i in ("env-build-full", "env-build-refused-reported"))
    gold = tmp_path / "golden"
    for case, source in ((text, other), (other, other)):
        stored = golden.read(golden.golden_path(golden.GOLDEN_DIR, "envelope", source.id))
        golden.write(golden.golden_path(gold, "envelope", case.id), source.id, source.op, stored["output"])
    (gold / "envelope" / f"{other.id}.yaml").write_text("case: [unclosed\n")
    write(tmp_path / "out", [text, other], Session(golden_dir=gold), fmt=fmt)
    shown = (tmp_path / "out" / page).read_text()
    mine, broken = (_case_section(shown, c.id, marker) for c in (text, other))
    quote = "&#39;" if fmt == "html" else "'"
    assert f"{gold / 'envelope' / text.id}.yaml:3:1: the golden is for case {quote}{other.id}{quote}" in mine
    assert "Expected output" not in mine
    assert f"{gold / 'envelope' / other.id}.yaml:2:1: golden is not valid YAML" in broken
    assert "Golden missing" not in broken
    # a golden holding what is not JSON data: the command failed, naming no file, writing no page
    (gold / "envelope" / f"{other.id}.yaml").write_text(f"case: {other.id}\nop: {other.op}\noutput: 2024-01-01\n")
    assert main(["docs", "--out", str(tmp_path / "cli"), "--format", fmt, "--golden-dir", str(gold)]) == 0
    broken = _case_section((tmp_path / "cli" / page).read_text(), other.id, marker)
    assert f"{gold / 'envelope' / other.id}.yaml:3:1: golden is not JSON data: output is a date" in broken


def test_the_header_s_expectations_sentence_ends_before_the_count_begins(tmp_path, failing_report):
    report = copy.deepcopy(failing_report)
    report["header"]["expectations"] = str(tmp_path / "e1.yaml")
    html = render_report([report], cases=SUITE.cases)
    paragraph = html.split('<p id="run-0">', 1)[1].split("</p>", 1)[0]
    text = re.sub(r"<[^>]+>", "", paragraph)
    assert f"Expectations: {tmp_path / 'e1.yaml'}. 2 cases answered wrongly" in text, text
