r"""envelope.build -- ENV-CTX-AGENTDIR, ENV-CTX-DIVIDER.
Bug: both directories are normalised before they are compared (posix normpath: "." and ".."
segments resolved, repeated slashes collapsed), so "/a/x/../agent/AGENTS.md" is taken to live
in "/a/agent".
"""

from __future__ import annotations

import posixpath

from reference.envelope import context_files
from reference.envelope.environment import slash_path

from tests.blind.common import everywhere, swapped


def _is_global_file(file, agent_dir):
    if not agent_dir:
        return False
    target = posixpath.normpath(slash_path(agent_dir))
    return posixpath.normpath(posixpath.dirname(slash_path(file.path))) == target


def handle(msg, call):
    with swapped(everywhere(context_files.is_global_file, _is_global_file)):
        return call()


# shown on: {"op": "envelope.build", "input": {"request": {"sessionId": "s", "cwd": "/work/p", "agentDir": "/a/agent", "host": {"platform": "linux", "date": "2026-12-04", "shell": "/bin/bash", "timezone": "Europe/Paris"}, "systemPrompt": "pi", "systemPromptOptions": {"contextFiles": [{"path": "/a/x/../agent/AGENTS.md", "content": "global rules"}, {"path": "/work/p/AGENTS.md", "content": "project rules"}]}}}}
