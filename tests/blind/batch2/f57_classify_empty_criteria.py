"""pi.classifier-request -- PI-CLASSIFIER-REQUEST.
Bug: criteria values are checked with Object.values(criteria).every(isString) (and score levels with levels.every(isString)), which an empty object or list passes, so a choice or score question with no criteria is accepted."""

from reference.pi.core import classifiers
from tests.blind.common import swapped


def handle(msg, call):
    with swapped([(classifiers, "_strings", lambda values: all(isinstance(v, str) for v in values))]):
        return call()
