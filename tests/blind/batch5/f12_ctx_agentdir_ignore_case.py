"""envelope.context-message -- ENV-CTX-AGENTDIR.
Bug: the file's directory and the agent directory are compared ignoring case (as on a case-insensitive file system), so "/Home/u/.pi/agent/AGENTS.md" is global for the agent directory "/home/u/.pi/agent"."""

from reference.envelope import context_files
from tests.blind.common import everywhere, swapped


def _global(file, agent_dir):
    if not agent_dir:
        return False
    target = context_files.slash_path(agent_dir)
    target = target.rstrip("/") or target
    return context_files._directory(file.path).lower() == target.lower()


def handle(msg, call):
    with swapped(everywhere(context_files.is_global_file, _global)):
        return call()
