"""envelope.developer-messages -- ENV-FILTER-PROVIDERS.
Bug: the provider filter is skipped when providers is empty (if (!c.providers?.length) return true), so an empty list keeps the contribution for every provider instead of for none."""

from reference.envelope import contributions
from tests.blind.common import everywhere, swapped


def _passes(contribution, provider):
    if not contribution.providers:
        return True
    return provider is not None and provider in contribution.providers


def handle(msg, call):
    with swapped(everywhere(contributions.passes_provider_filter, _passes)):
        return call()
