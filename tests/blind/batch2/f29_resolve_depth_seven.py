"""profiles.resolve -- PROF-INHERIT-DEPTH, PROF-DECISION-INHERITANCE.
Bug: the depth check counts the parents rather than the layers (parents > 7 read as layers >= 8), so a chain of exactly 8 layers fails with profile-depth."""

from reference.profiles.core import inherit
from tests.blind.common import swapped


def handle(msg, call):
    with swapped([(inherit, "MAX_LAYERS", inherit.MAX_LAYERS - 1)]):
        return call()
