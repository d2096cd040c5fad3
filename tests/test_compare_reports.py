"""``compare`` reads reports that may have been edited by hand: names are shown safely in every
table, and a report of a format the kit does not read, with a status it does not know or a
summary count that is not a whole number of 0 or more is refused naming the file and the field."""

from __future__ import annotations

import json

import pytest

from conformance.cli import main
from conformance.judge.runner import STATUSES


def _cases_of(summary):
    """Case records that the summary counts (its counts taken as ints where they are not)."""
    return [{"id": f"{area}-{status}-{n}", "area": area, "status": status}
            for area, row in summary.items() for status, count in row.items()
            for n in range(count if type(count) is int else 1)]


def _summary_of(cases):
    out = {}
    for case in cases:
        row = out.setdefault(case.get("area"), {})
        row[case.get("status")] = row.get(case.get("status"), 0) + 1
    return out


def _report(path, name="impl", summary=None):
    summary = {"envelope": {"passed": 2, "failed": 1}} if summary is None else summary
    path.write_text(json.dumps({"header": {"implementation": {"name": name, "version": "1"}},
                                "summary": summary, "cases": _cases_of(summary)}), encoding="utf-8")
    return str(path)


def test_a_name_cannot_break_the_markdown_table_make_a_tag_or_colour_the_terminal(tmp_path, capsys):
    odd = _report(tmp_path / "odd.json", name="a|b <i>x</i> & \x1b[31mred")
    plain = _report(tmp_path / "plain.json")
    assert main(["compare", "--markdown", odd, plain]) == 0
    head, rule, row = capsys.readouterr().out.splitlines()
    # the name as it reads rendered: escaped by backslashes (the shown \x1b's own, a link's [)
    assert head == "| area | a\\|b &lt;i&gt;x&lt;/i&gt; &amp; \\\\x1b\\[31mred 1 (odd.json) | impl 1 (plain.json) |"
    assert rule.count("|") == row.count("|") == 4  # three columns, however the name is spelt
    assert main(["compare", odd]) == 0
    assert "\x1b" not in capsys.readouterr().out


@pytest.mark.parametrize("count, shown", [(-5, "-5"), (1.5, "1.5"), (True, "true"), ("3", '"3"'), (None, "null")])
def test_a_count_that_is_not_a_whole_number_of_0_or_more_is_refused_naming_file_and_field(count, shown, tmp_path, capsys):
    bad = _report(tmp_path / "edited.json", summary={"envelope": {"passed": count, "failed": 0}})
    assert main(["compare", bad]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert (f"edited.json: not a pi-conformance JSON report: summary.envelope.passed must be a whole number "
            f"of 0 or more, not {shown}") in captured.err


def test_suite_errors_that_are_not_a_list_are_refused(tmp_path, capsys):
    bad = tmp_path / "edited.json"
    bad.write_text(json.dumps({"header": {"implementation": {"name": "i", "version": "1"}, "suiteErrors": 3},
                               "summary": {}, "cases": []}))
    assert main(["compare", str(bad)]) == 2
    assert "edited.json: not a pi-conformance JSON report: header.suiteErrors must be a list" in capsys.readouterr().err


def test_a_report_nested_too_deeply_is_refused_naming_the_file(tmp_path, capsys):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 200_000 + "]" * 200_000)
    assert main(["compare", str(deep)]) == 2
    assert "deep.json: not a readable JSON report: nested too deeply to read" in capsys.readouterr().err


def _headed(path, header=None, summary=None, cases=None):
    head = {"implementation": {"name": "i", "version": "1"}, **(header or {})}
    cases = [{"area": "envelope", **c} if isinstance(c, dict) else c for c in cases or []]
    summary = _summary_of(c for c in cases if c.get("status") in STATUSES) if summary is None else summary
    path.write_text(json.dumps({"header": head, "summary": summary, "cases": cases or _cases_of(summary)}),
                    encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("fmt, shown", [(3, "3"), (0, "0"), ("2", '"2"'), (True, "true"), (None, "null")])
def test_a_report_of_a_format_this_kit_does_not_read_is_refused_naming_file_and_field(fmt, shown, tmp_path, capsys):
    bad = _headed(tmp_path / "future.json", header={"format": fmt})
    assert main(["compare", bad]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert (f"future.json: not a pi-conformance JSON report: header.format must be 1 or 2 (the formats this "
            f"kit reads), not {shown}") in captured.err


@pytest.mark.parametrize("fmt", [1, 2])
def test_the_formats_this_kit_reads_are_read(fmt, tmp_path, capsys):
    assert main(["compare", _headed(tmp_path / "r.json", header={"format": fmt})]) == 0


def test_a_summary_status_the_kit_does_not_know_is_refused_naming_file_and_field(tmp_path, capsys):
    bad = _headed(tmp_path / "edited.json", summary={"envelope": {"passed": 1, "pased": 2}})
    assert main(["compare", bad]) == 2
    assert ('edited.json: not a pi-conformance JSON report: summary.envelope.pased is not a status '
            '(passed, failed, errored, unsupported, xfail, xpass, skipped)') in capsys.readouterr().err


@pytest.mark.parametrize("flags", [[], ["--cases"]])
def test_a_case_status_the_kit_does_not_know_is_refused_naming_file_and_field(flags, tmp_path, capsys):
    good = _headed(tmp_path / "old.json", cases=[{"id": "a", "status": "passed"}])
    bad = _headed(tmp_path / "new.json", cases=[{"id": "a", "status": "passed"}, {"id": "b", "status": "PASSED"}])
    assert main(["compare", *flags, good, bad]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert ('new.json: not a pi-conformance JSON report: cases[1].status is not a status (passed, failed, '
            'errored, unsupported, xfail, xpass, skipped), not "PASSED"') in captured.err


FIFTEEN = [{"id": f"c{n}", "area": "envelope", "status": "passed" if n < 10 else "errored"} for n in range(15)]


@pytest.mark.parametrize("form", [[], ["--markdown"], ["--html"], ["--by-op"], ["--cases"]])
@pytest.mark.parametrize("summary, said", [
    ({"envelope": {"passed": 15}}, "summary.envelope.passed is 15, but 10 of its cases are passed in that area"),
    ({"envelope": {"passed": 10, "errored": 5}, "ghost": {"passed": 3}}, "summary.ghost: no case of the report is of that area"),
    ({}, "summary has no row for area envelope, which 15 of its cases are of"),
])
def test_a_summary_that_disagrees_with_the_cases_is_refused_by_every_form_naming_file_and_field(
        form, summary, said, tmp_path, capsys):
    # the table said 15/15 from the summary while --html said 10 passed, 5 errored from the cases
    good = _headed(tmp_path / "good.json", cases=FIFTEEN)
    bad = _headed(tmp_path / "edited.json", summary=summary, cases=FIFTEEN)
    assert main(["compare", *form, good, bad]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and f"edited.json: not a pi-conformance JSON report: {said}" in captured.err
    assert main(["compare", *form, good, good]) == 0


def test_a_summary_area_the_header_does_not_list_is_refused(tmp_path, capsys):
    bad = _headed(tmp_path / "edited.json", header={"areas": ["pi"]}, cases=FIFTEEN)
    assert main(["compare", bad]) == 2
    assert "edited.json: not a pi-conformance JSON report: summary.envelope: an area header.areas does not list" \
        in capsys.readouterr().err
    assert main(["compare", _headed(tmp_path / "r.json", header={"areas": ["envelope"]}, cases=FIFTEEN)]) == 0


@pytest.mark.parametrize("cases, said", [
    ([{"id": "a", "status": "passed"}, {"id": "a", "status": "passed"}], 'cases[1].id: case "a" appears twice'),
    ([{"id": None, "status": "passed"}], "cases[0].id must be a string, not null"),
    ([{"id": "a", "status": "passed", "area": None}], "cases[0].area must be a string, not null"),
    (["a"], "cases[0] must be an object"),
])
def test_a_case_record_the_table_cannot_count_is_refused_without_cases_too(cases, said, tmp_path, capsys):
    bad = _headed(tmp_path / "edited.json", summary={"envelope": {"passed": 1}}, cases=cases)
    assert main(["compare", bad]) == 2
    assert f"edited.json: not a pi-conformance JSON report: {said}" in capsys.readouterr().err


def test_the_format_is_read_before_anything_else(tmp_path, capsys):
    bad = tmp_path / "future.json"
    bad.write_text(json.dumps({"header": {"format": 99}}), encoding="utf-8")
    assert main(["compare", str(bad)]) == 2
    assert "future.json: not a pi-conformance JSON report: header.format must be 1 or 2" in capsys.readouterr().err
