"""Unit tests of package sources, discovery and filters (reference.pi.core: sources, manifest, filters, scope)."""

from __future__ import annotations

import itertools
import posixpath

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference.errors import SpecError
from reference.pi.core import filters, scope, sources


class MemoryFS:
    """A :class:`reference.pi.core.manifest.FileSystem` over a dict of absolute path -> text."""

    def __init__(self, files: dict[str, str]) -> None:
        self.files = dict(files)
        self.dirs = {posixpath.dirname(p) for p in files}
        for d in list(self.dirs):
            while d not in ("/", ""):
                d = posixpath.dirname(d)
                self.dirs.add(d)

    def is_file(self, path):
        return path in self.files

    def is_dir(self, path):
        return path in self.dirs

    def list_dir(self, path):
        names = {p[len(path) + 1 :].split("/")[0] for p in list(self.files) + list(self.dirs) if p.startswith(path + "/")}
        return sorted(n for n in names if n)

    def read_text(self, path):
        return self.files.get(path)

    def is_symlink(self, path):
        return False


ROOT = "/pkg"
DECLARED = [f"{ROOT}/extensions/{n}" for n in ("a.ts", "b.ts", "legacy.ts", "tool.js")]


# ---------------------------------------------------------------------------------- sources


@pytest.mark.parametrize(
    "written",
    [
        ["git:github.com/ex/tools", "git:github.com/ex/tools@v1", "https://github.com/ex/tools.git", "ssh://git@github.com/ex/tools", "git:git@github.com:ex/tools@main"],
        ["npm:tools", "npm:tools@1.0.0", "npm:tools@^2"],
    ],
)
def test_equivalent_declarations_share_an_identity(written):
    identities = {sources.parse_source(s, "/agent").identity for s in written}
    assert len(identities) == 1


def test_local_identity_is_the_resolved_path():
    assert sources.parse_source("./t", "/agent").identity == sources.parse_source("/agent/x/../t/", "/else").identity == "local:/agent/t"


@pytest.mark.parametrize("version, pinned", [("1.0.0", True), ("v1.0.0", True), ("1.0.0-rc.1+b5", True), ("^1.0.0", False), ("1.x", False), ("latest", False), ("01.0.0", False), (None, False)])
def test_only_exact_versions_pin(version, pinned):
    assert sources.is_exact_version(version) is pinned


@pytest.mark.parametrize("source", ["git:nohost/x", "git:github.com/one", "git:github.com/a/../b", "ftp://h/a/b", "", "npm:", "npm:@scope"])
def test_malformed_sources_are_refused(source):
    with pytest.raises(SpecError) as exc:
        sources.parse_source(source, "/agent")
    assert exc.value.code == "package-source-invalid"


# ---------------------------------------------------------------------------------- filters


def test_filter_forms():
    assert filters.apply_filter(DECLARED, None, ROOT) == DECLARED
    assert filters.apply_filter(DECLARED, [], ROOT) == []
    assert filters.apply_filter(DECLARED, ["extensions/*.ts", "!legacy.ts"], ROOT) == DECLARED[:2]
    assert filters.apply_filter(DECLARED, ["!extensions/*", "+extensions/tool.js"], ROOT) == [DECLARED[3]]
    assert filters.apply_filter(DECLARED, ["+extensions/a.ts", "-extensions/a.ts"], ROOT) == DECLARED[1:]


PATTERNS = ["extensions/*.ts", "!extensions/a*", "+extensions/a.ts", "-extensions/b.ts", "!*.js", "+extensions/tool.js", "-extensions/legacy.ts"]


@given(st.lists(st.sampled_from(PATTERNS), min_size=1, max_size=5, unique=True), st.randoms())
def test_filter_result_does_not_depend_on_written_order(patterns, rnd):
    shuffled = list(patterns)
    rnd.shuffle(shuffled)
    assert filters.apply_filter(DECLARED, patterns, ROOT) == filters.apply_filter(DECLARED, shuffled, ROOT)


@given(st.lists(st.sampled_from(PATTERNS + ["+src/secret.ts", "src/*.ts", "**", "+/etc/passwd"]), max_size=6))
def test_filters_never_expose_undeclared_paths(patterns):
    assert set(filters.apply_filter(DECLARED, patterns, ROOT)) <= set(DECLARED)
    enabled, touched = filters.apply_delta(DECLARED, set(), patterns, ROOT)
    assert enabled <= set(DECLARED) and touched <= set(DECLARED)


def test_delta_changes_only_what_it_names():
    base = set(DECLARED[:2])
    enabled, touched = filters.apply_delta(DECLARED, base, ["+extensions/tool.js", "!extensions/a.ts"], ROOT)
    assert enabled == {DECLARED[1], DECLARED[3]}
    assert touched == {DECLARED[0], DECLARED[3]}
    assert filters.apply_delta(DECLARED, base, [], ROOT) == (base, set())


# ---------------------------------------------------------------------------------- resolution


def layout_fs() -> MemoryFS:
    files = {
        "/a/npm/node_modules/t/extensions/x.ts": "",
        "/a/npm/node_modules/t/extensions/y.ts": "",
        "/a/npm/node_modules/t/package.json": '{"dependencies": {"@earendil-works/pi-ai": "1", "typebox": "1", "zod": "3"}}',
        "/p/.pi/npm/node_modules/t/extensions/x.ts": "",
    }
    return MemoryFS(files)


def resources(result, kind="extensions"):
    return [r["path"] for r in result.to_json()["resources"][kind]]


def test_resolution_runs_on_any_file_system():
    result = scope.resolve_packages(layout_fs(), scope.Layout("/a", "/p"), ["npm:t"], [], trusted=True)
    assert resources(result) == ["/a/npm/node_modules/t/extensions/x.ts", "/a/npm/node_modules/t/extensions/y.ts"]
    (warning,) = result.warnings
    assert warning["dependencies"] == ["@earendil-works/pi-ai", "typebox"]


def test_project_replaces_and_trust_gates_it():
    trusted = scope.resolve_packages(layout_fs(), scope.Layout("/a", "/p"), ["npm:t"], ["npm:t"], trusted=True)
    assert resources(trusted) == ["/p/.pi/npm/node_modules/t/extensions/x.ts"]
    untrusted = scope.resolve_packages(layout_fs(), scope.Layout("/a", "/p"), ["npm:t"], ["npm:t"], trusted=False)
    assert len(resources(untrusted)) == 2
    assert untrusted.diagnostics == []
    assert [p["scope"] for p in untrusted.to_json()["packages"]] == ["user"]


def test_autoload_false_delta_over_personal():
    result = scope.resolve_packages(
        layout_fs(), scope.Layout("/a", "/p"), [{"source": "npm:t", "extensions": ["!y.ts"]}], [{"source": "npm:t", "autoload": False, "extensions": ["+extensions/y.ts", "-extensions/x.ts"]}], trusted=True
    )
    assert resources(result) == ["/a/npm/node_modules/t/extensions/y.ts"]


@pytest.mark.parametrize(
    "entry, field",
    [({"source": 1}, "packages[0].source"), ({"source": "npm:t", "prompts": ["a", 2]}, "packages[0].prompts"), ({"source": "npm:t", "autoload": "no"}, "packages[0].autoload"), (7, "packages[0]")],
)
def test_bad_entries_name_the_field(entry, field):
    with pytest.raises(SpecError) as exc:
        scope.resolve_packages(layout_fs(), scope.Layout("/a", "/p"), [entry], [], trusted=True)
    assert exc.value.code == "package-entry-invalid"
    assert exc.value.path == field


# --- path inputs: absolute for sources, inside the tree for resolution ------------------------------


@pytest.mark.parametrize("field, value", [("agentDir", ""), ("cwd", ""), ("home", ""), ("cwd", "project"),
                                          ("agentDir", "./agent")])
def test_a_package_source_path_that_is_not_absolute_is_refused_by_the_model(field, value):
    from pydantic import ValidationError

    from conformance.operations.pi_packages import PackageSourceInput

    with pytest.raises(ValidationError, match=field):
        PackageSourceInput.model_validate({"source": "./x", field: value})


@pytest.mark.parametrize("fields, code", [({"agentDir": "../up"}, "input-path-outside-tree"),
                                          ({"cwd": "/etc"}, "input-path-outside-tree"),
                                          ({"home": "a/../../b"}, "input-path-outside-tree"),
                                          ({}, "tree-missing")])
def test_package_resolution_reads_only_the_case_tree(tmp_path, fields, code):
    from conformance.adapters.connect import make_adapter

    adapter = make_adapter("reference")
    adapter.start()
    root = None if code == "tree-missing" else str(tmp_path)
    answer = adapter.run("pi.packages-resolve", {"agentDir": "", "cwd": "", "trusted": True, **fields},
                         root=root, timeout=10)
    assert (answer.kind, answer.code) == ("error", code)
