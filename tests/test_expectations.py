"""conformance.judge.expectations: the one shape an expectations file has, and the messages that
say so (a file that is no mapping, an entry that is none)."""

from __future__ import annotations

import pytest

from conformance.judge.expectations import load_expectations
from tests.kit_fixtures import write


@pytest.mark.parametrize("text, found", [
    ("hello\n", "not a mapping"), ("42\n", "not a mapping"), ("'expectations: []'\n", "not a mapping"),
    ("- env-instr-nothing\n", "a list"),  # ids alone: it was one pydantic message per item
    ("- {id: kit-echo-text, status: fail, reason: r}\n", "a list"),  # entries, not under expectations:
])
def test_an_expectations_file_that_is_not_a_mapping_says_what_one_is(tmp_path, text, found):
    from conformance.corpus.yamlio import SuiteFileError

    write(tmp_path / "exp.yaml", text)
    with pytest.raises(SuiteFileError) as caught:  # it was pydantic's "instance of ExpectationsFile"
        load_expectations(tmp_path / "exp.yaml")
    assert str(caught.value) == (f"{tmp_path / 'exp.yaml'}:1:1: the top level is {found}; an expectations file "
                                 "is a mapping with `expectations:` (the list of entries, each with `id`, "
                                 "`status` and `reason`) and optionally `implementation:`")


def test_an_entry_that_is_not_a_mapping_says_so_in_the_files_words(tmp_path):
    from conformance.corpus.yamlio import SuiteFileError

    write(tmp_path / "exp.yaml", "expectations:\n  - env-instr-nothing\n")
    with pytest.raises(SuiteFileError) as caught:
        load_expectations(tmp_path / "exp.yaml")
    assert str(caught.value) == f"{tmp_path / 'exp.yaml'}:2:5: expectations[0]: must be a mapping"
