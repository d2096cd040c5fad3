"""pi.models-load -- PI-MODELS-OVERRIDE-MERGE.
Bug: a modelOverrides object field is merged one level deep ({...model.field, ...override.field}), so a nested object (inputLimits.images.resize, compat's nested settings) replaces the model's instead of merging with it."""

import copy

from reference.pi.core import merge
from tests.blind.common import everywhere, swapped

ORIGINAL = merge.apply_model_override


def apply_model_override(model, override, edition=None):
    out = ORIGINAL(model, override, edition)
    for key in merge._OVERRIDE_MERGED:
        if override.get(key) is None or (key == "samplingParamsByThinkingLevel" and edition == "pi-1.6.0"):
            continue
        base = model.get(key) or {}
        if isinstance(base, dict) and isinstance(override[key], dict):
            out[key] = {**copy.deepcopy(base), **copy.deepcopy(override[key])}
    return out


def handle(msg, call):
    with swapped(everywhere(ORIGINAL, apply_model_override)):
        return call()
