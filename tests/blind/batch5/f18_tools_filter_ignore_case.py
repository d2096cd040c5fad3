"""envelope.developer-messages -- ENV-FILTER-TOOLS.
Bug: listed tools are compared with the active tools ignoring case, so a contribution for "Exec_Command" is kept when exec_command is active."""

from reference.envelope import contributions
from tests.blind.common import everywhere, swapped


def _passes(contribution, active_tools):
    if not contribution.activeTools:
        return True
    active = {t.lower() for t in active_tools}
    return all(tool.lower() in active for tool in contribution.activeTools)


def handle(msg, call):
    with swapped(everywhere(contributions.passes_tool_filter, _passes)):
        return call()
