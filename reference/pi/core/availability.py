"""Which chat models are offered for selection (Pi's docs "Choose a Model"; PI-DECISION-MODELS)."""

from __future__ import annotations

from typing import Any

from reference.pi.core.credentials import Credentials, configured_source, env_auth_of
from reference.pi.core.merge import Registry


def available_models(registry: Registry, creds: Credentials) -> list[dict[str, Any]]:
    """The chat models offered for selection: every model of every provider that has a configured
    credential source, providers by id, models in provider order.

    Implements PI-MODELS-AVAILABILITY: a model is offered only when its provider has usable
    authentication; a keyless endpoint needs its dummy ``apiKey``. No command is run.
    """
    out = []
    for provider_id in sorted(registry.providers):
        provider = registry.providers[provider_id]
        if configured_source(provider_id, provider.config, env_auth_of(provider.builtin), creds) is None:
            continue
        out.extend({"provider": provider_id, "id": m["id"]} for m in provider.models)
    return out
