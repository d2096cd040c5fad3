"""envelope.context-message -- ENV-CTX-FORMAT, ENV-CWD-SLASHES.
Bug: the heading of the context-files message names the cwd as Pi gives it; backslashes are made slashes only in the environment message."""

from reference.envelope import context_files as cf
from tests.blind.common import swapped


def context_content(cwd, body):
    return f"# AGENTS.md instructions for {cwd}\n\n<INSTRUCTIONS>\n{body}\n</INSTRUCTIONS>"


def handle(msg, call):
    with swapped([(cf, "context_content", context_content)]):
        return call()
