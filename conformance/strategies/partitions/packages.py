"""The input classes of the package operations (PI-DECISION-PACKAGES): so far
``pi.package-source``, the source forms of PI-PKG-SOURCE-*."""

from __future__ import annotations

import re
from typing import Callable

from conformance.strategies.partitions.cells import Cell, Hit, absent, character_cells, field_hit

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


_EXACT = r"\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?"
_GIT = r"^(git:|(?i:https?|ssh|git)://)"
"""A source written as git: the ``git:`` prefix or a git URL scheme."""
_LOCAL = r"^(?!npm:|git:|[A-Za-z][A-Za-z0-9+.-]*://)"

PACKAGE_SOURCE = [
    Cell("npm", "a plain name", ("PI-PKG-SOURCE-NPM",), _written(r"^npm:[^@/\s]+(@|$)")),
    Cell("npm", "a scoped name", ("PI-PKG-SOURCE-NPM",), _written(r"^npm:@[^/@\s]+/[^/@\s]+")),
    Cell("npm", "an exact version", ("PI-PKG-SOURCE-NPM",), _npm_version(lambda v: bool(re.fullmatch(_EXACT, v)))),
    Cell("npm", "a range", ("PI-PKG-SOURCE-NPM",),
         _npm_version(lambda v: not re.fullmatch(_EXACT, v) and bool(re.match(r"[\^~<>=*]|\d", v)))),
    Cell("npm", "a tag", ("PI-PKG-SOURCE-NPM",), _npm_version(lambda v: bool(re.match(r"[A-Za-z]", v)))),
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
    *character_cells(("PI-PKG-SOURCE-LOCAL", "PI-PKG-SOURCE-NPM"),
                     lambda input, tree: [_source(input)] if _source(input).strip() else []),
]
"""The classes of ``pi.package-source``: every source form of PI-PKG-SOURCE-NPM, -GIT, -URL and
-LOCAL with its parts (scoped names, exact versions, ranges and tags; hosts with and without a
dot, ``localhost``, users, ports, refs, a trailing ``.git`` and trailing slashes, ``#``), every
refused form of PI-PKG-SOURCE-INVALID, white space around and only (PI-PKG-SOURCE-TRIM), both
scopes, a home given or not, and the characters of a path."""


PARTITIONS: dict[str, list[Cell]] = {
    "pi.package-source": PACKAGE_SOURCE,
}
