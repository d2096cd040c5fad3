"""pi.models-load -- PI-MODELS-INPUT-AS-WRITTEN, PI-MODELS-DEFAULTS.
Bug: a model's input defaults with input?.length ? input : ["text"], so an empty list written in models.json becomes ["text"]."""

from reference.pi.core import merge
from tests.blind.common import everywhere, swapped

_original = merge.model_from_definition


def _model(provider_id, definition, api, base_url, compat):
    if definition.get("input") == []:
        definition = {k: v for k, v in definition.items() if k != "input"}
    return _original(provider_id, definition, api, base_url, compat)


def handle(msg, call):
    with swapped(everywhere(_original, _model)):
        return call()
