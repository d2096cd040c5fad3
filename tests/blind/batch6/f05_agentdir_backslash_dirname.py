r"""envelope.context-message -- ENV-CTX-AGENTDIR.
Bug: a context file's directory is taken with POSIX dirname before its backslashes are made slashes,
so a Windows path such as C:\agent\AGENTS.md has no directory and is never in the agent directory.
"""

from __future__ import annotations

import posixpath

from reference.envelope import context_files
from reference.envelope.environment import slash_path

from tests.blind.common import everywhere, swapped


def _directory(path: str) -> str:
    d = slash_path(posixpath.dirname(path))
    return d.rstrip("/") or d


def handle(msg, call):
    with swapped(everywhere(context_files._directory, _directory)):
        return call()
