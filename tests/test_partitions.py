"""Every declared input class (conformance.strategies.partitions) is hit by a suite case and by
a generated example at diff's default budget; coverage --cells reports it."""

from __future__ import annotations

import json

import pytest

from conformance.judge.cells import cells_report
from conformance.corpus.cases import SCENARIOS_DIR, load_suite
from conformance.cli import main
from conformance.diff import DEFAULT_EXAMPLES
from conformance.operations import catalogue
from conformance.strategies.partitions import PARTITIONS


@pytest.fixture(scope="module")
def report():
    return cells_report(load_suite(SCENARIOS_DIR).cases, DEFAULT_EXAMPLES)


def test_every_class_is_hit_by_a_suite_case_and_a_generated_example(report):
    assert report.unhit == []


def test_the_classes_name_known_operations_and_clauses():
    from conformance.corpus.catalogue import load_catalogue

    clauses = set(load_catalogue().clauses)
    for op, cells in PARTITIONS.items():
        assert op in catalogue()
        assert len({c.label for c in cells}) == len(cells), op
        for cell in cells:
            assert cell.clauses and set(cell.clauses) <= clauses, (op, cell.label)


def test_a_class_nothing_hits_is_unhit_and_fails_the_command(monkeypatch, capsys):
    from conformance.strategies.partitions import Cell

    never = Cell("characters", "never", ("PI-TPL-ARGS-SPLIT",), lambda input, tree: False)
    monkeypatch.setitem(PARTITIONS, "pi.parse-args", [*PARTITIONS["pi.parse-args"], never])
    code = main(["coverage", "--cells", "--json", "--examples", "5"])
    data = json.loads(capsys.readouterr().out)
    assert code == 1
    assert {"op": "pi.parse-args", "class": never.label, "by": "suite"} in data["unhit"]
    assert {"op": "pi.parse-args", "class": never.label, "by": "diff"} in data["unhit"]
    assert set(data) >= {"cells", "hitBySuite", "hitByDiff", "unhit"}
    assert data["hitBySuite"]["pi.parse-args"]["emptiness: empty text"] == ["tpl-args-empty"]


def test_the_generated_examples_do_not_depend_on_the_modules_imported(tmp_path, monkeypatch):
    # hypothesis draws, now and then, literals of every imported module that is not installed:
    # a module full of whole numbers imported between two draws must change nothing.
    from conformance.judge.cells import generated_examples

    before = {op: generated_examples(op, 60) for op in ("pi.expand-input", "pi.load-templates")}
    (tmp_path / "many_literals.py").write_text("VALUES = [%s]\n" % ", ".join(str(7919 * n + 13) for n in range(80)))
    monkeypatch.syspath_prepend(str(tmp_path))
    __import__("many_literals")
    assert {op: generated_examples(op, 60) for op in before} == before
