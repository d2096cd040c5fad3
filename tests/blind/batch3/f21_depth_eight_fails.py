"""profiles.resolve -- PROF-INHERIT-DEPTH.
Bug: the depth check counts the parents against the limit (layers >= 8 before adding one), so a chain of exactly 8 layers fails with profile-depth."""

from reference.profiles.core import inherit
from tests.blind.common import swapped


def handle(msg, call):
    with swapped([(inherit, "MAX_LAYERS", 7)]):
        return call()
