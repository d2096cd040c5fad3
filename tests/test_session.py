"""conformance.session: one invocation's folders, edition and selection, and what it makes."""

from __future__ import annotations

import argparse
from types import SimpleNamespace

import pytest

from conformance.errors import UsageError
from conformance.judge import golden
from conformance.session import Session


def _case(cid: str, area: str):
    return SimpleNamespace(id=cid, area=area)


def test_a_named_edition_of_another_area_than_the_selected_cases_is_refused():
    session = Session(edition="profiles", edition_given=True)
    with pytest.raises(UsageError, match="--edition profiles is an edition of the profiles area"):
        session.check_edition_fits([_case("env-build-full", "envelope")])
    session.check_edition_fits([_case("prof-x", "profiles")])
    session.check_edition_fits([])


def test_the_edition_check_leaves_a_default_edition_and_a_selection_by_area_alone():
    Session(edition="profiles").check_edition_fits([_case("env-build-full", "envelope")])
    Session(edition="profiles", edition_given=True, areas=["envelope"]).check_edition_fits(
        [_case("env-build-full", "envelope")])
    with pytest.raises(UsageError, match="profiles"):
        Session(edition="profiles", edition_given=True, areas=["envelope"]).check_edition_areas()
    Session(edition="profiles", areas=["envelope"]).check_edition_areas()


def test_the_golden_is_the_editions_own_where_it_has_one(tmp_path):
    for folder in ("pi", "pi@pi-1.6.0"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "c.yaml").write_text("x")
    (tmp_path / "pi" / "d.yaml").write_text("x")
    newer = Session(golden_dir=tmp_path, edition="pi-1.6.0")
    assert newer.golden_path("pi", "c") == tmp_path / "pi@pi-1.6.0" / "c.yaml"
    assert newer.golden_path("pi", "d") == tmp_path / "pi" / "d.yaml"
    assert Session(golden_dir=tmp_path).golden_path("pi", "c") == tmp_path / "pi" / "c.yaml"
    assert newer.judging(None).golden_path("pi", "c") == tmp_path / "pi" / "c.yaml"


def test_from_args_reads_the_folders_the_edition_and_the_selection():
    args = argparse.Namespace(scenarios_dir="s", golden_dir=None, spec_dir="p", edition="pi-1.6.0",
                              edition_given=True, area=["pi"], case=["msg-*"], adapter_env=["A=1"])
    session = Session.from_args(args)
    assert (session.scenarios_dir, session.golden_dir, session.spec_dir) == (
        golden.Path("s"), golden.GOLDEN_DIR, golden.Path("p"))
    assert (session.edition, session.edition_given, session.areas, session.patterns) == (
        "pi-1.6.0", True, ["pi"], ["msg-*"])
    assert (Session.from_args(args, select=False).areas, Session.from_args(args, select=False).patterns) == (None, None)
    assert Session.from_args(argparse.Namespace()) == Session()


def test_the_suite_and_the_catalogue_are_read_once_and_the_selection_applies():
    session = Session(areas=["envelope"], patterns=["env-build-*"])
    assert session.suite() is session.suite() and session.catalogue() is session.catalogue()
    cases = session.cases()
    assert cases and all(c.area == "envelope" and c.id.startswith("env-build-") for c in cases)


def test_a_bad_adapter_environment_is_a_usage_error():
    with pytest.raises(UsageError, match="KEY=VALUE|="):
        Session(adapter_env=["NO-EQUALS-SIGN"]).environment()
    assert Session(adapter_env=["A=1"]).environment() is not None


def test_stale_expectations_are_refused(tmp_path):
    from conformance.corpus.yamlio import SuiteFileError

    path = tmp_path / "exp.yaml"
    path.write_text("expectations:\n  - id: no-such-case-anywhere\n    status: fail\n    reason: r\n")
    with pytest.raises(SuiteFileError, match="no-such-case-anywhere"):
        Session().expectations(path)
    assert Session().expectations(None) is None
