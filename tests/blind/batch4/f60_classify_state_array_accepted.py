"""pi.classifier-request -- PI-CLASSIFIER-REQUEST.
Bug: state is checked with "typeof state === 'object' && state !== null", so an array is accepted as the state object."""

from reference.pi.core import classifiers
from tests.blind.common import everywhere, swapped

_original = classifiers.validate_classify_request


def _validate(context):
    if isinstance(context, dict) and isinstance(context.get("state"), list):
        context = dict(context, state={})
    return _original(context)


def handle(msg, call):
    with swapped(everywhere(_original, _validate)):
        return call()
