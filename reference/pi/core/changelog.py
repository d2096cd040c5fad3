"""A package's changelog after an update, as Pi 1.6.0's packages page describes it (edition
``pi-1.6.0``, "Show a changelog").

The package tree is read only through a :class:`reference.pi.core.manifest.FileSystem` the caller
gives; paths are absolute POSIX strings. Versions are ``(major, minor, patch)`` tuples of
integers.

Pure: no I/O of its own.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field
from typing import Any, Mapping

from reference.pi.core.manifest import FileSystem, declared_resources, read_manifest
from reference.text import js_trim

DEFAULT_CHANGELOG = "CHANGELOG.md"

_HEADING = re.compile(r"##\s+\[?(\d+)\.(\d+)\.(\d+)")
_LEADING_VERSION = re.compile(r"v?(\d+)\.(\d+)\.(\d+)")

Version = tuple[int, int, int]


def _inside(root: str, path: str) -> bool:
    rel = posixpath.relpath(path, root)
    return rel != "." and rel != ".." and not rel.startswith("../")


def changelog_file(fs: FileSystem, package_root: str, manifest: Mapping[str, Any] | None) -> str | None:
    """The file the changelog of the package at ``package_root`` is read from, or ``None``.

    Implements PI-160-PKG-CHANGELOG-PATH: ``CHANGELOG.md`` at the package root unless the ``pi``
    manifest's ``changelogPath`` names another file, relative to the root; ``""`` switches the
    changelog off. Implements PI-160-PKG-CHANGELOG-INSIDE: a path that leads outside the package
    (symbolic links followed), or that names no regular file, gives none; a ``changelogPath`` that
    is not a string is not read (the default applies).
    """
    pi = (manifest or {}).get("pi")
    named = pi.get("changelogPath") if isinstance(pi, dict) else None
    rel = named if isinstance(named, str) else DEFAULT_CHANGELOG
    if rel == "":
        return None
    path = posixpath.normpath(posixpath.join(package_root, rel))
    if not fs.is_file(path):
        return None
    return path if _inside(fs.real_path(package_root), fs.real_path(path)) else None


def changelog_versions(text: str) -> list[Version]:
    """The versions of the entries of a changelog, in file order.

    Implements PI-160-PKG-CHANGELOG-HEADINGS: an entry starts at a line ``## `` followed by the
    version, bracketed or not (``## [1.2.0]``, ``## 1.2.0 - 2026-01-01``); only the leading
    ``major.minor.patch`` counts. A ``## `` line without a version ends the entry before it and
    starts none; an entry needs its heading only.
    """
    out = []
    for line in text.split("\n"):
        if not line.startswith("## "):
            continue
        match = _HEADING.match(line)
        if match:
            out.append((int(match.group(1)), int(match.group(2)), int(match.group(3))))
    return out


def leading_version(text: str) -> Version | None:
    """The leading ``major.minor.patch`` of a version string (a ``v`` before it allowed, anything
    after it ignored, so ``0.1.5-beta.2`` is ``(0, 1, 5)``), or ``None``."""
    match = _LEADING_VERSION.match(js_trim(text))
    return (int(match.group(1)), int(match.group(2)), int(match.group(3))) if match else None


@dataclass
class ChangelogUpdate:
    """What one fresh launch does with a package's changelog.

    Attributes:
        changelog: the changelog file, or ``None`` (none shown, nothing recorded).
        shown: the versions whose entries are shown under "Extension Updates", as written in the
            headings' order (``"1.2.0"``).
        recorded: the version recorded as last seen by this launch, or ``None`` when it records
            none (the earlier one stays).
    """

    changelog: str | None
    shown: list[str] = field(default_factory=list)
    recorded: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"changelog": self.changelog, "shown": list(self.shown), "recorded": self.recorded}


def changelog_update(fs: FileSystem, package_root: str, last_seen: str | None) -> ChangelogUpdate:
    """The changelog a fresh launch shows for the package at ``package_root``, whose version was
    last seen as ``last_seen`` (``None``: never seen).

    Implements PI-160-PKG-CHANGELOG-EXTENSIONS (only a package that loads at least one extension
    has one), PI-160-PKG-CHANGELOG-FIRST-SEEN (the first time, the ``package.json`` version is
    recorded and nothing is shown; a package without a changelog records nothing) and PI-160-PKG-CHANGELOG-NEWER (entries newer than the last seen
    version are shown and the current version recorded; an unreadable last seen version shows
    nothing and records the current one; a package without a ``version`` shows and records
    nothing).
    """
    declared = declared_resources(fs, package_root) or {}
    if not declared.get("extensions"):
        return ChangelogUpdate(None)
    manifest = read_manifest(fs, package_root)
    path = changelog_file(fs, package_root, manifest)
    version = (manifest or {}).get("version")
    if path is None or not isinstance(version, str) or not version:
        return ChangelogUpdate(path)
    if last_seen is None:
        return ChangelogUpdate(path, recorded=version)
    last = leading_version(last_seen)
    if last is None:
        return ChangelogUpdate(path, recorded=version)
    newer = [v for v in changelog_versions(fs.read_text(path) or "") if v > last]
    if not newer:
        return ChangelogUpdate(path)
    return ChangelogUpdate(path, [".".join(map(str, v)) for v in newer], version)
