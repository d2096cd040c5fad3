"""The tree's root written ``<root>`` (conformance.judge.normalise.replace_root) is one-to-one:
an answer's own text never reads as the placeholder, so an answer that writes ``<root>`` in place
of the tree's absolute path fails where the golden has the root."""

from __future__ import annotations

import json

from hypothesis import given, strategies as st

from conformance.adapters.inprocess import InProcessAdapter
from conformance.adapters.reference import ReferenceImplementation
from conformance.corpus.cases import load_suite
from conformance.judge import golden
from conformance.judge.normalise import replace_root
from conformance.judge.runner import Runner

ROOT = "/tmp/t"


def test_an_answers_own_placeholder_text_is_escaped_and_the_root_is_not():
    assert replace_root({"path": "/tmp/t/a", "own": "<root>/a"}, [ROOT]) == {"path": "<root>/a", "own": "<root\\>/a"}
    assert replace_root({"<root>": ["<root\\>", "<root"]}, [ROOT]) == {"<root\\>": ["<root\\\\>", "<root\\"]}
    assert replace_root("x/tmp/t/tmp/tx", ["/tmp/t", "/tmp/t/tmp"]) == "x<root>/tx"  # the longest root first
    assert replace_root("<root>", []) == "<root>"  # without a tree nothing is replaced


@given(st.lists(st.sampled_from(["<root>", "<root", "<", "root", ">", "\\", ROOT, "/tmp", "/t", "x"]), max_size=8),
       st.lists(st.sampled_from(["<root>", "<root", "<", "root", ">", "\\", ROOT, "/tmp", "/t", "x"]), max_size=8))
def test_two_different_texts_are_never_the_same_once_the_root_is_replaced(a, b):
    a, b = "".join(a), "".join(b)
    if a != b:
        assert replace_root(a, [ROOT]) != replace_root(b, [ROOT])


class WritesThePlaceholder(ReferenceImplementation):
    """The reference, with ``<root>`` written in place of the tree's absolute root."""

    def run(self, op: str, input: dict, root: str | None) -> dict:
        output = super().run(op, input, root)
        return json.loads(json.dumps(output).replace(json.dumps(root)[1:-1], "<root>")) if root else output


def _stored_text(case) -> str:
    return golden.golden_path(golden.GOLDEN_DIR, case.area, case.id).read_text(encoding="utf-8")


def test_an_answer_writing_the_placeholder_for_the_root_fails_every_case_whose_golden_holds_the_root():
    cases = [c for c in load_suite().cases if c.tree is not None and c.error_code is None
             and "<root>" in _stored_text(c)]
    assert len(cases) > 50, len(cases)
    runner = Runner(InProcessAdapter(WritesThePlaceholder()))
    runner.start()
    try:
        statuses = {case.id: runner.run_case(case).status for case in cases}
    finally:
        runner.stop()
    assert {cid: s for cid, s in statuses.items() if s != "failed"} == {}


def test_no_golden_holds_the_placeholder_text_of_an_answers_own():
    # the reference's answers never held '<root' of their own: every one in a golden is the root
    held = [p for p in golden.GOLDEN_DIR.rglob("*.yaml") if "<root\\" in p.read_text(encoding="utf-8")]
    assert held == []
