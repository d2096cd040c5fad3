"""profiles.picker -- PROF-PICKER-PROVIDERS, PROF-PICKER-BIND.
Bug: providers are made distinct ignoring case (keyed by their lower-case mapping, the first spelling kept), so "Mistral" and "mistral" are listed once."""

from reference.profiles.core import picker
from tests.blind.common import everywhere, swapped


def _names(models):
    seen = {}
    for m in models:
        seen.setdefault(m.provider.lower(), m.provider)
    return sorted(seen.values(), key=picker._key)


def handle(msg, call):
    with swapped(everywhere(picker.provider_names, _names)):
        return call()
