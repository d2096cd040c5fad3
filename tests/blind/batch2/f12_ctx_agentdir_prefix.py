"""envelope.context-message -- ENV-CTX-AGENTDIR.
Bug: a file counts as lying in the agent directory when its path starts with the agent directory, so a file in a subfolder of it (or in a sibling folder whose name extends it) is taken for the global file."""

from reference.envelope import context_files as cf
from tests.blind.common import swapped


def is_global_file(file, agent_dir):
    if not agent_dir:
        return False
    target = agent_dir.replace("\\", "/")
    return file.path.replace("\\", "/").startswith(target)


def handle(msg, call):
    with swapped([(cf, "is_global_file", is_global_file)]):
        return call()
