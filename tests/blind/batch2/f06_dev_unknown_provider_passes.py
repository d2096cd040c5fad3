"""envelope.developer-messages -- ENV-FILTER-PROVIDERS.
Bug: the providers filter is applied only when a provider is known (if (provider && providers && !providers.includes(provider))), so with an unknown provider every contribution with providers is kept."""

from reference.envelope import contributions
from tests.blind.common import swapped

ORIGINAL = contributions.passes_provider_filter


def passes(contribution, provider):
    return True if provider is None else ORIGINAL(contribution, provider)


def handle(msg, call):
    with swapped([(contributions, "passes_provider_filter", passes)]):
        return call()
