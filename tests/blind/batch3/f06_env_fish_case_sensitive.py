"""envelope.environment -- ENV-ENV-FISH.
Bug: the fish check compares the basename with === "fish", so "Fish" or "FISH" with exec_command is reported as is instead of being replaced."""

from reference.envelope import environment
from tests.blind.common import everywhere, swapped

_original = environment.reported_shell


def _reported(name, platform, shells, active_tools):
    if name != "fish":
        return name
    return _original(name, platform, shells, active_tools)


def handle(msg, call):
    with swapped(everywhere(_original, _reported)):
        return call()
