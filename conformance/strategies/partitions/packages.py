"""The input classes of the package operations (PI-DECISION-PACKAGES): ``pi.package-source``, the
source forms of PI-PKG-SOURCE-*, and ``pi.packages-resolve``, entries, filters, discovery and
settings lists."""

from __future__ import annotations

import re
from typing import Any, Callable

from conformance.strategies.partitions.cells import Cell, Hit, absent, character_cells, entries, entry_text, field_hit

GIT_SCHEMES = ("https", "http", "ssh", "git")
"""The URL schemes PI-PKG-SOURCE-URL reads as git."""


def _source(input: dict) -> str:
    source = input.get("source")
    return source if isinstance(source, str) else ""


def _written(pattern: str) -> Hit:
    """The class of sources that, white space around them left out (PI-PKG-SOURCE-TRIM), match
    ``pattern``."""
    found = re.compile(pattern)
    return lambda input, tree: bool(found.search(_source(input).strip()))


def _npm_version(test: Callable[[str], bool]) -> Hit:
    """The class of npm sources with a version (after the name's last ``@``) that passes ``test``."""
    def hit(input: dict, tree: "dict | None") -> bool:
        m = re.fullmatch(r"npm:(@[^/@\s]+/)?[^/@\s]+@(.+)", _source(input).strip())
        return bool(m) and test(m.group(2))

    return hit


def _homed(test: Hit) -> Hit:
    """The inputs of class ``test`` that give the home directory (PI-PKG-SOURCE-HOME applies only then)."""
    return lambda input, tree: isinstance(input.get("home"), str) and test(input, tree)


_NUMBER = r"(0|[1-9]\d*)"
_PRE_ID = r"(0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*)"
_EXACT = (r"v?" + _NUMBER + r"\." + _NUMBER + r"\." + _NUMBER + r"(-" + _PRE_ID + r"(\." + _PRE_ID + r")*)?"
          r"(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?")
"""An exact version as PI-PKG-SOURCE-NPM defines it: a valid semantic version, optionally after ``v``."""
_THREE_NUMBERS = r"v?\d+\.\d+\.\d+([-+].*)?"
"""Written like a version of three numbers, valid semantic version or not (``01.2.3``, ``1.2.3-01``)."""
_GIT = r"^(git:|(?i:https?|ssh|git)://)"
"""A source written as git: the ``git:`` prefix or a git URL scheme."""
_LOCAL = r"^(?!npm:|git:|[A-Za-z][A-Za-z0-9+.-]*://)"

HOME_FORMS = (("~ then a name (~name, ~user/)", r"^~[^/\\\s]"), ("~ inside a path", _LOCAL + r"[^~\s].*~"),
              ("~ then a backslash", r"^~\\"))
"""The local sources holding ``~`` that are neither ``~`` alone nor ``~/`` and a path, which
PI-PKG-SOURCE-HOME leaves relative to the settings file's directory: a name after ``~``
(``~pkgs``, ``~user/x``), ``~`` further in, ``~`` then a backslash."""

PACKAGE_SOURCE = [
    Cell("npm", "a plain name", ("PI-PKG-SOURCE-NPM",), _written(r"^npm:[^@/\s]+(@|$)")),
    Cell("npm", "a scoped name", ("PI-PKG-SOURCE-NPM",), _written(r"^npm:@[^/@\s]+/[^/@\s]+")),
    Cell("npm", "an exact version", ("PI-PKG-SOURCE-NPM",), _npm_version(lambda v: bool(re.fullmatch(_EXACT, v)))),
    Cell("npm", "an exact version after v", ("PI-PKG-SOURCE-NPM",),
         _npm_version(lambda v: v.startswith("v") and bool(re.fullmatch(_EXACT, v)))),
    Cell("npm", "an exact version with prerelease or build metadata", ("PI-PKG-SOURCE-NPM",),
         _npm_version(lambda v: bool(re.fullmatch(_EXACT, v)) and bool(re.search(r"[-+]", v)))),
    Cell("npm", "three numbers that are no semantic version (a leading zero)", ("PI-PKG-SOURCE-NPM",),
         _npm_version(lambda v: bool(re.fullmatch(_THREE_NUMBERS, v)) and not re.fullmatch(_EXACT, v))),
    Cell("npm", "= before an exact version", ("PI-PKG-SOURCE-NPM",),
         _npm_version(lambda v: v.startswith("=") and bool(re.fullmatch(_EXACT, v[1:])))),
    Cell("npm", "a range", ("PI-PKG-SOURCE-NPM",),
         _npm_version(lambda v: not re.fullmatch(_THREE_NUMBERS, v) and bool(re.match(r"[\^~<>=*]|\d", v)))),
    Cell("npm", "a tag", ("PI-PKG-SOURCE-NPM",), _npm_version(lambda v: bool(re.match(r"[A-Za-z]", v)) and not re.fullmatch(_EXACT, v))),
    Cell("npm", "no version", ("PI-PKG-SOURCE-NPM",), _written(r"^npm:(@[^/@\s]+/)?[^/@\s]+$")),
    Cell("npm", "a malformed name", ("PI-PKG-SOURCE-INVALID",),
         _written(r"^npm:($|@[^/]*$|@?[^@]*\s|[^@]*/[^@]*/|@$)")),
    Cell("git", "git:HOST/OWNER/REPO", ("PI-PKG-SOURCE-GIT",), _written(r"^git:[^/:@\s]+\.[^/:@\s]+/[^/\s]+/[^/\s]")),
    Cell("git", "the host localhost", ("PI-PKG-SOURCE-GIT",), _written(r"^git:localhost/")),
    Cell("git", "git:git@HOST:OWNER/REPO", ("PI-PKG-SOURCE-GIT",), _written(r"^git:git@[^:/\s]+:[^/\s]+/")),
    Cell("git", "git: followed by a URL", ("PI-PKG-SOURCE-GIT",), _written(r"^git:[A-Za-z]+://")),
    Cell("git", "a ref", ("PI-PKG-SOURCE-GIT",), _written(_GIT + r".*[^/@:]/[^/@]+/*@[^/@]+$")),
    Cell("git", "a trailing .git", ("PI-PKG-SOURCE-GIT",), _written(_GIT + r".*\.git/*(@[^/@]*)?$")),
    Cell("git", "a host without a dot", ("PI-PKG-SOURCE-INVALID",), _written(r"^git:(?!localhost/)[^./:@\s]+/")),
    Cell("git", "no repository path", ("PI-PKG-SOURCE-INVALID",), _written(r"^git:(?!git@|[A-Za-z]+://)([^/]*|[^/]+/[^/]*)$|^(?i:https?|ssh|git)://[^/]*/?$")),
    Cell("git", "a trailing slash", ("PI-PKG-SOURCE-TRAILING-SLASH",), _written(_GIT + r".*[^/:]/+(@[^/@]*)?$")),
    Cell("git", "# in the repository path", ("PI-PKG-SOURCE-GIT-HASH",), _written(_GIT + r"[^@]*#")),
    *[Cell("url", f"{scheme}://", ("PI-PKG-SOURCE-URL",), _written(f"^{scheme}://"))
      for scheme in GIT_SCHEMES],
    Cell("url", "a user", ("PI-PKG-SOURCE-URL",), _written(r"^(?i:https?|ssh|git)://[^/@]+@")),
    Cell("url", "a port", ("PI-PKG-SOURCE-URL",), _written(r"^(?i:https?|ssh|git)://[^/]*:\d+(/|$)")),
    Cell("url", "another scheme", ("PI-PKG-SOURCE-INVALID",),
         _written(r"^(?!(?i:https?|ssh|git)://)[A-Za-z][A-Za-z0-9+.-]*://")),
    Cell("local", "./ or ../", ("PI-PKG-SOURCE-LOCAL",), _written(r"^\.\.?(/|$)")),
    Cell("local", "~ alone", ("PI-PKG-SOURCE-LOCAL",), _written(r"^~$")),
    Cell("local", "~/ and a path", ("PI-PKG-SOURCE-LOCAL",), _written(r"^~/")),
    Cell("local", "an absolute path", ("PI-PKG-SOURCE-LOCAL",), _written(r"^/")),
    Cell("local", "a bare relative name", ("PI-PKG-SOURCE-LOCAL",), _written(_LOCAL + r"[^./~\s][^:]*$")),
    Cell("local", "HOST/OWNER/REPO without git:", ("PI-PKG-SOURCE-LOCAL",), _written(r"^[a-z0-9-]+\.[a-z]+/[^/\s]+/[^/\s]+$")),
    Cell("local", "git@HOST:OWNER/REPO without git:", ("PI-PKG-SOURCE-LOCAL",), _written(r"^git@[^:\s]+:")),
    Cell("local", "a Windows drive path", ("PI-PKG-SOURCE-LOCAL",), _written(r"^[A-Za-z]:\\")),
    Cell("emptiness", "empty", ("PI-PKG-SOURCE-INVALID",), lambda input, tree: _source(input) == ""),
    Cell("emptiness", "white space only", ("PI-PKG-SOURCE-TRIM",),
         lambda input, tree: _source(input) != "" and not _source(input).strip()),
    Cell("emptiness", "white space around", ("PI-PKG-SOURCE-TRIM",),
         lambda input, tree: _source(input).strip() != "" and _source(input) != _source(input).strip()),
    Cell("scope", "user", ("PI-PKG-SOURCE-LOCAL",), lambda input, tree: input.get("scope", "user") == "user"),
    Cell("scope", "project", ("PI-PKG-SOURCE-LOCAL",), field_hit("scope", lambda v: v == "project")),
    Cell("home", "given", ("PI-PKG-SOURCE-LOCAL",), field_hit("home", lambda v: isinstance(v, str))),
    Cell("home", "absent", ("PI-PKG-SOURCE-LOCAL",), absent("home")),
    *[Cell("home", f"given, {form}", ("PI-PKG-SOURCE-HOME",), _homed(_written(pattern))) for form, pattern in HOME_FORMS],
    Cell("home", "given, white space around ~/", ("PI-PKG-SOURCE-HOME", "PI-PKG-SOURCE-TRIM"),
         _homed(lambda input, tree: _source(input) != _source(input).strip() and _source(input).strip().startswith("~/"))),
    *character_cells(("PI-PKG-SOURCE-LOCAL", "PI-PKG-SOURCE-NPM"),
                     lambda input, tree: [_source(input)] if _source(input).strip() else []),
]
"""The classes of ``pi.package-source``: every source form of PI-PKG-SOURCE-NPM, -GIT, -URL and
-LOCAL with its parts (scoped names, exact versions, ranges and tags; hosts with and without a
dot, ``localhost``, users, ports, refs, a trailing ``.git`` and trailing slashes, ``#``), every
refused form of PI-PKG-SOURCE-INVALID, white space around and only (PI-PKG-SOURCE-TRIM), both
scopes, a home given or not, with it every form holding ``~`` that PI-PKG-SOURCE-HOME leaves
relative, and the characters of a path."""


PARTITIONS: dict[str, list[Cell]] = {
    "pi.package-source": PACKAGE_SOURCE,
}


# --- pi.packages-resolve ---------------------------------------------------------------------------------------------

KINDS = ("extensions", "skills", "prompts", "themes")
HOST_PACKAGES = ("@earendil-works/pi-ai", "@earendil-works/pi-agent-core", "@earendil-works/pi-coding-agent",
                 "@earendil-works/pi-tui", "typebox")


def _settings(input: dict, scope: str) -> dict:
    found = input.get("personalSettings" if scope == "user" else "projectSettings")
    return found if isinstance(found, dict) else {}


def package_entries(input: dict) -> list[tuple[str, Any]]:
    """Every ``packages`` entry of both settings files: ``(scope, entry)``."""
    return [(scope, e) for scope in ("user", "project") for e in (_settings(input, scope).get("packages") or [])]


def entry_source(entry: Any) -> str | None:
    if isinstance(entry, str):
        return entry
    return entry["source"] if isinstance(entry, dict) and isinstance(entry.get("source"), str) else None


def _kind(source: str) -> str:
    s = source.strip()
    return "npm" if s.startswith("npm:") else "git" if re.match(_GIT, s) else "local"


def _base(input: dict, scope: str) -> str:
    """The directory a scope's installs and relative paths hang from."""
    return (input.get("agentDir") or "") if scope == "user" else f"{input.get('cwd') or ''}/.pi"


def _norm(path: str) -> str:
    parts: list[str] = []
    for p in path.split("/"):
        if p in ("", "."):
            continue
        if p == "..":
            if parts:
                parts.pop()
            continue
        parts.append(p)
    return "/".join(parts)


def package_root(input: dict, scope: str, source: str) -> str:
    """Where a source's package sits in the tree (PI-PKG-INSTALL-LAYOUT), as a tree path."""
    s = source.strip()
    if s.startswith("npm:"):
        name = re.sub(r"(?<=.)@[^/@]*$", "", s[4:])
        return _norm(f"{_base(input, scope)}/npm/node_modules/{name}")
    if _kind(s) == "git":
        rest = re.sub(r"^git:", "", s)
        rest = re.sub(r"^[a-z]+://(?:[^@/]+@)?", "", rest).replace(":", "/")
        rest = re.sub(r"@[^/]*$", "", rest).removesuffix(".git")
        return _norm(f"{_base(input, scope)}/git/{rest.removeprefix('git@')}")
    return _norm(f"{_base(input, scope)}/{s}") if not s.startswith("/") else _norm(s)


def _tree_paths(tree: "dict | None") -> dict[str, dict]:
    return {_norm(p): e for p, e in entries(tree)}


def _files_under(tree: "dict | None", root: str) -> dict[str, dict]:
    return {p[len(root) + 1:]: e for p, e in _tree_paths(tree).items() if p.startswith(root + "/")}


def _manifest(files: dict[str, dict]) -> Any:
    import json

    entry = files.get("package.json")
    if entry is None or entry_text(entry) == "":
        return None
    try:
        return json.loads(entry_text(entry).lstrip("\ufeff"))
    except ValueError:
        return None


def _packages(test: Callable[[dict[str, dict], Any, str, Any], bool]) -> Hit:
    """The class of inputs with a declared package whose ``(files, manifest, scope, entry)`` pass ``test``."""
    def hit(input: dict, tree: "dict | None") -> bool:
        for scope, e in package_entries(input):
            source = entry_source(e)
            if source is None:
                continue
            files = _files_under(tree, package_root(input, scope, source))
            if test(files, _manifest(files), scope, e):
                return True
        return False

    return hit


def _pi(test: Callable[[dict], bool]) -> Hit:
    return _packages(lambda f, m, s, e: isinstance(m, dict) and isinstance(m.get("pi"), dict) and test(m["pi"]))


def _lists(pi: dict) -> list[str]:
    return [x for k in KINDS for x in (pi.get(k) or []) if isinstance(x, str)]


def _file(test: Callable[[str, dict], bool]) -> Hit:
    return _packages(lambda f, m, s, e: any(test(p, x) for p, x in f.items()))


def _filters(test: Callable[[list[str]], bool]) -> Hit:
    """The class of inputs with an object entry whose filter list of some type passes ``test``."""
    return lambda input, tree: any(isinstance(e, dict) and any(isinstance(e.get(k), list) and test(e[k]) for k in KINDS)
                                   for s, e in package_entries(input))


def _identity(input: dict, scope: str, entry: Any) -> str | None:
    """PI-PKG-IDENTITY: the npm name, the git host and path, the resolved local path."""
    source = entry_source(entry)
    if source is None:
        return None
    root = package_root(input, scope, source)
    kind = _kind(source)
    return root if kind == "local" else kind + ":" + root.split(f"/{'npm/node_modules' if kind == 'npm' else 'git'}/", 1)[-1]


def _same_in(input: dict, scope: str) -> bool:
    ids = [_identity(input, s, e) for s, e in package_entries(input) if s == scope]
    ids = [i for i in ids if i]
    return len(ids) > len(set(ids))


def _both(input: dict) -> list[tuple[Any, Any]]:
    """Pairs (personal entry, project entry) of the same package."""
    user = {_identity(input, "user", e): e for s, e in package_entries(input) if s == "user"}
    return [(user[i], e) for s, e in package_entries(input) if s == "project"
            and (i := _identity(input, "project", e)) in user and i]


def _lists_of(scope: str, test: Callable[[str], bool]) -> Hit:
    return lambda input, tree: any(isinstance(x, str) and test(x) for k in KINDS for x in (_settings(input, scope).get(k) or []))


def _local_sources(test: Callable[[str], bool]) -> Hit:
    """The class of inputs with a local package source of either scope that passes ``test``."""
    return lambda input, tree: any(_kind(x) == "local" and test(x) for s, e in package_entries(input) if (x := entry_source(e)))


def _listed(test: Callable[[str], bool]) -> Hit:
    """The class of inputs with a settings-list entry of either scope that passes ``test``."""
    return lambda input, tree: _lists_of("user", test)(input, tree) or _lists_of("project", test)(input, tree)


def _glob(x: str) -> bool:
    return bool(re.search(r"[*?\[]", x))


def _plain(x: str) -> bool:
    return not x.startswith(("!", "+", "-")) and not _glob(x)


PACKAGES_RESOLVE = [
    Cell("entry", "a source string", ("PI-PKG-IDENTITY",), lambda i, t: any(isinstance(e, str) for s, e in package_entries(i))),
    Cell("entry", "an object", ("PI-PKG-FILTER-OMITTED",), lambda i, t: any(isinstance(e, dict) for s, e in package_entries(i))),
    Cell("entry", "invalid: neither a string nor an object", ("PI-PKG-ENTRY-INVALID",),
         lambda i, t: any(not isinstance(e, (str, dict)) for s, e in package_entries(i))),
    Cell("entry", "invalid: no string source", ("PI-PKG-ENTRY-INVALID",),
         lambda i, t: any(isinstance(e, dict) and not isinstance(e.get("source"), str) for s, e in package_entries(i))),
    Cell("entry", "invalid: a list that is not of strings", ("PI-PKG-ENTRY-INVALID",),
         lambda i, t: any(isinstance(e, dict) and any(k in e and not (isinstance(e[k], list) and all(isinstance(x, str) for x in e[k]))
                                                    for k in KINDS) for s, e in package_entries(i))),
    Cell("entry", "invalid: autoload not a boolean", ("PI-PKG-ENTRY-INVALID",),
         lambda i, t: any(isinstance(e, dict) and "autoload" in e and not isinstance(e["autoload"], bool) for s, e in package_entries(i))),
    *[Cell("source", k, ("PI-PKG-INSTALL-LAYOUT",), (lambda i, t, k=k: any(entry_source(e) and _kind(entry_source(e)) == k
                                                                        for s, e in package_entries(i))))
      for k in ("npm", "git", "local")],
    Cell("install", "an npm or git package not installed", ("PI-PKG-INSTALL-LAYOUT",),
         _packages(lambda f, m, s, e: _kind(entry_source(e) or "") != "local" and not f)),
    Cell("install", "a local path that does not exist", ("PI-PKG-INSTALL-LAYOUT",),
         lambda i, t: any(_kind(entry_source(e) or "") == "local" and not _files_under(t, package_root(i, s, entry_source(e)))
                          and package_root(i, s, entry_source(e)) not in _tree_paths(t)
                          for s, e in package_entries(i) if entry_source(e))),
    Cell("install", "a local source naming a file", ("PI-PKG-LOCAL-FILE",),
         lambda i, t: any(_kind(entry_source(e) or "") == "local" and package_root(i, s, entry_source(e)) in _tree_paths(t)
                          for s, e in package_entries(i) if entry_source(e))),
    Cell("install", "a local directory that declares nothing", ("PI-PKG-LOCAL-FILE", "PI-PKG-LOCAL-DIR-OBJECT"),
         _packages(lambda f, m, s, e: _kind(entry_source(e)) == "local" and bool(f) and not any(
             p.split("/")[0] in KINDS for p in f) and not (isinstance(m, dict) and isinstance(m.get("pi"), dict) and _lists(m["pi"])))),
    Cell("scope", "personal entries", ("PI-PKG-SCOPE-REPLACE",), lambda i, t: any(s == "user" for s, e in package_entries(i))),
    Cell("scope", "project entries, trusted", ("PI-PKG-TRUST",), lambda i, t: bool(i.get("trusted")) and any(s == "project" for s, e in package_entries(i))),
    Cell("scope", "project entries, untrusted", ("PI-PKG-TRUST",), lambda i, t: not i.get("trusted") and any(s == "project" for s, e in package_entries(i))),
    Cell("scope", "one package in both", ("PI-PKG-SCOPE-REPLACE", "PI-PKG-IDENTITY"), lambda i, t: bool(_both(i))),
    Cell("scope", "one package twice in one file", ("PI-PKG-DUPLICATE",), lambda i, t: _same_in(i, "user") or _same_in(i, "project")),
    Cell("autoload", "false over a personal entry", ("PI-PKG-AUTOLOAD-DELTA",),
         lambda i, t: any(isinstance(e, dict) and e.get("autoload") is False for u, e in _both(i))),
    Cell("autoload", "false with no personal entry", ("PI-PKG-AUTOLOAD-DELTA",),
         lambda i, t: any(isinstance(e, dict) and e.get("autoload") is False and all(e is not p for u, p in _both(i))
                          for s, e in package_entries(i))),
    Cell("filter", "a type omitted", ("PI-PKG-FILTER-OMITTED",), lambda i, t: any(isinstance(e, dict) and any(k not in e for k in KINDS)
                                                                               for s, e in package_entries(i))),
    Cell("filter", "an empty list", ("PI-PKG-FILTER-EMPTY",), _filters(lambda l: l == [])),
    Cell("filter", "a glob", ("PI-PKG-FILTER-ORDER",), _filters(lambda l: any(_plain(x) is False and _glob(x) and x[0] not in "!+-" for x in l))),
    Cell("filter", "an exact path", ("PI-PKG-FILTER-ORDER",), _filters(lambda l: any(_plain(x) and "/" in x for x in l))),
    Cell("filter", "a file name alone", ("PI-PKG-FILTER-ORDER",), _filters(lambda l: any(x[:1] not in "!+-" and "/" not in x for x in l))),
    *[Cell("filter", f"{p}pattern" if p == "!" else f"{p}path", ("PI-PKG-FILTER-ORDER",), _filters(lambda l, p=p: any(x.startswith(p) for x in l)))
      for p in ("!", "+", "-")],
    Cell("filter", "+ and ! on one path", ("PI-PKG-FILTER-ORDER",),
         _filters(lambda l: any(x.startswith("+") and any(y.startswith("!") and _matches(y[1:], x[1:]) for y in l) for x in l))),
    Cell("filter", "- and + on one path", ("PI-PKG-FILTER-ORDER",),
         _filters(lambda l: any(x.startswith("-") and ("+" + x[1:]) in l for x in l))),
    Cell("filter", "a leading ./", ("PI-PKG-PATTERN-DOT-SLASH",), _filters(lambda l: any(x.lstrip("!+-").startswith("./") for x in l))),
    Cell("filter", "a path the package does not declare", ("PI-PKG-FILTER-NARROW",),
         _filters(lambda l: any(x.startswith("+") and not x[1:].lstrip("./").split("/")[0] in KINDS for x in l))),
    Cell("discovery", "no package.json", ("PI-PKG-DISCOVERY-CONVENTIONAL",), _packages(lambda f, m, s, e: bool(f) and "package.json" not in f)),
    Cell("discovery", "conventional folders", ("PI-PKG-DISCOVERY-CONVENTIONAL",),
         _packages(lambda f, m, s, e: any(p.split("/")[0] in KINDS for p in f) and not (isinstance(m, dict) and isinstance(m.get("pi"), dict) and _lists(m["pi"])))),
    Cell("discovery", "a manifest listing one type", ("PI-PKG-DISCOVERY-CHOICE",),
         _pi(lambda pi: sum(1 for k in KINDS if k in pi) == 1)),
    Cell("discovery", "a pi object without lists", ("PI-PKG-DISCOVERY-CHOICE",), _pi(lambda pi: not any(k in pi for k in KINDS))),
    Cell("discovery", "a manifest glob", ("PI-PKG-DISCOVERY-MANIFEST",), _pi(lambda pi: any(_glob(x) and x[0] != "!" for x in _lists(pi)))),
    Cell("discovery", "a manifest !exclusion", ("PI-PKG-DISCOVERY-MANIFEST",), _pi(lambda pi: any(x.startswith("!") for x in _lists(pi)))),
    Cell("discovery", "a manifest naming a folder", ("PI-PKG-DISCOVERY-MANIFEST",),
         _packages(lambda f, m, s, e: isinstance(m, dict) and isinstance(m.get("pi"), dict) and any(
             not _glob(x) and any(p.startswith(x.strip("./") + "/") for p in f) for x in _lists(m["pi"])))),
    Cell("discovery", "a manifest naming what is missing", ("PI-PKG-DISCOVERY-MANIFEST",),
         _packages(lambda f, m, s, e: isinstance(m, dict) and isinstance(m.get("pi"), dict) and any(
             _plain(x) and x.strip("./") not in f and not any(p.startswith(x.strip("./") + "/") for p in f) for x in _lists(m["pi"])))),
    Cell("discovery", "a manifest glob over node_modules", ("PI-PKG-MANIFEST-GLOB-NODE-MODULES",),
         _packages(lambda f, m, s, e: any("/node_modules/" in "/" + p for p in f) and isinstance(m, dict) and isinstance(m.get("pi"), dict)
                   and any(_glob(x) for x in _lists(m["pi"])))),
    Cell("discovery", "a package.json with a BOM", ("PI-PKG-MANIFEST-BOM",),
         _file(lambda p, x: p == "package.json" and entry_text(x).startswith("\ufeff"))),
    Cell("discovery", "an index in the extensions folder", ("PI-PKG-DISCOVERY-INDEX",),
         _file(lambda p, x: re.fullmatch(r"extensions/index\.(ts|js)", p) is not None)),
    Cell("discovery", "an extension subfolder with an index", ("PI-PKG-DISCOVERY-INDEX",),
         _file(lambda p, x: re.fullmatch(r"extensions/[^/]+/index\.(ts|js)", p) is not None)),
    Cell("discovery", "an extension subfolder with its own package.json", ("PI-PKG-DISCOVERY-CONVENTIONAL",),
         _file(lambda p, x: re.fullmatch(r"extensions/[^/]+/package\.json", p) is not None)),
    Cell("discovery", "a nested skill folder", ("PI-PKG-DISCOVERY-CONVENTIONAL",), _file(lambda p, x: re.fullmatch(r"skills/[^/]+/[^/]+/SKILL\.md", p) is not None)),
    Cell("discovery", "a skill file directly in skills/", ("PI-PKG-DISCOVERY-CONVENTIONAL",),
         _file(lambda p, x: re.fullmatch(r"skills/[^/]+\.md", p) is not None)),
    Cell("discovery", "a nested prompt", ("PI-PKG-DISCOVERY-CONVENTIONAL",), _file(lambda p, x: re.fullmatch(r"prompts/.+/[^/]+\.md", p) is not None)),
    Cell("discovery", "a theme", ("PI-PKG-DISCOVERY-CONVENTIONAL",), _file(lambda p, x: re.fullmatch(r"themes/.+\.json", p) is not None)),
    Cell("discovery", "a dot-prefixed name", ("PI-PKG-DISCOVERY-CONVENTIONAL",), _file(lambda p, x: any(s.startswith(".") for s in p.split("/")))),
    Cell("discovery", "a file of another type in a folder", ("PI-PKG-DISCOVERY-CONVENTIONAL",),
         _file(lambda p, x: bool(re.fullmatch(r"(extensions|prompts|themes)/[^/]+\.(txt|md|json|ts)", p))
               and not re.fullmatch(r"extensions/[^/]+\.(ts|js)|prompts/[^/]+\.md|themes/[^/]+\.json", p))),
    Cell("host dependency", "in dependencies", ("PI-PKG-HOST-DEPS",),
         _packages(lambda f, m, s, e: isinstance(m, dict) and any(h in (m.get("dependencies") or {}) for h in HOST_PACKAGES))),
    Cell("host dependency", "in peerDependencies as *", ("PI-PKG-HOST-DEPS",),
         _packages(lambda f, m, s, e: isinstance(m, dict) and any((m.get("peerDependencies") or {}).get(h) == "*" for h in HOST_PACKAGES))),
    *[Cell("settings lists", f"{scope} {what}", ("PI-PKG-SETTINGS-LISTS",), _lists_of(scope, test))
      for scope in ("user", "project") for what, test in (("plain entries", _plain), ("filter entries", lambda x: not _plain(x)))],
    Cell("settings lists", "project lists, untrusted", ("PI-PKG-SETTINGS-TRUST",),
         lambda i, t: not i.get("trusted") and _lists_of("project", lambda x: True)(i, t)),
    Cell("settings lists", "beside packages", ("PI-PKG-SETTINGS-ORDER",),
         lambda i, t: bool(package_entries(i)) and (_lists_of("user", lambda x: True)(i, t) or _lists_of("project", lambda x: True)(i, t))),
    Cell("home", "given", ("PI-PKG-INSTALL-LAYOUT",), field_hit("home", lambda v: isinstance(v, str))),
    *[Cell("home", f"given, {what} {form}", ("PI-PKG-SOURCE-HOME",), _homed(test))
      for form, starts in (("~/x", lambda x: x.strip().startswith("~/")), ("~name", lambda x: bool(re.match(r"~[^/\\\s]", x.strip()))))
      for what, test in (("a source", _local_sources(starts)), ("a list entry", _listed(starts)))],
    *character_cells(("PI-PKG-DISCOVERY-CONVENTIONAL",), lambda i, t: [p for p, e in entries(t)]),
]
"""The classes of ``pi.packages-resolve``: entries of each form, valid and each way invalid;
npm, git and local sources installed or not, local files and directories declaring nothing; each
scope, trust, one package in both and twice in one file; autoload deltas; every filter form and
their orders; conventional and manifest discovery in each form; host dependencies; settings
lists of each scope; sources and list entries starting with ``~/`` or ``~`` then a name, the home
given; characters in paths."""


def _matches(pattern: str, path: str) -> bool:
    from fnmatch import fnmatchcase

    return fnmatchcase(path.lstrip("./"), pattern.lstrip("./")) or fnmatchcase(path.rsplit("/", 1)[-1], pattern)


PARTITIONS["pi.packages-resolve"] = PACKAGES_RESOLVE


# --- pi.package-changelog (edition pi-1.6.0, PI-160-PKG-CHANGELOG-*) --------------------------------------------------

def _changelog_package(input: dict, tree: "dict | None") -> tuple[dict[str, dict], Any]:
    files = _files_under(tree, _norm(str(input.get("package") or "")))
    return files, _manifest(files)


def _changelog(test: Callable[[dict[str, dict], Any], bool]) -> Hit:
    return lambda input, tree: test(*_changelog_package(input, tree))


def _named(test: Callable[[Any], bool]) -> Hit:
    return _changelog(lambda f, m: isinstance(m, dict) and isinstance(m.get("pi"), dict) and "changelogPath" in m["pi"]
                      and test(m["pi"]["changelogPath"]))


def _headings(f: dict[str, dict]) -> list[str]:
    return [line for p, e in f.items() if p.lower().endswith(".md") for line in entry_text(e).splitlines() if line.startswith("## ")]


def _lines(f: dict[str, dict]) -> list[str]:
    return [line for p, e in f.items() if p.lower().endswith(".md") for line in entry_text(e).splitlines()]


def _last(test: Callable[[Any], bool]) -> Hit:
    return lambda input, tree: test(input.get("lastSeenVersion"))


PACKAGE_CHANGELOG = [
    Cell("path", "CHANGELOG.md at the root", ("PI-160-PKG-CHANGELOG-PATH",), _changelog(lambda f, m: "CHANGELOG.md" in f)),
    Cell("path", "changelogPath naming a file", ("PI-160-PKG-CHANGELOG-PATH",),
         _named(lambda v: isinstance(v, str) and v != "" and ".." not in v and not v.startswith("/"))),
    Cell("path", "changelogPath empty", ("PI-160-PKG-CHANGELOG-PATH",), _named(lambda v: v == "")),
    Cell("path", "changelogPath leading outside", ("PI-160-PKG-CHANGELOG-INSIDE",), _named(lambda v: isinstance(v, str) and (".." in v or v.startswith("/")))),
    Cell("path", "changelogPath naming a folder", ("PI-160-PKG-CHANGELOG-INSIDE",),
         lambda i, t: _named(lambda v: isinstance(v, str) and v != "" and any(p.startswith(v.strip("./") + "/")
                                                                              for p in _changelog_package(i, t)[0]))(i, t)),
    Cell("path", "changelogPath not a string", ("PI-160-PKG-CHANGELOG-INSIDE",), _named(lambda v: not isinstance(v, str))),
    Cell("extensions", "the package loads one", ("PI-160-PKG-CHANGELOG-EXTENSIONS",),
         _changelog(lambda f, m: any(re.fullmatch(r"extensions/[^/]+\.(ts|js)|extensions/[^/]+/index\.(ts|js)", p) for p in f))),
    Cell("extensions", "the package loads none", ("PI-160-PKG-CHANGELOG-EXTENSIONS",),
         _changelog(lambda f, m: bool(f) and not any(p.startswith("extensions/") for p in f))),
    Cell("version", "the package has one", ("PI-160-PKG-CHANGELOG-NEWER",), _changelog(lambda f, m: isinstance(m, dict) and isinstance(m.get("version"), str))),
    Cell("version", "the package has none", ("PI-160-PKG-CHANGELOG-NEWER",), _changelog(lambda f, m: isinstance(m, dict) and "version" not in m)),
    Cell("last seen", "none (first seen)", ("PI-160-PKG-CHANGELOG-FIRST-SEEN",), _last(lambda v: v is None)),
    Cell("last seen", "a version", ("PI-160-PKG-CHANGELOG-NEWER",), _last(lambda v: isinstance(v, str) and bool(re.match(r"v?\d+\.\d+\.\d+$", v)))),
    Cell("last seen", "a prerelease", ("PI-160-PKG-CHANGELOG-NEWER",), _last(lambda v: isinstance(v, str) and bool(re.match(r"v?\d+\.\d+\.\d+-", v)))),
    Cell("last seen", "with a leading v", ("PI-160-PKG-CHANGELOG-NEWER",), _last(lambda v: isinstance(v, str) and v.startswith("v"))),
    Cell("last seen", "not a version", ("PI-160-PKG-CHANGELOG-NEWER",), _last(lambda v: isinstance(v, str) and not re.match(r"v?\d+\.\d+\.\d+", v))),
    Cell("headings", "bracketed", ("PI-160-PKG-CHANGELOG-HEADINGS",), _changelog(lambda f, m: any(re.match(r"## \[\d", h) for h in _headings(f)))),
    Cell("headings", "with a date", ("PI-160-PKG-CHANGELOG-HEADINGS",), _changelog(lambda f, m: any(re.match(r"## \S+ - ", h) for h in _headings(f)))),
    Cell("headings", "without a version", ("PI-160-PKG-CHANGELOG-HEADINGS",), _changelog(lambda f, m: any(not re.search(r"\d+\.\d+\.\d+", h) for h in _headings(f)))),
    Cell("headings", "a level-3 heading", ("PI-160-PKG-CHANGELOG-HEADINGS",),
         _changelog(lambda f, m: any(line.startswith("### ") for p, e in f.items() if p.endswith(".md") for line in entry_text(e).splitlines()))),
    Cell("headings", "a level-1 heading with a version", ("PI-160-PKG-CHANGELOG-HEADINGS",),
         _changelog(lambda f, m: any(re.match(r"# \[?\d+\.\d+\.\d+", line) for line in _lines(f)))),
    Cell("headings", "a level-4 heading", ("PI-160-PKG-CHANGELOG-HEADINGS",),
         _changelog(lambda f, m: any(line.startswith("#### ") for line in _lines(f)))),
    Cell("headings", "a level-3 or deeper heading with a version", ("PI-160-PKG-CHANGELOG-HEADINGS",),
         _changelog(lambda f, m: any(re.match(r"#{3,} \[?\d+\.\d+\.\d+", line) for line in _lines(f)))),
    Cell("headings", "a version after other words", ("PI-160-PKG-CHANGELOG-HEADINGS",),
         _changelog(lambda f, m: any(re.match(r"#+ [^\d\[\s].*\d+\.\d+\.\d+", line) for line in _lines(f)))),
    Cell("headings", "hashes run into the version", ("PI-160-PKG-CHANGELOG-HEADINGS",),
         _changelog(lambda f, m: any(re.match(r"#+\[?\d", line) for line in _lines(f)))),
    Cell("headings", "versions of two digits", ("PI-160-PKG-CHANGELOG-NEWER",), _changelog(lambda f, m: any(re.search(r"\.\d\d", h) for h in _headings(f)))),
]
"""The classes of ``pi.package-changelog`` (edition pi-1.6.0): the changelog at the root or named
by ``changelogPath`` (a file, empty, outside the package, a folder, not a string); a package
loading an extension or none, with a version or none; the last seen version absent, plain, a
prerelease, with a ``v``, unreadable; headings bracketed, dated, without a version, of level 3,
with two-digit parts; versions in headings of level 1, 3 or deeper, after other words, or run
into the hashes, and level-4 headings, none of which starts an entry."""


PARTITIONS["pi.package-changelog"] = PACKAGE_CHANGELOG
