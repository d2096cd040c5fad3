"""Diffs as shown to a person: invisible characters written out, size capped, the whole kept."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conformance.judge import diffs, golden


def test_invisible_characters_are_written_out():
    shown = diffs.shown(golden.diff({"v": "a\tb\u00a0c\u200b"}, {"v": "a b c"}), "case-x")
    assert "\\t" in shown and "\\u00a0" in shown and "\\u200b" in shown
    assert diffs.LEGEND in shown


def test_trailing_spaces_are_shown():
    assert diffs.visible("+  value: a  \n") == "+  value: a\u00b7\u00b7\n"
    assert diffs.visible("+ x\r\n") == "+ x\\r\n"


def test_a_plain_diff_is_shown_as_it_is():
    full = golden.diff({"v": 1}, {"v": 2})
    assert diffs.shown(full, "case-x") == full


def test_a_kept_diff_lies_in_the_cache_folder_one_per_case(tmp_path, monkeypatch):
    # each run with a large diff made a new temporary folder that nothing removed
    import tempfile

    monkeypatch.setenv("PI_CONFORMANCE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(tempfile, "mkdtemp", lambda **_: pytest.fail("no temporary folder while the cache is on"))
    full = golden.diff({"items": [f"line {i}" for i in range(3000)]}, {"items": [f"other {i}" for i in range(3000)]})
    for _ in range(2):
        shown = diffs.shown(full, "case-huge")
        path = Path(re.search(r"the whole diff is in (\S+)", shown).group(1))
        assert path == tmp_path / "cache" / "diffs" / "case-huge.diff" and path.read_text() == full
    assert [p.name for p in path.parent.iterdir()] == ["case-huge.diff"]


def test_a_huge_diff_is_cut_and_kept_whole_in_a_file():
    expected = {"items": [f"line {i}" for i in range(5000)]}
    actual = {"items": [f"other {i}" for i in range(5000)]}
    full = golden.diff(expected, actual)
    shown = diffs.shown(full, "case-huge")
    assert len(shown) <= diffs.MAX_SHOWN_CHARS + 500
    assert len(shown.splitlines()) <= diffs.MAX_SHOWN_LINES + 1
    path = Path(re.search(r"the whole diff is in (\S+)", shown).group(1))
    assert path.read_text() == full
    assert "more line(s)" in shown
