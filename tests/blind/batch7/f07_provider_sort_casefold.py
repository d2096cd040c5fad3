"""profiles.picker -- PROF-PICKER-PROVIDERS.
Bug: provider names are sorted by their case fold (Python's casefold) instead of their lower-case
mapping, so "ß" sorts as "ss" and "Straße" comes before "Strasse2".
"""

from __future__ import annotations

from reference.profiles.core import picker

from tests.blind.common import everywhere, swapped


def _provider_names(models):
    return sorted({m.provider for m in models}, key=lambda t: (t.casefold(), t))


def handle(msg, call):
    with swapped(everywhere(picker.provider_names, _provider_names)):
        return call()


# shown on: {"op": "profiles.picker", "input": {"action": "providers", "models": [{"provider": "Strasse2", "id": "m"}, {"provider": "Straße", "id": "m"}]}}
