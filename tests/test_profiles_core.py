"""Unit tests of the pure profiles core (reference.profiles.core)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.errors import SpecError
from reference.profiles.core import picker
from reference.profiles.core.compose import CONTROL_STATEMENT, compose, control_statement, managed_block, observe, strip_blocks
from reference.profiles.core.config import parse_config, parse_rule
from reference.profiles.core.ids import is_valid_id, profile_file_stem
from reference.profiles.core.inherit import MAX_CHAIN_BYTES, build_profile
from reference.profiles.core.markers import BEGIN_MARKER, END_MARKER
from reference.profiles.core.match import pattern_matches, rule_specificity
from reference.profiles.core.profiles import DirEntry, build_catalogue
from reference.profiles.core.refs import parse_ref
from reference.profiles.core.resolve import SessionSelection, resolve
from reference.profiles.core.settings import effective_setting, parse_setting, unset_setting
from reference.profiles.core.types import MatchRule, Model, ProfileRef, ScopeState, State

CORE = Path(__file__).resolve().parents[1] / "reference" / "profiles" / "core"


# -- purity ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("path", sorted(CORE.glob("*.py")), ids=lambda p: p.name)
def test_core_imports_no_io_clock_or_environment(path: Path) -> None:
    banned = {"os", "pathlib", "time", "datetime", "random", "shutil", "tempfile", "conformance", "io", "subprocess"}
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        for name in names:
            assert name.split(".")[0] not in banned, f"{path.name} imports {name}"
            assert not name.startswith("reference.profiles.host"), f"{path.name} imports the host layer"


def test_reference_never_imports_conformance() -> None:
    for path in (CORE.parent).rglob("*.py"):
        assert "import conformance" not in path.read_text() and "from conformance" not in path.read_text(), path


# -- ids and references ---------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["a", "A9", "a.b", "a_b-c", "9", "a" * 64, "v1.2"])
def test_valid_ids(text: str) -> None:
    assert is_valid_id(text)


@pytest.mark.parametrize("text", ["", "-a", ".a", "_a", "a..b", "a/b", "a\\b", "a b", "a" * 65, "é", None, 5])
def test_invalid_ids(text) -> None:
    assert not is_valid_id(text)


@settings(deadline=None)
@given(st.text(max_size=80))
def test_valid_ids_never_hold_separators_or_traversal(text: str) -> None:
    if is_valid_id(text):
        assert "/" not in text and "\\" not in text and ".." not in text and len(text) <= 64


@pytest.mark.parametrize("name,stem", [("a.md", "a"), ("a.MD", "a"), ("a.mD", "a"), (".md", ""), ("a.txt", None), ("amd", None)])
def test_profile_file_stem(name: str, stem) -> None:
    assert profile_file_stem(name) == stem


def test_refs_resolve_bare_in_writer_scope() -> None:
    assert parse_ref("base", "project") == ProfileRef("project", "base")
    assert parse_ref("global:base", "project") == ProfileRef("global", "base")
    assert parse_ref("team:base", "global") is None
    assert parse_ref("global:", "global") is None
    assert parse_ref(3, "global") is None


# -- discovery ------------------------------------------------------------------------------------
def test_catalogue_bom_size_marker_and_collision() -> None:
    entries = [
        DirEntry("bom.md", "file", b"\xef\xbb\xbfHi"),
        DirEntry("max.md", "file", b"x" * 65536),
        DirEntry("over.md", "file", b"x" * 65537),
        DirEntry("forged.md", "file", END_MARKER.encode()),
        DirEntry("A.md", "file", b"1"),
        DirEntry("a.md", "file", b"2"),
        DirEntry("out.md", "link-outside"),
    ]
    profiles, diags = build_catalogue(entries, "global")
    assert sorted(profiles) == ["bom", "max"]
    assert profiles["bom"].body == "Hi" and profiles["bom"].size == 2
    assert sorted(d.code for d in diags) == ["profile-case", "profile-marker", "profile-symlink", "profile-too-large"]


# -- config ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ['{"version": true}', '{"version": "1"}', '{}', '{"version": 2}'])
def test_config_version_must_be_number_one(text: str) -> None:
    cfg, diags = parse_config(text, "global")
    assert cfg is None and [d.code for d in diags] == ["config-version"]


def test_config_refuses_non_json_constants() -> None:
    cfg, diags = parse_config('{"version": 1, "x": Infinity}', "global")
    assert cfg is None and diags[0].code == "config-parse"


def test_config_infinite_priority_drops_binding() -> None:
    cfg, diags = parse_config('{"version": 1, "bindings": [{"id": "a", "profile": "p", "priority": 1e400, "match": [{}]}]}', "global")
    assert cfg is not None and cfg.bindings == [] and diags[0].code == "config-binding-priority"


@pytest.mark.parametrize("rule", [{"provider": ""}, {"model": None}, {"provder": "x"}, [], "x", {"model": 1}])
def test_rules_are_never_widened(rule) -> None:
    assert parse_rule(rule) is None


def test_absent_fields_are_patterns() -> None:
    assert rule_specificity(MatchRule()) == 0
    assert rule_specificity(MatchRule("openai", "gpt-4o")) == 3
    assert rule_specificity(MatchRule(None, "gpt-4o")) == 2
    assert rule_specificity(MatchRule("openai", "gpt*")) == 1


# -- matching -------------------------------------------------------------------------------------
def _oracle(pattern: str, value: str) -> bool:
    return re.fullmatch(".*".join(re.escape(p) for p in pattern.split("*")), value, re.S) is not None


@pytest.mark.untraced  # the pattern over random text: the scenario and unit tests measure it
@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="ab*/.", max_size=8), st.text(alphabet="ab/.", max_size=10))
def test_pattern_matches_agrees_with_a_regex_oracle(pattern: str, value: str) -> None:
    assert pattern_matches(pattern, value) == _oracle(pattern, value)


def test_star_crosses_slash() -> None:
    assert pattern_matches("deepseek/*", "deepseek/a/b")
    assert not pattern_matches("deepseek", "deepseek/chat")


# -- inheritance ----------------------------------------------------------------------------------
def _state(bodies: dict[str, str], extends: dict[str, str]) -> State:
    entries = [DirEntry(f"{k}.md", "file", v.encode()) for k, v in bodies.items()]
    profiles, _ = build_catalogue(entries, "global")
    import json

    cfg, _ = parse_config(json.dumps({"version": 1, "profiles": {k: {"extends": v} for k, v in extends.items()}}), "global")
    return State(ScopeState("global", profiles, cfg), None)


def test_depth_limit_edges() -> None:
    bodies = {f"l{i}": str(i) for i in range(1, 10)}
    state = _state(bodies, {f"l{i}": f"l{i + 1}" for i in range(1, 9)})
    assert build_profile(state, ProfileRef("global", "l1"))[1].code == "profile-depth"  # type: ignore[union-attr]
    built, _ = build_profile(state, ProfileRef("global", "l2"))
    assert built is not None and len(built.layers) == 8


def test_size_limit_edges() -> None:
    quarter = MAX_CHAIN_BYTES // 4
    bodies = {"a": "a" * quarter, "b": "b" * quarter, "c": "c" * quarter, "d": "d" * (quarter - 1),
              "e": "e", "f": "ff"}
    state = _state(bodies, {"a": "b", "b": "c", "c": "d", "e": "a", "f": "a"})
    assert build_profile(state, ProfileRef("global", "a"))[0] is not None  # 262,143 bytes
    assert build_profile(state, ProfileRef("global", "e"))[0] is not None  # 262,144 bytes
    problem = build_profile(state, ProfileRef("global", "f"))[1]  # 262,145 bytes
    assert problem is not None and problem.code == "profile-total-size" and problem.subject == "global:f"


def test_multibyte_bodies_count_in_utf8_bytes() -> None:
    wide = "\u00e9" * (MAX_CHAIN_BYTES // 8)  # 65,536 bytes in 32,768 characters
    state = _state({"a": wide, "b": wide, "c": wide, "d": wide, "e": "x"}, {"a": "b", "b": "c", "c": "d", "e": "a"})
    assert build_profile(state, ProfileRef("global", "a"))[0] is not None  # 262,144 bytes
    assert build_profile(state, ProfileRef("global", "e"))[1].code == "profile-total-size"  # type: ignore[union-attr]


# -- resolution -----------------------------------------------------------------------------------
def test_conflict_in_project_blocks_global_bindings_but_not_defaults() -> None:
    import json

    gprofiles, _ = build_catalogue([DirEntry("g.md", "file", b"G"), DirEntry("d.md", "file", b"D")], "global")
    pprofiles, _ = build_catalogue([DirEntry("a.md", "file", b"A"), DirEntry("b.md", "file", b"B")], "project")
    gcfg, _ = parse_config(json.dumps({"version": 1, "defaultProfile": "d", "bindings": [{"id": "g", "profile": "g", "match": [{}]}]}), "global")
    pcfg, _ = parse_config(json.dumps({"version": 1, "bindings": [{"id": "a", "profile": "a", "match": [{}]}, {"id": "b", "profile": "b", "match": [{}]}]}), "project")
    state = State(ScopeState("global", gprofiles, gcfg), ScopeState("project", pprofiles, pcfg))
    res = resolve(state, Model("openai", "gpt-4o"))
    assert res.profile is not None and str(res.profile.ref) == "global:d" and res.via == "global-default"
    assert [d.code for d in res.diagnostics] == ["binding-conflict"]
    assert resolve(state, Model("x", "y"), SessionSelection("off")).profile is None


# -- composition ----------------------------------------------------------------------------------
marker_text = st.lists(st.sampled_from(["a", "\n", "\r\n", " ", BEGIN_MARKER, END_MARKER, "\n\n"]), max_size=12).map("".join)


@pytest.mark.untraced  # compose over random text: the scenario and unit tests measure it
@settings(max_examples=300, deadline=None)
@given(marker_text, st.lists(st.text(alphabet="xy \n", max_size=6), min_size=1, max_size=3))
def test_compose_is_idempotent_and_starts_with_one_block(base: str, bodies: list[str]) -> None:
    once = compose(base, bodies).system_prompt
    assert once is not None and once.startswith(managed_block(bodies) + "\n\n")
    assert compose(once, bodies).system_prompt == once


@pytest.mark.untraced  # strip over random text: the scenario and unit tests measure it
@settings(max_examples=300, deadline=None)
@given(marker_text)
def test_strip_leaves_no_complete_block(text: str) -> None:
    out = strip_blocks(text).text
    begin = out.find(BEGIN_MARKER)
    assert begin < 0 or out.find(END_MARKER, begin) < 0


def test_control_statement_is_one_paragraph_without_heading() -> None:
    text = control_statement()
    assert text == CONTROL_STATEMENT and text.strip() and "\n\n" not in text and not text.startswith("#")
    assert BEGIN_MARKER not in text and END_MARKER not in text


def test_off_and_no_profile_return_nothing() -> None:
    assert compose("x", ["p"], off=True).system_prompt is None
    assert compose("x", None).system_prompt is None
    assert compose("x", []).system_prompt is None


def test_observe_never_changes_payload() -> None:
    payload = {"system": "You are Pi.", "list": [1, {"a": "b"}]}
    before = repr(payload)
    assert observe(payload, managed_block(["p"])).block_present is False
    assert repr(payload) == before


# -- settings -------------------------------------------------------------------------------------
@pytest.mark.parametrize("key,value,scope,code", [
    ("nope", "x", "global", "setting-unknown"),
    ("defaultProfile", "a", "global", "setting-not-settable"),
    ("inheritGlobalBindings", "true", "global", "setting-scope"),
    ("inheritGlobalBindings", "1", "project", "setting-value-invalid"),
    ("selection", "manual", "project", "setting-value-invalid"),
    ("subagents", "all", "global", "setting-value-invalid"),
])
def test_parse_setting_refusals(key, value, scope, code) -> None:
    with pytest.raises(SpecError) as exc:
        parse_setting(key, value, scope)
    assert exc.value.code == code


def test_unset_absent_and_effective_origin() -> None:
    with pytest.raises(SpecError) as exc:
        unset_setting({"version": 1}, "subagents")
    assert exc.value.code == "setting-not-set"
    assert effective_setting(None, None, "subagents") == ("bindings", "default")


# -- pickers --------------------------------------------------------------------------------------
@settings(deadline=None)
@given(st.integers(0, 200), st.integers(-5, 205), st.integers(-3, 60))
def test_window_holds_the_selection_and_at_most_ten_rows(total: int, selected: int, height: int) -> None:
    rows = picker.visible_rows(height)
    assert 1 <= rows <= 10
    start, end = picker.visible_window(total, selected, rows)
    assert 0 <= start <= end <= total and end - start == min(total, rows)
    if total:
        assert start <= min(max(selected, 0), total - 1) < end


def test_pages_of_ten() -> None:
    assert [len(p) for p in picker.pages([str(i) for i in range(21)])] == [10, 10, 1]
