"""pi.models-available -- PI-MODELS-AVAILABILITY.
Bug: within a provider the offered models are sorted by id, where they keep the provider's own
order (only providers are ordered by id).
"""

from __future__ import annotations

from reference.pi.core import availability
from reference.pi.core.credentials import configured_source, env_auth_of

from tests.blind.common import everywhere, swapped


def _available_models(registry, creds):
    out = []
    for provider_id in sorted(registry.providers):
        provider = registry.providers[provider_id]
        if configured_source(provider_id, provider.config, env_auth_of(provider.builtin), creds) is None:
            continue
        out.extend({"provider": provider_id, "id": m["id"]} for m in sorted(provider.models, key=lambda m: m["id"]))
    return out


def handle(msg, call):
    with swapped(everywhere(availability.available_models, _available_models)):
        return call()

# shown on: {"input": {"builtins": {"zeta": {"api": "openai-completions", "baseUrl": "https://z", "env": ["Z_KEY"], "models": [{"id": "z1"}]}}, "modelsJson": {"providers": {"alpha": {"baseUrl": "https://a", "api": "openai-completions", "apiKey": "k", "models": [{"id": "a2"}, {"id": "a1"}]}}}, "env": {"Z_KEY": "z"}}}
