"""pi.models-load -- PI-MODELS-INPUT-AS-WRITTEN, PI-MODELS-DEFAULTS.
Bug: the input types default with definition.get("input") or ["text"], so a model written with "input": [] gets ["text"]."""

from reference.pi.core import merge
from tests.blind.common import everywhere, swapped

ORIGINAL = merge.model_from_definition


def model_from_definition(provider_id, definition, api, base_url, compat):
    if definition.get("input") == []:
        definition = {k: v for k, v in definition.items() if k != "input"}
    return ORIGINAL(provider_id, definition, api, base_url, compat)


def handle(msg, call):
    with swapped(everywhere(ORIGINAL, model_from_definition)):
        return call()
