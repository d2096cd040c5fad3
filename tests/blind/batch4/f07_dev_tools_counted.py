"""envelope.developer-messages -- ENV-FILTER-TOOLS.
Bug: the tool filter counts the active tools among those listed (len(set(listed) & active) == len(listed)), so a contribution that lists an active tool twice is dropped."""

from reference.envelope import contributions
from tests.blind.common import everywhere, swapped


def _passes(contribution, active_tools):
    if not contribution.activeTools:
        return True
    return len(set(contribution.activeTools) & set(active_tools)) == len(contribution.activeTools)


def handle(msg, call):
    with swapped(everywhere(contributions.passes_tool_filter, _passes)):
        return call()
