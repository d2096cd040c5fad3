"""pi.package-source -- PI-PKG-SOURCE-LOCAL.
Bug: a local path is joined to the settings directory without being normalised, so "./tools", "tools/" and "a/../tools" keep their "." and ".." parts and trailing slash in localPath."""

import posixpath

from reference.pi.core import sources
from reference.text import js_trim
from tests.blind.common import everywhere, swapped


def _resolve(path, base_dir, home=None):
    p = js_trim(path)
    if home is not None and (p == "~" or p.startswith("~/")):
        p = posixpath.join(home, p[2:]) if p != "~" else home
    if not posixpath.isabs(p):
        p = posixpath.join(base_dir, p)
    return p


def handle(msg, call):
    with swapped(everywhere(sources.resolve_local_path, _resolve)):
        return call()
