"""envelope.developer-messages -- ENV-FILTER-PROVIDERS.
Bug: the provider filter compares provider ids ignoring case, so a contribution for "OpenAI" is kept for the provider "openai"."""

from reference.envelope import contributions
from tests.blind.common import everywhere, swapped


def _passes(contribution, provider):
    if contribution.providers is None:
        return True
    return provider is not None and provider.lower() in [p.lower() for p in contribution.providers]


def handle(msg, call):
    with swapped(everywhere(contributions.passes_provider_filter, _passes)):
        return call()
