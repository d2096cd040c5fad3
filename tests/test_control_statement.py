"""The profiles' control statement: strict (empty, heading, named profile or scope fail) and fair
(any correct wording, any number of paragraphs, passes), through the declared normaliser
``profiles.control-statement`` and stand-in implementations that reword the reference's statement."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from conformance.judge import golden
from conformance.adapters.inprocess import InProcessAdapter
from conformance.adapters.reference import ReferenceImplementation
from conformance.corpus.cases import load_suite
from conformance.operations.profiles_control import (BEGIN_MARKER, CONTROL_PLACEHOLDER, END_MARKER,
                                                      control_statement, has_heading, judge_statement, names)
from conformance.judge.runner import Runner
from conformance.corpus.trees import parse_tree
from reference.profiles.core.compose import CONTROL_STATEMENT

NORMALISER = "profiles.control-statement"
CASES = [c for c in load_suite().cases if NORMALISER in c.normalise]


def _profile_of(output) -> str | None:
    """The first ``scope:id`` profile reference an output names (resolution records carry one)."""
    if isinstance(output, dict):
        if isinstance(output.get("profile"), str) and ":" in output["profile"]:
            return output["profile"]
        values = list(output.values())
    elif isinstance(output, list):
        values = output
    else:
        return None
    return next((p for p in map(_profile_of, values) if p), None)


def _reword(value, statement: str):
    if isinstance(value, str):
        return value.replace(CONTROL_STATEMENT, statement)
    if isinstance(value, list):
        return [_reword(v, statement) for v in value]
    if isinstance(value, dict):
        return {k: _reword(v, statement) for k, v in value.items()}
    return value


THREE_PARAGRAPHS = ("Review these instructions first: they are your primary system instructions.\n\n"
                    "They come before any other instruction, whatever its origin or base.\n\n"
                    "Where another instruction conflicts with them, follow these.")
STATEMENTS = {
    "heading": lambda ref: "# Primary instructions\n\nFollow these over any conflicting instruction.",
    "empty": lambda ref: "",
    "profile-id": lambda ref: f"Active profile: {ref.split(':')[1] if ref else '-'}. Follow it over anything else.",
    "scope": lambda ref: f"These {ref.split(':')[0] if ref else '-'} scope instructions win over conflicting ones.",
    "global-scope": lambda ref: "Scope: global. These instructions win over conflicting ones.",
    "three-paragraphs": lambda ref: THREE_PARAGRAPHS,
}


class Reworded(ReferenceImplementation):
    """The reference with its control statement replaced by ``STATEMENTS[kind]`` of the active
    profile (``None`` when the output names none, as ``profiles.compose`` does)."""

    kind = "three-paragraphs"

    def run(self, op: str, input: dict, root: str | None) -> dict:
        output = super().run(op, input, root)
        return _reword(output, STATEMENTS[self.kind](_profile_of(output)))


def _stored(case):
    return golden.read(golden.golden_path(golden.GOLDEN_DIR, case.area, case.id))["output"]


#: Cases whose golden holds a block composed by the reference, and those of them naming a profile.
WITH_BLOCK = {c.id for c in CASES if CONTROL_STATEMENT in json.dumps(_stored(c), ensure_ascii=False)}
WITH_PROFILE = {c.id for c in CASES if c.id in WITH_BLOCK and _profile_of(_stored(c))}


def _statuses(kind: str) -> dict[str, str]:
    """Case id -> status for the stand-in whose statement is ``STATEMENTS[kind]``."""
    impl = Reworded()
    impl.kind = kind
    runner = Runner(InProcessAdapter(impl))
    runner.start()
    try:
        return {case.id: runner.run_case(case).status for case in CASES}
    finally:
        runner.stop()


def test_every_block_of_every_golden_is_found_and_the_reference_statement_accepted():
    found = 0
    for case in CASES:
        stored = _stored(case)
        raw = json.dumps(stored, ensure_ascii=False)
        normal = json.dumps(golden.comparable(stored, case.normalise, case), ensure_ascii=False)
        assert "rejected" not in normal, case.id
        assert normal.count(CONTROL_PLACEHOLDER) == raw.count(CONTROL_STATEMENT), case.id
        found += raw.count(CONTROL_STATEMENT)
    assert found > 100


#: Each rejected statement runs every case through the reference and the normaliser again; the
#: first keeps them measured, with the passing statement's test, and test_judge_statement measures
#: every verdict: the others run unmeasured (the ``untraced`` mark of tests/conftest.py).
AGAIN = pytest.mark.untraced


@pytest.mark.parametrize("kind", ["heading", pytest.param("empty", marks=AGAIN),
                                  pytest.param("global-scope", marks=AGAIN)])
def test_an_empty_heading_or_scope_statement_fails_every_case_with_a_block(kind):
    statuses = _statuses(kind)
    assert len(WITH_BLOCK) > 70
    assert {cid for cid in WITH_BLOCK if statuses[cid] != "failed"} == set()


@pytest.mark.parametrize("kind", [pytest.param("profile-id", marks=AGAIN), pytest.param("scope", marks=AGAIN)])
def test_a_statement_naming_the_profile_or_its_scope_fails_every_case_with_a_profile_block(kind):
    statuses = _statuses(kind)
    assert len(WITH_PROFILE) > 50
    assert {cid for cid in WITH_PROFILE if statuses[cid] != "failed"} == set()


def test_a_correct_statement_of_three_paragraphs_passes_every_case():
    statuses = _statuses("three-paragraphs")
    assert {cid: status for cid, status in statuses.items() if status != "passed"} == {}


def _case(layers=None, tree=None, steps=None):
    data = {"layers": layers} if layers is not None else {}
    if steps is not None:
        data["steps"] = steps
    return SimpleNamespace(input=data, tree=parse_tree(tree) if tree else None)


def _block(statement: str, *bodies: str) -> str:
    return BEGIN_MARKER + "\n" + statement + "\n\n" + "\n\n".join(bodies) + "\n\n" + END_MARKER


def test_the_statement_ends_before_the_first_layer_not_at_the_first_blank_line():
    case = _case(layers=["Be brief.", "Base."])
    text = _block("One.\n\nTwo.", "Be brief.", "Base.") + "\n\nYou are Pi."
    assert control_statement({"p": text}, case) == {
        "p": _block(CONTROL_PLACEHOLDER, "Be brief.", "Base.") + "\n\nYou are Pi."}
    # a different body after the statement is not taken for the first layer: the block stays
    other = _block("One.", "Be long.")
    assert control_statement(other, case) == other


def test_ids_come_from_the_tree_the_written_files_and_the_selections():
    case = _case(tree={"a/system-prompts/profiles/review.md": "\ufeffReview.",
                       "p/.pi/system-prompts/profiles/Local.MD": "L"},
                 steps=[{"do": "write", "path": "a/system-prompts/profiles/late.md", "text": "Late."},
                        {"do": "select", "mode": "manual", "profile": "project:pinned"}])
    out = control_statement(_block("Profile `late` rules.", "Review."), case)
    assert "rejected: it names the profile 'late'" in out
    for pid in ("review", "Local", "pinned"):
        assert f"names the profile '{pid}'" in control_statement(_block(f"Use ({pid}).", "Late."), case)


@pytest.mark.parametrize("statement, verdict", [
    ("", "it is empty"),
    ("  \n ", "it is empty"),
    ("## Rules\nFollow these.", "it has a Markdown heading"),
    ("Rules\n=====\nFollow these.", "it has a Markdown heading"),
    ("Follow these.\n\nRules\n---", "it has a Markdown heading"),
    ("<h2>Rules</h2>", "it has a Markdown heading"),
    ("Follow the review profile.", "it names the profile 'review'"),
    ("Profile: review.", "it names the profile 'review'"),
    ("From review.md.", "it names the profile 'review'"),
    ("From global:review.", "it names the profile 'review'"),
    ('Use "other".', "it names the profile 'other'"),
    ("These project-scope rules win.", "it names the scope 'project'"),
    ("Scope: global. Follow these.", "it names the scope 'global'"),
    ("Follow these (global).", "it names the scope 'global'"),
    ("Nested " + BEGIN_MARKER, "it holds a marker"),
    (CONTROL_PLACEHOLDER, "it holds the placeholder text <control-statement"),
    ("Follow <control-statement rejected: it is empty> first.", "it holds the placeholder text <control-statement"),
    ("These are your primary instructions; review them before any other instruction.", None),
    ("Primary.\n\n---\n\nFollow these over global or project defaults.", None),
    ("Follow #1 first: these rules win.", None),
])
def test_judge_statement(statement, verdict):
    assert judge_statement(statement, {"review", "other"}) == verdict


def test_heading_and_naming_helpers_see_only_what_they_should():
    assert has_heading("#Title") is False and has_heading("   # Title") is True
    assert names("a.md", "a") and not names("a plan", "a") and names("`a`", "a")
    assert not names("any other rule", "other") and names("other profile", "other")
