"""Answers have size bounds, and a run keeps a bounded part of each failing one: an answer past
``MAX_ANSWER_BYTES`` is malformed, a report keeps at most ``REPORTED_ANSWER_BYTES`` of a failing
answer (cut, saying so), an answer or golden past ``MAX_DIFF_BYTES`` gets the place where the two
first differ instead of a line diff, and what the dumper keeps of a text (in this process and in
the parse cache) is bounded too. ``benchmarks/answer_memory.py`` measures the memory."""

from __future__ import annotations

import json

import pytest

from conformance.adapters import base
from conformance.cli import main
from conformance.judge import golden, sizes
from tests.kit_fixtures import Echo, mini_suite

MB = 1024 * 1024


class Huge(Echo):
    """Answers kit-echo-text with one string of ``size`` bytes."""

    size = 0

    def run(self, op, input, root):
        if input.get("value") == "one\ntwo\n":
            return {"value": "y" * type(self).size}
        return super().run(op, input, root)


class PastTheBound(Huge):
    size = base.MAX_ANSWER_BYTES + 1


class OneMegabyte(Huge):
    size = MB


class Lines(Huge):
    """Answers kit-echo-text with 200,000 short lines (3 MB): within the answer's bound, past the diff's."""

    def run(self, op, input, root):
        if input.get("value") == "one\ntwo\n":
            return {"value": "".join(f"line {i}\n" for i in range(200_000))}
        return super().run(op, input, root)


def _run(tmp_path, implementation: str, *more: str) -> tuple[int, dict, str]:
    dirs = mini_suite(tmp_path)
    report = tmp_path / "r.json"
    code = main(["run", "--adapter", f"python:{__name__}:{implementation}", "--case", "kit-echo-text",
                 "--report-json", str(report), *more, "--scenarios-dir", str(dirs["scenarios"]),
                 "--spec-dir", str(dirs["spec"]), "--golden-dir", str(dirs["golden"])])
    return code, json.loads(report.read_text(encoding="utf-8"))["cases"][0], report.read_text(encoding="utf-8")


def test_an_answer_past_the_bound_is_malformed_naming_the_bound(tmp_path, capsys):
    code, case, _ = _run(tmp_path, "PastTheBound")
    out = capsys.readouterr().out
    assert code == 1
    assert case["status"] == "errored" and "actual" not in case
    assert case["message"] == "malformed output: more than 67,108,864 bytes as JSON (the answer bound)"
    assert "ERRORED kit-echo-text" in out and "67,108,864" in out


def test_a_report_keeps_a_cut_of_a_large_failing_answer_saying_so(tmp_path, capsys):
    html = tmp_path / "r.html"
    md = tmp_path / "r.md"
    code, case, text = _run(tmp_path, "OneMegabyte", "--report-html", str(html), "--report-md", str(md))
    assert code == 1 and case["status"] == "failed"
    kept = case["actual"]["value"]
    head = kept.partition("[")[0]
    assert set(head) == {"y"} and kept == head + f"[cut by pi-conformance: {MB - len(head):,} more characters]"
    assert base.json_size(case["actual"]) <= sizes.REPORTED_ANSWER_BYTES + 100
    assert len(text) < 2 * sizes.REPORTED_ANSWER_BYTES + 50_000  # the diff is cut too (20,000 characters)
    assert html.stat().st_size < 200_000  # the page cuts the block further, saying so
    assert md.stat().st_size < 50_000 and "(no line diff: the answer is more than" in md.read_text(encoding="utf-8")


def test_an_answer_past_the_diff_bound_says_where_it_first_differs(tmp_path, capsys):
    code, case, _ = _run(tmp_path, "Lines")
    out = capsys.readouterr().out
    assert code == 1 and case["status"] == "failed"
    assert case["diff"].startswith("(no line diff: the answer is more than 131,072 bytes as JSON, past the diff bound)\n")
    assert "first difference at output.value, character 0:" in case["diff"]
    assert '  golden: "one\\ntwo\\n"' in case["diff"] and '  answer: "line 0\\nline 1\\n' in case["diff"]
    assert "first difference at output.value" in out


def test_cut_keeps_small_data_itself_and_marks_what_it_cuts():
    small = {"a": [1, "two"]}
    assert sizes.cut(small) is small
    data = {"a": "x" * 50, "b": list(range(100)), "c": {f"k{i}": i for i in range(100)}}
    kept = sizes.cut(data, 100)
    assert kept["a"] == "x" * 50
    assert kept["b"][-1].startswith("[cut by pi-conformance: ") and kept["b"][-1].endswith(" more items]")
    assert "c" not in kept and kept[sizes.CUT_KEY] == "[cut by pi-conformance: 1 more keys]"
    assert sizes.cut({"c": {f"k{i}": i for i in range(100)}}, 10)["c"][sizes.CUT_KEY].endswith(" more keys]")
    assert sizes.cut("abcdef", 4) == "ab[cut by pi-conformance: 4 more characters]"


@pytest.mark.parametrize("expected, actual, where", [
    ({"a": 1, "b": [1, 2, {"c": "x"}]}, {"a": 1, "b": [1, 2, {"c": "y"}]}, "output.b[2].c, character 0"),
    ({"a": 1}, {"a": True}, "output.a"),
    ([1, 2], [1, 2, 3], "output"),
    ({"a": 1}, {"b": 1}, "output"),
])
def test_first_difference_names_the_first_place_two_data_differ(expected, actual, where):
    assert sizes.first_difference(expected, actual)[0] == where


def test_the_dumper_keeps_no_large_text(tmp_path, monkeypatch):
    from conformance.corpus import yamlcache

    monkeypatch.setenv("PI_CONFORMANCE_CACHE", str(tmp_path / "cache"))
    assert yamlcache.cache_dir() == tmp_path / "cache" / "yaml"
    before = golden._dump_memo.cache_info().misses
    large = {"value": [f"item {i}" for i in range(20_000)]}
    assert golden.dump(large).startswith("value:\n")
    assert golden._dump_memo.cache_info().misses == before
    assert not any((tmp_path / "cache").rglob("*.json"))
    golden.dump({"value": str(tmp_path)})  # small, and new to this process
    assert golden._dump_memo.cache_info().misses == before + 1
    assert any((tmp_path / "cache").rglob("*.json"))
