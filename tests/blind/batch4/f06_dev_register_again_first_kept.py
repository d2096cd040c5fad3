"""envelope.developer-messages -- ENV-CONTRIB-REPLACE.
Bug: registering an id that is already registered keeps the first contribution (the registry is filled with setdefault), so the later one never replaces it."""

from reference.envelope import contributions
from tests.blind.common import everywhere, swapped

_original = contributions.register_contribution


def _register(registry, contribution):
    if contribution.id in registry:
        contributions.validate_contribution(contribution)
        return lambda: None
    return _original(registry, contribution)


def handle(msg, call):
    with swapped(everywhere(_original, _register)):
        return call()
