"""pi.packages-resolve -- PI-PKG-IDENTITY, PI-PKG-DUPLICATE.
Bug: a local package is identified by its source as written, not by its resolved path, so "./tools" and "tools/" (or "a/../tools") in one settings file are two packages instead of one and a duplicate."""

from reference.pi.core import identity
from reference.text import js_trim
from tests.blind.common import everywhere, swapped

_original = identity.package_identity


def _identity(source):
    if source.type == "local":
        return f"local:{js_trim(source.source)}"
    return _original(source)


def handle(msg, call):
    with swapped(everywhere(_original, _identity)):
        return call()
