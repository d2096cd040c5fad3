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


def test_every_operation_declares_its_classes():
    assert {op for op in catalogue() if not op.startswith("kit.")} - set(PARTITIONS) == set()


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

    before = {op: generated_examples(op, 60) for op in PARTITIONS}
    (tmp_path / "many_literals.py").write_text("VALUES = [%s]\n" % ", ".join(str(7919 * n + 13) for n in range(80)))
    monkeypatch.syspath_prepend(str(tmp_path))
    __import__("many_literals")
    assert {op: generated_examples(op, 60) for op in before} == before


def test_diff_sends_an_operations_frames_after_the_drawn_examples_and_does_not_count_them(monkeypatch):
    from conformance.judge.cells import generated_examples
    from conformance.strategies import frames_for

    for op in ("pi.validate-message", "pi.replay-system", "pi.convert-to-llm", "pi.substitute-args",
               "profiles.load", "profiles.config", "profiles.match", "profiles.resolve", "profiles.compose",
               "profiles.strip", "profiles.settings", "profiles.config-edit", "profiles.picker", "profiles.session",
               "envelope.instructions", "envelope.environment", "envelope.developer-messages", "envelope.context-message",
               "envelope.context-hook", "envelope.build", "envelope.settings", "envelope.session",
               "pi.packages-resolve", "pi.models-load", "pi.models-auth", "pi.models-available",
               "pi.models-sampling", "pi.classifier-request", "pi.classifier-usage",
               "pi.package-changelog"):
        frames = frames_for(op)
        drawn = generated_examples(op, 3)
        assert frames and drawn[3:] == frames and len(drawn) == len(frames) + 3, op


def test_a_frame_that_disagrees_is_reported_as_drawn_and_its_tree_shrunk(monkeypatch):
    from conformance.adapters.connect import make_adapter
    from conformance.diff import diff_operation
    from conformance.strategies import FRAMES

    frame = ({"agentDir": "agent", "cwd": "project"},
             {"agent/prompts/a.md": "A\n", "agent/prompts/b.md": "B\n", "agent/prompts/c.md": "C\n"})
    monkeypatch.setitem(FRAMES, "pi.load-templates", lambda: [frame])

    class Wrong:  # the reference, except that it loses a template named b
        def __init__(self):
            self.inner, self.runs = make_adapter("reference"), 0

        def start(self):
            return self.inner.start()

        def stop(self):
            self.inner.stop()

        def run(self, op, input, **kwargs):
            self.runs += 1
            answer = self.inner.run(op, input, **kwargs)
            answer.output["templates"] = [t for t in answer.output["templates"] if t["name"] != "b"]
            return answer

    adapters = (make_adapter("reference"), Wrong())
    for adapter in adapters:
        adapter.start()
    try:
        report = diff_operation(adapters, "pi.load-templates", examples=5)
    finally:
        for adapter in adapters:
            adapter.stop()
    assert report.disagreement is not None and report.examples == 6  # the five drawn, then the frame
    assert sorted(report.disagreement.tree) == ["agent/prompts/b.md"]
    assert report.shrinks == adapters[1].runs - 6  # every run after the frame's own is a shrink step
