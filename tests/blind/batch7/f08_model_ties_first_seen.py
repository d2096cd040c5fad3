"""profiles.picker -- PROF-PICKER-MODELS, PROF-PICKER-PROVIDERS.
Bug: model ids are de-duplicated in the order first seen and then stably sorted by their
lower-case mapping alone, so ids that map alike ("mistral", "Mistral") keep the order of the model
list instead of code point order ("Mistral" first).
"""

from __future__ import annotations

from reference.profiles.core import picker

from tests.blind.common import everywhere, swapped


def _provider_models(models, provider):
    seen = []
    for m in models:
        if m.provider == provider and m.id not in seen:
            seen.append(m.id)
    return sorted(seen, key=str.lower)


def handle(msg, call):
    with swapped(everywhere(picker.provider_models, _provider_models)):
        return call()


# shown on: {"op": "profiles.picker", "input": {"action": "models", "provider": "p", "models": [{"provider": "p", "id": "mistral"}, {"provider": "p", "id": "Mistral"}]}}
