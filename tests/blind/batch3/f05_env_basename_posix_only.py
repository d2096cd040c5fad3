r"""envelope.environment -- ENV-ENV-BASENAME, ENV-ENV-SHELL.
Bug: the shell's basename is taken with path.posix.basename off Windows, so only "/" separates components unless the platform is win32 (a "C:\...\cmd.exe" ComSpec on linux is reported whole)."""

from reference.envelope import environment
from tests.blind.common import everywhere, swapped

_original = environment.shell_basename


def handle(msg, call):
    host = (msg.get("input") or {}).get("host") or {}
    if host.get("platform") == "win32":
        return call()

    def posix(path):
        parts = [p for p in path.split("/") if p]
        return parts[-1] if parts else ""

    with swapped(everywhere(_original, posix)):
        return call()
