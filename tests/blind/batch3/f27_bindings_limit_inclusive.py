"""profiles.config -- PROF-CONFIG-BINDINGS-LIMIT.
Bug: the binding limit is checked with length >= 200, so a config with exactly 200 bindings has all of them ignored."""

from reference.profiles.core import config
from tests.blind.common import swapped


def handle(msg, call):
    with swapped([(config, "MAX_BINDINGS", 199)]):
        return call()
