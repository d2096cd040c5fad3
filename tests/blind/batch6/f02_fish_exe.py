"""envelope.environment -- ENV-ENV-FISH.
Bug: the fish check drops a ".exe" extension before comparing, so a shell named "fish.exe" is
taken for fish and replaced when exec_command is active, where it should be reported as it is.
"""

from __future__ import annotations

from reference.envelope import environment

from tests.blind.common import everywhere, swapped

_original = environment.reported_shell


def _reported_shell(name, platform, shells, active_tools):
    bare = name[:-4] if name.lower().endswith(".exe") else name
    return _original(bare if bare.lower() == "fish" else name, platform, shells, active_tools)


def handle(msg, call):
    with swapped(everywhere(_original, _reported_shell)):
        return call()
