"""pi.package-source -- PI-PKG-SOURCE-REF-FIRST-AT.
Bug: the ref of a git source is split off at the last "@" of the repository path, so
"https://github.com/o/r@release@2" is read as repository "o/r@release" at ref "2".
"""

from __future__ import annotations

from reference.pi.core import sources

from tests.blind.common import swapped


def _split_ref(path_with_ref):
    at = path_with_ref.rfind("@")
    if at < 0:
        return path_with_ref, None
    path, ref = path_with_ref[:at], path_with_ref[at + 1:]
    if not path or not ref:
        return path_with_ref, None
    return path, ref


def handle(msg, call):
    with swapped([(sources, "_split_ref", _split_ref)]):
        return call()


# shown on: {"op": "pi.package-source", "input": {"source": "https://github.com/o/r@release@2"}}
