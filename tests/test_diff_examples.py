"""What diff takes for one example and what a shrunk disagreement keeps.

Two examples that differ only in the order of their keys are two examples (an implementation may
answer them differently, as the order of a request's questions decides the order of its answer);
a shrunk disagreement's file tree keeps only the files the disagreement needs.
"""

from __future__ import annotations

from conformance.adapters.base import Answer
from conformance.adapters.connect import make_adapter
from conformance.cli import main
from conformance.diff import adapter_fault, compare, diff_operation, example_text
from conformance.faults.runner import fault_adapter, load_faults


def test_examples_differing_only_in_key_order_are_two_examples():
    first = {"questions": {"a": 1, "b": 2}}
    second = {"questions": {"b": 2, "a": 1}}
    assert example_text(first, None) != example_text(second, None)
    memo: dict = {}
    answers = [Answer("result", output={"ids": ["a", "b"]})] * 2
    views = [["result", {"ids": ["a", "b"]}]] * 2
    assert adapter_fault(answers, views, example_text(first, None), memo) is None
    answers = [Answer("result", output={"ids": ["b", "a"]})] * 2
    views = [["result", {"ids": ["b", "a"]}]] * 2
    assert adapter_fault(answers, views, example_text(second, None), memo) is None


def test_the_reference_against_itself_has_no_fault_on_the_order_of_a_requests_questions(capsys):
    code = main(["diff", "--adapter", "reference", "--adapter", "reference", "--op", "pi.classifier-request",
                 "--examples", "100"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "ADAPTER-FAULT" not in out and "0 disagreements" in out


def test_a_shrunk_disagreements_tree_keeps_only_the_files_it_needs():
    fault = next(f for f in load_faults() if f.id == "pkg-discovery-conventional")
    adapters = (make_adapter("reference"), fault_adapter(fault))
    for adapter in adapters:
        adapter.start()
    try:
        report = diff_operation(adapters, "pi.packages-resolve", examples=20)
        found = report.disagreement
        assert found is not None and found.tree, report
        for path in found.tree:
            smaller = {k: v for k, v in found.tree.items() if k != path}
            assert compare(adapters, found.op, found.input, smaller, 10.0) is None, \
                f"{path} is not needed: the disagreement stays without it"
    finally:
        for adapter in adapters:
            adapter.stop()
