"""Figures the README and the guides print are the kit's own: the results table's case counts, the
seeded-fault totals of docs/strength.md and the edition counts of docs/results.md agree with what
`list` and `faults --list` print now, so a suite that grows cannot leave them behind; and
docs/running.md's JSON report layout names the keys and versions `run` writes; the README's strength
table is the blind faults' records."""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import re
from collections import Counter
from pathlib import Path

import pytest

from conformance.cli import main

ROOT = Path(__file__).resolve().parent.parent
AREAS = ("envelope", "profiles", "pi")


def _lines(capsys, *argv: str) -> list[list[str]]:
    capsys.readouterr()
    assert main(list(argv)) == 0
    return [line.split("\t") for line in capsys.readouterr().out.splitlines() if line.strip()]


@pytest.fixture(scope="module")
def counts():
    """{(area, edition or None): set of case ids}, from `pi-conformance list`."""
    found = {}
    for area in AREAS:
        for edition in (None, "pi-1.6.0"):
            out = io.StringIO()
            with contextlib.redirect_stdout(out):  # an edition of pi leaves the other areas as they are
                assert main(["list", "--area", area] + (["--edition", edition] if area == "pi" and edition else [])) == 0
            found[area, edition] = {line.split("\t")[0] for line in out.getvalue().splitlines() if line}
    return found


def _results_rows() -> dict[str, list[str]]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    table = text.split("<!-- results:begin -->", 1)[1].split("<!-- results:end -->", 1)[0]
    rows = {}
    for line in table.strip().splitlines()[2:]:
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        rows[cells[0]] = cells[1:]
    return rows


def test_the_results_table_counts_the_cases_the_suite_has(counts):
    rows = _results_rows()
    assert sorted(rows) == sorted(AREAS)
    for area, cells in rows.items():
        # columns: reference, pi 1.6.0 (default editions), reference, pi 1.6.0 (edition pi-1.6.0)
        for cell, edition in zip(cells, (None, None, "pi-1.6.0", "pi-1.6.0")):
            judged = re.match(r"(\d+)/(\d+) passed", cell)
            assert judged, cell
            assert int(judged.group(2)) == len(counts[area, edition]), \
                f"README results table, {area}: {cell!r} but the suite has {len(counts[area, edition])} cases; " \
                "print it again with the command above it"
        for reference_cell in (cells[0], cells[2]):
            passed, total = re.match(r"(\d+)/(\d+)", reference_cell).groups()
            assert passed == total, f"the reference fails cases in the README's table: {reference_cell}"


def test_the_results_guide_counts_the_edition_cases(counts):
    text = (ROOT / "docs" / "results.md").read_text(encoding="utf-8")
    own, dropped = re.search(r"The 1\.6\.0 edition has (\d+) cases of its own, and drops the (\w+)", text).groups()
    words = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
    default, later = counts["pi", None], counts["pi", "pi-1.6.0"]
    assert int(own) == len(later - default), f"docs/results.md: {own} cases of its own, the suite has {len(later - default)}"
    assert words.get(dropped, dropped) == len(default - later)


def test_the_strength_guide_counts_the_seeded_faults(capsys):
    faults = _lines(capsys, "faults", "--list")
    by_area = Counter(fields[1] for fields in faults)
    text = (ROOT / "docs" / "strength.md").read_text(encoding="utf-8")
    caught, total, envelope, profiles, pi = map(int, re.search(
        r"\*\*(\d+) of (\d+) seeded faults caught\*\* \((\d+) envelope, (\d+) profiles, (\d+)\s+pi\)", text).groups())
    assert (total, envelope, profiles, pi) == (len(faults), by_area["envelope"], by_area["profiles"], by_area["pi"]), \
        "docs/strength.md's seeded-fault totals are not what `pi-conformance faults --list` prints"
    assert caught == total  # tests/test_faults.py proves every one caught


def test_the_strength_guide_counts_the_hand_written_faults():
    text = (ROOT / "docs" / "strength.md").read_text(encoding="utf-8")
    said = int(re.search(r"(\d+) are hand-written faults", text).group(1))
    modules = [importlib.import_module(f"conformance.faults.seeded.{area}") for area in AREAS]
    assert said == sum(len(module.FAULTS) for module in modules)


def test_the_readme_s_strength_table_is_what_the_blind_records_give():
    """The README's strength table is `benchmarks/blind.py --summary` of the recorded batches (each
    batch's first-sight.json and measured.json), so a new batch or a new measurement cannot leave it behind."""
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        blind = importlib.import_module("blind")
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    table = text.split("<!-- strength:begin -->", 1)[1].split("<!-- strength:end -->", 1)[0].strip()
    assert table == blind.summary(), ("the README's strength table is not what `python benchmarks/blind.py "
                                      "--summary` prints: paste its output between the strength markers")


def test_the_running_guide_s_json_report_layout_is_what_run_writes(tmp_path):
    """docs/running.md's layout of the JSON report: its keys in the order `run --report-json`
    writes them, and its figures (format, suite, spec and protocol versions, the default edition)
    the kit's own."""
    from conformance import PROTOCOL_VERSION, SPEC_VERSION, SUITE_VERSION
    from conformance.corpus.editions import DEFAULT
    from conformance.output.reports import REPORT_FORMAT

    text = (ROOT / "docs" / "running.md").read_text(encoding="utf-8")
    layout = re.search(r"The JSON report is the public record of a run:\n\n```text\n(.*?)```", text, re.S).group(1)
    head, rest = layout.split('\n "summary"', 1)
    cases = rest.split('"cases": [', 1)[1].split("]", 1)[0]
    report = tmp_path / "r.json"
    assert main(["run", "-q", "--case", "env-instr-nothing", "--report-json", str(report)]) == 0
    written = json.loads(report.read_text(encoding="utf-8"))
    header_keys = [k for k in re.findall(r'"(\w+)":', head) if k not in ("header", "name", "version", "language")]
    assert header_keys == list(written["header"])
    assert re.findall(r'^ "(\w+)"', layout, re.M) == [k for k in written if k != "header"]
    assert [k for k in re.findall(r'"(\w+)"', cases)] == list(written["cases"][0]) + ["actual"]
    figures = dict(re.findall(r'"(format|suite|spec|protocol|edition)": "?([\w.-]+)"?', head))
    assert figures == {"format": str(REPORT_FORMAT), "suite": SUITE_VERSION, "spec": SPEC_VERSION,
                       "protocol": str(PROTOCOL_VERSION), "edition": DEFAULT}
    assert {k: written["header"][k] for k in ("format", "suite", "spec", "protocol", "edition")} == \
        {"format": REPORT_FORMAT, "suite": SUITE_VERSION, "spec": SPEC_VERSION, "protocol": PROTOCOL_VERSION,
         "edition": DEFAULT}


def test_the_readme_s_example_run_prints_what_the_readme_shows(tmp_path, monkeypatch, capsys):
    """The README's adapter example, run as the README says (its ``my_impl.py``, its ``run``
    command): every line the README shows of the output is printed, in that order (``...`` stands
    for lines left out), so a new case or a new reason cannot leave the example behind."""
    import re
    import sys

    from conformance.cli import main

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    (tmp_path / "my_impl.py").write_text(re.search(r"```python\n(from conformance.adapters.base.*?)```", text, re.S)[1])
    shown = re.search(r"```text\n(implementation: my-harness.*?)```", text, re.S)[1].splitlines()
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        assert main(["run", "--area", "envelope", "--adapter", "python:my_impl:MyImpl",
                     "--report-md", "reports/my.md"]) == 0
    finally:
        sys.modules.pop("my_impl", None)
    printed = capsys.readouterr().out.splitlines()
    at = 0
    for line in (line for line in shown if line != "..."):
        assert line in printed[at:], f"the README shows {line!r}, which the run does not print (after line {at})"
        at = printed.index(line, at) + 1
