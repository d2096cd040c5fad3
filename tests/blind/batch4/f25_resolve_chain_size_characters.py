"""profiles.resolve -- PROF-INHERIT-SIZE.
Bug: the chain's total size is counted in characters (len of the text), not UTF-8 bytes, so a chain of non-ASCII bodies over 262,144 bytes builds."""

import dataclasses

from reference.profiles.core import inherit
from tests.blind.common import everywhere, swapped

_original = inherit.find_profile


def _find(state, ref):
    found = _original(state, ref)
    return dataclasses.replace(found, size=len(found.body)) if found is not None else None


def handle(msg, call):
    with swapped(everywhere(_original, _find)):
        return call()
