"""Whole numbers are JSON integers in every pi answer and golden (``128000``, never ``128000.0``).

JSON has one number type and Pi (JavaScript) writes a whole number without a fraction, so an answer
holding ``128000.0`` is wrong in kind even where a value comparison would pass. Two checks, over
every pi case run against the reference (raw answers, before the kit's canonical form) and every
pi golden: where the operation's output schema says ``integer`` no float appears at all, and no
whole float appears anywhere.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator

import pytest

from conformance.judge import golden
from conformance.adapters.inprocess import InProcessAdapter
from conformance.adapters.reference import ReferenceImplementation
from conformance.corpus.cases import load_suite
from conformance.judge.runner import Runner
from tests.kit_fixtures import untraced

SCHEMAS = Path(__file__).resolve().parents[1] / "conformance" / "schema" / "operations"
CASES = [c for c in load_suite(areas=["pi"]).cases if c.error_code is None]


def _resolve(schema: dict, root: dict) -> dict:
    while "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        schema = root["$defs"][name]
    return schema


def integer_places(value: Any, schema: dict, root: dict, at: str = "$") -> Iterator[str]:
    """Paths where ``schema`` says ``integer`` and ``value`` is a float."""
    schema = _resolve(schema, root)
    for key in ("anyOf", "oneOf", "allOf"):
        for option in schema.get(key, []):
            yield from integer_places(value, option, root, at)
    kinds = schema.get("type")
    kinds = kinds if isinstance(kinds, list) else [kinds]
    if "integer" in kinds and "number" not in kinds and isinstance(value, float):
        yield at
    if isinstance(value, dict):
        props = schema.get("properties", {})
        extra = schema.get("additionalProperties")
        for k, v in value.items():
            sub = props.get(k, extra if isinstance(extra, dict) else None)
            if sub is not None:
                yield from integer_places(v, sub, root, f"{at}.{k}")
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        for i, v in enumerate(value):
            yield from integer_places(v, schema["items"], root, f"{at}[{i}]")


def whole_floats(value: Any, at: str = "$") -> Iterator[str]:
    """Paths of floats that are whole numbers."""
    if isinstance(value, float) and value.is_integer():
        yield at
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from whole_floats(v, f"{at}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from whole_floats(v, f"{at}[{i}]")


@lru_cache(maxsize=None)
def output_schema(op: str) -> dict:
    """The output schema of ``op`` (read once: every case of the operation is checked against it)."""
    return json.loads((SCHEMAS / f"{op}.output.json").read_text())


def problems(op: str, output: Any) -> list[str]:
    schema = output_schema(op)
    found = [f"{p}: a float where the schema says integer" for p in integer_places(output, schema, schema)]
    return found + [f"{p}: a whole number written with a fraction" for p in whole_floats(output)]


def test_the_checks_catch_a_whole_float() -> None:
    assert problems("pi.models-load", {"providers": [{"models": [{"contextWindow": 128000.0}]}], "issues": []})
    assert problems("pi.models-load", {"providers": [{"models": [{"imageResize": {"maxWidth": 2000.5}}]}], "issues": []})
    assert not problems("pi.models-load", {"providers": [{"models": [{"contextWindow": 128000}]}], "issues": []})


@pytest.fixture(scope="module")
def answers() -> dict[str, Any]:
    """Every case's raw answer from the reference, asked under the first edition the case holds for
    (``pi-0.99.4`` when it names none), by case id.

    Asked at once, with code coverage's tracer paused (:func:`tests.kit_fixtures.untraced`): the
    scenario tests run every case through the reference in process and measure it
    (``benchmarks/coverage_figures.py --compare`` shows nothing lost), and the tracer made these
    runs twice as slow. ``tests/conftest.py`` keeps the module on one worker, which asks once."""
    adapter = InProcessAdapter(ReferenceImplementation())
    with untraced():
        adapter.start()
        try:
            runners = {edition: Runner(adapter, edition=edition) for edition in ("pi-0.99.4", "pi-1.6.0")}
            return {case.id: runners[(case.editions or ("pi-0.99.4",))[0]]._ask(case)[0] for case in CASES}
        finally:
            adapter.stop()


@pytest.fixture(scope="module")
def goldens() -> dict[str, Any]:
    """Every case's golden as read by the kit (``None`` where it has none), by case id: read at once
    with the tracer paused, as :func:`answers` are asked (the scenario tests read every golden and
    measure the reading)."""
    with untraced():
        return {case.id: golden.read(golden.golden_path(golden.GOLDEN_DIR, case.area, case.id)) for case in CASES}


def test_reference_answers_write_whole_numbers_as_integers(answers: dict[str, Any]) -> None:
    """One test over every case (the failure lists each case and place): a test per case cost
    more in pytest's own bookkeeping than the check itself."""
    results = [(case, answers[case.id]) for case in CASES if answers[case.id].kind == "result"]
    assert len(results) > 300  # the check ran over the pi area's answers, not over nothing
    found = {case.id: problems(case.op, answer.output) for case, answer in results}
    assert {case_id: places for case_id, places in found.items() if places} == {}


def test_goldens_write_whole_numbers_as_integers(goldens: dict[str, Any]) -> None:
    """As :func:`test_reference_answers_write_whole_numbers_as_integers`, for every pi golden."""
    read = [(case, goldens[case.id]) for case in CASES if goldens[case.id] is not None]
    assert len(read) > 300
    found = {case.id: problems(case.op, data.get("output")) for case, data in read}
    assert {case_id: places for case_id, places in found.items() if places} == {}
