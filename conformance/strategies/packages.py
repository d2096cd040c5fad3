"""Strategies of package trees for ``pi.packages-resolve`` (PI-DECISION-PACKAGES) and, for
``pi.package-changelog`` (edition pi-1.6.0), one such package with its changelog files."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

from conformance.strategies.registry import frames, strategy

EXTENSION = "export default () => {}\n"
CONVENTIONAL = {
    "extensions/alpha.ts": EXTENSION, "extensions/beta.js": EXTENSION, "extensions/gamma/index.ts": EXTENSION,
    "extensions/notes.txt": "not an extension\n", "extensions/.hidden.ts": EXTENSION,
    "skills/review/SKILL.md": "# Review\n", "skills/quick.md": "# Quick\n", "skills/group/deploy/SKILL.md": "# D\n",
    "prompts/review.md": "Review.\n", "prompts/draft.md": "Draft.\n", "prompts/sub/deep.md": "Deep.\n",
    "themes/dark.json": "{}\n", "themes/light.txt": "x\n",
}
"""Files of the conventional resource folders, with near misses (hidden, wrong extension, nested)."""

MANIFEST_ENTRIES = ("extensions/*.ts", "./extensions/alpha.ts", "!extensions/beta.js", "extensions",
                    "**/*.ts", "prompts/*.md", "!prompts/draft.md", "skills", "themes/*.json", "missing.ts")
FILTERS = ("extensions/*.ts", "!extensions/alpha.ts", "+extensions/beta.js", "-extensions/gamma/index.ts",
           "prompts/review.md", "!**/draft.md", "+prompts/draft.md", "-prompts/review.md", "skills/*", "*")
KINDS = ("extensions", "skills", "prompts", "themes")


@st.composite
def package(draw: Any, name: str) -> dict:
    """The files of one package called ``name`` (relative to its root)."""
    files = {path: CONVENTIONAL[path] for path in draw(st.lists(st.sampled_from(sorted(CONVENTIONAL)),
                                                                 min_size=1, max_size=6, unique=True))}
    manifest: dict = {"name": name, "version": "1.0.0"}
    if draw(st.booleans()):
        manifest["pi"] = {kind: draw(st.lists(st.sampled_from(MANIFEST_ENTRIES), max_size=3))
                          for kind in draw(st.lists(st.sampled_from(KINDS), max_size=2, unique=True))}
    files["package.json"] = json.dumps(manifest)
    if draw(st.integers(0, 4)) == 0:  # a nested manifest
        files["extensions/gamma/package.json"] = json.dumps({"name": "gamma", "pi": {"extensions": ["index.ts"]}})
    return files


@st.composite
def entry(draw: Any, source: str) -> Any:
    """A settings ``packages`` entry: the source string, or an object with per-type filters."""
    if draw(st.booleans()):
        return source
    out: dict = {"source": source}
    for kind in draw(st.lists(st.sampled_from(KINDS), max_size=2, unique=True)):
        out[kind] = draw(st.lists(st.sampled_from(FILTERS), max_size=3))
    return out


@strategy("pi.packages-resolve")
def packages_resolve() -> Any:
    """Examples ``(input, tree)`` of ``pi.packages-resolve``: npm packages under
    ``agent/npm/node_modules/`` and a local package under ``project/.pi/``, each declaring its
    resources through the conventional folders or a ``pi`` manifest (paths, globs, ``!``
    exclusions, nested manifests), referenced from the personal and project settings as strings
    or objects with per-type filters (omitted, empty, globs, ``!pattern``, ``+path``, ``-path``)
    and settings-level resource lists."""
    @st.composite
    def build(draw: Any) -> tuple[dict, dict]:
        tree: dict = {"project/.keep": ""}
        personal, project = [], []
        for name in draw(st.lists(st.sampled_from(["pi-tools", "other"]), min_size=1, max_size=2, unique=True)):
            tree.update({f"agent/npm/node_modules/{name}/{k}": v for k, v in draw(package(name)).items()})
            personal.append(draw(entry(f"npm:{name}")))
        if draw(st.booleans()):
            tree.update({f"project/.pi/local/{k}": v for k, v in draw(package("local")).items()})
            project.append(draw(entry("./local")))
        data: dict = {"agentDir": "agent", "cwd": "project", "trusted": draw(st.booleans()),
                      "personalSettings": {"packages": personal}}
        if project:
            data["projectSettings"] = {"packages": project}
        if draw(st.integers(0, 3)) == 0:
            tree["agent/prompts/mine.md"] = "Mine.\n"
            data["personalSettings"]["prompts"] = draw(st.lists(st.sampled_from(
                ["prompts", "prompts/*.md", "!prompts/mine.md", "+prompts/mine.md", "missing"]), min_size=1, max_size=2))
        return data, tree

    return build()


HEADINGS = ("## [1.2.0]", "## 1.1.0 - 2026-01-01", "## [1.10.0]", "## Unreleased", "### 1.1.5", "## v1.3.0", "## [0.9.0]",
            "# 1.4.0", "#### [1.1.7]", "#### Notes", "### Upgrading from 1.1.5", "##1.3.5", "## Release 2.1.0")
CHANGELOG_PATHS = (None, "", "docs/CHANGELOG.md", "./NEWS.md", "../NOTES.md", "docs", False)
LAST_SEEN = (None, "1.0.0", "1.1.0", "v1.2.0-beta.1", "latest", "1.10.0")


@strategy("pi.package-changelog")
def package_changelog() -> Any:
    """Examples ``(input, tree)`` of ``pi.package-changelog`` (edition pi-1.6.0): a package ``pkg/``
    as above with a ``version`` (or none) and a ``pi.changelogPath`` (absent, ``""``, another file,
    a path outside the package, a folder, not a string), changelog files whose headings mix the
    page's forms with near misses, and a last seen version (none, plain, prerelease, unreadable)."""
    @st.composite
    def build(draw: Any) -> tuple[dict, dict]:
        files = draw(package("my-pi-package"))
        manifest = json.loads(files["package.json"])
        version = draw(st.sampled_from(["1.2.0", "1.10.0", "2.0.0", None]))
        if version is None:
            del manifest["version"]
        else:
            manifest["version"] = version
        named = draw(st.sampled_from(CHANGELOG_PATHS))
        if named is not None:
            manifest.setdefault("pi", {})["changelogPath"] = named
        files["package.json"] = json.dumps(manifest)
        tree = {f"pkg/{k}": v for k, v in files.items()}
        for path in draw(st.lists(st.sampled_from(["pkg/CHANGELOG.md", "pkg/docs/CHANGELOG.md", "pkg/NEWS.md", "NOTES.md"]),
                                  min_size=1, max_size=3, unique=True)):
            headings = draw(st.lists(st.sampled_from(HEADINGS), min_size=1, max_size=4))
            tree[path] = "# Changelog\n\n" + "".join(f"{h}\n- a change\n\n" for h in headings)
        data: dict = {"package": "pkg"}
        last_seen = draw(st.sampled_from(LAST_SEEN))
        if last_seen is not None:
            data["lastSeenVersion"] = last_seen
        return data, tree

    return build()


CHARACTERS = "caf\u00e9 \U0001F600 e\u0301"


@frames("pi.packages-resolve")
def packages_resolve_frames() -> list[tuple[dict, dict]]:
    """A package declaring through every conventional form, with host dependencies, filtered by
    every filter form (and ``+``/``!``, ``-``/``+`` on one path, ``./``, an undeclared path),
    declared twice and refined by a project ``autoload: false`` entry; manifests of every form,
    a git package, one not installed, local files, directories and missing paths, settings lists
    of both scopes, untrusted; sources and settings-list entries starting with ``~/`` and with
    ``~`` then a name, the home holding the same paths; and each invalid entry."""
    tools = "agent/npm/node_modules/pi-tools/"
    conventional = {f"{tools}{p}": EXTENSION if p.endswith((".ts", ".js")) else "x\n" for p in (
        "extensions/alpha.ts", "extensions/beta.js", "extensions/gamma/index.ts", "extensions/delta/main.ts",
        "extensions/notes.txt", "extensions/.hidden.ts", "skills/review/SKILL.md", "skills/group/deploy/SKILL.md",
        "skills/quick.md", "prompts/review.md", "prompts/sub/deep.md", "prompts/.secret.md", "themes/dark.json",
        "themes/light.txt", f"prompts/{CHARACTERS}.md")}
    conventional[f"{tools}extensions/delta/package.json"] = json.dumps({"name": "delta", "pi": {"extensions": ["main.ts"]}})
    conventional[f"{tools}package.json"] = json.dumps({"name": "pi-tools", "version": "1.0.0", "dependencies": {"@earendil-works/pi-ai": "1"},
                                                       "peerDependencies": {"typebox": "*"}})
    filtered = {"source": "npm:pi-tools", "skills": [], "prompts": ["./prompts/review.md", "deep.md"], "themes": ["+README.md"],
                "extensions": ["extensions/*.ts", "!extensions/alpha.ts", "+extensions/alpha.ts", "-extensions/beta.js",
                               "+extensions/beta.js"]}
    refined = {"package.json": json.dumps({"name": "refined", "version": "1.0.0"}), "prompts/top.md": "x\n",
               "prompts/sub/deep.md": "x\n"}
    first = ({"agentDir": "agent", "cwd": "project", "trusted": True,
              "personalSettings": {"packages": [filtered, "npm:pi-tools", {"source": "npm:refined", "prompts": ["top.md"]}]},
              "projectSettings": {"packages": [{"source": "npm:refined", "autoload": False, "prompts": ["prompts/sub/*"]}]}},
             {**conventional, **{f"agent/npm/node_modules/refined/{p}": v for p, v in refined.items()}, "project/.keep": ""})
    manifest = "agent/npm/node_modules/manifest/"
    tree = {f"{manifest}package.json": "\ufeff" + json.dumps({"name": "manifest", "version": "1.0.0", "pi": {"extensions": [
                "src/*.ts", "!src/internal.ts", "lib", "missing.ts", "vendor/**/*.ts"]}}),
            **{f"{manifest}{p}": EXTENSION for p in ("src/a.ts", "src/internal.ts", "lib/b.ts", "vendor/node_modules/dep/x.ts")},
            f"{manifest}prompts/ignored.md": "x\n",
            "agent/npm/node_modules/plain/package.json": json.dumps({"name": "plain", "version": "1.0.0", "pi": {"changelogPath": "CHANGELOG.md"}}),
            "agent/npm/node_modules/plain/prompts/p.md": "x\n",
            "agent/git/github.com/team/tools/extensions/index.ts": EXTENSION,
            "agent/git/github.com/team/tools/extensions/helper.ts": EXTENSION,
            "project/.pi/local-ext/main.ts": EXTENSION, "project/.pi/single.ts": EXTENSION,
            "project/.pi/npm/node_modules/solo/package.json": json.dumps({"name": "solo", "version": "1.0.0"}),
            "project/.pi/npm/node_modules/solo/prompts/a.md": "x\n", "project/.pi/npm/node_modules/solo/prompts/b.md": "x\n",
            "project/.pi/prompts/a.md": "x\n", "project/.pi/prompts/b.md": "x\n", "agent/themes/own.json": "{}\n"}
    second = ({"agentDir": "agent", "cwd": "project", "trusted": True, "home": "home",
               "personalSettings": {"packages": ["npm:manifest", "npm:plain", "git:github.com/team/tools", "npm:absent"],
                                    "themes": ["themes/own.json"]},
               "projectSettings": {"packages": [{"source": "./local-ext", "extensions": []}, "./single.ts", "./gone",
                                                {"source": "npm:solo", "autoload": False, "prompts": ["prompts/a.md"]}],
                                   "prompts": ["prompts", "!prompts/b.md"]}}, tree)
    untrusted = ({**second[0], "trusted": False}, tree)
    invalid = [({"agentDir": "agent", "cwd": "project", "trusted": True, "personalSettings": {"packages": [entry]}},
                {"project/.keep": ""}) for entry in (42, {"skills": ["x"]}, {"source": "npm:pi-tools", "autoload": "no"},
                                                     {"source": "npm:pi-tools", "prompts": "x"})]
    # PI-PKG-SOURCE-HOME: with the home holding the same paths, only ~/ resolves from it.
    homed = ({"agentDir": "agent", "cwd": "project", "trusted": True, "home": "home",
              "personalSettings": {"packages": ["~/pkgs/tools", "~pkgs/tools"], "extensions": ["~/exts/solo.ts", "~exts/solo.ts"]},
              "projectSettings": {"packages": ["~ada/pkgs"], "prompts": ["~/p.md", "~p.md"]}},
             {"home/pkgs/tools/prompts/home.md": "x\n", "agent/~/pkgs/tools/prompts/tilde.md": "x\n",
              "agent/~pkgs/tools/prompts/agent.md": "x\n", "home/exts/solo.ts": EXTENSION, "agent/~exts/solo.ts": EXTENSION,
              "home/ada/pkgs/prompts/a.md": "x\n", "project/.pi/~ada/pkgs/prompts/b.md": "x\n",
              "home/p.md": "x\n", "project/.pi/~p.md": "x\n"})
    return [first, second, untrusted, homed, *invalid]


@frames("pi.package-changelog")
def package_changelog_frames() -> list[tuple[dict, dict]]:
    """A package with an extension and a changelog of every heading form, last seen at a
    version that is not one."""
    tree = {"pkg/package.json": json.dumps({"name": "p", "version": "1.10.0"}), "pkg/extensions/a.ts": EXTENSION,
            "pkg/CHANGELOG.md": "# Changelog\n\n## [1.10.0]\n- a\n\n## Unreleased\n- b\n\n### 1.9.5\n- c\n\n## 1.9.0 - 2026-01-01\n- d\n"}
    return [({"package": "pkg", "lastSeenVersion": "latest"}, tree)]
