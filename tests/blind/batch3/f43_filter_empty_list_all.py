"""pi.packages-resolve -- PI-PKG-FILTER-EMPTY, PI-PKG-FILTER-OMITTED.
Bug: a resource list is tested with if (!patterns?.length), so an empty list loads everything of that type, as an omitted one does."""

from reference.pi.core import filters
from tests.blind.common import everywhere, swapped

_original = filters.apply_filter


def _apply(declared, patterns, package_root):
    return _original(declared, patterns or None, package_root)


def handle(msg, call):
    with swapped(everywhere(_original, _apply)):
        return call()
