"""pi.package-source -- PI-PKG-SOURCE-HOME, PI-PKG-SOURCE-LOCAL.
Bug: a local source is taken from the home directory whenever it starts with "~" (path.startsWith("~")), so "~pkgs" or "~user/x" resolves under HOME instead of from the settings file's directory."""

import posixpath

from reference.pi.core import sources
from tests.blind.common import everywhere, swapped

_original = sources.resolve_local_path


def _resolve(path, base_dir, home=None):
    p = path.strip()
    if home is not None and p.startswith("~") and p != "~" and not p.startswith("~/"):
        return posixpath.normpath(posixpath.join(home, p[1:]))
    return _original(path, base_dir, home)


def handle(msg, call):
    with swapped(everywhere(_original, _resolve)):
        return call()
