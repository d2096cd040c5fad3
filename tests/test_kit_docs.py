"""The example scenario files in the authoring guide load without errors, so the guide cannot
drift from the format."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conformance.corpus.cases import load_file
from conformance.corpus.catalogue import load_catalogue

GUIDE = Path(__file__).resolve().parent.parent / "conformance" / "AUTHORING.md"
EXAMPLES = re.findall(r"```yaml\n(# conformance/scenarios/(\w+)/example\.yaml\n.*?)```", GUIDE.read_text(), re.S)


def test_the_guide_has_examples_for_two_areas():
    assert sorted(area for _, area in EXAMPLES) == ["envelope", "profiles"]


@pytest.mark.parametrize("body, area", EXAMPLES, ids=[a for _, a in EXAMPLES])
def test_guide_example_loads(tmp_path, body, area):
    path = tmp_path / area / "example.yaml"
    path.parent.mkdir()
    path.write_text(body)
    cases, errors = load_file(path, known_clauses=set(load_catalogue().clauses))
    assert [str(e) for e in errors] == [] and cases
