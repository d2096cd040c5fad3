"""pi.replay-system -- PI-REPLAY-TOOLS.
Bug: a message's toolsRemoved and toolsAdded are applied as one patch, so a tool that one message removes and adds again keeps its place instead of going last."""

from reference.pi.core import replay
from tests.blind.common import everywhere, swapped


def _tools(state, message):
    added = {t["name"] for t in message.get("toolsAdded") or []}
    for ref in message.get("toolsRemoved") or []:
        if ref["name"] not in added:
            state.tools.pop(ref["name"], None)
    for tool in message.get("toolsAdded") or []:
        state.tools[tool["name"]] = tool


def handle(msg, call):
    with swapped(everywhere(replay.apply_tools, _tools)):
        return call()
