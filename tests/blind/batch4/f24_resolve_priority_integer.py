"""profiles.resolve -- PROF-RESOLVE-ORDER, PROF-CONFIG-PRIORITY.
Bug: a binding's priority is read as an integer (int(), as parseInt would), so 0.5 ties with 0 and -0.5 with 0: fractional priorities no longer rank bindings, and such ties become conflicts or file-order wins."""

import dataclasses

from reference.profiles.core import config
from tests.blind.common import everywhere, swapped

_original = config.parse_binding


def _binding(item, index, scope, d):
    found = _original(item, index, scope, d)
    return dataclasses.replace(found, priority=int(found.priority)) if found is not None else None


def handle(msg, call):
    with swapped(everywhere(_original, _binding)):
        return call()
