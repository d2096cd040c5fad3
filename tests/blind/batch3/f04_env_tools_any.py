"""envelope.developer-messages -- ENV-FILTER-TOOLS.
Bug: the active-tools filter uses some() instead of every(): a contribution is kept when any one of its listed tools is active."""

from reference.envelope import contributions
from tests.blind.common import everywhere, swapped


def _passes(contribution, active_tools):
    if not contribution.activeTools:
        return True
    active = set(active_tools)
    return any(tool in active for tool in contribution.activeTools)


def handle(msg, call):
    with swapped(everywhere(contributions.passes_tool_filter, _passes)):
        return call()
