"""pi.packages-resolve -- PI-PKG-FILTER-ORDER.
Bug: filter globs are matched against the path relative to the package root only, never the file name, so a bare name pattern such as "*.md" or "!draft.md" misses files in subfolders."""

import posixpath

from reference.pi.core import filters
from tests.blind.common import swapped


def candidates(path, package_root):
    names = [posixpath.relpath(path, package_root)]
    if posixpath.basename(path) == "SKILL.md":
        names.append(posixpath.relpath(posixpath.dirname(path), package_root))
    return names


def handle(msg, call):
    with swapped([(filters, "_candidates", candidates)]):
        return call()
