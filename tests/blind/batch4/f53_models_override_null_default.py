"""pi.models-load -- PI-MODELS-NULL-FIELD, PI-MODELS-OVERRIDE-MERGE.
Bug: a modelOverrides field written as null is taken as "back to the default", so "contextWindow": null gives 128000 and "reasoning": null false, instead of leaving the model's value as it is."""

from reference.pi.core import merge
from tests.blind.common import everywhere, swapped

_original = merge.apply_model_override
_DEFAULTS = {"reasoning": False, "input": list(merge.DEFAULT_INPUT),
             "contextWindow": merge.DEFAULT_CONTEXT_WINDOW, "maxTokens": merge.DEFAULT_MAX_TOKENS}


def _apply(model, override, edition=None):
    out = _original(model, override, edition)
    for key in merge._OVERRIDE_REPLACED:
        if key in override and override[key] is None:
            out[key] = out["id"] if key == "name" else _DEFAULTS[key]
    return out


def handle(msg, call):
    with swapped(everywhere(_original, _apply)):
        return call()
