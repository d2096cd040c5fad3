"""envelope.developer-messages -- ENV-FILTER-TOOLS.
Bug: the tool filter counts the active tools that are listed and compares that count with the
length of the contribution's list, so a tool listed twice (or active twice) makes the counts differ
and the contribution is dropped.
"""

from __future__ import annotations

from reference.envelope import contributions

from tests.blind.common import everywhere, swapped


def _passes_tool_filter(contribution, active_tools) -> bool:
    required = contribution.activeTools
    if not required:
        return True
    listed = [tool for tool in active_tools if tool in required]
    return len(listed) == len(required)


def handle(msg, call):
    with swapped(everywhere(contributions.passes_tool_filter, _passes_tool_filter)):
        return call()
