"""pi.models-sampling -- PI-160-MODELS-SAMPLING-MERGE.
Bug: the three sampling layers are deep-merged, so an object-valued parameter given by a later
layer is merged key by key into the earlier one instead of replacing it whole.
"""

from __future__ import annotations

import copy

from reference.pi.core import sampling

from tests.blind.common import everywhere, swapped


def _deep(into, layer):
    for key, value in layer.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            _deep(into[key], value)
        else:
            into[key] = copy.deepcopy(value)


def _merge_sampling_params(model, level, request):
    layers = [model.get("samplingParams"), (model.get("samplingParamsByThinkingLevel") or {}).get(level), request]
    if all(layer is None for layer in layers):
        return None
    out = {}
    for layer in layers:
        _deep(out, dict(layer or {}))
    return out


def handle(msg, call):
    with swapped(everywhere(sampling.merge_sampling_params, _merge_sampling_params)):
        return call()

# shown on: {"edition": "pi-1.6.0", "input": {"builtins": {"p": {"api": "openai-completions", "baseUrl": "https://x", "models": [{"id": "m", "samplingParams": {"extra": {"a": 1, "b": 2}}}]}}, "provider": "p", "model": "m", "samplingParams": {"extra": {"a": 3}}}}
