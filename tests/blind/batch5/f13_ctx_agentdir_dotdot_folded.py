"""envelope.context-message -- ENV-CTX-AGENTDIR.
Bug: both directories are normalised as POSIX paths (posixpath.normpath) before they are compared, so "/a/x/../agent/AGENTS.md" or "/a//agent/AGENTS.md" counts as lying in the agent directory "/a/agent"."""

import posixpath

from reference.envelope import context_files
from tests.blind.common import everywhere, swapped


def _global(file, agent_dir):
    if not agent_dir:
        return False
    target = posixpath.normpath(context_files.slash_path(agent_dir))
    return posixpath.normpath(posixpath.dirname(context_files.slash_path(file.path))) == target


def handle(msg, call):
    with swapped(everywhere(context_files.is_global_file, _global)):
        return call()
