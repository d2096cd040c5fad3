"""Resource filters: settings filters, a manifest's own patterns and ``autoload: false`` deltas
(Pi's docs "Pi Packages"; PI-DECISION-PACKAGES). Pure: paths are POSIX strings.
"""

from __future__ import annotations

import posixpath

from wcmatch import glob as wglob

GLOB_FLAGS = wglob.GLOBSTAR | wglob.BRACE


def norm_pattern(pattern: str) -> str:
    """``pattern`` without a leading ``./`` (PI-PKG-PATTERN-DOT-SLASH)."""
    return pattern[2:] if pattern.startswith("./") else pattern


def _candidates(path: str, package_root: str) -> list[str]:
    rel = posixpath.relpath(path, package_root)
    names = [rel, posixpath.basename(path), path]
    if posixpath.basename(path) == "SKILL.md":
        parent = posixpath.dirname(path)
        names += [posixpath.relpath(parent, package_root), posixpath.basename(parent), parent]
    return names


def matches_glob(path: str, pattern: str, package_root: str) -> bool:
    """Whether ``pattern`` (a glob) matches ``path`` by its path relative to the package root, its
    file name or its absolute path; a skill's ``SKILL.md`` also matches through its directory.

    Implements PI-PKG-PATTERN-DOT-SLASH: a leading ``./`` in a pattern or exact path is ignored, as
    in manifest paths.
    """
    pattern = norm_pattern(pattern)
    return any(wglob.globmatch(c, pattern, flags=GLOB_FLAGS) for c in _candidates(path, package_root))


def matches_exact(path: str, target: str, package_root: str) -> bool:
    """Whether ``target`` (a leading ``./`` ignored) names ``path`` exactly: its path relative to the
    package root or its absolute path; a skill's ``SKILL.md`` also through its directory."""
    target = posixpath.normpath(norm_pattern(target))
    rel = posixpath.relpath(path, package_root)
    if target in (rel, path):
        return True
    if posixpath.basename(path) == "SKILL.md":
        parent = posixpath.dirname(path)
        return target in (posixpath.relpath(parent, package_root), parent)
    return False


def _split_filter(patterns: list[str]) -> tuple[list[str], list[str], list[str], list[str]]:
    includes, excludes, force_in, force_out = [], [], [], []
    for p in patterns:
        if p.startswith("+"):
            force_in.append(p[1:])
        elif p.startswith("-"):
            force_out.append(p[1:])
        elif p.startswith("!"):
            excludes.append(p[1:])
        else:
            includes.append(p)
    return includes, excludes, force_in, force_out


def apply_filter(declared: list[str], patterns: list[str] | None, package_root: str) -> list[str]:
    """The declared resources a settings filter (or a manifest's own patterns) keeps.

    Implements PI-PKG-FILTER-OMITTED (``None``: everything declared), PI-PKG-FILTER-EMPTY (``[]``:
    nothing), and PI-PKG-FILTER-ORDER (PI-DECISION-PACKAGES): first the plain globs (none: everything declared), then
    ``!pattern`` removes glob matches, then ``+path`` adds back one exact declared path, then
    ``-path`` removes one exact path; so ``+`` beats ``!`` and ``-`` beats ``+``. Implements
    PI-PKG-FILTER-NARROW: only declared paths are ever kept.

    Returns:
        the kept paths, in declaration order.
    """
    if patterns is None:
        return list(declared)
    if not patterns:
        return []
    includes, excludes, force_in, force_out = _split_filter(patterns)
    kept = [p for p in declared if not includes or any(matches_glob(p, g, package_root) for g in includes)]
    kept = [p for p in kept if not any(matches_glob(p, g, package_root) for g in excludes)]
    for p in declared:
        if p not in kept and any(matches_exact(p, t, package_root) for t in force_in):
            kept.append(p)
    kept = [p for p in kept if not any(matches_exact(p, t, package_root) for t in force_out)]
    return [p for p in declared if p in kept]


def apply_delta(declared: list[str], base: set[str], patterns: list[str] | None, package_root: str) -> tuple[set[str], set[str]]:
    """Apply an ``autoload: false`` entry's filter as a delta over ``base`` (the resources enabled
    without it).

    Implements PI-PKG-AUTOLOAD-DELTA: an omitted or empty list changes nothing; otherwise, in the PI-DECISION-PACKAGES
    order, plain globs enable their declared matches, ``!pattern`` disables matches, ``+path``
    enables one exact declared path, ``-path`` disables one. Only declared paths are touched.

    Returns:
        ``(enabled, touched)``: the enabled paths, and those whose state the delta decided.
    """
    enabled = set(base)
    touched: set[str] = set()
    if not patterns:
        return enabled, touched
    includes, excludes, force_in, force_out = _split_filter(patterns)
    steps = (
        (includes, matches_glob, True),
        (excludes, matches_glob, False),
        (force_in, matches_exact, True),
        (force_out, matches_exact, False),
    )
    for targets, match, state in steps:
        for p in declared:
            if any(match(p, t, package_root) for t in targets):
                touched.add(p)
                (enabled.add if state else enabled.discard)(p)
    return enabled, touched
