r"""envelope.context-message -- ENV-CTX-AGENTDIR, ENV-CTX-DIVIDER.
Bug: the file's directory and the agent directory are compared ignoring letter case (as on a
case-insensitive file system), so "/Home/u/.pi/agent/AGENTS.md" counts as living in
"/home/u/.pi/agent" and gets the project-doc divider.
"""

from __future__ import annotations

from reference.envelope import context_files
from reference.envelope.environment import slash_path

from tests.blind.common import everywhere, swapped


def _is_global_file(file, agent_dir):
    if not agent_dir:
        return False
    target = slash_path(agent_dir)
    target = target.rstrip("/") or target
    return context_files._directory(file.path).lower() == target.lower()


def handle(msg, call):
    with swapped(everywhere(context_files.is_global_file, _is_global_file)):
        return call()


# shown on: {"op": "envelope.context-message", "input": {"cwd": "/work/p", "agentDir": "/home/u/.pi/agent", "contextFiles": [{"path": "/Home/u/.pi/agent/AGENTS.md", "content": "global rules"}, {"path": "/work/p/AGENTS.md", "content": "project rules"}]}}
