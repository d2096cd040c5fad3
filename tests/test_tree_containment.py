"""A case's tree never reaches outside itself: a link in a tree may point only inside it (else the
scenario is a suite error at its file and line), no entry lies under a link, and a tree is made
without following any link, so that nothing outside it is ever written, read or removed."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from conformance.corpus.cases import load_suite
from conformance.corpus.trees import TreeEntry, links_problem, materialise, parse_tree
from tests.kit_fixtures import write

SPEC_DIR = Path(__file__).resolve().parents[1] / "conformance" / "spec"

SCENARIO = """\
format: 1
area: profiles
title: Hostile trees
op: profiles.load
cases:
  - id: prof-hostile-tree
    title: a tree as a hostile scenario writes it
    clauses: [PROF-LOAD-LINKS]
    requires: [symlinks]
    tree:
{tree}
    input: {{agentDir: a, cwd: p}}
"""


def _errors(tmp_path: Path, tree_yaml: str) -> list[str]:
    scenarios = tmp_path / "scenarios"
    write(scenarios / "profiles" / "hostile.yaml", SCENARIO.format(tree=tree_yaml))
    suite = load_suite(scenarios, spec_dir=SPEC_DIR)
    return [f"{e.file}:{e.line}: {e.message}" for e in suite.errors]


HOSTILE = {
    "a link up and out": ('      a/system-prompts: {symlink: "../../outside"}\n', "'a/system-prompts'", "outside the tree"),
    "an absolute link": ('      a/system-prompts: {symlink: /etc}\n', "'a/system-prompts'", "outside the tree"),
    "a link out through a link to the root": (
        '      a/up: {symlink: ..}\n      b: {symlink: a/up/..}\n', "'b'", "outside the tree"),
    "a link out through a chain": (
        '      x/hop: {symlink: ../y/hop2}\n      y/hop2: {symlink: ../../z}\n', "'x/hop'", "outside the tree"),
    "a file under a link": ('      a: {symlink: d}\n      a/system-prompts/config.json: "{}"\n      d/keep: x\n',
                            "'a/system-prompts/config.json'", "lies under the symbolic link 'a'"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_tree_reaching_outside_itself_is_a_suite_error_at_its_file_and_line(tmp_path, name):
    tree_yaml, entry, words = HOSTILE[name]
    errors = _errors(tmp_path, tree_yaml)
    assert len(errors) == 1, errors
    assert errors[0].startswith(os.path.join("profiles", "hostile.yaml") + ":") or "hostile.yaml:" in errors[0]
    assert ":0:" not in errors[0] and entry in errors[0] and words in errors[0], errors[0]


@pytest.mark.parametrize("tree_yaml", [
    '      a/system-prompts/profiles: {symlink: ../../shared}\n      shared/x.md: x\n',
    '      gone: {symlink: missing.md}\n',
    '      a/up: {symlink: ..}\n      a/loop: {symlink: loop}\n',
    '      d/l: {symlink: ../d/./e/..}\n      d/e/f: x\n',
])
def test_a_link_that_stays_inside_its_tree_is_kept(tmp_path, tree_yaml):
    assert _errors(tmp_path, tree_yaml) == []


def _outside(tmp_path: Path) -> Path:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "config.json").write_text("the user's own")
    return outside


def _untouched(outside: Path) -> None:
    assert sorted(p.name for p in outside.iterdir()) == ["config.json"]
    assert (outside / "config.json").read_text() == "the user's own"


def test_a_tree_from_elsewhere_that_reaches_outside_is_not_made(tmp_path):
    # a tree that never passed the scenario check (a cached case, a generated example)
    outside = _outside(tmp_path)
    root = tmp_path / "root"
    root.mkdir()
    tree = {"agent": TreeEntry(symlink=str(outside)), "agent/config.json": TreeEntry(text="{}")}
    assert links_problem(tree) is not None
    with pytest.raises(OSError, match="outside the tree|lies under"):
        materialise(tree, root)
    _untouched(outside)


def test_a_link_already_in_the_root_is_never_written_through(tmp_path):
    # what an implementation or another process could leave where a tree is made
    outside = _outside(tmp_path)
    root = tmp_path / "root"
    root.mkdir()
    (root / "agent").symlink_to(outside, target_is_directory=True)
    for tree in ({"agent/config.json": "{}"}, {"agent/new/file.md": "x"}, {"agent": {"dir": True}}):
        with pytest.raises(OSError):
            materialise(parse_tree(tree), root)
        _untouched(outside)


def test_a_tree_is_made_as_described(tmp_path):
    root = tmp_path / "root"
    root.mkdir()
    materialise(parse_tree({"a/b/c.md": "x", "a/l": {"symlink": "b"}, "e": {"dir": True}, "f": {"base64": "eQ=="},
                            "g": {"fill": "z", "size": 3, "prefix": "p"}}), root)
    assert (root / "a/b/c.md").read_text() == "x" and os.readlink(root / "a/l") == "b"
    assert (root / "e").is_dir() and (root / "f").read_bytes() == b"y" and (root / "g").read_text() == "pzz"


UNMAKEABLE = {
    "a NUL in a name": ('      "p/nul\\0.md": x\n', "'p/nul\\x00.md'", "NUL character"),
    "a file and a folder at one path": ('      p/a: x\n      p/a/b.md: y\n', "'p/a/b.md'", "lies under 'p/a'"),
    "a name longer than the file systems take": (f'      p/{"n" * 300}.md: x\n', "'p/nnn", "at most 255 bytes"),
}


@pytest.mark.parametrize("name", sorted(UNMAKEABLE))
def test_a_tree_no_file_system_can_make_is_a_suite_error_at_its_file_and_line(tmp_path, name):
    # found by a newcomer: a NUL in a key crashed run with "embedded null byte" from materialise
    tree_yaml, entry, words = UNMAKEABLE[name]
    errors = _errors(tmp_path, tree_yaml)
    assert len(errors) == 1, errors
    assert "hostile.yaml:" in errors[0] and ":0:" not in errors[0], errors[0]
    assert entry in errors[0] and words in errors[0], errors[0]


def test_a_tree_from_elsewhere_with_a_nul_in_a_name_is_not_made(tmp_path):
    with pytest.raises(OSError, match="NUL character"):
        materialise({"nul\0.md": TreeEntry(text="x")}, tmp_path)
