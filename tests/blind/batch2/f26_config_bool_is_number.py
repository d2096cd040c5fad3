"""profiles.config -- PROF-CONFIG-PRIORITY, PROF-CONFIG-VERSION.
Bug: numbers are recognised with isinstance(value, (int, float)), which a Python bool passes, so "priority": true is the priority 1 and "version": true is taken for version 1."""

from reference.profiles.core import config
from tests.blind.common import swapped


def handle(msg, call):
    with swapped([(config, "is_number", lambda value: isinstance(value, (int, float)))]):
        return call()
