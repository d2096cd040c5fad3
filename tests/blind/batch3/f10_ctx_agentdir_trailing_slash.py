"""envelope.context-message -- ENV-CTX-AGENTDIR, ENV-CTX-DIVIDER.
Bug: the file's directory is compared with the agent directory as given, without removing the agent directory's trailing slash (or making its backslashes slashes), so "/home/u/.pi/agent/" never matches and the divider is left out."""

from reference.envelope import context_files
from tests.blind.common import everywhere, swapped


def _is_global(file, agent_dir):
    if not agent_dir:
        return False
    return context_files._directory(file.path) == agent_dir


def handle(msg, call):
    with swapped(everywhere(context_files.is_global_file, _is_global)):
        return call()
