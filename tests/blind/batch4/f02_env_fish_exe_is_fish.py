"""envelope.environment -- ENV-ENV-FISH, ENV-ENV-BASENAME.
Bug: the fish test drops the file extension first (a Windows habit), so a shell named fish.exe is replaced like fish when exec_command is active."""

from reference.envelope import environment
from tests.blind.common import everywhere, swapped

_original = environment.reported_shell


def _reported(name, platform, shells, active_tools):
    tools = list(active_tools)
    stem = name.rsplit(".", 1)[0] if "." in name[1:] else name
    if stem.lower() == "fish" and "exec_command" in tools:
        return _original("fish", platform, shells, tools)
    return _original(name, platform, shells, tools)


def handle(msg, call):
    with swapped(everywhere(_original, _reported)):
        return call()
