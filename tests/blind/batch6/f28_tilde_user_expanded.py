"""pi.package-source -- PI-PKG-SOURCE-HOME.
Bug: any local source starting with "~" is resolved from the home directory, so "~tools/pkg" (a
folder named "~tools" beside the settings file) becomes HOME/tools/pkg.
"""

from __future__ import annotations

import posixpath

from reference.pi.core import sources
from reference.text import js_trim

from tests.blind.common import everywhere, swapped


def _resolve_local_path(path: str, base_dir: str, home: str | None = None) -> str:
    p = js_trim(path)
    if home is not None and p.startswith("~"):
        p = posixpath.join(home, p[1:].lstrip("/"))
    if not posixpath.isabs(p):
        p = posixpath.join(base_dir, p)
    return posixpath.normpath(p)


def handle(msg, call):
    with swapped(everywhere(sources.resolve_local_path, _resolve_local_path)):
        return call()
