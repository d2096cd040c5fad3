"""profiles.resolve -- PROF-INHERIT-SIZE.
Bug: the chain's size check is total >= 262144, so a chain of exactly 262,144 UTF-8 bytes of bodies fails with profile-total-size instead of building."""

from reference.profiles.core import inherit
from tests.blind.common import swapped


def handle(msg, call):
    with swapped([(inherit, "MAX_CHAIN_BYTES", inherit.MAX_CHAIN_BYTES - 1)]):
        return call()
