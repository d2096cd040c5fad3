"""pi.package-source -- PI-PKG-SOURCE-HOME.
Bug: only a source starting with "~/" is taken from the home directory; a source of "~" alone is resolved as a folder named "~" under the settings directory."""

import posixpath

from reference.pi.core import sources
from reference.text import js_trim
from tests.blind.common import everywhere, swapped


def _resolve(path, base_dir, home=None):
    p = js_trim(path)
    if home is not None and p.startswith("~/"):
        p = posixpath.join(home, p[2:])
    if not posixpath.isabs(p):
        p = posixpath.join(base_dir, p)
    return posixpath.normpath(p)


def handle(msg, call):
    with swapped(everywhere(sources.resolve_local_path, _resolve)):
        return call()
